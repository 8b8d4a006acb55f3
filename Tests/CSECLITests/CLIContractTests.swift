@testable import CSECLI
import Testing
import TestSupport

/// The swift-argument-parser contract, checked on the built binary.
@Suite("cse: help, version and usage errors")
struct CLIContractTests {
    @Test("--help, -h and no arguments print the overview to stdout and exit 0", arguments: [["--help"], ["-h"], []])
    func topLevelHelp(arguments: [String]) throws {
        let result = try CommandRunner.run(arguments)
        #expect(result.status == 0)
        #expect(result.out.contains("USAGE: cse <subcommand>"))
        for name in ["demo", "seal", "validate", "format", "unformat", "iin", "check", "encrypt", "decrypt", "keygen"] {
            #expect(result.out.contains("\n  \(name) "), "lists \(name)")
        }
        #expect(result.err.isEmpty)
    }

    @Test("--version prints the version and exits 0")
    func version() throws {
        let result = try CommandRunner.run(["--version"])
        #expect(result.status == 0)
        #expect(result.out == CommandLineTool.version + "\n")
    }

    @Test(
        "'help <sub>' and '<sub> --help' print the same subcommand help to stdout",
        arguments: ["demo", "seal", "validate", "format", "unformat", "iin", "check", "encrypt", "decrypt", "keygen"])
    func subcommandHelp(name: String) throws {
        let a = try CommandRunner.run(["help", name]), b = try CommandRunner.run([name, "--help"])
        #expect(a.status == 0 && b.status == 0)
        #expect(a.out == b.out)
        #expect(a.out.contains("USAGE: cse \(name)"))
        #expect(a.out.contains("OPTIONS:"))
    }

    @Test(
        "usage errors print Error, the usage line and a hint to stderr and exit 64",
        arguments: [
            (["encrypt"], "Error: Missing expected argument '--key <file>'."),
            (["encrypt", "--key"], "Error: Missing value for '--key <file>'."),
            (["encrypt", "--bogus", "x"], "Error: Unknown option '--bogus'."),
            (["encrypt", "--key", "k", "--enc", "A999GCM"], "Error: unsupported JWE enc"),
            (["encrypt", "--key", "k", "stray"], "Error: Unexpected argument at position 1."),
            (["frobnicate"], "Error: Unknown subcommand 'frobnicate'."),
            (["--frobnicate"], "Error: Unknown option '--frobnicate'."),
            (["keygen", "--out", "/tmp", "--bits", "1024"], "Error: The value for '--bits' must be between 2048 and 16384."),
            (["keygen", "--out", "/tmp", "--bits", "lots"], "Error: The value for '--bits' must be between 2048 and 16384."),
            (["keygen", "--out=/tmp", "--force=yes"], "Error: The flag '--force' does not take a value."),
        ])
    func usageErrors(arguments: [String], message: String) throws {
        let result = try CommandRunner.run(arguments)
        #expect(result.status == 64, "\(arguments)")
        #expect(result.out.isEmpty)
        #expect(result.err.hasPrefix(message), "\(result.err)")
        #expect(result.err.contains("\nUsage: cse"))
        #expect(result.err.contains("for more information."))
    }

    @Test("--opt=value and -- are accepted")
    func optionForms() throws {
        let dir = try CommandRunner.temporaryDirectory()
        let result = try CommandRunner.run(["keygen", "--out=\(dir)", "--bits=2048", "--"])
        #expect(result.status == 0, "\(result.err)")
    }
}
