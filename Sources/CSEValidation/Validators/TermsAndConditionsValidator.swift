/// The terms and conditions were accepted: the value is exactly `"true"`.
/// JSON key `termsAndConditions`.
///
/// `"TRUE"`, `"yes"`, `"1"`, `" true"` and the empty string are all invalid, as in the Worldline
/// Swift SDK (`Bool(value) == true`).
public struct TermsAndConditionsValidator: FieldValidator {
    /// ``ValidationCode/termsAndConditions``.
    public var code: ValidationCode { .termsAndConditions }

    /// Creates the validator. It has no parameters.
    public init() {}

    /// Checks that `value` is exactly `"true"`.
    /// - Parameters:
    ///   - value: The field value.
    ///   - context: Unused.
    /// - Returns: ``ValidationResult/valid`` or a `termsAndConditions` failure.
    public func validate(_ value: String, in context: ValidationContext) -> ValidationResult {
        value.utf8.elementsEqual("true".utf8) ? .valid : .invalid(.termsAndConditions)
    }
}
