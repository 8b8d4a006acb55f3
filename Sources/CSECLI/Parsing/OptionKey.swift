/// What reading an ``OptionKey`` gives: `Bool` for a flag, an ``ArgumentValue`` (such as
/// `String` or ``AmountArgument``) for an option the parser requires or defaults, its `Optional`
/// for one that may be left out, an `Array` of it for a repeatable one.
protocol OptionValue: Sendable {
    /// The value of the option spelt `--name` in `line`.
    static func read(_ name: String, from line: ParsedCommandLine) -> Self
}

/// An ``OptionValue`` that has a meaning when the option is not declared at all: a shared group
/// of options (``SessionOptions/Keys``) leaves some keys out for some commands, and reading such
/// a key gives what reading an option that was not given gives.
protocol OmittableOptionValue: OptionValue {
    /// The value of an option that is not declared.
    static var omitted: Self { get }
}

extension Bool: OmittableOptionValue {
    /// Whether the flag was given.
    static func read(_ name: String, from line: ParsedCommandLine) -> Bool { line.flags.contains(name) }
    /// A flag that is not declared was not given.
    static var omitted: Bool { false }
}

extension Optional: OptionValue, OmittableOptionValue where Wrapped: ArgumentValue {
    /// The value given (the last one when the option was repeated), as its type; the parser has
    /// checked it (``ValueCheck``).
    static func read(_ name: String, from line: ParsedCommandLine) -> Wrapped? { line.values[name].flatMap(Wrapped.init(argument:)) }
    /// An option that is not declared has no value.
    static var omitted: Wrapped? { nil }
}

extension ArgumentValue {
    /// The value of a required option, as its type (the parser has checked that it was given and
    /// that it is valid).
    static func read(_ name: String, from line: ParsedCommandLine) -> Self {
        guard let value = line.values[name].flatMap(Self.init(argument:)) else {
            preconditionFailure("--\(name) is read as required but the parser did not require it")
        }
        return value
    }
}

extension String {
    /// The value of a required option (the parser has checked that it was given).
    static func read(_ name: String, from line: ParsedCommandLine) -> String { line.values[name] ?? "" }
}

extension Array: OptionValue, OmittableOptionValue where Element: ArgumentValue {
    /// Every value given, in order, as its type (the parser has checked each).
    static func read(_ name: String, from line: ParsedCommandLine) -> [Element] {
        (line.allValues[name] ?? []).compactMap(Element.init(argument:))
    }
    /// An option that is not declared has no values.
    static var omitted: [Element] { [] }
}

/// One option of a command, declared once: the spelling, the help text and the value name live in
/// its ``declaration``, and the command reads the option through the key, as its `Value`
/// (`arguments[\.sessionID]`). A key is only ever made by ``OptionDeclarations``, which records
/// the declaration as it makes the key, so every key a command's ``CommandOptions`` holds is in
/// the command's ``CommandSpec`` (the help, the usage line, the parser, the completion scripts and
/// the manual all come from those declarations).
struct OptionKey<Value: OptionValue>: Sendable {
    /// The option's declaration: name, short name, value name, help, whether it is required.
    let declaration: CommandSpec.Option

    /// The value read when the option is not given (``OptionDeclarations/value(_:short:_:as:default:help:)``).
    let fallback: Value?

    /// The kebab-case long name without dashes, e.g. `session-id`.
    var name: String { declaration.name }

    /// The option as the command line spells it, e.g. `--session-id`.
    var spelling: String { "--" + declaration.name }

    fileprivate init(_ declaration: CommandSpec.Option, fallback: Value? = nil) {
        self.declaration = declaration
        self.fallback = fallback
    }
}

/// The options a command takes: a struct whose stored properties are its ``OptionKey``s (and
/// shared groups of keys such as ``TransportOptions/Keys``), each made in ``init(_:)`` by the
/// ``OptionDeclarations`` it is given. The declarations are in the order the keys are made, which
/// is the order of `--help`.
///
/// Because a key can only come from the builder, and the builder records every key it makes,
/// "the options a command reads" and "the options its spec declares" are one list: a command
/// reads through key paths into its own `Options` (`arguments[\.json]`), so it cannot read a key
/// that is not declared, nor misspell one.
protocol CommandOptions: Sendable {
    /// Makes every key with `declare`, in help order.
    init(_ declare: inout OptionDeclarations)
}

/// Makes the ``OptionKey``s of a ``CommandOptions`` and records their declarations, in order.
/// No two options of a command may share a long or a short name.
struct OptionDeclarations {
    /// The declarations made so far, in order.
    private(set) var options: [CommandSpec.Option] = []
    /// The rules declared so far, in the order the parser checks them.
    private(set) var rules: [OptionRule] = []

    fileprivate init() {}

    /// The keys of `Options`, their declarations in help order, and the rules between them.
    static func make<Options: CommandOptions>(_: Options.Type) -> (keys: Options, options: [CommandSpec.Option], rules: [OptionRule]) {
        var declarations = OptionDeclarations()
        let keys = Options(&declarations)
        return (keys, declarations.options, declarations.rules)
    }

    /// Declares that none of `options` may be given with `anchor` (a usage error names the first
    /// one given, with `reason` in parentheses).
    mutating func conflict(_ options: [any OptionOperand], with anchor: any OptionOperand, reason: String? = nil) {
        rules.append(.conflict(options.map(\.condition), with: anchor.condition, reason: reason))
    }

    /// Declares that each of `options` needs `anchor` (a usage error names the first one given
    /// without it).
    mutating func need(_ anchor: any OptionOperand, by options: [any OptionOperand], reason: String? = nil) {
        rules.append(.need([anchor.condition], by: options.map(\.condition), reason: reason))
    }

    /// Declares that each of `options` needs at least one of `anchors`.
    mutating func need(anyOf anchors: [any OptionOperand], by options: [any OptionOperand], reason: String? = nil) {
        rules.append(.need(anchors.map(\.condition), by: options.map(\.condition), reason: reason))
    }

    /// Declares that every one of `options` needs all the others: all of them, or none.
    mutating func together(_ options: [any OptionOperand]) {
        let conditions = options.map(\.condition)
        for option in conditions {
            for other in conditions where other.name != option.name { rules.append(.need([other], by: [option], reason: nil)) }
        }
    }

    /// Declares that one of `options` must be given; when `exclusive` (the default), exactly one.
    mutating func oneOf(_ options: [any OptionOperand], exclusive: Bool = true) {
        rules.append(.oneOf(options.map(\.condition), exclusive: exclusive))
    }

    /// Declares a flag (an option without a value), read as whether it was given.
    mutating func flag(_ name: String, short: Character? = nil, help: String) -> OptionKey<Bool> {
        declare(.flag(name, short: short, help: help))
    }

    /// Declares an option that takes a value, as free text, read as the value given (the last one)
    /// or `nil`.
    ///
    /// Only for free text (a file, `env:NAME`, an id only the platform checks): a value with a
    /// type of its own (an amount, a currency, a reference, …) is declared with
    /// ``value(_:short:_:required:as:help:)``, and the command never converts it by hand.
    ///
    /// `required` is for a shared group whose option some commands require and others do not
    /// (the parser checks it either way); an option every declaration requires is ``required(_:short:_:help:)``.
    mutating func value(
        _ name: String, short: Character? = nil, _ valueName: String, required: Bool = false, help: String
    ) -> OptionKey<String?> {
        declare(.value(name, short: short, valueName, required: required, help: help))
    }

    /// Declares an option whose value is one of `type`'s, read as that type or `nil`; the parser
    /// refuses any other value with the one message of ``ValueCheck``, and completion offers
    /// `type`'s values.
    ///
    /// `required` makes the parser report the option missing (it is still read as an optional,
    /// which is then never `nil`).
    mutating func value<Value: ArgumentValue>(
        _ name: String, short: Character? = nil, _ valueName: String, required: Bool = false, as type: Value.Type, help: String
    ) -> OptionKey<Value?> {
        declare(.value(name, short: short, valueName, required: required, help: help, check: ValueCheck(type)))
    }

    /// Declares an option of type `type` that is read as `fallback` when it is not given (the
    /// help text says so).
    mutating func value<Value: ArgumentValue>(
        _ name: String, short: Character? = nil, _ valueName: String, as type: Value.Type, default fallback: Value, help: String
    ) -> OptionKey<Value> {
        declare(.value(name, short: short, valueName, help: help, check: ValueCheck(type)), fallback: fallback)
    }

    /// Declares an option that must be given, as free text; the parser reports it missing.
    ///
    /// Only for free text; a value with a type of its own is ``required(_:short:_:as:help:)``.
    mutating func required(_ name: String, short: Character? = nil, _ valueName: String, help: String) -> OptionKey<String> {
        declare(.value(name, short: short, valueName, required: true, help: help))
    }

    /// Declares an option of type `type` that must be given; the parser reports it missing and
    /// refuses a value that is not one of `type`'s, so it is read as a `Value`.
    mutating func required<Value: ArgumentValue>(
        _ name: String, short: Character? = nil, _ valueName: String, as type: Value.Type, help: String
    ) -> OptionKey<Value> {
        declare(.value(name, short: short, valueName, required: true, help: help, check: ValueCheck(type)))
    }

    /// Declares an option that may be given more than once, as free text, read as every value in order.
    ///
    /// Only for free text; a value with a type of its own is ``repeated(_:short:_:as:help:)``.
    mutating func repeated(_ name: String, short: Character? = nil, _ valueName: String, help: String) -> OptionKey<[String]> {
        declare(.value(name, short: short, valueName, help: help))
    }

    /// Declares an option of type `type` that may be given more than once, read as every value in
    /// order; the parser checks each.
    mutating func repeated<Value: ArgumentValue>(
        _ name: String, short: Character? = nil, _ valueName: String, as type: Value.Type, help: String
    ) -> OptionKey<[Value]> {
        declare(.value(name, short: short, valueName, help: help, check: ValueCheck(type)))
    }

    private mutating func declare<Value>(_ option: CommandSpec.Option, fallback: Value? = nil) -> OptionKey<Value> {
        precondition(!options.contains { $0.name == option.name }, "option --\(option.name) is declared twice")
        precondition(
            option.short == nil || !options.contains { $0.short == option.short }, "option -\(option.short!) is declared twice")
        options.append(option)
        return OptionKey(option, fallback: fallback)
    }
}
