/// The `cse` command tree materialised for the generators of completion scripts and the man page:
/// the root (`cse` itself, with `--version`, the generator options and `-h/--help`), the command
/// groups of ``CommandTree`` (e.g. `cse session`), and every command with the options and
/// positionals of its ``CommandSpec``. Generators walk these nodes, so they never list commands by
/// hand: a new declaration appears in every script and in the manual by itself.
struct CommandNode: Sendable {
    /// The words that reach this node, starting with `cse` (`["cse", "encrypt"]`).
    let path: [String]
    /// One line of help.
    let abstract: String
    /// The longer help text, or empty.
    let discussion: String
    /// The node's own options, without `-h/--help` (every node has that one).
    let options: [CommandSpec.Option]
    /// The node's positional arguments.
    let positionals: [CommandSpec.Positional]
    /// The subcommands, in `cse --help` order.
    let children: [CommandNode]

    /// The node's own word (`encrypt`); `cse` for the root.
    var name: String { path[path.count - 1] }

    /// The options that only the root has: `cse --help` and the manual list these declarations
    /// (completing the generator options is left to `cse --help`).
    static let rootOptions: [CommandSpec.Option] = [
        .flag("version", help: "Show the version."),
        .value("generate-completion-script", "SHELL", help: "Print a completion script for bash, zsh or fish."),
        .flag("generate-manual", help: "Print the manual page (mdoc) for cse."),
    ]

    /// The whole tree, from ``CommandTree/children(of:)``.
    static var cse: CommandNode {
        CommandNode(
            path: ["cse"], abstract: CommandLineTool.abstract, discussion: "", options: rootOptions,
            positionals: [], children: children(of: []))
    }

    /// The nodes below the group (or top level) `words`, in declaration order.
    private static func children(of words: [String]) -> [CommandNode] {
        CommandTree.children(of: words).map { entry in
            switch entry {
            case .command(let command):
                let spec = command.spec
                return CommandNode(
                    path: ["cse"] + spec.name.split(separator: " ").map(String.init), abstract: spec.abstract,
                    discussion: spec.discussion, options: spec.options, positionals: spec.positionals,
                    children: [])
            case .group(let group):
                return CommandNode(
                    path: ["cse"] + group.words, abstract: group.abstract, discussion: "", options: [],
                    positionals: [], children: children(of: group.words))
            }
        }
    }

    init(
        path: [String], abstract: String, discussion: String, options: [CommandSpec.Option],
        positionals: [CommandSpec.Positional], children: [CommandNode]
    ) {
        self.path = path
        self.abstract = abstract
        self.discussion = discussion
        self.options = options
        self.positionals = positionals
        self.children = children
    }

    /// This node and every node below it, depth first, parents before children.
    var allNodes: [CommandNode] { [self] + children.flatMap(\.allNodes) }

    /// The words a user can type at this node: options (long and short, with `-h/--help`) and the
    /// names of the subcommands.
    var optionWords: [String] {
        var words: [String] = []
        for option in options {
            words.append("--" + option.name)
            if let short = option.short { words.append("-" + String(short)) }
        }
        return words + ["-h", "--help"]
    }
}

extension CommandSpec.Option {
    /// How a completion should offer this option's value: files, directories, or nothing (a
    /// free-form value, or a flag that takes none).
    enum ValueCompletion: Equatable {
        case none, file, directory, words([String])
    }

    /// The value completion implied by a typed option's values (``ArgumentValue``), the
    /// placeholder (`FILE`, `DIR`), or the option itself.
    var valueCompletion: ValueCompletion {
        if let choices = check?.choices, !choices.isEmpty { return .words(choices) }
        switch valueName {
        case nil: return .none
        case "FILE": return .file
        case "DIR": return .directory
        case "SHELL": return .words(CompletionShell.allCases.map(\.rawValue))
        default: return .none
        }
    }
}
