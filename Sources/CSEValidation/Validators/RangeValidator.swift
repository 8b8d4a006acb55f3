/// An integer value within an inclusive range. JSON key `range`.
///
/// Parsing is locale-independent and strict: an optional ASCII `+` or `-`, then one or more
/// ASCII digits, leading zeros allowed (`"0055"` is 55). Whitespace, grouping separators,
/// decimal points, exponents and non-ASCII digits make the value invalid; so does the empty
/// string. A well-formed integer too large for `Int` is out of every range. Failures carry
/// `minValue` and `maxValue`.
public struct RangeValidator: FieldValidator {
    /// ``ValidationCode/range``.
    public var code: ValidationCode { .range }
    /// The smallest accepted value, inclusive.
    public let minValue: Int
    /// The largest accepted value, inclusive.
    public let maxValue: Int

    /// Creates the validator. When `minValue > maxValue` no value is valid.
    /// - Parameters:
    ///   - minValue: The smallest accepted value, inclusive.
    ///   - maxValue: The largest accepted value, inclusive.
    public init(minValue: Int, maxValue: Int) {
        self.minValue = minValue
        self.maxValue = maxValue
    }

    /// Parses `value` and checks the range.
    /// - Parameters:
    ///   - value: The unmasked value.
    ///   - context: Unused.
    /// - Returns: ``ValidationResult/valid`` or a `range` failure with `minValue`/`maxValue`.
    public func validate(_ value: String, in context: ValidationContext) -> ValidationResult {
        if case .value(let number) = ASCIIDecimal.parseInteger(value), number >= minValue, number <= maxValue {
            return .valid
        }
        return .invalid(.range, ["minValue": .int(minValue), "maxValue": .int(maxValue)])
    }
}
