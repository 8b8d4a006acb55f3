import CSECore

/// What a rule between options is about: an option given (`--session`), given with a value that
/// meets a test (`--wallet google-pay`), a positional argument's value (`<kind> expiry`), or two
/// of these at once (`--product ID with --session`). Made from a key: `key` itself,
/// `key.is(.googlePay)`, `key.where(\.worldlineNeedsReturnURL)`, `key.matching(…)`, `a.and(b)`.
struct OptionCondition: Sendable {
    /// The option's long name (or the positional's placeholder): what the condition is about.
    let name: String
    /// The condition as a usage message spells it: `--wallet`, `--wallet google-pay`.
    let spelling: String
    /// Whether a command line meets the condition.
    private let test: @Sendable (ParsedCommandLine) -> Bool

    /// A condition spelt `spelling` that `test` decides (for a condition no key makes, such as
    /// "none of these options").
    init(name: String, spelling: String, test: @escaping @Sendable (ParsedCommandLine) -> Bool) {
        self.name = name
        self.spelling = spelling
        self.test = test
    }

    /// The condition that the option is given (with any value).
    init(name: String) {
        self.init(name: name, spelling: "--" + name) { $0.flags.contains(name) || $0.values[name] != nil }
    }

    /// The condition that the option is given with a value `matches` accepts (the last value
    /// counts, as it is read), spelt `valueSpelling`.
    init(name: String, valueSpelling: String, matches: @escaping @Sendable (String) -> Bool) {
        self.init(name: name, spelling: "--\(name) \(valueSpelling)") { line in line.values[name].map(matches) ?? false }
    }

    /// The condition that the positional argument at `index` (shown as `<valueName>`) has a value
    /// `matches` accepts, spelt `valueSpelling`.
    init(positional index: Int, _ valueName: String, valueSpelling: String, matches: @escaping @Sendable (String) -> Bool) {
        self.init(name: "<\(valueName)>", spelling: "<\(valueName)> \(valueSpelling)") { line in
            index < line.positionals.count && matches(line.positionals[index])
        }
    }

    /// Whether `line` meets the condition.
    func holds(in line: ParsedCommandLine) -> Bool { test(line) }

    /// The condition that this one and `other` both hold, spelt `--a with --b`.
    func and(_ other: any OptionOperand) -> OptionCondition {
        let other = other.condition, test = test
        return OptionCondition(name: name, spelling: spelling + " with " + other.spelling) { test($0) && other.holds(in: $0) }
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

    /// The option is given, and `other` holds.
    func and(_ other: any OptionOperand) -> OptionCondition { condition.and(other) }

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
