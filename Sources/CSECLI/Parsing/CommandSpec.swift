/// The declarative description of one `cse` subcommand: its name, help text, options and
/// positional arguments. The parser, the help printer and the usage line are all derived from it,
/// so they cannot disagree (the swift-argument-parser contract, without the dependency).
///
/// The options come from the command's ``CommandOptions``: the keys the command reads with are
/// the declarations listed here (issue #12).
struct CommandSpec: Sendable {
    /// One `--name value` option or `--flag`: what a command's ``OptionKey`` declares, and what
    /// the top level of `cse` lists (``CommandNode/rootOptions``).
    struct Option: Sendable {
        /// The kebab-case long name without dashes, e.g. `session-id`.
        let name: String
        /// An optional one-letter short name without the dash, e.g. `o`.
        let short: Character?
        /// The placeholder shown in help, e.g. `FILE`; `nil` for a flag that takes no value.
        let valueName: String?
        /// One line of help.
        let help: String
        /// Whether the option must be given.
        let isRequired: Bool
        /// How the parser checks a typed option's values (``ArgumentValue``); `nil` for free text.
        let check: ValueCheck?

        /// Declares an option that takes a value.
        static func value(
            _ name: String, short: Character? = nil, _ valueName: String, required: Bool = false, help: String, check: ValueCheck? = nil
        ) -> Option {
            Option(name: name, short: short, valueName: valueName, help: help, isRequired: required, check: check)
        }

        /// Declares a flag (an option without a value).
        static func flag(_ name: String, short: Character? = nil, help: String) -> Option {
            Option(name: name, short: short, valueName: nil, help: help, isRequired: false, check: nil)
        }
    }

    /// One positional argument.
    struct Positional: Sendable {
        /// The placeholder shown in help, e.g. `KIND`.
        let valueName: String
        /// One line of help.
        let help: String
        /// Whether it must be given.
        let isRequired: Bool

        /// Declares a positional argument.
        init(_ valueName: String, required: Bool = true, help: String) {
            self.valueName = valueName
            self.help = help
            self.isRequired = required
        }
    }

    /// The subcommand name, e.g. `encrypt`.
    let name: String
    /// One-line summary for the command list.
    let abstract: String
    /// Longer help text, printed after the usage.
    let discussion: String
    /// The options, in help order: the declarations of the command's ``CommandOptions``.
    let options: [Option]
    /// The positional arguments, in order.
    let positionals: [Positional]
    /// The rules between options (exclusive and dependent options), which the parser checks.
    let rules: [OptionRule]

    /// Creates a command description whose options are the keys of `options`.
    init<Options: CommandOptions>(
        name: String, abstract: String, discussion: String = "", options: Options.Type, positionals: [Positional] = []
    ) {
        self.name = name
        self.abstract = abstract
        self.discussion = discussion
        let declared = OptionDeclarations.make(options)
        self.options = declared.options
        self.rules = declared.rules
        self.positionals = positionals
    }

    /// `cse name <required options> [<optional>] POSITIONALS`.
    var usageLine: String {
        var parts = ["cse", name]
        for option in options {
            let text = "--\(option.name)" + (option.valueName.map { " <\($0.lowercased())>" } ?? "")
            parts.append(option.isRequired ? text : "[\(text)]")
        }
        for positional in positionals {
            let text = "<\(positional.valueName.lowercased())>"
            parts.append(positional.isRequired ? text : "[\(text)]")
        }
        return parts.joined(separator: " ")
    }

    /// The full help text printed by `cse <name> --help`.
    var helpText: String {
        var text = "OVERVIEW: \(abstract)\n"
        if !discussion.isEmpty { text += "\n\(discussion)\n" }
        text += "\nUSAGE: \(usageLine)\n"
        if !positionals.isEmpty {
            text += "\nARGUMENTS:\n"
            for positional in positionals {
                text += "  " + Self.pad("<\(positional.valueName.lowercased())>") + positional.help + "\n"
            }
        }
        text += "\n" + Self.optionsSection(options)
        return text
    }

    /// `OPTIONS:` and one line per option, then `-h, --help`: the section of every help text
    /// (a command's, a group's with no options, and the top level's with ``CommandNode/rootOptions``).
    static func optionsSection(_ options: [Option]) -> String {
        var text = "OPTIONS:\n"
        for option in options {
            var left = option.short.map { "-\($0), " } ?? ""
            left += "--\(option.name)" + (option.valueName.map { " <\($0.lowercased())>" } ?? "")
            text += "  " + pad(left) + option.help + "\n"
        }
        text += "  " + pad("-h, --help") + "Show help information.\n"
        return text
    }

    private static func pad(_ text: String) -> String {
        text.count >= 24 ? text + "\n" + String(repeating: " ", count: 26) : text + String(repeating: " ", count: 24 - text.count)
    }
}
