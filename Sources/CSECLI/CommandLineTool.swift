import CSECore
import Dispatch
#if canImport(Glibc)
import Glibc
#endif

/// Exit codes of `cse`, documented in the README.
enum ExitCode {
    /// Success; for checks, "valid".
    static let success: Int32 = 0
    /// Failure: invalid input, a failed check, or an operational error (message on stderr).
    static let failure: Int32 = 1
    /// The payment is pending (issue #34): processed, not decided yet; the payer must act (the
    /// output's `action`) or the platform decides later. stderr names how to resume it.
    static let pending: Int32 = 3
    /// The command line is wrong (`EX_USAGE`).
    static let usage: Int32 = 64
    /// The outcome of a call that moves money is unknown (`EX_TEMPFAIL`): it may have been
    /// processed. stderr names the keys that reconcile it; retry with the same idempotence key.
    static let outcomeUnknown: Int32 = 75
    /// The reader of standard output has gone (`EPIPE`): 128 + SIGPIPE, as a shell reports a
    /// process that SIGPIPE ended. Nothing is printed.
    static let brokenPipe: Int32 = 141
}

/// One `cse` subcommand.
protocol CLICommand: Sendable {
    /// The options the command takes, each declared once as an ``OptionKey``.
    associatedtype Options: CommandOptions
    /// The command's declarative description, built with `options: Options.self`.
    static var spec: CommandSpec { get }
    /// Validates the parsed arguments, read through the keys of ``Options``.
    /// - Throws: ``UsageError`` when they are inconsistent.
    init(arguments: ParsedArguments<Options>) throws(UsageError)
    /// Runs the command and returns its exit code (a command without network I/O; see
    /// ``NetworkCommand`` for the others).
    /// - Throws: ``CSEError`` for an operational failure; the tool prints it and exits 1.
    func run() throws(CSEError) -> Int32
}

/// A `cse` subcommand whose work is network I/O: the tool starts it from its async entry point
/// (``CommandLineTool/runProcess(_:)``: a task, then `dispatchMain`) and awaits ``runAsync()``.
/// A command without I/O never starts the concurrency runtime.
protocol NetworkCommand: CLICommand {
    /// Whether this invocation calls the network (`cse seal` does only with `--session`); when
    /// it does not, the tool calls ``CLICommand/run()``.
    var callsNetwork: Bool { get }
    /// Runs the command, awaiting its network calls, and returns its exit code.
    /// - Throws: ``CSEError`` for an operational failure; the tool prints it and exits 1.
    func runAsync() async throws(CSEError) -> Int32
}

extension NetworkCommand {
    /// Every invocation calls the network, unless the command says otherwise.
    var callsNetwork: Bool { true }

    /// A command that always calls the network has no synchronous path; the tool never calls
    /// this while ``callsNetwork`` is true.
    func run() throws(CSEError) -> Int32 {
        throw CSEError(.cliInternal, "a network command runs from the async entry point")
    }
}

extension CLICommand {
    /// The command for a command line parsed against ``spec``.
    /// - Throws: ``UsageError`` from ``init(arguments:)``.
    static func make(_ line: ParsedCommandLine) throws(UsageError) -> Self {
        try Self(arguments: ParsedArguments(line))
    }
}

/// The `cse` entry point: dispatches to subcommands and implements the help, version and
/// usage-error contract of swift-argument-parser. The only public declaration of CSECLI: everything
/// else is internal (tests use `@testable import CSECLI`); a new subcommand is an internal
/// `CLICommand` listed in `commands`.
public enum CommandLineTool {
    /// The tool and library version (one definition for the whole package: `CSEKitVersion`).
    static let version = CSEKitVersion.current


    /// The one-line summary of `cse`, shown by `cse --help` and in the manual's NAME section.
    static let abstract = "Client-side encryption (JWE) and validation of payment customer input."

    /// The top-level help text.
    static var helpText: String {
        var text = "OVERVIEW: \(abstract)\n\nUSAGE: cse <subcommand>\n\n"
        text += CommandSpec.optionsSection(CommandNode.rootOptions) + "\nSUBCOMMANDS:\n"
        text += CommandTree.listing(CommandTree.children(of: []))
        text += "\n  See 'cse help <subcommand>' for detailed help.\n"
        return text
    }

    /// What dispatching a command line leaves to do.
    private enum Step {
        /// Done, with this status (help, a usage error, a command without network I/O).
        case finished(Int32)
        /// A command whose network calls must be awaited.
        case network(any NetworkCommand)
    }

    /// The process entry point of `cse`: opens `/dev/null` on any of file descriptors 0–2 that
    /// is closed, then runs the command line and exits with its status: the command's, unless a
    /// write to standard output failed (1, or ``ExitCode/brokenPipe``). A command without network
    /// I/O runs on this thread and never starts the concurrency runtime; a ``NetworkCommand``
    /// runs as a task awaited from `dispatchMain` (the async entry point), which exits the process.
    public static func runProcess(_ arguments: [String]) -> Never {
        StandardStreams.prepare()
        switch dispatch(arguments) {
        case .finished(let status):
            exit(StandardStreams.finish(status))
        case .network(let command):
            Task { exit(StandardStreams.finish(await runNetwork(command))) }
            dispatchMain()
        }
    }

    /// Runs `cse` with `arguments` (without the program name) in this process and returns the
    /// exit code, as ``runProcess(_:)`` would exit with it.
    public static func main(_ arguments: [String]) async -> Int32 {
        StandardStreams.prepare()
        switch dispatch(arguments) {
        case .finished(let status): return StandardStreams.finish(status)
        case .network(let command): return StandardStreams.finish(await runNetwork(command))
        }
    }

    /// Runs a command line that makes no network call, in this process (the libFuzzer harness of
    /// `--lines`); a ``NetworkCommand`` that would call the network is `cli.internal`.
    package static func mainWithoutNetwork(_ arguments: [String]) -> Int32 {
        StandardStreams.prepare()
        switch dispatch(arguments) {
        case .finished(let status): return StandardStreams.finish(status)
        case .network: return StandardStreams.report(CSEError(.cliInternal, "this entry point makes no network call"))
        }
    }

    /// Awaits a network command and prints its error, if any.
    private static func runNetwork(_ command: any NetworkCommand) async -> Int32 {
        do throws(CSEError) {
            return try await command.runAsync()
        } catch {
            return StandardStreams.report(error)
        }
    }

    private static func dispatch(_ arguments: [String]) -> Step {
        if let status = topLevel(arguments) { return .finished(status) }
        if let (command, wordCount) = CommandTree.command(matching: arguments) {
            return run(command, arguments: arguments.dropFirst(wordCount))
        }
        if let first = arguments.first, let alias = deprecatedNames.first(where: { $0.name.isByteEqual(to: first) }) {
            StandardStreams.err("warning: 'cse \(alias.name)' is deprecated; use 'cse \(alias.command.spec.name)'.\n")
            return run(alias.command, arguments: arguments.dropFirst())
        }
        return .finished(groupOrUnknown(arguments))
    }

    /// The top-level forms (`cse`, `--help`, `--version`, the generators, `help`): their status,
    /// or `nil` for a command line that names a command or a group.
    private static func topLevel(_ arguments: [String]) -> Int32? {
        guard let first = arguments.first else {
            StandardStreams.out(helpText)
            return ExitCode.success
        }
        switch first {
        case "-h", "--help":
            StandardStreams.out(helpText)
            return ExitCode.success
        case "--version":
            StandardStreams.out(version + "\n")
            return ExitCode.success
        case _ where first == "--generate-completion-script" || first.hasPrefix("--generate-completion-script="):
            return generateCompletionScript(arguments)
        case "--generate-manual":
            guard arguments.count == 1 else {
                return usageFailure(
                    UsageError("Unexpected argument after '--generate-manual'."), usage: "cse --generate-manual", helpHint: "cse --help")
            }
            StandardStreams.out(ManualPage.mdoc())
            return ExitCode.success
        case "help":
            let path = Array(arguments.dropFirst())
            guard !path.isEmpty else { StandardStreams.out(helpText); return ExitCode.success }
            if let match = CommandTree.command(matching: path), match.wordCount == path.count {
                StandardStreams.out(match.command.spec.helpText)
                return ExitCode.success
            }
            if let group = CommandTree.group(path) {
                StandardStreams.out(CommandTree.helpText(of: group))
                return ExitCode.success
            }
            if path.count == 1, let alias = deprecatedNames.first(where: { $0.name.isByteEqual(to: path[0]) }) {
                StandardStreams.err("warning: 'cse \(alias.name)' is deprecated; use 'cse \(alias.command.spec.name)'.\n")
                StandardStreams.out(alias.command.spec.helpText)
                return ExitCode.success
            }
            return usageFailure(
                UsageError("Unknown subcommand '\(SafeEcho.name(path.joined(separator: " ")))'."), usage: "cse <subcommand>",
                helpHint: "cse --help")
        default:
            return nil
        }
    }

    /// Parses `arguments` (the words after the command's name) for `command` and runs it.
    private static func run(_ command: any CLICommand.Type, arguments: ArraySlice<String>) -> Step {
        let spec = command.spec
        let instance: any CLICommand
        do throws(UsageError) {
            let parsed = try ArgumentParser.parse(Array(arguments), spec: spec)
            if parsed.helpRequested {
                StandardStreams.out(spec.helpText)
                return .finished(ExitCode.success)
            }
            instance = try command.make(parsed)
        } catch {
            return .finished(usageFailure(error, usage: spec.usageLine, helpHint: "cse \(spec.name) --help"))
        }
        if let network = instance as? any NetworkCommand, network.callsNetwork { return .network(network) }
        do throws(CSEError) {
            return .finished(try instance.run())
        } catch {
            return .finished(StandardStreams.report(error))
        }
    }

    /// No command matched: a group name alone (or with `--help`) prints the group's help; anything
    /// else is an unknown subcommand or option at the deepest group reached.
    private static func groupOrUnknown(_ arguments: [String]) -> Int32 {
        let path = CommandTree.groupPrefix(of: arguments)
        let rest = arguments.dropFirst(path.count)
        let usage = path.isEmpty ? "cse <subcommand>" : "cse \(path.joined(separator: " ")) <subcommand>"
        let hint = path.isEmpty ? "cse --help" : "cse \(path.joined(separator: " ")) --help"
        if let group = CommandTree.group(path) {
            if rest.isEmpty || rest.first == "-h" || rest.first == "--help" {
                StandardStreams.out(CommandTree.helpText(of: group))
                return ExitCode.success
            }
        }
        let word = rest.first ?? ""
        let what =
            word.hasPrefix("-")
            ? "Unknown option '\(word.prefix { $0 == "-" })\(SafeEcho.name(String(word.drop { $0 == "-" })))'."
            : "Unknown subcommand '\(SafeEcho.name(word))'."
        return usageFailure(UsageError(what), usage: usage, helpHint: hint)
    }

    /// `cse --generate-completion-script bash|zsh|fish` (also `--generate-completion-script=SHELL`).
    private static func generateCompletionScript(_ arguments: [String]) -> Int32 {
        let usage = "cse --generate-completion-script <shell>"
        var words = arguments
        if let eq = words[0].firstIndex(of: "=") {
            words = [String(words[0][..<eq]), String(words[0][words[0].index(after: eq)...])] + words.dropFirst()
        }
        guard words.count >= 2 else {
            return usageFailure(
                UsageError("Missing value for '--generate-completion-script <shell>'."), usage: usage, helpHint: "cse --help")
        }
        guard words.count == 2 else {
            return usageFailure(UsageError("Unexpected argument at position 2."), usage: usage, helpHint: "cse --help")
        }
        guard let shell = CompletionShell(rawValue: words[1]) else {
            let names = CompletionShell.allCases.map(\.rawValue).joined(separator: ", ")
            return usageFailure(
                UsageError("Unknown shell '\(SafeEcho.name(words[1]))'; use one of \(names)."), usage: usage, helpHint: "cse --help")
        }
        StandardStreams.out(CompletionScripts.script(for: shell))
        return ExitCode.success
    }

    private static func usageFailure(_ error: UsageError, usage: String, helpHint: String) -> Int32 {
        StandardStreams.err(
            "Error: \(SafeEcho.text(error.message, limit: SafeEcho.errorLineLimit))\nUsage: \(usage)\n  See '\(helpHint)' for more information.\n"
        )
        return ExitCode.usage
    }
}
