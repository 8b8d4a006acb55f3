import CSECore

/// The stable code of a gateway validation failure.
///
/// The spellings are part of the public contract (the CLI prints them). Parameter checks use
/// `required`, `type`, `length`, `characters`, `allowedValues`, `format`, `range`, `luhn` and
/// `unknownParameter`; cross-field rules report the requirement they broke (`required`,
/// `notAllowed`, `allowedValues`, `length`) with a `rule` limit naming the rule.
public struct GatewayErrorCode: Hashable, Sendable, RawRepresentable, CustomStringConvertible {
    /// The stable string form.
    public let rawValue: String
    /// Creates a code from its stable string form.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// A mandatory parameter is missing or empty.
    public static let required = Self(rawValue: "required")
    /// The JSON type is wrong (for example an object where a string is expected).
    public static let type = Self(rawValue: "type")
    /// The value is shorter or longer than allowed.
    public static let length = Self(rawValue: "length")
    /// The value contains a character outside the parameter's character class.
    public static let characters = Self(rawValue: "characters")
    /// The value is not one of the allowed values.
    public static let allowedValues = Self(rawValue: "allowedValues")
    /// The value does not have the parameter's format.
    public static let format = Self(rawValue: "format")
    /// The number is outside the allowed range.
    public static let range = Self(rawValue: "range")
    /// The card number's Luhn check digit is wrong.
    public static let luhn = Self(rawValue: "luhn")
    /// The parameter must not be sent in this context (a cross-field rule).
    public static let notAllowed = Self(rawValue: "notAllowed")
    /// The parameter is not part of the operation and the table rejects unknown parameters.
    public static let unknownParameter = Self(rawValue: "unknownParameter")

    /// The stable string form.
    public var description: String { rawValue }
}

/// One reason a gateway request is invalid: the parameter, a stable code and the limit it broke.
///
/// - Important: No error ever carries the parameter's value. Limits hold only table facts
///   (`maxLength`, `allowedValues`, `rule`, …), so an error can be logged even when the value is
///   a card number, a CVV or an API key. The field *name* goes through
///   `SecretMasking.echoIdentifier` when the error is made: a member name that is really a card
///   number (`{"4111111111111111":"x"}`) or carries control characters is reported as
///   `<redacted N chars>`; every table name is kept as written.
public struct GatewayFieldError: Hashable, Sendable, CustomStringConvertible {
    /// The parameter name (a dotted path for nested JSON), echoed safely (see the type's note).
    public let field: String
    /// The stable code.
    public let code: GatewayErrorCode
    /// The broken limits, for example `["maxLength": "20"]` or `["rule": "mada-meeza-purchase-only"]`.
    public let limits: [String: String]
    /// The gateway's own numeric code when the document defines one (Paysafe's `9054`, …).
    public let gatewayCode: Int?

    /// Creates an error; `field` is kept only when it is safe to echo (see the type's note).
    public init(field: String, code: GatewayErrorCode, limits: [String: String] = [:], gatewayCode: Int? = nil) {
        self.field = SecretMasking.echoIdentifier(field)
        self.code = code
        self.limits = limits
        self.gatewayCode = gatewayCode
    }

    /// `field: code (key=value, …)`, limits in key order.
    public var description: String {
        var text = "\(field): \(code.rawValue)"
        if let gatewayCode { text += " [\(gatewayCode)]" }
        if !limits.isEmpty {
            text += " (" + limits.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: ", ") + ")"
        }
        return text
    }
}

/// The outcome of validating a request against a spec: every error, in table order (parameters
/// first, then unknown parameters, then cross-field rules), each (field, code) pair at most once.
public struct GatewayValidationResult: Hashable, Sendable, CustomStringConvertible {
    /// Every error; empty when valid.
    public let errors: [GatewayFieldError]

    /// Creates a result.
    public init(errors: [GatewayFieldError]) { self.errors = errors }

    /// `true` when there are no errors.
    public var isValid: Bool { errors.isEmpty }

    /// The errors about one parameter.
    public func errors(for field: String) -> [GatewayFieldError] { errors.filter { $0.field.isByteEqual(to: field) } }

    /// `valid`, or the errors joined by `; `.
    public var description: String {
        isValid ? "valid" : errors.map(\.description).joined(separator: "; ")
    }
}
