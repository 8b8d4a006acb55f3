package import CSECore

/// The embedded spec tables of `Vectors/gateways/`, parsed once per process.
///
/// | gateway | operations | table |
/// |---|---|---|
/// | `aps` | `SDK_TOKEN` | `aps-sdk-token.json` |
/// | `aps` | `AUTHORIZATION`, `PURCHASE` | `aps-sdk-operation.json` |
/// | `paysafe` | `setup` | `paysafe-setup.json` |
/// | `paysafe` | `tokenize` | `paysafe-tokenize.json` |
/// | `mastercard` | `updateSession` | `mastercard-update-session.json` |
package enum GatewayTables {
    /// Every embedded spec, in the order of the table above.
    package static var all: [GatewaySpec] {
        get throws(CSEError) { try parsed.get() }
    }

    /// The spec for a gateway and an operation (case-sensitive, as the table above spells them).
    /// - Parameters:
    ///   - gateway: `aps`, `paysafe` or `mastercard`.
    ///   - operation: For example `PURCHASE`, `tokenize`, `updateSession`.
    /// - Returns: The spec.
    /// - Throws: ``CSEError/Code/gatewayUnknownOperation`` (the context lists what exists), or
    ///   ``CSEError/Code/gatewayTable`` if an embedded table were malformed.
    package static func spec(gateway: String, operation: String) throws(CSEError) -> GatewaySpec {
        try spec(for: try GatewayOperation(gateway: gateway, operation: operation))
    }

    /// The spec for an operation.
    /// - Parameter operation: The operation.
    /// - Returns: The spec.
    /// - Throws: ``CSEError/Code/gatewayTable`` if an embedded table were malformed.
    package static func spec(for operation: GatewayOperation) throws(CSEError) -> GatewaySpec {
        let specs = try all
        guard
            let spec = specs.first(where: {
                $0.gateway.isByteEqual(to: operation.gateway.rawValue) && $0.operations.containsByteEqual(operation.name)
            })
        else {
            throw CSEError(.gatewayTable, "no embedded table covers this operation", context: ["operation": operation.description])
        }
        return spec
    }

    /// One embedded table: its file under `Vectors/gateways/`, its bytes, and the operations it
    /// specifies (none for the data tables of response codes and recommendations).
    package struct Embedded: Sendable {
        /// The file name under `Vectors/gateways/`.
        package let file: String
        /// The file's bytes (without the final newline).
        package let text: String
        /// The operations the table specifies, as its `operations` member spells them.
        package let operations: [GatewayOperation]
    }

    /// Every embedded table, listed once: ``GatewayOperation/allCases``, ``all``, the CLI's help
    /// and the tests all come from this list. To add a gateway operation: add its JSON file under
    /// `Vectors/gateways/` and its literal in GatewayTables+JSON.swift, declare the operation in
    /// GatewayOperation.swift, and list it here.
    package static let embedded: [Embedded] = [
        Embedded(file: "aps-sdk-token.json", text: apsSDKTokenJSON, operations: [.apsSDKToken]),
        Embedded(file: "aps-sdk-operation.json", text: apsSDKOperationJSON, operations: [.apsAuthorization, .apsPurchase]),
        Embedded(file: "paysafe-setup.json", text: paysafeSetupJSON, operations: [.paysafeSetup]),
        Embedded(file: "paysafe-tokenize.json", text: paysafeTokenizeJSON, operations: [.paysafeTokenize]),
        Embedded(file: "mastercard-update-session.json", text: mastercardUpdateSessionJSON, operations: [.mastercardUpdateSession]),
        Embedded(file: "aps-response-codes.json", text: apsResponseCodesJSON, operations: []),
        Embedded(file: "mastercard-recommendations.json", text: mastercardRecommendationsJSON, operations: []),
    ]

    private static let parsed: Result<[GatewaySpec], CSEError> = {
        do throws(CSEError) {
            return .success(
                try embedded.filter { !$0.operations.isEmpty }.map { (table) throws(CSEError) in
                    try GatewaySpec(table: try JSONValue.parse(table.text))
                })
        } catch {
            return .failure(error)
        }
    }()
}
