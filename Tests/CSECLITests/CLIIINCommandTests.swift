import CSECore
import Foundation
import Testing
import TestSupport

@Suite("cse iin end to end")
struct CLIIINCommandTests {
    /// The docs/IIN-CSV.md example table.
    static let table: String = {
        let path = try! CommandRunner.temporaryDirectory() + "/iin.csv"
        try! """
        low,high,productId,country,cardType,issuer
        40000000,49999999,1,,Credit,
        401757,401757,mada,SA,Debit,"Bank Al-Jazira, Jeddah"
        22000000,22049999,3,RU,Debit,
        22000000,22049999,1,RU,,
        """.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }()

    @Test(
        "success with the embedded brand table: every product allowed without --allow",
        arguments: [
            (
                "4111 1111\n", [String](),
                #"{"status":"SUPPORTED","productId":"visa","isAllowedInContext":true,"countryCode":null,"cardType":null,"issuer":null,"coBrands":[]}"#
            ),
            (
                "5555555555554444", ["--allow", "visa,amex"],
                #"{"status":"EXISTING_BUT_NOT_ALLOWED","productId":"mastercard","isAllowedInContext":false,"countryCode":null,"cardType":null,"issuer":null,"coBrands":[]}"#
            ),
            (
                "41111", [],
                #"{"status":"NOT_ENOUGH_DIGITS","productId":null,"isAllowedInContext":false,"countryCode":null,"cardType":null,"issuer":null,"coBrands":[]}"#
            ),
            (
                "99999999", [],
                #"{"status":"UNKNOWN","productId":null,"isAllowedInContext":false,"countryCode":null,"cardType":null,"issuer":null,"coBrands":[]}"#
            ),
        ])
    func embedded(input: String, arguments: [String], expected: String) throws {
        let result = try CLIFixtures.run(["iin"] + arguments, input)
        #expect(result.status == 0)
        #expect(result.out == expected + "\n")
        #expect(result.err.isEmpty)
    }

    @Test(
        "success with a CSV table: the narrowest range answers; rows of the same range are co-brands, each with its allow verdict",
        arguments: [
            (
                "40175712", "1",
                #"{"status":"EXISTING_BUT_NOT_ALLOWED","productId":"mada","isAllowedInContext":false,"countryCode":"SA","cardType":"Debit","issuer":"Bank Al-Jazira, Jeddah","coBrands":[]}"#
            ),
            (
                "4000 0000", "1",
                #"{"status":"SUPPORTED","productId":"1","isAllowedInContext":true,"countryCode":null,"cardType":"Credit","issuer":null,"coBrands":[]}"#
            ),
            (
                "2200 0000 0000", "1,3",
                #"{"status":"SUPPORTED","productId":"3","isAllowedInContext":true,"countryCode":"RU","cardType":"Debit","issuer":null,"coBrands":[{"productId":"1","isAllowedInContext":true,"cardType":null}]}"#
            ),
        ])
    func csvTable(input: String, allow: String, expected: String) throws {
        let result = try CLIFixtures.run(["iin", "--table", Self.table, "--allow", allow], input)
        #expect(result.status == 0, "\(result.err)")
        #expect(result.out == expected + "\n")
    }

    @Test(
        "invalid input: not a card number exits 1 without echoing it",
        arguments: [
            ("4111x111", "cli.notDigits"), ("\n", "cli.notDigits"), (String(repeating: "4", count: 20), "cli.notDigits"),
            ("\u{0664}111111", "cli.notDigits"),
        ])
    func invalid(input: String, code: String) throws {
        let result = try CLIFixtures.run(["iin"], input)
        result.expectFailure(code: code)
        #expect(!result.err.contains("4111") && !result.err.contains("4444"))
    }

    @Test("malformed JSON: a --lines line that starts a JSON string must be one")
    func malformedJSON() throws {
        let result = try CLIFixtures.run(["iin", "--lines"], "\"4111\n\"41111111\"\n")
        #expect(result.status == 1)
        #expect(
            CLIFixtures.lines(result.out) == [
                #"{"line":1,"error":{"code":"json.syntax","message":"json.syntax: unterminated string (offset=5)"}}"#,
                #"{"status":"SUPPORTED","productId":"visa","isAllowedInContext":true,"countryCode":null,"cardType":null,"issuer":null,"coBrands":[]}"#,
            ])
        let notString = try CLIFixtures.run(["iin", "--lines"], "\"41\" 1\n")
        #expect(try CLIFixtures.json(notString.out)["error"]?["code"]?.stringValue == "json.syntax")
    }

    @Test("a missing or malformed table file exits 1")
    func tableFiles() throws {
        let missing = try CLIFixtures.run(["iin", "--table", "@MISSING"], "41111111")
        missing.expectFailure(code: "cli.file")
        #expect(missing.err.contains(CLIFixtures.missingFile))
        let bad = try CommandRunner.temporaryDirectory() + "/bad.csv"
        try "low,high,productId,country,cardType,issuer\n12,34,x,,,\n".write(toFile: bad, atomically: true, encoding: .utf8)
        let malformed = try CLIFixtures.run(["iin", "--table", bad], "41111111")
        malformed.expectFailure(code: "iin.malformedRow")
        #expect(malformed.err.contains("line=2"))
    }

    @Test(
        "usage errors exit 64",
        arguments: [
            (["--bogus"], "Unknown option '--bogus'."),
            (["--table"], "Missing value for '--table <file>'."),
            (["41111111"], "Unexpected argument at position 1."),
        ])
    func usage(arguments: [String], message: String) throws {
        try CLIFixtures.run(["iin"] + arguments, "41111111").expectUsageError(message, command: "iin")
    }

    @Test("empty stdin: an error for one value, no lines for --lines")
    func emptyInput() throws {
        try CLIFixtures.run(["iin"], "").expectFailure(code: "cli.emptyInput")
        let lines = try CLIFixtures.run(["iin", "--lines"], "")
        #expect(lines.status == 0 && lines.out.isEmpty && lines.err.isEmpty)
    }

    @Test("--lines: bare digits or JSON strings, one answer per line in order")
    func lines() throws {
        var input = ""
        var expected: [String] = []
        for i in 0..<600 {
            switch i % 3 {
            case 0:
                input += "41111111\n"
                expected.append("visa")
            case 1:
                input += "\"5555 5555\"\n"
                expected.append("mastercard")
            default:
                input += "12a\n"
                expected.append("line \(i + 1)")
            }
        }
        let result = try CLIFixtures.run(["iin", "--lines"], input)
        #expect(result.status == 1)
        let lines = CLIFixtures.lines(result.out)
        try #require(lines.count == 600)
        for (index, line) in lines.enumerated() {
            let value = try CLIFixtures.json(line)
            if expected[index].hasPrefix("line ") {
                #expect(value["line"]?.intValue == index + 1)
                #expect(value["error"]?["code"]?.stringValue == "cli.notDigits")
            } else {
                #expect(value["productId"]?.stringValue == expected[index], "line \(index + 1)")
            }
        }
    }
}
