/// The `cse` command tree as the generators of completion scripts and the man page see it: the
/// root (`cse` itself, with `--version` and `-h/--help`), and under it every subcommand of
/// ``CommandLineTool/commands``, each with the options and positionals of its ``CommandSpec``.
/// A node with children is a command group; generators walk the tree, so they never list commands
/// by hand and a new declaration appears in every script and in the manual by itself.
struct CommandTree: Sendable {
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
    let children: [CommandTree]

    /// The node's own word (`encrypt`); `cse` for the root.
    var name: String { path[path.count - 1] }

    /// The options that only the root has (the generator options are listed in the manual, but
    /// completing them is left to `cse --help`).
    static let rootOptions: [CommandSpec.Option] = [
        .flag("version", help: "Show the version."),
        .value(
            "generate-completion-script", "SHELL",
            help: "Print a completion script for bash, zsh or fish to standard output."),
        .flag("generate-manual", help: "Print this manual page (mdoc) to standard output."),
    ]

    /// The tree of ``CommandLineTool/commands``.
    static var cse: CommandTree {
        CommandTree(
            path: ["cse"], abstract: CommandLineTool.abstract, discussion: "", options: rootOptions,
            positionals: [],
            children: CommandLineTool.commands.map { CommandTree(spec: $0.spec, parent: ["cse"]) })
    }

    /// A leaf for one declared command.
    init(spec: CommandSpec, parent: [String]) {
        self.init(
            path: parent + [spec.name], abstract: spec.abstract, discussion: spec.discussion,
            options: spec.options, positionals: spec.positionals, children: [])
    }

    init(
        path: [String], abstract: String, discussion: String, options: [CommandSpec.Option],
        positionals: [CommandSpec.Positional], children: [CommandTree]
    ) {
        self.path = path
        self.abstract = abstract
        self.discussion = discussion
        self.options = options
        self.positionals = positionals
        self.children = children
    }

    /// This node and every node below it, depth first, parents before children.
    var allNodes: [CommandTree] { [self] + children.flatMap(\.allNodes) }

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

    /// The value completion implied by the placeholder (`FILE`, `DIR`) or by the option itself.
    var valueCompletion: ValueCompletion {
        switch valueName {
        case nil: return .none
        case "FILE": return .file
        case "DIR": return .directory
        case "SHELL": return .words(CompletionShell.allCases.map(\.rawValue))
        default: return .none
        }
    }
}
