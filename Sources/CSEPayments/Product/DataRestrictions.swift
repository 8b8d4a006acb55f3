package import CSECore
import CSEValidation

/// One validation rule of a field as written in the product JSON: its key (`luhn`, `length`, …)
/// and its parameters. Unknown keys are kept, not dropped, and reported through
/// ``PaymentProductField/unknownValidators``.
public struct ValidatorDefinition: Hashable, Sendable {
    /// The rule key in the `validators` object spelling, for example `regularExpression`. Rules
    /// from the `validationRules` array are mapped to this spelling (`LUHN` → `luhn`); an unknown
    /// `validationType` is kept as written.
    public let key: String
    /// The rule's parameters, for example `{"minLength":12,"maxLength":19}`.
    package let parameters: JSONObject

    /// Creates a definition.
    package init(key: String, parameters: JSONObject = JSONObject()) {
        self.key = key
        self.parameters = parameters
    }

    /// Whether CSEKit knows this rule (see `knownKeys`).
    package var isKnown: Bool { Self.knownKeys.contains(key) }

    /// The rule keys CSEKit knows: those it compiles, in run order (``ProductRules/runOrder``,
    /// the one list), then `required`, which is not a rule but sets
    /// ``DataRestrictions/isRequired``.
    package static let knownKeys: [String] = ProductRules.compiledKeys + [ValidationCode.required.rawValue]

    /// Maps a `validationRules[].validationType` (`LUHN`, `REGULAREXPRESSION`, …) to its key;
    /// unknown types are returned unchanged.
    static func key(forValidationType type: String) -> String {
        let upper = type.uppercased()
        return knownKeys.first { $0.uppercased() == upper } ?? type
    }
}

/// The `dataRestrictions` of a field: whether it is required and its validation rules.
public struct DataRestrictions: Hashable, Sendable {
    /// Whether the field must have a value (`isRequired`, or a `required` rule). Default `false`.
    public let isRequired: Bool
    /// Every rule, known or not, in JSON order (object members or array elements). When both the
    /// `validators` object and the `validationRules` array are present, the object's rules come
    /// first and a rule key already present is not repeated.
    public let validators: [ValidatorDefinition]

    /// Creates restrictions.
    package init(isRequired: Bool = false, validators: [ValidatorDefinition] = []) {
        self.isRequired = isRequired
        self.validators = validators
    }

    /// The keys of the rules CSEKit does not know, in JSON order. They are not enforced.
    package var unknownValidators: [String] { validators.filter { !$0.isKnown }.map(\.key) }

    /// Decodes `dataRestrictions`: `isRequired`, the `validators` object and the
    /// `validationRules` array form `[{"validationType":"LUHN", …parameters}]`.
    static func decode(_ object: JSONObject, _ reader: ProductJSONReader) throws(CSEError) -> DataRestrictions {
        var isRequired = try reader.bool(object, "isRequired", default: false)
        var rules: [ValidatorDefinition] = []
        if let validators = object["validators"], !validators.isNull {
            // The Apple Pay / Google Pay products write `"validators": []`.
            if let array = validators.arrayValue, array.isEmpty {
            } else {
                for (key, parameters) in try reader.object(validators, member: "validators") {
                    let params = try reader.object(parameters, member: "validators.\(key)")
                    rules.append(ValidatorDefinition(key: key, parameters: params))
                }
            }
        }
        if let array = try reader.optionalArray(object, "validationRules") {
            for element in array {
                var params = try reader.object(element, member: "validationRules")
                let type = try reader.string(params, "validationType")
                params["validationType"] = nil
                let key = ValidatorDefinition.key(forValidationType: type)
                if !rules.contains(where: { $0.key.isByteEqual(to: key) }) {
                    rules.append(ValidatorDefinition(key: key, parameters: params))
                }
            }
        }
        if rules.contains(where: { $0.key == "required" }) { isRequired = true }
        return DataRestrictions(isRequired: isRequired, validators: rules)
    }
}
