import CSECore

/// A usage error: the command line itself is wrong. `cse` prints `Error: …`, the usage line and a
/// hint to stderr and exits 64 (`EX_USAGE`).
struct UsageError: Error, Sendable, Equatable {
    /// What is wrong, without echoing any secret (option values are never quoted).
    let message: String
    /// Creates a usage error.
    init(_ message: String) { self.message = message }
}

/// The command line of one subcommand as the parser found it, by option name. Commands read it
/// through ``ParsedArguments``, by key.
struct ParsedCommandLine: Sendable {
    /// The options the line was parsed against (the command's ``CommandSpec/options``).
    let declared: [CommandSpec.Option]
    /// Values of value-taking options by long name (the last occurrence wins).
    var values: [String: String] = [:]
    /// Every value of a value-taking option by long name, in order (`--token A --token B`).
    var allValues: [String: [String]] = [:]
    /// Flags that were given, by long name.
    var flags: Set<String> = []
    /// Positional arguments in order.
    var positionals: [String] = []
    /// Whether `-h`/`--help` was given.
    var helpRequested = false

    /// An empty line for a command that declares `declared`.
    init(declared: [CommandSpec.Option]) { self.declared = declared }
}

/// The parsed command line of one subcommand, read through the keys of `Keys`: a command's
/// ``CommandOptions``, or a group of keys inside them (``group(_:)``).
///
/// Every read names a key path into `Keys` (`arguments[\.json]`), so a command reads only keys
/// it declares, as the type the key was declared with: `Bool` for a flag, the option's
/// ``ArgumentValue`` (`AmountArgument`, `Wallet`, `String`…) when it is required or has a default,
/// its `Optional` otherwise, an `Array` of it when it repeats.
struct ParsedArguments<Keys: Sendable>: Sendable {
    /// What the parser found.
    private let line: ParsedCommandLine
    /// The keys this view reads.
    let keys: Keys

    private init(line: ParsedCommandLine, keys: Keys) {
        self.line = line
        self.keys = keys
    }

    /// Positional arguments in order.
    var positionals: [String] { line.positionals }

    /// The value of the option `key` leads to.
    subscript<Value>(key: KeyPath<Keys, OptionKey<Value>>) -> Value {
        read(keys[keyPath: key])
    }

    /// The value of the option `key` leads to, or the value of an option that was not given when
    /// these keys leave the option out.
    subscript<Value: OmittableOptionValue>(key: KeyPath<Keys, OptionKey<Value>?>) -> Value {
        keys[keyPath: key].map(read) ?? Value.omitted
    }

    /// The view of a group of keys inside `Keys` (such as ``TransportOptions/Keys``), reading the
    /// same command line.
    func group<Group: Sendable>(_ path: KeyPath<Keys, Group>) -> ParsedArguments<Group> {
        ParsedArguments<Group>(line: line, keys: keys[keyPath: path])
    }

    /// The view of a group of keys these keys may leave out (``ServerCallOptions/Keys/journal``).
    func group<Group: Sendable>(_ path: KeyPath<Keys, Group?>) -> ParsedArguments<Group>? {
        keys[keyPath: path].map { ParsedArguments<Group>(line: line, keys: $0) }
    }

    /// The option as the command line spells it, e.g. `--session-id`.
    func spelling<Value>(_ key: KeyPath<Keys, OptionKey<Value>>) -> String { keys[keyPath: key].spelling }

    /// The option as the command line spells it, e.g. `--country`; empty when the keys leave it out.
    func spelling<Value>(_ key: KeyPath<Keys, OptionKey<Value>?>) -> String { keys[keyPath: key]?.spelling ?? "" }

    private func read<Value>(_ key: OptionKey<Value>) -> Value {
        if let fallback = key.fallback, line.values[key.name] == nil { return fallback }
        return read(key.name, as: Value.self)
    }

    private func read<Value: OptionValue>(_ name: String, as _: Value.Type) -> Value {
        // Keys come only from the declarations the spec is built from; this catches a command
        // whose spec and `Options` disagree.
        assert(line.declared.contains { $0.name == name }, "--\(name) is read but not declared in the spec")
        return Value.read(name, from: line)
    }
}

extension ParsedArguments where Keys: CommandOptions {
    /// The view of `line` through a command's keys.
    init(_ line: ParsedCommandLine) {
        self.init(line: line, keys: OptionDeclarations.make(Keys.self).keys)
    }
}

/// Parses arguments against a ``CommandSpec``: `--opt value`, `--opt=value`, `-o value`, flags,
/// `--` to end options, and `-h`/`--help`.
enum ArgumentParser {
    /// Parses `arguments` (the words after the subcommand name).
    /// - Throws: ``UsageError`` for unknown options, missing values, unexpected or missing arguments.
    static func parse(_ arguments: [String], spec: CommandSpec) throws(UsageError) -> ParsedCommandLine {
        var parsed = ParsedCommandLine(declared: spec.options)
        var index = 0
        var optionsEnded = false
        var refused: UsageError?
        while index < arguments.count {
            let word = arguments[index]
            index += 1
            if optionsEnded || word == "-" || !word.hasPrefix("-") {
                parsed.positionals.append(word)
                continue
            }
            if word == "--" { optionsEnded = true; continue }
            if word == "-h" || word == "--help" { parsed.helpRequested = true; continue }
            let option: CommandSpec.Option
            var inlineValue: String?
            if word.hasPrefix("--") {
                var name = String(word.dropFirst(2))
                if let eq = name.firstIndex(of: "=") {
                    inlineValue = String(name[name.index(after: eq)...])
                    name = String(name[..<eq])
                }
                guard let found = spec.options.first(where: { $0.name.isByteEqual(to: name) }) else {
                    throw UsageError("Unknown option '--\(SafeEcho.name(name))'.")
                }
                option = found
            } else {
                let letters = Array(word.dropFirst())
                guard letters.count == 1, let found = spec.options.first(where: { $0.short == letters[0] }) else {
                    throw UsageError("Unknown option '-\(SafeEcho.name(String(word.dropFirst().prefix(1))))'.")
                }
                option = found
            }
            if option.valueName == nil {
                if inlineValue != nil { throw UsageError("The flag '--\(option.name)' does not take a value.") }
                parsed.flags.insert(option.name)
            } else {
                let value: String
                if let inlineValue {
                    value = inlineValue
                } else {
                    guard index < arguments.count else {
                        throw UsageError("Missing value for '--\(option.name) <\(option.valueName!.lowercased())>'.")
                    }
                    value = arguments[index]
                    index += 1
                }
                if let check = option.check, !check.accepts(value) { refused = refused ?? check.error(option: option.name) }
                parsed.values[option.name] = value
                parsed.allValues[option.name, default: []].append(value)
            }
        }
        if parsed.helpRequested { return parsed }
        for option in spec.options where option.isRequired && parsed.values[option.name] == nil {
            throw UsageError("Missing expected argument '--\(option.name) <\(option.valueName!.lowercased())>'.")
        }
        let requiredCount = spec.positionals.filter(\.isRequired).count
        if parsed.positionals.count < requiredCount {
            let missing = spec.positionals[parsed.positionals.count]
            throw UsageError("Missing expected argument '<\(missing.valueName.lowercased())>'.")
        }
        if parsed.positionals.count > spec.positionals.count {
            throw UsageError("Unexpected argument at position \(spec.positionals.count + 1).")
        }
        // A typed option's value is refused once the whole line is read, as a command refused it
        // before: `--help` anywhere wins, and a missing argument is named first.
        if let refused { throw refused }
        for rule in spec.rules {
            if let violation = rule.violation(in: parsed) { throw violation }
        }
        return parsed
    }
}
