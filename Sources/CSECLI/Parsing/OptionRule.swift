import CSECore

/// What a rule between options is about: an option given (`--session`), or given with a value
/// that meets a test (`--wallet google-pay`). Made from a key: `key` itself, `key.is(.googlePay)`,
/// `key.where(\.worldlineNeedsReturnURL)`.
struct OptionCondition: Sendable {
    /// The option's long name.
    let name: String
    /// The values that meet the condition as a usage message names them (`google-pay`); `nil`
    /// when any value (or the flag) does.
    let valueSpelling: String?
    /// Whether a value meets the condition; `nil` when any value (or the flag) does.
    let matches: (@Sendable (String) -> Bool)?

    /// The condition that the option is given (with any value).
    init(name: String) {
        self.name = name
        valueSpelling = nil
        matches = nil
    }

    /// The condition that the option is given with a value `matches` accepts, spelt `valueSpelling`.
    init(name: String, valueSpelling: String, matches: @escaping @Sendable (String) -> Bool) {
        self.name = name
        self.valueSpelling = valueSpelling
        self.matches = matches
    }

    /// The condition as a usage message spells it: `--wallet`, `--wallet google-pay`.
    var spelling: String { "--" + name + (valueSpelling.map { " " + $0 } ?? "") }

    /// Whether `line` meets the condition (the last value of an option counts, as it is read).
    func holds(in line: ParsedCommandLine) -> Bool {
        if line.flags.contains(name) { return matches == nil }
        guard let value = line.values[name] else { return false }
        return matches?(value) ?? true
    }
}

/// Anything a rule can name: a key, its declaration, or a condition on its value.
protocol OptionOperand {
    /// The condition the operand stands for.
    var condition: OptionCondition { get }
}

extension OptionCondition: OptionOperand {
    /// Itself.
    var condition: OptionCondition { self }
}

extension CommandSpec.Option: OptionOperand {
    /// The option is given.
    var condition: OptionCondition { OptionCondition(name: name) }
}

extension OptionKey: OptionOperand {
    /// The option is given.
    var condition: OptionCondition { declaration.condition }
}

extension OptionKey {
    /// The option is given with a value `matches` accepts (`wallet.where(\.worldlineNeedsReturnURL)`),
    /// spelt with the values of `Wrapped` that it accepts.
    func `where`<Wrapped>(_ matches: (Wrapped) -> Bool) -> OptionCondition
    where Value == Wrapped?, Wrapped: CaseIterable & RawRepresentable, Wrapped.RawValue == String {
        Self.condition(name, accepting: Wrapped.allCases.filter(matches).map(\.rawValue))
    }

    /// The option is given with the value `value` (`wallet.is(.googlePay)`).
    func `is`<Wrapped>(_ value: Wrapped) -> OptionCondition
    where Value == Wrapped?, Wrapped: CaseIterable & RawRepresentable & Equatable, Wrapped.RawValue == String {
        self.where { $0 == value }
    }

    /// The required option is given with a value `matches` accepts.
    func `where`(_ matches: (Value) -> Bool) -> OptionCondition
    where Value: CaseIterable & RawRepresentable, Value.RawValue == String {
        Self.condition(name, accepting: Value.allCases.filter(matches).map(\.rawValue))
    }

    private static func condition(_ name: String, accepting accepted: [String]) -> OptionCondition {
        OptionCondition(name: name, valueSpelling: accepted.joined(separator: "|")) { value in
            accepted.contains { $0.isByteEqual(to: value) }
        }
    }

    /// The option is given with a value `matches` accepts, spelt `valueSpelling` (free text).
    func matching(_ valueSpelling: String, _ matches: @escaping @Sendable (String) -> Bool) -> OptionCondition {
        OptionCondition(name: name, valueSpelling: valueSpelling, matches: matches)
    }
}

/// A rule between a command's options, declared with them (``OptionDeclarations/conflict(_:with:reason:)``,
/// ``OptionDeclarations/need(_:by:reason:)``, ``OptionDeclarations/oneOf(_:)``) and checked by the
/// parser after the values, never by hand in a command's initializer: the one place that writes a
/// rule's usage message, one phrasing per kind of rule.
enum OptionRule: Sendable {
    /// None of the options may be given with the anchor: "--a cannot be combined with --b (reason)."
    case conflict([OptionCondition], with: OptionCondition, reason: String?)
    /// Each of the options needs one of the anchors: "--a needs --b or --c (reason)."
    case need([OptionCondition], by: [OptionCondition], reason: String?)
    /// One of the options must be given: "Give one of --a or --b."; when `exclusive`, two are a
    /// conflict.
    case oneOf([OptionCondition], exclusive: Bool)

    /// The usage error for `line`, or `nil` when the rule holds.
    func violation(in line: ParsedCommandLine) -> UsageError? {
        switch self {
        case .conflict(let options, let anchor, let reason):
            guard anchor.holds(in: line), let first = options.first(where: { $0.holds(in: line) }) else { return nil }
            return Self.conflict(first, anchor, reason: reason)
        case .need(let anchors, let options, let reason):
            guard !anchors.contains(where: { $0.holds(in: line) }), let first = options.first(where: { $0.holds(in: line) }) else {
                return nil
            }
            return UsageError("\(first.spelling) needs \(Self.alternatives(anchors))\(Self.note(reason)).")
        case .oneOf(let options, let exclusive):
            let given = options.filter { $0.holds(in: line) }
            if exclusive && given.count > 1 { return Self.conflict(given[1], given[0], reason: nil) }
            return given.isEmpty ? UsageError("Give one of \(Self.alternatives(options)).") : nil
        }
    }

    private static func conflict(_ option: OptionCondition, _ anchor: OptionCondition, reason: String?) -> UsageError {
        UsageError("\(option.spelling) cannot be combined with \(anchor.spelling)\(note(reason)).")
    }

    /// `--a`, `--a or --b`, `--a, --b or --c`.
    private static func alternatives(_ options: [OptionCondition]) -> String {
        let names = options.map(\.spelling)
        guard names.count > 1 else { return names.first ?? "" }
        return names.dropLast().joined(separator: ", ") + " or " + names[names.count - 1]
    }

    private static func note(_ reason: String?) -> String { reason.map { " (\($0))" } ?? "" }
}
