@testable import CSECLI
import Testing

/// Issue #12: a command's options are declared once, as typed keys (``OptionKey``), and read
/// through those keys; its spec, and so its help, usage line, completions and manual entry, is
/// built from the same declarations.
@Suite("cse: options are declared once, as typed keys")
struct CommandOptionsTests {
    /// A command's options of every kind, with a shared group.
    struct FixtureOptions: CommandOptions {
        let json: OptionKey<Bool>
        let name: OptionKey<String>
        let note: OptionKey<String?>
        let tags: OptionKey<[String]>
        let transport: TransportOptions.Keys

        init(_ declare: inout OptionDeclarations) {
            json = declare.flag("json", short: "j", help: "JSON.")
            name = declare.required("name", "NAME", help: "A name.")
            note = declare.value("note", "TEXT", help: "A note.")
            tags = declare.repeated("tag", "TAG", help: "A tag (repeatable).")
            transport = TransportOptions.Keys(&declare)
        }
    }

    /// Options that declare `--json` twice.
    struct TwiceDeclaredOptions: CommandOptions {
        let json: OptionKey<Bool>
        let again: OptionKey<Bool>

        init(_ declare: inout OptionDeclarations) {
            json = declare.flag("json", help: "JSON.")
            again = declare.flag("json", help: "JSON again.")
        }
    }

    static let fixture = CommandSpec(name: "fixture", abstract: "A fixture.", options: FixtureOptions.self)

    static func parse(_ words: [String]) throws -> ParsedArguments<FixtureOptions> {
        ParsedArguments(try ArgumentParser.parse(words, spec: fixture))
    }

    @Test("a spec lists the keys' declarations in the order the keys are declared, groups in place")
    func specFromKeys() {
        #expect(Self.fixture.options.map(\.name) == ["json", "name", "note", "tag", "ca-file", "timeout"])
        #expect(Self.fixture.options.map(\.isRequired) == [false, true, false, false, false, false])
        #expect(
            Self.fixture.usageLine
                == "cse fixture [--json] --name <name> [--note <text>] [--tag <tag>] [--ca-file <pem>] [--timeout <seconds>]")
    }

    @Test("each key reads its option as the type it was declared with")
    func typedReads() throws {
        let arguments = try Self.parse(["-j", "--name", "n", "--tag", "a", "--tag=b", "--ca-file", "ca.pem"])
        #expect(arguments[\.json] == true)
        #expect(arguments[\.name] == "n")
        #expect(arguments[\.note] == nil)
        #expect(arguments[\.tags] == ["a", "b"])
        #expect(arguments.group(\.transport)[\.caFile] == "ca.pem")
        #expect(arguments.group(\.transport)[\.timeout] == nil)
        #expect(arguments.spelling(\.tags) == "--tag")

        let bare = try Self.parse(["--name", "n"])
        #expect(bare[\.json] == false)
        #expect(bare[\.tags] == [])
    }

    @Test("keys a shared group leaves out read as not given")
    func omittedKeys() throws {
        // `cse session publickey` takes the session keys without any context option.
        let line = try ArgumentParser.parse(["--session", "s.json"], spec: SessionPublicKeyCommand.spec)
        let session = ParsedArguments<SessionPublicKeyCommand.Options>(line).group(\.session)
        #expect(session.keys.country == nil && session.keys.recurring == nil)
        #expect(session[\.session] == "s.json")
        #expect(session[\.country] == nil)
        #expect(session[\.recurring] == false)
        #expect(session[\.amount] == nil)
    }

    @Test("every command's spec is built from the keys it reads with: the same options, in the same order")
    func everySpecIsItsKeys() {
        for command in CommandLineTool.commands {
            #expect(command.spec.options.map(\.name) == command.declaredOptions.map(\.name), "cse \(command.spec.name)")
            #expect(command.spec.options.map(\.help) == command.declaredOptions.map(\.help), "cse \(command.spec.name)")
        }
    }

    @Test("no two options of a command share a long name or a short name")
    func uniqueNames() {
        for command in CommandLineTool.commands {
            let names = command.spec.options.map(\.name)
            let shorts = command.spec.options.compactMap(\.short)
            #expect(Set(names).count == names.count, "cse \(command.spec.name)")
            #expect(Set(shorts).count == shorts.count, "cse \(command.spec.name)")
            #expect(!names.contains("help") && !shorts.contains("h"), "cse \(command.spec.name) redeclares --help")
        }
    }

    @Test(
        "reading a key that the parsed spec does not declare stops a debug build",
        .enabled(if: _isDebugAssertConfiguration(), "the check is an assertion"))
    func undeclaredRead() async {
        await #expect(processExitsWith: .failure) {
            // A line parsed against a spec that is not built from FixtureOptions.
            _ = ParsedArguments<FixtureOptions>(ParsedCommandLine(declared: []))[\.json]
        }
    }

    @Test("declaring a name twice stops the program when the spec is built")
    func twiceDeclared() async {
        await #expect(processExitsWith: .failure) {
            _ = CommandSpec(name: "twice", abstract: "Twice.", options: TwiceDeclaredOptions.self)
        }
    }
}

extension CLICommand {
    /// The declarations of the command's keys, made afresh.
    static var declaredOptions: [CommandSpec.Option] { OptionDeclarations.make(Options.self).options }
}
