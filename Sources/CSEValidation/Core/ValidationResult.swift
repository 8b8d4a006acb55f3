public import CSECore

/// The stable code of a validation failure. The spellings follow the JSON keys of the Worldline
/// Client API (`luhn`, `expirationDate`, …) so they can be shown to integrators unchanged.
public struct ValidationCode: StableStringValue {
    /// The stable string form, for example `luhn`.
    public let rawValue: String
    /// Creates a code from its stable string form. `package`: the set of codes is the library's,
    /// declared once each as a static constant (as `CSEError.Code`'s).
    package init(rawValue: String) { self.rawValue = rawValue }
    /// Creates a code from its stable string form.
    package init(_ rawValue: String) { self.rawValue = rawValue }

    /// A required value is missing.
    public static let required = Self("required")
    /// The Luhn (ISO/IEC 7812-1 Annex B) check digit is wrong.
    public static let luhn = Self("luhn")
    /// The card expiry date is malformed, in the past, or too far in the future.
    public static let expirationDate = Self("expirationDate")
    /// The value is shorter or longer than allowed.
    public static let length = Self("length")
    /// The value is not an integer within the allowed range.
    public static let range = Self("range")
    /// The value is not one of the allowed values.
    public static let fixedList = Self("fixedList")
    /// The value is not an e-mail address.
    public static let emailAddress = Self("emailAddress")
    /// The value does not match the field's regular expression.
    public static let regularExpression = Self("regularExpression")
    /// The terms and conditions were not accepted (the value is not `"true"`).
    public static let termsAndConditions = Self("termsAndConditions")
    /// The value is not a valid IBAN (ISO 13616).
    public static let iban = Self("iban")
    /// The value is not a valid Chinese resident identity number (ISO 7064 MOD 11-2).
    public static let residentIDNumber = Self("residentIdNumber")
    /// The Boleto Bancário conditional-requiredness rule failed.
    public static let boletoBancarioRequiredness = Self("boletoBancarioRequiredness")

    // Gateway request rules (docs/GATEWAYS.md): parameter checks use `required`, `type`,
    // `length`, `characters`, `allowedValues`, `format`, `range`, `luhn` and `unknownParameter`;
    // cross-field rules report the requirement they broke (`required`, `notAllowed`,
    // `allowedValues`, `length`) with a `rule` parameter naming the rule.

    /// The JSON type is wrong (for example an object where a string is expected).
    public static let type = Self("type")
    /// The value contains a character outside the parameter's character class.
    public static let characters = Self("characters")
    /// The value is not one of the gateway parameter's allowed values.
    public static let allowedValues = Self("allowedValues")
    /// The value does not have the gateway parameter's format.
    public static let format = Self("format")
    /// The parameter must not be sent in this context (a gateway cross-field rule).
    public static let notAllowed = Self("notAllowed")
    /// The parameter is not part of the gateway operation and the table rejects unknown parameters.
    public static let unknownParameter = Self("unknownParameter")
}

/// Why a rule failed, when its code alone does not say: the `reason` parameter of a
/// ``ValidationFailure``. Every reason CSEKit writes is declared here, once.
public struct ValidationReason: StableStringValue {
    /// The stable string form, for example `past`.
    public let rawValue: String
    /// Creates a reason from its stable string form.
    package init(rawValue: String) { self.rawValue = rawValue }

    /// The name of the parameter that carries the reason: `reason`.
    public static let parameterName = "reason"

    /// `expirationDate`: the value is not 4 or 6 digits (`MMYY` or `MMYYYY`).
    public static let format = Self(rawValue: "format")
    /// `expirationDate`: the month is not 01–12.
    public static let month = Self(rawValue: "month")
    /// `expirationDate`: the month has passed.
    public static let past = Self(rawValue: "past")
    /// `expirationDate`: the year is further ahead than the rule allows.
    public static let tooFarAhead = Self(rawValue: "tooFarAhead")
    /// `luhn`: the card number holds something other than digits and separators.
    public static let notDigits = Self(rawValue: "notDigits")
    /// `regularExpression`: the pattern exceeded the fallback engine's step limit.
    public static let stepLimit = Self(rawValue: "stepLimit")
    /// `regularExpression`: the value is longer than the engine accepts.
    public static let inputTooLong = Self(rawValue: "inputTooLong")
    /// `regularExpression`: ICU failed while matching (out of memory); the value is not accepted.
    public static let engineUnavailable = Self(rawValue: "engineUnavailable")
    /// `length`: the value is longer than the field's mask, which cut it.
    public static let doesNotFitMask = Self(rawValue: "doesNotFitMask")
    /// A gateway `format` check whose format CSEKit does not know.
    public static let unknownFormat = Self(rawValue: "unknownFormat")
    /// A gateway amount in a currency that has no minor units.
    public static let currencyHasNoMinorUnits = Self(rawValue: "currencyHasNoMinorUnits")

}

/// A parameter of a validation failure, such as the broken limit.
public enum ValidationParameter: Hashable, Sendable, CustomStringConvertible {
    /// An integer parameter such as `minLength`.
    case int(Int)
    /// A text parameter such as a pattern or a reason.
    case string(String)
    /// A list parameter such as `allowedValues`.
    case strings([String])

    /// The `reason` parameter's value for `reason` (see ``ValidationReason``).
    public static func reason(_ reason: ValidationReason) -> Self { .string(reason.rawValue) }

    /// A plain-text rendering.
    public var description: String {
        switch self {
        case .int(let v): return String(v)
        case .string(let v): return v
        case .strings(let v): return v.joined(separator: ",")
        }
    }
}

/// One reason a value is invalid: a stable code plus its parameters.
///
/// - Important: Parameters never carry the validated value itself, so a failure can be logged
///   even when the value is a card number or CVV.
public struct ValidationFailure: Hashable, Sendable, CustomStringConvertible {
    /// The stable code.
    public let code: ValidationCode
    /// The failure's parameters, for example `minLength` and `maxLength`.
    public let parameters: [String: ValidationParameter]

    /// Creates a failure.
    public init(_ code: ValidationCode, _ parameters: [String: ValidationParameter] = [:]) {
        self.code = code
        self.parameters = parameters
    }

    /// `code(key=value, …)` with keys in sorted order.
    public var description: String {
        guard !parameters.isEmpty else { return code.rawValue }
        let params = parameters.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
        return "\(code.rawValue)(\(params.joined(separator: ", ")))"
    }
}

/// The outcome of validating a value. Invalid input is an expected outcome and is reported as a
/// value, never thrown.
public struct ValidationResult: Hashable, Sendable, CustomStringConvertible {
    /// Every failure, in the order the rules ran. Empty when valid.
    public let failures: [ValidationFailure]

    /// Creates a result from its failures.
    public init(failures: [ValidationFailure]) { self.failures = failures }

    /// A valid result.
    public static let valid = ValidationResult(failures: [])

    /// An invalid result with a single failure.
    public static func invalid(_ code: ValidationCode, _ parameters: [String: ValidationParameter] = [:]) -> Self {
        ValidationResult(failures: [ValidationFailure(code, parameters)])
    }

    /// `true` when there are no failures.
    public var isValid: Bool { failures.isEmpty }

    /// `valid`, or the failures joined by `; `.
    public var description: String {
        isValid ? "valid" : failures.map(\.description).joined(separator: "; ")
    }
}
