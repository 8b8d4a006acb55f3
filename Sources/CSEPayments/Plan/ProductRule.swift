import CSECore
import CSEValidation

/// A validator that a product's `dataRestrictions` can name: it declares its product-JSON key and
/// reads its own parameters. ``ProductRules/runOrder`` lists every such type once, in the order a
/// field runs them; the known keys, the `validationRules` spelling map and the compiler all come
/// from that one list, so a rule cannot be compiled without being known, or known without being
/// compiled (issue #23, point 3).
protocol ProductRule: FieldValidator {
    /// The rule's key in the `validators` object, which is also the code it reports.
    static var ruleCode: ValidationCode { get }
    /// Builds the validator from the rule's parameters (`{"minLength":12,"maxLength":19}`).
    /// `patterns` holds the product's compiled patterns, so identical patterns compile once.
    static func make(
        parameters: JSONObject, reader: ProductJSONReader, patterns: inout ProductPatterns
    ) throws(CSEError) -> any FieldValidator
}

/// A rule without parameters: its validator is built with `init()`.
protocol ParameterlessProductRule: ProductRule {
    init()
}

extension ParameterlessProductRule {
    static func make(parameters: JSONObject, reader: ProductJSONReader, patterns: inout ProductPatterns) -> any FieldValidator {
        Self()
    }
}

/// The rules CSEKit compiles.
enum ProductRules {
    /// Every rule, in the order a field runs them: the Worldline decode order (`luhn`,
    /// `expirationDate`, `range`, `length`, `fixedList`, `emailAddress`, `regularExpression`,
    /// `termsAndConditions`, `iban`), then the Ingenico-only rules (`residentIdNumber`,
    /// `boletoBancarioRequiredness`). To add a rule: write its validator (CSEValidation), conform
    /// it to ``ProductRule`` below, and list it here.
    static let runOrder: [any ProductRule.Type] = [
        LuhnValidator.self, ExpirationDateValidator.self, RangeValidator.self, LengthValidator.self,
        FixedListValidator.self, EmailAddressValidator.self, RegularExpressionValidator.self,
        TermsAndConditionsValidator.self, IBANValidator.self, ResidentIDNumberValidator.self,
        BoletoBancarioRequirednessValidator.self,
    ]

    /// The keys of ``runOrder``, in order.
    static let compiledKeys: [String] = runOrder.map { $0.ruleCode.rawValue }
}

extension LuhnValidator: ParameterlessProductRule {
    static var ruleCode: ValidationCode { .luhn }
}

extension ExpirationDateValidator: ProductRule {
    static var ruleCode: ValidationCode { .expirationDate }
    static func make(parameters: JSONObject, reader: ProductJSONReader, patterns: inout ProductPatterns) -> any FieldValidator {
        Self()
    }
}

extension RangeValidator: ProductRule {
    static var ruleCode: ValidationCode { .range }
    /// Worldline defaults a missing bound to 0.
    static func make(
        parameters: JSONObject, reader: ProductJSONReader, patterns: inout ProductPatterns
    ) throws(CSEError) -> any FieldValidator {
        Self(minValue: try reader.int(parameters, "minValue", default: 0), maxValue: try reader.int(parameters, "maxValue", default: 0))
    }
}

extension LengthValidator: ProductRule {
    static var ruleCode: ValidationCode { .length }
    static func make(
        parameters: JSONObject, reader: ProductJSONReader, patterns: inout ProductPatterns
    ) throws(CSEError) -> any FieldValidator {
        Self(
            minLength: try reader.int(parameters, "minLength", default: 0),
            maxLength: try reader.int(parameters, "maxLength", default: 0))
    }
}

extension FixedListValidator: ProductRule {
    static var ruleCode: ValidationCode { .fixedList }
    static func make(
        parameters: JSONObject, reader: ProductJSONReader, patterns: inout ProductPatterns
    ) throws(CSEError) -> any FieldValidator {
        Self(allowedValues: try reader.strings(parameters, "allowedValues") ?? [])
    }
}

extension EmailAddressValidator: ParameterlessProductRule {
    static var ruleCode: ValidationCode { .emailAddress }
}

extension RegularExpressionValidator: ProductRule {
    static var ruleCode: ValidationCode { .regularExpression }

    /// The pattern, from `regularExpression` or the Worldline alternatives `regex` and `pattern`,
    /// or `nil` when none is present.
    static func pattern(in parameters: JSONObject, reader: ProductJSONReader) throws(CSEError) -> String? {
        var pattern: String?
        for key in ["regularExpression", "regex", "pattern"] where pattern == nil {
            pattern = try reader.optionalString(parameters, key)
        }
        return pattern
    }

    /// A missing or invalid pattern is a load error (the SDK silently dropped the rule).
    static func make(
        parameters: JSONObject, reader: ProductJSONReader, patterns: inout ProductPatterns
    ) throws(CSEError) -> any FieldValidator {
        let pattern = try pattern(in: parameters, reader: reader)
        let context = reader.context(member: "validators.regularExpression")
        guard let pattern else {
            throw CSEError(.productInvalidRegex, "the regularExpression rule has no pattern", context: context)
        }
        do {
            return Self(try patterns.compile(pattern))
        } catch {
            // The compile error's context names the pattern, which comes from an untrusted product
            // and could be anything (a card number pasted into it): only its code and reason go on.
            throw CSEError(
                .productInvalidRegex, "the regularExpression pattern does not compile: \(error.reason)",
                context: context, underlying: CSEError(error.code, error.reason))
        }
    }
}

extension TermsAndConditionsValidator: ParameterlessProductRule {
    static var ruleCode: ValidationCode { .termsAndConditions }
}

extension IBANValidator: ProductRule {
    static var ruleCode: ValidationCode { .iban }
    static func make(parameters: JSONObject, reader: ProductJSONReader, patterns: inout ProductPatterns) -> any FieldValidator {
        Self()
    }
}

extension ResidentIDNumberValidator: ParameterlessProductRule {
    static var ruleCode: ValidationCode { .residentIDNumber }
}

extension BoletoBancarioRequirednessValidator: ProductRule {
    static var ruleCode: ValidationCode { .boletoBancarioRequiredness }
    /// `fiscalNumberLength`, or the older `fiscalNumberLengthToValidate`; one is required.
    static func make(
        parameters: JSONObject, reader: ProductJSONReader, patterns: inout ProductPatterns
    ) throws(CSEError) -> any FieldValidator {
        let length = try reader.int(parameters, "fiscalNumberLength", default: -1)
        let fallback = try reader.int(parameters, "fiscalNumberLengthToValidate", default: -1)
        guard max(length, fallback) >= 0 else {
            throw reader.malformed("boletoBancarioRequiredness has no fiscalNumberLength", member: "fiscalNumberLength")
        }
        return Self(fiscalNumberLength: length >= 0 ? length : fallback)
    }
}
