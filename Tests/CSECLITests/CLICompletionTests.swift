@testable import CSECLI
import Foundation
import Testing
import TestSupport

/// `cse --generate-completion-script` and `cse --generate-manual`, generated from the command
/// declarations. The bash script is loaded into a real bash and asked for completions the way
/// bash-completion asks (`COMP_WORDS`, `COMP_CWORD`, then the registered function).
@Suite("cse: completion scripts and the man page")
struct CLICompletionTests {
    /// Sources the generated bash script, sets `words` as `COMP_WORDS` with the cursor on the last
    /// word, calls `_cse` and returns `COMPREPLY`.
    static func bashCompletions(_ words: [String], in directory: String? = nil, script: String? = nil) throws -> [String] {
        let generated = try CommandRunner.run(["--generate-completion-script", "bash"])
        try #require(generated.status == 0)
        let dir = try CommandRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = dir + "/cse.bash"
        try (script.map { Array($0.utf8) } ?? generated.stdout).write(to: path)
        let quoted = words.map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }.joined(separator: " ")
        let driver = """
            source '\(path)' || exit 3
            \(directory.map { "cd '\($0)' || exit 4" } ?? "")
            COMP_WORDS=(\(quoted)); COMP_CWORD=\(words.count - 1)
            _cse
            printf '%s\\n' "${COMPREPLY[@]}"
            """
        let result = try Shell.run("/bin/bash", ["-c", driver])
        try #require(result.status == 0, "bash failed: \(result.err)")
        return result.out.split(separator: "\n").map(String.init)
    }

    @Test("an empty first word offers every subcommand, help and the top-level options")
    func topLevel() throws {
        let offered = Set(try Self.bashCompletions(["cse", ""]))
        for entry in CommandTree.children(of: []) {
            #expect(offered.contains(entry.word), "offers \(entry.word)")
        }
        #expect(offered.isSuperset(of: ["help", "--version", "--help", "-h", "--generate-completion-script", "--generate-manual"]))
    }

    @Test(
        "a prefix narrows the subcommands",
        arguments: [
            (["cse", "enc"], ["encrypt"]),
            (["cse", "s"], ["seal", "session"]),
            (["cse", "help", "un"], ["unformat"]),
            (["cse", "--generate-completion-script", "f"], ["fish"]),
            (["cse", "--gen"], ["--generate-completion-script", "--generate-manual"]),
        ])
    func prefixes(words: [String], expected: [String]) throws {
        #expect(try Self.bashCompletions(words).sorted() == expected.sorted())
    }

    @Test("every option of every command, nested ones too, is offered after '--', and nothing else")
    func everyOption() throws {
        for command in CommandLineTool.commands {
            let words = command.spec.name.split(separator: " ").map(String.init)
            let expected = Set(command.spec.options.map { "--" + $0.name } + ["--help"])
            #expect(Set(try Self.bashCompletions(["cse"] + words + ["--"])) == expected, "cse \(command.spec.name)")
        }
    }

    @Test("every declared group offers its members")
    func declaredGroups() throws {
        for group in CommandLineTool.groups {
            let members = Set(CommandTree.children(of: group.words).map(\.word))
            #expect(Set(try Self.bashCompletions(["cse"] + group.words + [""])).isSuperset(of: members), "cse \(group.name)")
        }
    }

    /// A tree with nested groups: `cse session publickey --out FILE`, `cse mastercard session create`.
    static let nested = CommandNode(
        path: ["cse"], abstract: "Test tool.", discussion: "", options: CommandNode.rootOptions, positionals: [],
        children: [
            CommandNode(
                path: ["cse", "session"], abstract: "Client API session calls.", discussion: "", options: [], positionals: [],
                children: [
                    CommandNode(
                        path: ["cse", "session", "publickey"], abstract: "Fetch the public key.", discussion: "",
                        options: [.value("out", "FILE", help: "Where to write it."), .flag("json", help: "JSON.")],
                        positionals: [], children: [])
                ]),
            CommandNode(
                path: ["cse", "mastercard"], abstract: "Mastercard Gateway.", discussion: "", options: [], positionals: [],
                children: [
                    CommandNode(
                        path: ["cse", "mastercard", "session"], abstract: "Sessions.", discussion: "", options: [], positionals: [],
                        children: [
                            CommandNode(
                                path: ["cse", "mastercard", "session", "create"], abstract: "Create a session.", discussion: "",
                                options: [.value("merchant", "ID", required: true, help: "The merchant id.")],
                                positionals: [], children: [])
                        ])
                ]),
        ])

    @Test(
        "nested groups: members at each level, then the command's options and value completion",
        arguments: [
            (
                ["cse", ""],
                ["--generate-completion-script", "--generate-manual", "--help", "--version", "-h", "help", "mastercard", "session"]
            ),
            (["cse", "session", ""], ["--help", "-h", "publickey"]),
            (["cse", "session", "publickey", "--"], ["--help", "--json", "--out"]),
            (["cse", "mastercard", "s"], ["session"]),
            (["cse", "mastercard", "session", "c"], ["create"]),
            (["cse", "mastercard", "session", "create", "--m"], ["--merchant"]),
            (["cse", "mastercard", "session", "create", "--merchant", ""], []),
        ])
    func nestedGroups(words: [String], expected: [String]) throws {
        let script = CompletionScripts.script(for: .bash, tree: Self.nested)
        let dir = try CommandRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        #expect(try Self.bashCompletions(words, in: dir, script: script).sorted() == expected)
    }

    @Test("man page text: roff escapes, one sentence per line, at most 80 bytes, tables kept literal")
    func manualText() {
        #expect(ManualPage.text(#"C:\dir. .hidden starts a line"#) == "C:\\edir.\n\\&.hidden starts a line")
        #expect(ManualPage.text("caf\u{E9} \u{2192} ok") == "caf\\[u00E9] \\[u2192] ok")
        let long = String(repeating: "word ", count: 40)
        #expect(ManualPage.text(long).split(separator: "\n").allSatisfy { $0.utf8.count <= 80 })
        #expect(
            ManualPage.text("Kinds:\n  aps    SDK_TOKEN\n  paysafe  setup\nDone.")
                == "Kinds:\n.Bd -literal -offset indent\naps    SDK_TOKEN\npaysafe  setup\n.Ed\nDone.")
        #expect(ManualPage.text("One.\n\n\nTwo.\n") == "One.\n.Pp\nTwo.")
    }

    @Test("nested groups in zsh, fish and the man page: every level is named")
    func nestedGroupsElsewhere() throws {
        let zsh = CompletionScripts.script(for: .zsh, tree: Self.nested)
        #expect(zsh.contains("_cse_mastercard_session_create()") && zsh.contains("(create) _cse_mastercard_session_create ;;"))
        let fish = CompletionScripts.script(for: .fish, tree: Self.nested)
        #expect(fish.contains("-n '__fish_cse_at \"cse mastercard session\"' -a create"))
        #expect(fish.contains("-n '__fish_cse_at \"cse mastercard session create\"' -l merchant -x"))
        let page = ManualPage.mdoc(tree: Self.nested, date: "December 1, 2026")
        #expect(page.contains("\n.It Nm Cm mastercard Cm session Cm create Fl -merchant Ar id\n"))
        #expect(page.contains("\n.It Nm Cm session Ar subcommand\n"))
    }

    @Test("options are still completed after an option and its value")
    func afterAValue() throws {
        #expect(try Self.bashCompletions(["cse", "seal", "--product", "builtin:card", "--se"]).sorted() == ["--session", "--session-id"])
        #expect(try Self.bashCompletions(["cse", "encrypt", "--kid", "k1", "--l"]) == ["--lines"])
    }

    @Test("a FILE value completes file names, a DIR value directories only, a free value nothing")
    func values() throws {
        let dir = try CommandRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try FileManager.default.createDirectory(atPath: dir + "/keys", withIntermediateDirectories: true)
        try Data("{}".utf8).write(to: URL(fileURLWithPath: dir + "/key.json"))
        #expect(Set(try Self.bashCompletions(["cse", "encrypt", "--key", "k"], in: dir)) == ["key.json", "keys"])
        #expect(try Self.bashCompletions(["cse", "keygen", "--out", "k"], in: dir) == ["keys"])
        #expect(try Self.bashCompletions(["cse", "encrypt", "--kid", ""], in: dir) == [])
    }

    @Test("zsh and fish scripts are generated from the same declarations", arguments: ["zsh", "fish"])
    func otherShells(shell: String) throws {
        let script = try CommandRunner.run(["--generate-completion-script", shell])
        #expect(script.status == 0 && script.err.isEmpty)
        for command in CommandLineTool.commands {
            #expect(script.out.contains(command.spec.name.split(separator: " ").last.map(String.init) ?? "?"))
            for option in command.spec.options { #expect(script.out.contains(option.name), "\(shell): --\(option.name)") }
        }
    }

    /// Checks `text` (written to a file named `name`) with `checker`: exit 0 and no output.
    static func check(_ text: [UInt8], named name: String, with checker: [String]) throws {
        let dir = try CommandRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try text.write(to: dir + "/" + name)
        let result = try Shell.run(checker[0], Array(checker.dropFirst()) + [dir + "/" + name])
        #expect(result.status == 0 && result.out.isEmpty, "\(checker.joined(separator: " ")) \(name): \(result.out)\(result.err)")
    }

    @Test(
        "zsh -n accepts the zsh script (the real one and one with nested groups)",
        .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/zsh"), "needs zsh (apt-get install zsh)"))
    func zshSyntax() throws {
        try Self.check(CommandRunner.run(["--generate-completion-script", "zsh"]).stdout, named: "_cse", with: ["/usr/bin/zsh", "-n"])
        try Self.check(Array(CompletionScripts.script(for: .zsh, tree: Self.nested).utf8), named: "_cse", with: ["/usr/bin/zsh", "-n"])
    }

    @Test(
        "fish -n accepts the fish script (the real one and one with nested groups)",
        .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/fish"), "needs fish (apt-get install fish)"))
    func fishSyntax() throws {
        try Self.check(
            CommandRunner.run(["--generate-completion-script", "fish"]).stdout, named: "cse.fish", with: ["/usr/bin/fish", "-n"])
        try Self.check(
            Array(CompletionScripts.script(for: .fish, tree: Self.nested).utf8), named: "cse.fish", with: ["/usr/bin/fish", "-n"])
    }

    @Test(
        "mandoc -T lint -W style finds nothing in the man page (the real one and one with nested groups)",
        .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/mandoc"), "needs mandoc (apt-get install mandoc)"))
    func manualLint() throws {
        let lint = ["/usr/bin/mandoc", "-T", "lint", "-W", "style"]
        try Self.check(CommandRunner.run(["--generate-manual"]).stdout, named: "cse.1", with: lint)
        try Self.check(Array(ManualPage.mdoc(tree: Self.nested).utf8), named: "cse.1", with: lint)
    }

    @Test(
        "an unknown shell, a missing one or extra words are usage errors",
        arguments: [
            ["--generate-completion-script"], ["--generate-completion-script", "tcsh"],
            ["--generate-completion-script", "bash", "zsh"], ["--generate-manual", "x"],
        ])
    func usageErrors(arguments: [String]) throws {
        let result = try CommandRunner.run(arguments)
        #expect(result.status == 64)
        #expect(result.out.isEmpty && result.err.hasPrefix("Error: "))
    }

    @Test("--generate-completion-script=SHELL is the same as the two-word form")
    func inlineValue() throws {
        #expect(
            try CommandRunner.run(["--generate-completion-script=zsh"]).stdout
                == CommandRunner.run(["--generate-completion-script", "zsh"]).stdout)
    }

    @Test("the man page names every command and option")
    func manual() throws {
        let page = try CommandRunner.run(["--generate-manual"])
        #expect(page.status == 0)
        #expect(page.out.hasPrefix(".\\\" cse(1)") && page.out.contains("\n.Dt CSE 1\n.Os\n.Sh NAME\n.Nm cse\n"))
        for command in CommandLineTool.commands {
            let words = command.spec.name.split(separator: " ").joined(separator: " Cm ")
            #expect(page.out.contains("\n.It Nm Cm \(words)"), "documents \(command.spec.name)")
            for option in command.spec.options {
                #expect(page.out.contains("Fl -\(option.name)"), "documents \(command.spec.name) --\(option.name)")
            }
        }
    }
}

/// Runs a program with arguments, no standard input, capturing its output.
enum Shell {
    static func run(_ executable: String, _ arguments: [String]) throws -> (status: Int32, out: String, err: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let output = Pipe(), error = Pipe()
        process.standardOutput = output
        process.standardError = error
        process.standardInput = FileHandle.nullDevice
        try process.run()
        // Standard error is drained on its own thread, so neither pipe can fill and stall the child.
        let errBox = ErrorBytes()
        let done = DispatchSemaphore(value: 0)
        Thread {
            errBox.data = error.fileHandleForReading.readDataToEndOfFile()
            done.signal()
        }.start()
        let outData = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        done.wait()
        return (process.terminationStatus, String(decoding: outData, as: UTF8.self), String(decoding: errBox.data, as: UTF8.self))
    }
}

/// Standard error bytes handed from the reader thread (written once, read after the semaphore).
private final class ErrorBytes: @unchecked Sendable {
    var data = Data()
}

extension Array where Element == UInt8 {
    fileprivate func write(to path: String) throws {
        try Data(self).write(to: URL(fileURLWithPath: path))
    }
}
