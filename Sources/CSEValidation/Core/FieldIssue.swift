import CSECore

/// One reason a field is invalid: the field, a stable code and its parameters. The one
/// validation-result model of CSEKit: payment-product validation
/// (`PaymentRequest.validate(in:)`) and gateway request rules (`GatewayValidator`) both report
/// their findings as field issues.
///
/// - Important: No issue ever carries the validated value. Parameters hold only rule facts
///   (`maxLength`, `allowedValues`, `rule`, …), so an issue can be logged even when the value is
///   a card number, a CVV or an API key. The field *name* goes through the safe-echo rule when
///   the issue is made: a name that is really a card number (`{"4111111111111111":"x"}`) or
///   carries control characters is reported as `<redacted N chars>`; every product field id and
///   gateway table name is kept as written.
public struct FieldIssue: Hashable, Sendable, CustomStringConvertible {
    /// Who reported an issue, which also fixes how its parameters are presented.
    public enum Origin: Hashable, Sendable {
        /// A payment product's field validators; the parameters are the broken limits.
        case product
        /// A gateway's request rules; the parameters are the broken table limits, and `code` is
        /// the gateway's own numeric code when its document defines one (Paysafe's `9054`, …).
        case gateway(code: Int?)
    }

    /// The field id (a dotted path for nested gateway JSON), echoed safely (see the type's note).
    public let field: String
    /// The stable code, for example `luhn`, `required` or `unknownParameter`.
    public let code: ValidationCode
    /// The parameters, for example `["minLength": .int(2)]` or `["rule": .string("mada-meeza-purchase-only")]`.
    public let parameters: [String: ValidationParameter]
    /// Who reported the issue.
    public let origin: Origin

    /// Creates an issue; `field` is kept only when it is safe to echo (see the type's note).
    /// - Parameters:
    ///   - field: The field id or gateway parameter path.
    ///   - code: The stable code.
    ///   - parameters: The broken limits.
    ///   - origin: Who reported the issue (default: a payment product).
    package init(field: String, code: ValidationCode, parameters: [String: ValidationParameter] = [:], origin: Origin = .product) {
        self.field = SecretMasking.echoIdentifier(field)
        self.code = code
        self.parameters = parameters
        self.origin = origin
    }

    /// Creates an issue from a validator failure on a field.
    /// - Parameters:
    ///   - field: The field id.
    ///   - failure: The validator's failure.
    package init(field: String, failure: ValidationFailure) {
        self.init(field: field, code: failure.code, parameters: failure.parameters)
    }

    /// The gateway's own numeric code, when a gateway reported the issue and its document
    /// defines one.
    public var gatewayCode: Int? {
        if case .gateway(let code) = origin { return code }
        return nil
    }

    /// `field: code(key=value, …)` for a product issue; `field: code [gatewayCode] (key=value, …)`
    /// for a gateway issue; parameters in key order.
    public var description: String {
        guard case .gateway(let gatewayCode) = origin else { return "\(field): \(ValidationFailure(code, parameters).description)" }
        var text = "\(field): \(code.rawValue)"
        if let gatewayCode { text += " [\(gatewayCode)]" }
        if !parameters.isEmpty {
            text += " (" + parameters.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: ", ") + ")"
        }
        return text
    }
}
