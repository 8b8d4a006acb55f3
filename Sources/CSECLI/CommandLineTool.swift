public import CSECore

/// Exit codes of `cse`, documented in the README.
public enum ExitCode {
    /// Success; for checks, "valid".
    public static let success: Int32 = 0
    /// Failure: invalid input, a failed check, or an operational error (message on stderr).
    public static let failure: Int32 = 1
    /// The command line is wrong (`EX_USAGE`).
    public static let usage: Int32 = 64
}

/// One `cse` subcommand.
public protocol CLICommand: Sendable {
    /// The command's declarative description.
    static var spec: CommandSpec { get }
    /// Validates the parsed arguments.
    /// - Throws: ``UsageError`` when they are inconsistent.
    init(arguments: ParsedArguments) throws(UsageError)
    /// Runs the command and returns its exit code.
    /// - Throws: ``CSEError`` for an operational failure; the tool prints it and exits 1.
    func run() throws(CSEError) -> Int32
}

/// The `cse` entry point: dispatches to subcommands and implements the help, version and
/// usage-error contract of swift-argument-parser.
public enum CommandLineTool {
    /// The tool and library version.
    public static let version = "0.1.0"


    /// The top-level help text.
    public static var helpText: String {
        var text = """
            OVERVIEW: Client-side encryption (JWE) and validation of payment customer input.

            USAGE: cse <subcommand>

            OPTIONS:
              --version               Show the version.
              -h, --help              Show help information.

            SUBCOMMANDS:

            """
        for command in commands {
            let name = command.spec.name
            text += "  " + name + String(repeating: " ", count: max(1, 24 - name.count)) + command.spec.abstract + "\n"
        }
        text += "\n  See 'cse help <subcommand>' for detailed help.\n"
        return text
    }

    /// Runs `cse` with `arguments` (without the program name) and returns the exit code.
    public static func main(_ arguments: [String]) -> Int32 {
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
        case "help":
            guard arguments.count > 1 else { StandardStreams.out(helpText); return ExitCode.success }
            guard let command = commands.first(where: { $0.spec.name.isByteEqual(to: arguments[1]) }) else {
                return usageFailure(UsageError("Unknown subcommand '\(SafeEcho.name(arguments[1]))'."), usage: "cse <subcommand>", helpHint: "cse --help")
            }
            StandardStreams.out(command.spec.helpText)
            return ExitCode.success
        default:
            break
        }
        guard let command = commands.first(where: { $0.spec.name.isByteEqual(to: first) }) else {
            let what = first.hasPrefix("-")
                ? "Unknown option '\(first.prefix { $0 == "-" })\(SafeEcho.name(String(first.drop { $0 == "-" })))'."
                : "Unknown subcommand '\(SafeEcho.name(first))'."
            return usageFailure(UsageError(what), usage: "cse <subcommand>", helpHint: "cse --help")
        }
        let spec = command.spec
        let instance: any CLICommand
        do throws(UsageError) {
            let parsed = try ArgumentParser.parse(Array(arguments.dropFirst()), spec: spec)
            if parsed.helpRequested {
                StandardStreams.out(spec.helpText)
                return ExitCode.success
            }
            instance = try command.init(arguments: parsed)
        } catch {
            return usageFailure(error, usage: spec.usageLine, helpHint: "cse \(spec.name) --help")
        }
        do throws(CSEError) {
            return try instance.run()
        } catch {
            StandardStreams.err("Error: \(error.description)\n")
            return ExitCode.failure
        }
    }

    private static func usageFailure(_ error: UsageError, usage: String, helpHint: String) -> Int32 {
        StandardStreams.err("Error: \(error.message)\nUsage: \(usage)\n  See '\(helpHint)' for more information.\n")
        return ExitCode.usage
    }
}
