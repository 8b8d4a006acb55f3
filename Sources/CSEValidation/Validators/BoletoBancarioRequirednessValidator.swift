/// Boleto Bancário conditional requiredness: this field must not be empty when the request's
/// `fiscalNumber` field has a given length. JSON key `boletoBancarioRequiredness`.
///
/// Brazilian fiscal numbers are a CPF (11 digits, a person) or a CNPJ (14 digits, a company);
/// products use this rule to require, say, the company name only for a CNPJ. The fiscal number
/// is read from ``ValidationContext/fieldValues`` under `"fiscalNumber"` (unmasked) and measured
/// in characters; a missing fiscal number counts as empty (length 0). A non-empty value is
/// always valid. Failures carry `fiscalNumberLength`.
///
/// Because the rule decides about empty values, run it even when the field is optional and
/// empty (the Worldline SDKs call this "variable requiredness").
public struct BoletoBancarioRequirednessValidator: FieldValidator {
    /// ``ValidationCode/boletoBancarioRequiredness``.
    public var code: ValidationCode { .boletoBancarioRequiredness }
    /// The fiscal number length that makes this field required.
    public let fiscalNumberLength: Int

    /// The ``ValidationContext/fieldValues`` key read by this rule.
    public static let fiscalNumberFieldID = "fiscalNumber"

    /// Creates the validator.
    /// - Parameter fiscalNumberLength: The fiscal number length that makes the field required.
    public init(fiscalNumberLength: Int) {
        self.fiscalNumberLength = fiscalNumberLength
    }

    /// Checks `value` against the fiscal number in `context`.
    /// - Parameters:
    ///   - value: This field's unmasked value.
    ///   - context: Supplies the `fiscalNumber` field's unmasked value.
    /// - Returns: ``ValidationResult/valid`` or a `boletoBancarioRequiredness` failure.
    public func validate(_ value: String, in context: ValidationContext) -> ValidationResult {
        guard value.isEmpty else { return .valid }
        let fiscalNumber = context.fieldValues[Self.fiscalNumberFieldID] ?? ""
        // Count at most fiscalNumberLength + 1 characters.
        var length = 0
        for _ in fiscalNumber {
            length += 1
            if length > fiscalNumberLength { break }
        }
        guard length == fiscalNumberLength else { return .valid }
        return .invalid(.boletoBancarioRequiredness, ["fiscalNumberLength": .int(fiscalNumberLength)])
    }
}
