import CSECore
import CSEValidation

/// Builds the validators of one field from its rule definitions, once, at load time.
enum ValidatorFactory {
    /// Compiles `definitions` in the run order of ``ProductRules/runOrder``; unknown keys are
    /// skipped (the caller reports them). Throws for an invalid regex or a parameter of the wrong
    /// type. `patterns` holds the product's compiled patterns, so identical patterns compile once.
    static func validators(
        for definitions: [ValidatorDefinition], reader: ProductJSONReader, patterns: inout ProductPatterns
    ) throws(CSEError) -> [any FieldValidator] {
        var validators: [any FieldValidator] = []
        for rule in ProductRules.runOrder {
            let key = rule.ruleCode.rawValue
            guard let definition = definitions.first(where: { $0.key.isByteEqual(to: key) }) else { continue }
            validators.append(try rule.make(parameters: definition.parameters, reader: reader, patterns: &patterns))
        }
        return validators
    }

    /// The pattern of the field's `regularExpression` rule as the compiler reads it, or `nil`
    /// when the field has none (or it is malformed: compiling reports that).
    static func regularExpressionPattern(in definitions: [ValidatorDefinition], reader: ProductJSONReader) -> String? {
        let key = RegularExpressionValidator.ruleCode.rawValue
        guard let definition = definitions.first(where: { $0.key.isByteEqual(to: key) }) else { return nil }
        return try? RegularExpressionValidator.pattern(in: definition.parameters, reader: reader)
    }
}
