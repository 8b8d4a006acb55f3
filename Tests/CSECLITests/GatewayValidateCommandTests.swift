import CSECore
import CSEGateways
import Foundation
import Testing
import TestSupport

@Suite("cse validate --gateway: JSON on stdin, {\"valid\",\"errors\"} on stdout, exit 0 or 1")
struct GatewayValidateCommandTests {
    static let apsPurchase =
        #"{"command":"PURCHASE","merchant_reference":"XYZ9239-yu898","amount":"10000","currency":"AED","language":"en","customer_email":"customer1@domain.com","sdk_token":"Dwp78q3"}"#

    @Test(
        "a valid request prints valid:true with no errors and exits 0",
        arguments: [
            (["--gateway", "aps", "--operation", "PURCHASE"], apsPurchase),
            (
                ["--gateway", "aps", "--operation", "SDK_TOKEN"],
                #"{"service_command":"SDK_TOKEN","access_code":"zx0IPmPy5jp1vAz8Kpg7","merchant_identifier":"CycHZxVj","language":"en","device_id":"ffffffff-a9fa-0b44-7b27-29e70033c587","signature":"7cad05f0212ed933c9a5d5dffa31661acf2c827a"}"#
            ),
            (["--gateway", "paysafe", "--operation", "setup"], #"{"apiKey":"dXNlcjpwYXNz","environment":"TEST"}"#),
            (
                ["--gateway", "paysafe", "--operation", "tokenize"],
                #"{"amount":1000,"currencyCode":"USD","transactionType":"PAYMENT","merchantRefNum":"ref-1"}"#
            ),
            (
                ["--gateway", "mastercard", "--operation", "updateSession"],
                #"{"apiVersion":61,"order.id":"o-1","order":{"amount":"5.00","currency":"USD"}}"#
            ),
        ])
    func valid(arguments: [String], input: String) throws {
        let result = try CommandRunner.run(["validate"] + arguments, input: input)
        #expect(result.status == 0, "\(arguments) \(result.out) \(result.err)")
        #expect(result.out == "{\"valid\":true,\"errors\":[]}\n" && result.err.isEmpty)
    }

    @Test("APS errors name the field, the code and the broken limits; exit 1")
    func apsErrors() throws {
        let input = Self.apsPurchase.replacingOccurrences(
            of: #""sdk_token":"Dwp78q3""#,
            with: #""sdk_token":"Dwp78q3","payment_option":"MADA","eci":"MOTO""#)
        let result = try CommandRunner.run(["validate", "--gateway", "aps", "--operation", "AUTHORIZATION"], input: input)
        #expect(result.status == 1 && result.err.isEmpty)
        #expect(
            result.out
                == #"{"valid":false,"errors":[{"field":"command","code":"allowedValues","limits":{"allowedValues":"AUTHORIZATION","rule":"operation-authorization"}},{"field":"eci","code":"allowedValues","limits":{"allowedValues":"ECOMMERCE","rule":"mada-meeza-ecommerce-only"}}]}"#
                + "\n")
    }

    @Test("Paysafe errors carry the document's numeric codes in the PSError shape")
    func paysafeCodes() throws {
        let empty = try CommandRunner.run(
            ["validate", "--gateway", "paysafe", "--operation", "setup"], input: #"{"apiKey":"","environment":"TEST"}"#)
        #expect(empty.status == 1)
        let report = try JSONValue.parse(empty.out)
        let error = report["errors"]?.arrayValue?.first
        #expect(error?["field"] == .string("apiKey") && error?["code"] == .string("required"))
        #expect(error?["paysafe"]?["code"] == .number("9167"))
        #expect(error?["paysafe"]?["displayMessage"]?.stringValue?.contains("9167") == true)
        #expect(error?["paysafe"]?["detailedMessage"]?.stringValue?.isEmpty == false)
        #expect(error?["paysafe"]?["correlationId"]?.stringValue?.count == 36)
        let malformed = try CommandRunner.run(
            ["validate", "--gateway", "paysafe", "--operation", "setup"], input: #"{"apiKey":"user:secret-pass","environment":"TEST"}"#)
        #expect(try JSONValue.parse(malformed.out)["errors"]?.arrayValue?.first?["paysafe"]?["code"] == .number("9013"))
        #expect(!malformed.out.contains("secret-pass"))
        let amount = try CommandRunner.run(
            ["validate", "--gateway", "paysafe", "--operation", "tokenize", "--partner-shared-key"],
            input: #"{"amount":0,"currencyCode":"USD","transactionType":"VERIFICATION","merchantRefNum":"r"}"#)
        let codes = (try JSONValue.parse(amount.out)["errors"]?.arrayValue ?? []).map { $0["paysafe"]?["code"] }
        #expect(amount.status == 1 && codes == [.number("9054"), .number("9101")])
    }

    @Test("Mastercard accepts nested and dotted keys; card data never reaches the output")
    func mastercard() throws {
        let result = try CommandRunner.run(
            ["validate", "--gateway", "mastercard", "--operation", "updateSession"],
            input:
                #"{"apiVersion":60,"sourceOfFunds.provided.card":{"number":"5506900140100306","securityCode":"98765","expiry":{"month":"05","year":"29"}}}"#
        )
        #expect(result.status == 1)
        #expect(
            result.out
                == #"{"valid":false,"errors":[{"field":"apiVersion","code":"range","limits":{"format":"integer","minimum":"61"}},{"field":"sourceOfFunds.provided.card.number","code":"luhn","limits":{"brand":"mastercard"}},{"field":"sourceOfFunds.provided.card.securityCode","code":"length","limits":{"maxLength":"4"}}]}"#
                + "\n")
        #expect(!result.out.contains("550690") && !result.out.contains("98765"))
    }

    @Test(
        "unreadable input is an error on stderr with exit 1; a wrong command line exits 64",
        arguments: [
            (["validate", "--gateway", "aps", "--operation", "PURCHASE"], "not json", 1, "Error: json.syntax"),
            (["validate", "--gateway", "aps", "--operation", "PURCHASE"], "[1,2]", 1, "Error: gateway.inputNotObject"),
            (["validate", "--gateway", "aps", "--operation", "PURCHASE"], "", 1, "Error: cli.emptyInput"),
            (
                ["validate", "--gateway", "mastercard", "--operation", "updateSession"], #"{"order":{"id":"1"},"order.id":"2"}"#, 1,
                "Error: gatewayMap.conflict"
            ),
            (["validate", "--gateway", "aps", "--operation", "REFUND"], "{}", 64, "Error: Unknown gateway operation"),
            (["validate", "--gateway", "aps"], "{}", 64, "Error: --gateway needs --operation."),
            (
                ["validate", "--gateway", "aps", "--operation", "PURCHASE", "--partner-shared-key"], "{}", 64,
                "Error: --partner-shared-key needs --gateway paysafe."
            ),
        ] as [([String], String, Int32, String)])
    func failures(arguments: [String], input: String, status: Int32, prefix: String) throws {
        let result = try CommandRunner.run(arguments, input: input)
        #expect(result.status == status && result.err.hasPrefix(prefix), "\(arguments): \(result.err)")
        #expect(result.out.isEmpty)
    }

    @Test("the documents' example requests give the same verdicts through the CLI")
    func documentExamples() throws {
        let examples = try JSONValue.parse(Array(try TestPaths.projectFile("gateways/examples.json")))["examples"]?.arrayValue ?? []
        #expect(examples.count == 16)
        for example in examples {
            let id = example["id"]?.stringValue ?? "?"
            let result = try CommandRunner.run(
                [
                    "validate", "--gateway", example["gateway"]!.stringValue!,
                    "--operation", example["operation"]!.stringValue!,
                ],
                stdin: example["request"]!.serializedBytes)
            let errors = (try JSONValue.parse(result.out)["errors"]?.arrayValue ?? []).map {
                JSONValue.object(JSONObject([("field", $0["field"]!), ("code", $0["code"]!)]))
            }
            #expect(errors == example["errors"]?.arrayValue, "\(id)")
            #expect(result.status == (errors.isEmpty ? 0 : 1), "\(id)")
        }
    }

    @Test("--lines validates one gateway request per line, in order, with line numbers on the invalid ones")
    func batch() throws {
        let bad = Self.apsPurchase.replacingOccurrences(of: #""currency":"AED","#, with: "")
        let input = [Self.apsPurchase, bad, "not json", Self.apsPurchase].joined(separator: "\n") + "\n"
        let result = try CommandRunner.run(["validate", "--gateway", "aps", "--operation", "PURCHASE", "--lines"], input: input)
        #expect(result.status == 1)
        let lines = result.out.split(separator: "\n").map(String.init)
        #expect(lines.count == 4)
        #expect(lines[0] == #"{"valid":true,"errors":[]}"#)
        #expect(lines[1].hasPrefix(#"{"line":2,"valid":false,"errors":[{"field":"currency","code":"required""#))
        #expect(lines[2].hasPrefix(#"{"line":3,"error":{"code":"json.syntax""#))
        #expect(lines[3] == #"{"valid":true,"errors":[]}"#)
    }

    @Test(
        "--product and --gateway are exclusive; --operation needs --gateway",
        arguments: [
            ["--product", "builtin:card", "--gateway", "aps", "--operation", "PURCHASE"],
            ["--product", "builtin:card", "--operation", "PURCHASE"],
        ])
    func exclusive(arguments: [String]) throws {
        let result = try CommandRunner.run(["validate"] + arguments, input: "{}")
        #expect(result.status == 64)
        #expect(result.err.hasPrefix("Error: --"))
    }
}
