public import CSECore

/// The one entry point for gateway request validation: dispatches an operation to its gateway's
/// rules (docs/GATEWAYS.md) and applies the gateway's special cases.
public enum GatewayValidator {
    /// Validates one request against an operation's spec table and cross-field rules.
    ///
    /// APS `AUTHORIZATION` and `PURCHASE` requests must name the same operation in `command`;
    /// Paysafe `setup` checks `{"apiKey","environment"}` and `tokenize` the tokenize options; an
    /// invalid Paysafe result carries a fresh ``GatewayValidationResult/correlationID`` for
    /// Paysafe's error objects (``PaysafeError``).
    /// - Parameters:
    ///   - json: The request: UTF-8 JSON text of an object (RFC 8259, strict, at most 1 MiB).
    ///   - operation: The operation.
    ///   - partnerSharedKey: Paysafe `tokenize` only: the caller is a partner using a shared API
    ///     key, which makes `accountId` mandatory.
    /// - Returns: Every issue found.
    /// - Throws: ``CSEError/Code/gatewayOptionNotApplicable`` when `partnerSharedKey` is set for
    ///   another operation, a `json.*` error for text that is not JSON,
    ///   ``CSEError/Code/gatewayInputNotObject`` and other input errors.
    public static func validate(
        _ json: some Collection<UInt8>, operation: GatewayOperation, partnerSharedKey: Bool = false
    ) throws(CSEError) -> GatewayValidationResult {
        try validate(try JSONValue.parse(json), operation: operation, partnerSharedKey: partnerSharedKey)
    }

    /// ``validate(_:operation:partnerSharedKey:)`` of a parsed request (the CLI and the tests).
    package static func validate(
        _ json: JSONValue, operation: GatewayOperation, partnerSharedKey: Bool = false
    ) throws(CSEError) -> GatewayValidationResult {
        if partnerSharedKey && !operation.acceptsPartnerSharedKey {
            throw CSEError(
                .gatewayOptionNotApplicable, "the partner shared key applies only to Paysafe tokenize",
                context: ["operation": operation.description])
        }
        switch operation.gateway {
        case .aps:
            return try APSValidation.validate(json, operation: operation)
        case .mastercard:
            return try MastercardValidation.validateUpdateSession(json)
        case .paysafe:
            let result =
                operation == .paysafeSetup
                ? try PaysafeValidation.validateSetup(json)
                : try PaysafeValidation.validateTokenize(json, partnerSharedKey: partnerSharedKey)
            guard !result.isValid else { return result }
            return GatewayValidationResult(errors: result.errors, correlationID: try PaysafeError.newCorrelationID())
        }
    }
}
