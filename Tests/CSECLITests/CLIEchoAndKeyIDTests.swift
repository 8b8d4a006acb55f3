import CSECore
import CSECrypto
import CSEJOSE
import Foundation
import Testing
import TestSupport

/// Issue #13 F06 and F14 end to end through `cse`.
@Suite("cse echoes no member name unsafely (F06) and matches --kid by bytes (F14)")
struct CLIEchoAndKeyIDTests {
    static let pan = "4111111111111111"
    static let spacedPAN = "4111 1111 1111 1111"
    static let apsPurchase =
        #"{"command":"PURCHASE","merchant_reference":"XYZ9239-yu898","amount":"10000","currency":"AED","language":"en","customer_email":"customer1@domain.com","sdk_token":"Dwp78q3"}"#

    /// Neither the PAN (with or without spaces) nor an ESC byte anywhere in the output.
    static func expectClean(_ result: CommandRunner.Result, _ note: String) {
        for text in [result.out, result.err] {
            #expect(!text.contains(pan) && !text.contains(spacedPAN), "\(note): \(text)")
            #expect(!text.utf8.contains(0x1B), "\(note): an ESC byte")
        }
    }

    @Test("an unknown member named like a card number is reported as <redacted 16 chars> on stdout")
    func unknownMemberRedacted() throws {
        let input = String(Self.apsPurchase.dropLast()) + #","4111111111111111":"x"}"#
        let result = try CommandRunner.run(["validate", "--gateway", "aps", "--operation", "PURCHASE"], input: input)
        #expect(result.status == 1)
        Self.expectClean(result, "single")
        let errors = try JSONValue.parse(result.out)["errors"]?.arrayValue ?? []
        #expect(errors.contains { $0["field"] == .string("<redacted 16 chars>") && $0["code"] == .string("unknownParameter") })
    }

    @Test("a path conflict names the path safely on stderr and in --lines output")
    func conflictRedacted() throws {
        let input = #"{"order.4111 1111 1111 1111":"a","order":{"4111 1111 1111 1111":"b"}}"#
        let single = try CommandRunner.run(["validate", "--gateway", "mastercard", "--operation", "updateSession"], input: input)
        #expect(single.status != 0)
        #expect(single.err.contains("gatewayMap.conflict"))
        Self.expectClean(single, "single")
        let batch = try CommandRunner.run(
            ["validate", "--gateway", "aps", "--operation", "PURCHASE", "--lines"],
            input: input + "\n" + String(Self.apsPurchase.dropLast()) + #","a.4111111111111111":"x"}"# + "\n")
        #expect(batch.status == 1)
        #expect(batch.out.split(separator: "\n").count == 2)
        Self.expectClean(batch, "--lines")
    }

    @Test("ESC sequences in member names never reach the terminal")
    func escapeRedacted() throws {
        let input = String(Self.apsPurchase.dropLast()) + #","x.\u001b[31mred":"x"}"#
        let result = try CommandRunner.run(["validate", "--gateway", "aps", "--operation", "PURCHASE"], input: input)
        #expect(result.status == 1)
        Self.expectClean(result, "ESC")
        let errors = try JSONValue.parse(result.out)["errors"]?.arrayValue ?? []
        #expect(errors.contains { $0["field"] == .string("x.<redacted 8 chars>") })
    }

    @Test("decrypt --kid K-1 refuses a JWE whose kid is KELVIN SIGN + -1")
    func kidComparedByBytes() throws {
        let directory = try CommandRunner.temporaryDirectory()
        let keygen = try CommandRunner.run(["keygen", "--bits", "2048", "--out", directory, "--key-id", "K-1"])
        #expect(keygen.status == 0, "\(keygen.err)")
        let kelvin = "\u{212A}-1"
        let encrypted = try CommandRunner.run(["encrypt", "--key", directory + "/public.pem", "--kid", kelvin], input: "{}")
        #expect(encrypted.status == 0, "\(encrypted.err)")
        let refused = try CommandRunner.run(["decrypt", "--key", directory + "/private.pem", "--kid", "K-1"], input: encrypted.out)
        #expect(refused.status == 1)
        #expect(refused.err.contains("jwe.keyIdMismatch"))
        let same = try CommandRunner.run(["decrypt", "--key", directory + "/private.pem", "--kid", kelvin], input: encrypted.out)
        #expect(same.status == 0, "\(same.err)")
        #expect(same.out == "{}")
    }
}
