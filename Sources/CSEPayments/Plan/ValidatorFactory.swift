import CSECore
import CSEValidation

/// Builds the validators of one field from its rule definitions, once, at load time.
enum ValidatorFactory {
    /// The rules CSEKit compiles, in run order (see ``ValidatorDefinition/knownKeys``).
    static let compiledKeys: [String] = ValidatorDefinition.knownKeys.filter { $0 != ValidationCode.required.rawValue }

    /// Compiles `definitions` in the fixed run order; unknown keys are skipped (the caller
    /// reports them). Throws for an invalid regex or a parameter of the wrong type.
    /// `patterns` holds the product's compiled patterns, so identical patterns compile once.
    static func validators(
        for definitions: [ValidatorDefinition], reader: ProductJSONReader, patterns: inout ProductPatterns
    ) throws(CSEError) -> [any FieldValidator] {
        var validators: [any FieldValidator] = []
        for key in compiledKeys {
            guard let definition = definitions.first(where: { $0.key.isByteEqual(to: key) }) else { continue }
            validators.append(try make(definition, reader: reader, patterns: &patterns))
        }
        return validators
    }

    /// The pattern of the field's `regularExpression` rule as the compiler reads it, or `nil`
    /// when the field has none (or it is malformed: compiling reports that).
    static func regularExpressionPattern(in definitions: [ValidatorDefinition], reader: ProductJSONReader) -> String? {
        let key = ValidationCode.regularExpression.rawValue
        guard let definition = definitions.first(where: { $0.key.isByteEqual(to: key) }) else { return nil }
        return try? pattern(in: definition.parameters, reader: reader)
    }

    private static func make(
        _ definition: ValidatorDefinition, reader: ProductJSONReader, patterns: inout ProductPatterns
    ) throws(CSEError) -> any FieldValidator {
        let p = definition.parameters
        switch ValidationCode(rawValue: definition.key) {
        case .luhn: return LuhnValidator()
        case .expirationDate: return ExpirationDateValidator()
        case .range:
            // Worldline defaults a missing bound to 0.
            return RangeValidator(
                minValue: try reader.int(p, "minValue", default: 0),
                maxValue: try reader.int(p, "maxValue", default: 0))
        case .length:
            return LengthValidator(
                minLength: try reader.int(p, "minLength", default: 0),
                maxLength: try reader.int(p, "maxLength", default: 0))
        case .fixedList: return FixedListValidator(allowedValues: try reader.strings(p, "allowedValues") ?? [])
        case .emailAddress: return EmailAddressValidator()
        case .regularExpression: return try regularExpression(p, reader: reader, patterns: &patterns)
        case .termsAndConditions: return TermsAndConditionsValidator()
        case .iban: return IBANValidator()
        case .residentIDNumber: return ResidentIDNumberValidator()
        case .boletoBancarioRequiredness:
            let length = try reader.int(p, "fiscalNumberLength", default: -1)
            let fallback = try reader.int(p, "fiscalNumberLengthToValidate", default: -1)
            guard max(length, fallback) >= 0 else {
                throw reader.malformed("boletoBancarioRequiredness has no fiscalNumberLength", member: "fiscalNumberLength")
            }
            return BoletoBancarioRequirednessValidator(fiscalNumberLength: length >= 0 ? length : fallback)
        default:
            throw reader.malformed("no compiler for rule \(definition.key)", member: "validators")
        }
    }

    private static func pattern(in p: JSONObject, reader: ProductJSONReader) throws(CSEError) -> String? {
        var pattern: String?
        for key in ["regularExpression", "regex", "pattern"] where pattern == nil {
            pattern = try reader.optionalString(p, key)
        }
        return pattern
    }

    /// The pattern is read from `regularExpression`, or the Worldline alternatives `regex` and
    /// `pattern`. A missing or invalid pattern is a load error (the SDK silently dropped the rule).
    private static func regularExpression(
        _ p: JSONObject, reader: ProductJSONReader, patterns: inout ProductPatterns
    ) throws(CSEError) -> any FieldValidator {
        let pattern = try pattern(in: p, reader: reader)
        let context = reader.context(member: "validators.regularExpression")
        guard let pattern else {
            throw CSEError(.productInvalidRegex, "the regularExpression rule has no pattern", context: context)
        }
        do {
            return RegularExpressionValidator(try patterns.compile(pattern))
        } catch {
            // The compile error's context names the pattern, which comes from an untrusted product
            // and could be anything (a card number pasted into it): only its code and reason go on.
            throw CSEError(
                .productInvalidRegex, "the regularExpression pattern does not compile: \(error.reason)",
                context: context, underlying: CSEError(error.code, error.reason))
        }
    }
}
