import CSECLI
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
    static func bashCompletions(_ words: [String], in directory: String? = nil) throws -> [String] {
        let script = try CommandRunner.run(["--generate-completion-script", "bash"])
        try #require(script.status == 0)
        let dir = try CommandRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = dir + "/cse.bash"
        try script.stdout.write(to: path)
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
        for command in CommandLineTool.commands {
            #expect(offered.contains(command.spec.name), "offers \(command.spec.name)")
        }
        #expect(offered.isSuperset(of: ["help", "--version", "--help", "-h", "--generate-completion-script", "--generate-manual"]))
    }

    @Test("a prefix narrows the subcommands", arguments: [
        (["cse", "enc"], ["encrypt"]),
        (["cse", "s"], ["seal", "sign"]),
        (["cse", "help", "un"], ["unformat"]),
        (["cse", "--generate-completion-script", "f"], ["fish"]),
        (["cse", "--gen"], ["--generate-completion-script", "--generate-manual"]),
    ])
    func prefixes(words: [String], expected: [String]) throws {
        #expect(try Self.bashCompletions(words) == expected)
    }

    @Test("every option of every subcommand is offered after '--', and nothing else")
    func everyOption() throws {
        for command in CommandLineTool.commands {
            let expected = Set(command.spec.options.map { "--" + $0.name } + ["--help"])
            #expect(Set(try Self.bashCompletions(["cse", command.spec.name, "--"])) == expected, "cse \(command.spec.name)")
        }
    }

    @Test("options are still completed after an option and its value")
    func afterAValue() throws {
        #expect(try Self.bashCompletions(["cse", "seal", "--product", "builtin:card", "--se"]) == ["--session-id"])
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

    @Test("zsh and fish scripts are valid syntax for their shells (zsh -n, fish -n)", arguments: [("zsh", "/usr/bin/zsh"), ("fish", "/usr/bin/fish")])
    func otherShells(shell: String, binary: String) throws {
        let script = try CommandRunner.run(["--generate-completion-script", shell])
        #expect(script.status == 0)
        #expect(script.out.contains("session-id") && script.out.contains("encrypt"))
        guard FileManager.default.isExecutableFile(atPath: binary) else {
            Issue.record("\(binary) is missing (apt-get install \(shell)); only the generation was checked")
            return
        }
        let dir = try CommandRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try script.stdout.write(to: dir + "/cse.\(shell)")
        let check = try Shell.run(binary, ["-n", dir + "/cse.\(shell)"])
        #expect(check.status == 0, "\(shell) -n: \(check.err)")
    }

    @Test("an unknown shell, a missing one or extra words are usage errors", arguments: [
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
        #expect(try CommandRunner.run(["--generate-completion-script=zsh"]).stdout == CommandRunner.run(["--generate-completion-script", "zsh"]).stdout)
    }

    @Test("the man page names every subcommand and option, and mandoc -T lint finds nothing")
    func manual() throws {
        let page = try CommandRunner.run(["--generate-manual"])
        #expect(page.status == 0)
        #expect(page.out.hasPrefix(".\\\" cse(1)") && page.out.contains("\n.Dt CSE 1\n.Os\n.Sh NAME\n.Nm cse\n"))
        for command in CommandLineTool.commands {
            #expect(page.out.contains("\n.It Nm Cm \(command.spec.name)"), "documents \(command.spec.name)")
            for option in command.spec.options {
                #expect(page.out.contains("Fl -\(option.name)"), "documents \(command.spec.name) --\(option.name)")
            }
        }
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/mandoc") else {
            Issue.record("/usr/bin/mandoc is missing (apt-get install mandoc); the page was not linted")
            return
        }
        let dir = try CommandRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try page.stdout.write(to: dir + "/cse.1")
        let lint = try Shell.run("/usr/bin/mandoc", ["-T", "lint", "-W", "style", dir + "/cse.1"])
        #expect(lint.status == 0 && lint.out.isEmpty, "mandoc: \(lint.out)\(lint.err)")
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
