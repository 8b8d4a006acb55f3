/// A required value is present: the unmasked value is not empty. Code `required`.
///
/// As in the Worldline SDKs, only the empty string counts as missing; a value of spaces is
/// present (other rules such as `length` or `regularExpression` judge its content). Callers
/// that hold an optional value pass `""` for `nil`.
public struct RequiredValidator: FieldValidator {
    /// ``ValidationCode/required``.
    public var code: ValidationCode { .required }

    /// Creates the validator. It has no parameters.
    public init() {}

    /// Checks that `value` is not empty.
    /// - Parameters:
    ///   - value: The unmasked value (`""` when missing).
    ///   - context: Unused.
    /// - Returns: ``ValidationResult/valid`` or a `required` failure.
    public func validate(_ value: String, in context: ValidationContext) -> ValidationResult {
        value.isEmpty ? .invalid(.required) : .valid
    }
}
