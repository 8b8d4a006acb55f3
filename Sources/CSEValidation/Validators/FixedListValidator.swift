/// The value is one of a fixed list. JSON key `fixedList`.
///
/// Matching is exact and case-sensitive on Unicode scalars: `"é"` (U+00E9) does not match
/// `"e\u{301}"`, because the value is sent to the server as typed. Failures carry
/// `allowedValues`.
public struct FixedListValidator: FieldValidator {
    /// ``ValidationCode/fixedList``.
    public var code: ValidationCode { .fixedList }
    /// The allowed values, in the order given.
    public let allowedValues: [String]
    private let allowedBytes: Set<[UInt8]>

    /// Creates the validator. An empty list accepts nothing.
    /// - Parameter allowedValues: The accepted values.
    public init(allowedValues: [String]) {
        self.allowedValues = allowedValues
        self.allowedBytes = Set(allowedValues.map { Array($0.utf8) })
    }

    /// Checks that `value` is exactly one of ``allowedValues``.
    /// - Parameters:
    ///   - value: The unmasked value.
    ///   - context: Unused.
    /// - Returns: ``ValidationResult/valid`` or a `fixedList` failure with `allowedValues`.
    public func validate(_ value: String, in context: ValidationContext) -> ValidationResult {
        allowedBytes.contains(Array(value.utf8))
            ? .valid
            : .invalid(.fixedList, ["allowedValues": .strings(allowedValues)])
    }
}
