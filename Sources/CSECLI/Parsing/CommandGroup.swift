import CSECore

/// A named group of subcommands, such as `session` in `cse session publickey`.
///
/// Commands join a group by their name: a ``CommandSpec`` named `"session publickey"` is the
/// `publickey` command of the `session` group, and `"mastercard session create"` sits in the
/// nested group `"mastercard session"`. The dispatcher, the help printer, and anything generated
/// from the declarations (completions, the manual) derive the tree from those names, so a group
/// needs no list of its members.
struct CommandGroup: Sendable {
    /// The group's full name, words separated by one space, e.g. `mastercard session`.
    let name: String
    /// One-line summary for the parent's command list.
    let abstract: String

    /// Declares a group.
    init(name: String, abstract: String) {
        self.name = name
        self.abstract = abstract
    }

    /// The words of the name.
    var words: [String] { name.split(separator: " ").map(String.init) }
}

/// The command tree derived from the flat lists of commands and groups.
enum CommandTree {
    /// One entry of a group's (or the top level's) listing.
    enum Entry: Sendable {
        /// A runnable command.
        case command(any CLICommand.Type)
        /// A group of commands.
        case group(CommandGroup)

        /// The last word of the entry's name, as typed after its parent.
        var word: String {
            switch self {
            case .command(let command): return command.spec.name.split(separator: " ").last.map(String.init) ?? ""
            case .group(let group): return group.words.last ?? ""
            }
        }

        /// The one-line summary.
        var abstract: String {
            switch self {
            case .command(let command): return command.spec.abstract
            case .group(let group): return group.abstract
            }
        }
    }

    /// Whether two word lists are equal word by word, comparing UTF-8 bytes (a command name is an
    /// identifier: no Unicode canonical equivalence, issue #13 F14).
    static func wordsEqual(_ a: some Collection<String>, _ b: some Collection<String>) -> Bool {
        a.count == b.count && zip(a, b).allSatisfy { $0.isByteEqual(to: $1) }
    }

    /// The entries directly below `path` (`[]` for the top level), in declaration order.
    static func children(of path: [String]) -> [Entry] {
        var entries: [Entry] = []
        for group in CommandLineTool.groups where group.words.count == path.count + 1 && wordsEqual(group.words.dropLast(), path) {
            entries.append(.group(group))
        }
        for command in CommandLineTool.commands {
            let words = command.spec.name.split(separator: " ").map(String.init)
            if words.count == path.count + 1 && wordsEqual(words.dropLast(), path) { entries.append(.command(command)) }
        }
        return entries
    }

    /// The group whose full name is `path`, if any.
    static func group(_ path: [String]) -> CommandGroup? {
        CommandLineTool.groups.first { wordsEqual($0.words, path) }
    }

    /// The command whose name is the longest prefix of `arguments`, and how many words it used.
    /// Reads the names of ``CommandLineTool/namedCommands``: no command's spec is built.
    static func command(matching arguments: [String]) -> (command: any CLICommand.Type, wordCount: Int)? {
        var best: (command: any CLICommand.Type, wordCount: Int)?
        for (name, command) in CommandLineTool.namedCommands {
            let words = name.split(separator: " ").map(String.init)
            guard words.count <= arguments.count, wordsEqual(arguments.prefix(words.count), words) else { continue }
            if words.count > (best?.wordCount ?? 0) { best = (command, words.count) }
        }
        return best
    }

    /// The longest prefix of `arguments` that names a group (possibly empty).
    static func groupPrefix(of arguments: [String]) -> [String] {
        var path: [String] = []
        for word in arguments {
            guard group(path + [word]) != nil else { break }
            path.append(word)
        }
        return path
    }

    /// The help text of a group: its abstract and the entries below it.
    static func helpText(of group: CommandGroup) -> String {
        var text = "OVERVIEW: \(group.abstract)\n\nUSAGE: cse \(group.name) <subcommand>\n\n"
        text += CommandSpec.optionsSection([]) + "\nSUBCOMMANDS:\n"
        text += listing(children(of: group.words))
        text += "\n  See 'cse help \(group.name) <subcommand>' for detailed help.\n"
        return text
    }

    /// `  word<padding>abstract` lines for `entries`.
    static func listing(_ entries: [Entry]) -> String {
        var text = ""
        for entry in entries {
            let word = entry.word
            text += "  " + word + String(repeating: " ", count: max(1, 24 - word.count)) + entry.abstract + "\n"
        }
        return text
    }
}
