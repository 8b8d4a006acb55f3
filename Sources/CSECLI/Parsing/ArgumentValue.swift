/// A type an option's value is read as, as swift-argument-parser's `ExpressibleByArgument`: the
/// option is declared once with its type (``OptionDeclarations/value(_:short:_:as:help:)``), the
/// parser checks every value it is given, and the command reads it back typed. The valid values
/// appear in the completion scripts, and a value that is not one of them gets the one usage
/// message of ``ValueCheck``.
protocol ArgumentValue: OptionValue {
    /// The value `argument` spells, or `nil` when it spells none.
    init?(argument: String)
    /// Every valid value, in the order help lists them; empty when the values are open (a number,
    /// a month).
    static var allValueStrings: [String] { get }
    /// What a valid value is, completing "The value for '--x' must be …": by default the valid
    /// values, `a, b or c`.
    static var valueDescription: String { get }
}

extension ArgumentValue {
    /// The valid values, `a, b or c`.
    static var valueDescription: String {
        let values = allValueStrings
        guard values.count > 1 else { return values.first ?? "a value" }
        return values.dropLast().joined(separator: ", ") + " or " + values[values.count - 1]
    }
}

extension ArgumentValue where Self: RawRepresentable, Self.RawValue == String, Self: CaseIterable {
    /// The case whose raw value is `argument`.
    init?(argument: String) { self.init(rawValue: argument) }
    /// The raw values of every case, in declaration order.
    static var allValueStrings: [String] { allCases.map(\.rawValue) }
}

extension String: ArgumentValue {
    /// Any text.
    init?(argument: String) { self = argument }
    /// Open: any text.
    static var allValueStrings: [String] { [] }
}

/// How the parser checks the values of a typed option (``ArgumentValue``): the one place that
/// writes "The value for '--x' must be …".
struct ValueCheck: Sendable {
    /// The valid values, for completion; empty when the values are open.
    let choices: [String]
    /// What a valid value is.
    let description: String
    /// Whether `text` is a valid value.
    let accepts: @Sendable (String) -> Bool

    /// The check of `type`.
    init<Value: ArgumentValue>(_ type: Value.Type) {
        choices = Value.allValueStrings
        description = Value.valueDescription
        accepts = { Value(argument: $0) != nil }
    }

    /// The usage error for a value of `option` that is not valid (the value itself is never
    /// echoed: it may be a secret typed in the wrong place).
    func error(option: String) -> UsageError { UsageError("The value for '--\(option)' must be \(description).") }
}
