import CSECore
import Testing
import TestSupport

@Suite("cse validate end to end")
struct CLIValidateCommandTests {
    @Test(
        "success: valid masked input prints {valid:true,errors:[]} and exits 0",
        arguments: [
            ("builtin:card", CLIFixtures.validCard),
            (
                "builtin:card",
                #"{"cardNumber":"4111111111111111","expiryDate":"1235","cvv":"123","cardholderName":"Ada","clientSessionId":"ignored"}"#
            ),
            ("builtin:sepa", #"{"iban":"DE89 3704 0044 0532 0130 00","accountHolderName":"Ada"}"#),
            ("builtin:sepa-direct-debit", #"{"iban":"GB82WEST12345698765432","accountHolderName":"Ada"}"#),
        ])
    func success(product: String, input: String) throws {
        let result = try CLIFixtures.run(["validate", "--product", product, "--now", CLIFixtures.now], input)
        #expect(result.status == 0, "\(result.out)")
        #expect(result.out == #"{"valid":true,"errors":[]}"# + "\n")
        #expect(result.err.isEmpty)
    }

    @Test(
        "invalid input: every error with field, code and parameters; exit 1; nothing on stderr",
        arguments: [
            (
                #"{}"#, "builtin:sepa",
                #"{"valid":false,"errors":[{"field":"iban","code":"required"},{"field":"accountHolderName","code":"required"}]}"#
            ),
            (
                #"{"iban":"DE88 3704 0044 0532 0130 00","accountHolderName":"A"}"#, "builtin:sepa",
                #"{"valid":false,"errors":[{"field":"iban","code":"iban","reason":"checksum"},{"field":"accountHolderName","code":"length","maxLength":70,"minLength":2}]}"#
            ),
            (
                #"{"cardNumber":"3782 822463 10005","expiryDate":"05/26","cvv":"123","cardholderName":"Ada"}"#, "builtin:card",
                #"{"valid":false,"errors":[{"field":"cvv","code":"length","maxLength":4,"minLength":4,"name":"CID"}]}"#
            ),
        ])
    func invalid(input: String, product: String, expected: String) throws {
        let result = try CLIFixtures.run(["validate", "--product", product, "--now", CLIFixtures.now], input)
        #expect(result.status == 1)
        #expect(result.out == expected + "\n")
        #expect(result.err.isEmpty)
    }

    @Test("--now moves the clock: 04/26 is valid in April 2026 and past in May")
    func clock() throws {
        let input = #"{"cardNumber":"4111 1111 1111 1111","expiryDate":"04/26","cvv":"123","cardholderName":"Ada"}"#
        #expect(try CLIFixtures.run(["validate", "--product", "builtin:card", "--now", "2026-04"], input).status == 0)
        let may = try CLIFixtures.run(["validate", "--product", "builtin:card", "--now=2026-05"], input)
        #expect(may.out == #"{"valid":false,"errors":[{"field":"expiryDate","code":"expirationDate","reason":"past"}]}"# + "\n")
    }

    @Test(
        "malformed JSON and wrong shapes exit 1 with a typed error",
        arguments: [
            ("{", "json.syntax"), ("null", "cli.notAnObject"), (#"{"cvv":123}"#, "cli.fieldNotString"),
            (#"{"nope":"1"}"#, "payments.unknownField"), ("\u{FF}", "json.syntax"),
            (#"{"cvv":"123","cvv":null}"#, "json.duplicateKey"),
        ])
    func malformed(input: String, code: String) throws {
        try CLIFixtures.run(["validate", "--product", "builtin:card"], input).expectFailure(code: code)
    }

    @Test("a missing product file exits 1 naming the path")
    func missingFile() throws {
        let result = try CLIFixtures.run(["validate", "--product", "@MISSING"], "{}")
        result.expectFailure(code: "cli.file")
        #expect(result.err.contains(CLIFixtures.missingFile))
    }

    @Test(
        "usage errors exit 64",
        arguments: [
            (["--product", "builtin:card", "--bogus"], "Unknown option '--bogus'."),
            ([], "Give one of --product or --gateway."),
            (["--product", "builtin:card", "--now", "26-05"], "The value for '--now' must be a month written YYYY-MM"),
            (["--product", "builtin:card", "extra"], "Unexpected argument at position 1."),
        ])
    func usage(arguments: [String], message: String) throws {
        try CLIFixtures.run(["validate"] + arguments, "{}").expectUsageError(message, command: "validate")
    }

    @Test("empty stdin exits 1 with cli.emptyInput")
    func emptyInput() throws {
        try CLIFixtures.run(["validate", "--product", "builtin:card"], "").expectFailure(code: "cli.emptyInput")
    }

    @Test("--lines: a verdict per line, invalid and broken lines name their line number, exit 1 if any failed")
    func lines() throws {
        let input = [
            CLIFixtures.validCard,
            #"{"cardNumber":"4111"}"#,
            "{",
            CLIFixtures.validCard,
        ].joined(separator: "\r\n")
        let result = try CLIFixtures.run(["validate", "--lines", "--product", "builtin:card", "--now", CLIFixtures.now], input)
        #expect(result.status == 1)
        #expect(result.err.isEmpty)
        #expect(
            CLIFixtures.lines(result.out) == [
                #"{"valid":true,"errors":[]}"#,
                #"{"line":2,"valid":false,"errors":[{"field":"cardNumber","code":"luhn"},{"field":"cardNumber","code":"length","maxLength":19,"minLength":12},{"field":"expiryDate","code":"required"},{"field":"cvv","code":"required"},{"field":"cardholderName","code":"required"}]}"#,
                #"{"line":3,"error":{"code":"json.syntax","message":"json.syntax: expected a member name (offset=1)"}}"#,
                #"{"valid":true,"errors":[]}"#,
            ])
        let good = try CLIFixtures.run(
            ["validate", "--lines", "--product", "builtin:card", "--now", CLIFixtures.now], CLIFixtures.validCard + "\n")
        #expect(good.status == 0 && good.out == #"{"valid":true,"errors":[]}"# + "\n")
    }
}
