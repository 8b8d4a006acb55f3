import Testing
import TestSupport

/// `format` and `unformat` read a plain value, not JSON, and take no file: "malformed JSON" is
/// just text to them (checked below), and there is no file to be missing.
@Suite("cse format and unformat end to end")
struct CLIFormatCommandTests {
    static let cardMask = "{{9999}} {{9999}} {{9999}} {{9999}} {{999}}"

    @Test(
        "format lays a value out with the mask; one trailing line break is not part of the value",
        arguments: [
            (cardMask, "4111111111111111\n", [String](), "4111 1111 1111 1111\n"),
            (cardMask, "4111111111111111", [], "4111 1111 1111 1111\n"),
            (cardMask, "4111111111111111\r\n", [], "4111 1111 1111 1111\n"),
            (cardMask, "4111111111111111\n", ["--as-typed"], "4111 1111 1111 1111 \n"),
            (cardMask, "4111-1111\n", [], "4111 1111\n"),
            ("{{99}}/{{99}}", "1235\n", [], "12/35\n"),
            ("{{AA}}-{{aa}} {{**}}", "XYab  z\n", [], "XY-ab  z\n"),
        ])
    func format(mask: String, input: String, flags: [String], expected: String) throws {
        let result = try CLIFixtures.run(["format", "--mask", mask] + flags, input)
        #expect(result.status == 0)
        #expect(result.out == expected)
        #expect(result.err.isEmpty)
    }

    @Test(
        "unformat keeps what fills placeholders (the SDK's unformatString)",
        arguments: [
            ("{{99}}/{{99}}", "12/35\n", "1235\n"),
            (cardMask, "4111 1111 1111 1111\n", "4111111111111111\n"),
            ("{{99}}/{{99}}", "1/2/3/4/5\n", "1234\n"),
        ])
    func unformat(mask: String, input: String, expected: String) throws {
        let result = try CLIFixtures.run(["unformat", "--mask=\(mask)"], input)
        #expect(result.status == 0)
        #expect(result.out == expected)
        #expect(result.err.isEmpty)
    }

    @Test("format and unformat round-trip a masked value")
    func roundTrip() throws {
        let formatted = try CLIFixtures.run(["format", "--mask", Self.cardMask], "5555555555554444\n")
        let unformatted = try CLIFixtures.run(["unformat", "--mask", Self.cardMask], formatted.out)
        #expect(unformatted.out == "5555555555554444\n")
    }

    @Test("invalid input: characters that do not fit the mask are dropped, not an error", arguments: ["format", "unformat"])
    func invalidInput(command: String) throws {
        let result = try CLIFixtures.run([command, "--mask", "{{99}}/{{99}}"], "ab\n")
        #expect(result.status == 0)
        #expect(result.out == (command == "format" ? "\n" : "\n"))
        #expect(result.err.isEmpty)
    }

    @Test("malformed JSON is just text: only what fits the mask is kept", arguments: ["format", "unformat"])
    func jsonIsText(command: String) throws {
        let result = try CLIFixtures.run([command, "--mask", "{{9999}}"], #"{"cardNumber":"12"#)
        #expect(result.status == 0)
        #expect(result.out == "12\n")
    }

    @Test("an invalid mask is a usage error", arguments: ["format", "unformat"])
    func invalidMask(command: String) throws {
        try CLIFixtures.run([command, "--mask", "{{99}/{{99}}"], "1235").expectUsageError(
            "The value for '--mask' is not a valid mask: mask.invalidPlaceholder", command: command)
        try CLIFixtures.run([command, "--mask", "{{}}"], "1235").expectUsageError(
            "The value for '--mask' is not a valid mask: mask.", command: command)
    }

    @Test("unknown options and a missing --mask are usage errors", arguments: ["format", "unformat"])
    func usage(command: String) throws {
        try CLIFixtures.run([command, "--mask", "{{9}}", "--value", "1"], "1").expectUsageError(
            "Unknown option '--value'.", command: command)
        try CLIFixtures.run([command], "1").expectUsageError("Missing expected argument '--mask <mask>'.", command: command)
        try CLIFixtures.run([command, "--mask", "{{9}}", "1234"], "1").expectUsageError(
            "Unexpected argument at position 1.", command: command)
    }

    @Test("empty stdin is an error; a lone line break is the empty value", arguments: ["format", "unformat"])
    func emptyInput(command: String) throws {
        try CLIFixtures.run([command, "--mask", "{{9}}"], "").expectFailure(code: "cli.emptyInput")
        let blank = try CLIFixtures.run([command, "--mask", "{{9}}"], "\n")
        #expect(blank.status == 0 && blank.out == "\n")
    }
}
