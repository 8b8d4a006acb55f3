import CSECore

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

    /// The table texts in the order of ``all``.
    static let specTexts: [String] = [
        apsSDKTokenJSON, apsSDKOperationJSON, paysafeSetupJSON, paysafeTokenizeJSON,
        mastercardUpdateSessionJSON,
    ]

    private static let parsed: Result<[GatewaySpec], CSEError> = {
        do throws(CSEError) {
            return .success(try specTexts.map { (text) throws(CSEError) in try GatewaySpec(table: try JSONValue.parse(text)) })
        } catch {
            return .failure(error)
        }
    }()
}
