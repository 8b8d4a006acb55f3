import CSECore
import Testing
import TestSupport

/// `check` reads a plain value and takes no file: "malformed JSON" is just an invalid value to it
/// (checked below), and there is no file to be missing.
@Suite("cse check end to end")
struct CLICheckCommandTests {
    @Test(
        "the exit code is the verdict; stdout says valid or names the failure",
        arguments: [
            ("luhn", "4111111111111111\n", [String](), 0, "valid"),
            ("luhn", "79927398713", [], 0, "valid"),
            ("luhn", "79927398710", [], 1, "invalid: luhn"),
            ("luhn", "4111 1111 1111 1111", [], 1, "invalid: luhn"),
            ("iban", "GB82 WEST 1234 5698 7654 32\n", [], 0, "valid"),
            ("iban", "gb82west12345698765432", [], 0, "valid"),
            ("iban", "GB82WEST12345698765433", [], 1, "invalid: iban(reason=checksum)"),
            ("iban", "XX82WEST12345698765432", [], 1, "invalid: iban(reason=unknownCountry)"),
            ("expiry", "12/35", ["--now", "2026-05"], 0, "valid"),
            ("expiry", "052026", ["--now", "2026-05"], 0, "valid"),
            ("expiry", "12/2035", ["--now", "2026-05"], 0, "valid"),
            ("expiry", "1/2/35", ["--now", "2026-05"], 1, "invalid: expirationDate(reason=format)"),
            ("expiry", "04/26", ["--now", "2026-05"], 1, "invalid: expirationDate(reason=past)"),
            ("expiry", "13/30", ["--now", "2026-05"], 1, "invalid: expirationDate(reason=month)"),
            ("expiry", "01/52", ["--now", "2026-05"], 1, "invalid: expirationDate(reason=tooFarAhead)"),
            ("email", "ada@example.org\n", [], 0, "valid"),
            ("email", "ada@@example.org", [], 1, "invalid: emailAddress"),
        ])
    func verdicts(kind: String, input: String, options: [String], status: Int32, text: String) throws {
        let result = try CLIFixtures.run(["check", kind] + options, input)
        #expect(result.status == status, "\(kind) \(input)")
        #expect(result.out == text + "\n")
        #expect(result.err.isEmpty)
        let quiet = try CLIFixtures.run(["check", "-q", kind] + options, input)
        #expect(quiet.status == status && quiet.out.isEmpty && quiet.err.isEmpty)
    }

    @Test(
        "--json gives the details",
        arguments: [
            ("iban", "DE89 3704 0044 0532 0130 00", [String](), #"{"check":"iban","valid":true,"country":"DE","errors":[]}"#),
            ("iban", "DE89 3704", [], #"{"check":"iban","valid":false,"country":"DE","errors":[{"code":"iban","reason":"length"}]}"#),
            (
                "expiry", "04/26", ["--now", "2026-05"],
                #"{"check":"expiry","valid":false,"now":"2026-05","errors":[{"code":"expirationDate","reason":"past"}]}"#
            ),
            ("luhn", "4111111111111111", [], #"{"check":"luhn","valid":true,"errors":[]}"#),
            ("email", "x", [], #"{"check":"email","valid":false,"errors":[{"code":"emailAddress"}]}"#),
        ])
    func json(kind: String, input: String, options: [String], expected: String) throws {
        let result = try CLIFixtures.run(["check", kind, "--json"] + options, input)
        #expect(result.out == expected + "\n")
        #expect(result.status == (expected.contains(#""valid":true"#) ? 0 : 1))
    }

    @Test("malformed JSON is just an invalid value", arguments: ["luhn", "iban", "expiry", "email"])
    func jsonIsText(kind: String) throws {
        let result = try CLIFixtures.run(["check", kind], #"{"value":"4111"#)
        #expect(result.status == 1)
        #expect(result.out.hasPrefix("invalid: "))
        #expect(result.err.isEmpty)
    }

    @Test(
        "usage errors exit 64; a mistyped kind is not echoed when it looks like data",
        arguments: [
            (["frob"], "The value 'frob' is invalid for '<kind>'; use luhn, iban, expiry, email."),
            (["4111111111111111"], "The value '<redacted 16 chars>' is invalid for '<kind>'"),
            ([], "Missing expected argument '<kind>'."),
            (["luhn", "--now", "2026-05"], "--now needs <kind> expiry."),
            (["luhn", "--json", "--quiet"], "--json cannot be combined with --quiet."),
            (["luhn", "--verbose"], "Unknown option '--verbose'."),
            (["luhn", "iban"], "Unexpected argument at position 2."),
        ])
    func usage(arguments: [String], message: String) throws {
        try CLIFixtures.run(["check"] + arguments, "4111111111111111").expectUsageError(message, command: "check")
    }

    @Test("empty stdin is an error (exit 1, stderr), not a verdict", arguments: ["luhn", "iban", "expiry", "email"])
    func emptyInput(kind: String) throws {
        try CLIFixtures.run(["check", kind], "").expectFailure(code: "cli.emptyInput")
    }

    @Test("a value that is not UTF-8 is an error")
    func notText() throws {
        let result = try CommandRunner.run(["check", "email"], stdin: [0xFF, 0xFE])
        result.expectFailure(code: "cli.notText")
    }
}
