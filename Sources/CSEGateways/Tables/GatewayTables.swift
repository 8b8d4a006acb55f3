public import CSECore

/// The embedded spec tables of `Vectors/gateways/`, parsed once per process.
///
/// | gateway | operations | table |
/// |---|---|---|
/// | `aps` | `SDK_TOKEN` | `aps-sdk-token.json` |
/// | `aps` | `AUTHORIZATION`, `PURCHASE` | `aps-sdk-operation.json` |
/// | `paysafe` | `setup` | `paysafe-setup.json` |
/// | `paysafe` | `tokenize` | `paysafe-tokenize.json` |
/// | `mastercard` | `updateSession` | `mastercard-update-session.json` |
public enum GatewayTables {
    /// Every embedded spec, in the order of the table above.
    public static var all: [GatewaySpec] {
        get throws(CSEError) { try parsed.get() }
    }

    /// The spec for a gateway and an operation (case-sensitive, as the table above spells them).
    /// - Parameters:
    ///   - gateway: `aps`, `paysafe` or `mastercard`.
    ///   - operation: For example `PURCHASE`, `tokenize`, `updateSession`.
    /// - Returns: The spec.
    /// - Throws: ``CSEError/Code/gatewayUnknownOperation`` (the context lists what exists), or
    ///   ``CSEError/Code/gatewayTable`` if an embedded table were malformed.
    public static func spec(gateway: String, operation: String) throws(CSEError) -> GatewaySpec {
        let specs = try all
        guard let spec = specs.first(where: { $0.gateway.isByteEqual(to: gateway) && $0.operations.containsByteEqual(operation) }) else {
            let known = specs.flatMap { spec in spec.operations.map { "\(spec.gateway):\($0)" } }
            throw CSEError(
                .gatewayUnknownOperation, "no spec table for this gateway and operation",
                context: [
                    "gateway": SecretMasking.echoIdentifier(gateway), "operation": SecretMasking.echoIdentifier(operation),
                    "known": known.joined(separator: ","),
                ])
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
