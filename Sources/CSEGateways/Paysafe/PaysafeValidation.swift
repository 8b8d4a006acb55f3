package import CSECore
package import CSECrypto
import CSEValidation

/// The Paysafe iOS SDK checks: the setup (API key and environment) and the tokenize options,
/// driven by `paysafe-setup.json` and `paysafe-tokenize.json`.
public enum PaysafeValidation {
    /// Checks an API key as the SDK's setup does: empty gives 9167, anything that is not base64
    /// of `username:password` gives 9013.
    /// - Parameters:
    ///   - apiKey: The key (never echoed in any error).
    ///   - correlationId: The session's correlation id.
    /// - Returns: `nil` when well-formed, else the error.
    package static func checkAPIKey(_ apiKey: String, correlationID: String) -> PaysafeError? {
        if apiKey.isEmpty { return PaysafeError(code: 9167, correlationID: correlationID) }
        return BasicCredentials.isWellFormed(apiKey) ? nil : PaysafeError(code: 9013, correlationID: correlationID)
    }

    /// ``checkAPIKey(_:correlationID:)-(String,_)`` for a key held in a wiping buffer (its UTF-8
    /// bytes); no copy of the key outlives the call.
    package static func checkAPIKey(_ apiKey: SecureBytes, correlationID: String) -> PaysafeError? {
        if apiKey.count == 0 { return PaysafeError(code: 9167, correlationID: correlationID) }
        let wellFormed = apiKey.withUnsafeBytes { BasicCredentials.isWellFormed(utf8: $0) }
        return wellFormed ? nil : PaysafeError(code: 9013, correlationID: correlationID)
    }

    /// Validates the setup object `{"apiKey", "environment"}`.
    /// - Throws: ``CSEError/Code/gatewayInputNotObject`` and other input errors.
    package static func validateSetup(_ json: JSONValue) throws(CSEError) -> GatewayValidationResult {
        try GatewayTables.spec(for: .paysafeSetup).validate(json: json)
    }

    /// Validates tokenize options, keys as the SDK names them (`amount`, `currencyCode`,
    /// `transactionType`, `merchantRefNum`, `accountId`, `billingDetails`, …).
    /// - Parameters:
    ///   - json: The options.
    ///   - partnerSharedKey: Whether the caller is a partner using a shared API key, which makes
    ///     `accountId` mandatory.
    /// - Throws: ``CSEError/Code/gatewayInputNotObject`` and other input errors.
    package static func validateTokenize(_ json: JSONValue, partnerSharedKey: Bool = false) throws(CSEError) -> GatewayValidationResult {
        let context = GatewayValidationContext(values: partnerSharedKey ? ["partnerSharedKey": "true"] : [:])
        return try GatewayTables.spec(for: .paysafeTokenize).validate(json: json, context: context)
    }

    /// The Paysafe-shaped errors of a result: one per distinct Paysafe code, in order. Errors
    /// for which the document defines no code are left out (they stay in the result).
    public static func paysafeErrors(of result: GatewayValidationResult, correlationID: String) -> [PaysafeError] {
        var seen = Set<Int>()
        return result.errors.compactMap { error in
            guard let code = error.gatewayCode, seen.insert(code).inserted else { return nil }
            return PaysafeError(code: code, correlationID: correlationID)
        }
    }
}
