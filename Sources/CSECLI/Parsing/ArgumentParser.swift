import CSECore

/// A usage error: the command line itself is wrong. `cse` prints `Error: …`, the usage line and a
/// hint to stderr and exits 64 (`EX_USAGE`).
struct UsageError: Error, Sendable, Equatable {
    /// What is wrong, without echoing any secret (option values are never quoted).
    let message: String
    /// Creates a usage error.
    init(_ message: String) { self.message = message }
}

/// The parsed command line of one subcommand.
struct ParsedArguments: Sendable, Equatable {
    /// Values of value-taking options by long name (the last occurrence wins).
    var values: [String: String] = [:]
    /// Flags that were given, by long name.
    var flags: Set<String> = []
    /// Positional arguments in order.
    var positionals: [String] = []
    /// Whether `-h`/`--help` was given.
    var helpRequested = false

    /// The value of `--name`, if given.
    subscript(name: String) -> String? { values[name] }
    /// Every value of a repeatable `--name`, in order (`cse worldline create-session --token A --token B`).
    var allValues: [String: [String]] = [:]
    /// Every value given for `--name`, in order.
    func all(_ name: String) -> [String] { allValues[name] ?? [] }
    /// Whether `--name` was given.
    func has(_ name: String) -> Bool { flags.contains(name) }

    /// The value of `--name`, which the spec marks required (checked during parsing).
    func required(_ name: String) -> String { values[name] ?? "" }

    /// The integer value of `--name`, or a usage error when it is not a decimal integer.
    func integer(_ name: String) throws(UsageError) -> Int? {
        guard let text = values[name] else { return nil }
        guard let value = Int(text), text.utf8.allSatisfy({ $0.isASCIIDigit }) else {
            throw UsageError("The value for '--\(name)' must be a non-negative integer.")
        }
        return value
    }
}

/// Parses arguments against a ``CommandSpec``: `--opt value`, `--opt=value`, `-o value`, flags,
/// `--` to end options, and `-h`/`--help`.
enum ArgumentParser {
    /// Parses `arguments` (the words after the subcommand name).
    /// - Throws: ``UsageError`` for unknown options, missing values, unexpected or missing arguments.
    static func parse(_ arguments: [String], spec: CommandSpec) throws(UsageError) -> ParsedArguments {
        var parsed = ParsedArguments()
        var index = 0
        var optionsEnded = false
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
            } else if let inlineValue {
                parsed.values[option.name] = inlineValue
                parsed.allValues[option.name, default: []].append(inlineValue)
            } else {
                guard index < arguments.count else {
                    throw UsageError("Missing value for '--\(option.name) <\(option.valueName!.lowercased())>'.")
                }
                parsed.values[option.name] = arguments[index]
                parsed.allValues[option.name, default: []].append(arguments[index])
                index += 1
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
        return parsed
    }
}
