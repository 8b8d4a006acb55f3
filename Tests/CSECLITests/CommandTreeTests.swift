@testable import CSECLI
import Testing

/// The command tree is derived from command names; these invariants keep it well formed as
/// commands and groups are added.
@Suite("cse: the command tree")
struct CommandTreeTests {
    @Test("every word prefix of a command or group name is a declared group")
    func everyParentIsDeclared() {
        let names = CommandLineTool.commands.map { $0.spec.name } + CommandLineTool.groups.map { $0.name }
        for name in names {
            let words = name.split(separator: " ").map(String.init)
            for length in stride(from: 1, to: words.count, by: 1) {
                #expect(
                    CommandTree.group(Array(words.prefix(length))) != nil,
                    "\(name): missing group \(words.prefix(length).joined(separator: " "))")
            }
        }
    }

    @Test("names are unique across commands and groups, and every group has a member")
    func uniqueNamesAndNoEmptyGroups() {
        let names = CommandLineTool.commands.map { $0.spec.name } + CommandLineTool.groups.map { $0.name }
        #expect(Set(names).count == names.count)
        for group in CommandLineTool.groups {
            #expect(!CommandTree.children(of: group.words).isEmpty, "group \(group.name) is empty")
        }
    }

    @Test("the dispatcher's name of every command is its spec's name, and each finds its command")
    func dispatchNames() {
        for (name, command) in CommandLineTool.namedCommands {
            #expect(name == command.spec.name, "\(command): registered as '\(name)', its spec says '\(command.spec.name)'")
            let match = CommandTree.command(matching: name.split(separator: " ").map(String.init) + ["--help"])
            #expect(match.map { ObjectIdentifier($0.command) } == ObjectIdentifier(command), "\(name)")
            #expect(match?.wordCount == name.split(separator: " ").count, "\(name)")
        }
    }

    @Test("the top level lists every one-word command, in declaration order")
    func topLevel() {
        let listed = CommandTree.children(of: []).map { $0.word }
        let oneWord = CommandLineTool.commands.map { $0.spec.name }.filter { !$0.contains(" ") }
        #expect(listed.filter { oneWord.contains($0) } == oneWord)
    }
}
