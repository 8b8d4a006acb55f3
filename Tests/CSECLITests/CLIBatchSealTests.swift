import CSECore
import CSEValidation
import Foundation
import Testing
import TestSupport

@Suite("cse seal --lines: 10,000 lines, 1% corrupted, opened by python3-jwcrypto")
struct CLIBatchSealTests {
    /// One input line and what it must give.
    struct Case {
        let line: String
        /// For a good line: the unmasked values in product order and the session id.
        let values: [(String, String)]?
        let sessionID: String
        /// For a bad line: the key of its output object (`error` or `errors`).
        let failureKey: String?
    }

    /// A Luhn-valid 16-digit Visa number from the seeded generator. Issue #14: `builtin:card`
    /// seals the detected brand's platform product id, and a `4…` number another brand claims
    /// (Elo) has none, so numbers that do not detect as Visa are skipped.
    static func pan(_ rng: inout SplitMix64) -> String {
        while true {
            let candidate = luhnNumber(&rng)
            if CardBrandTable.embedded.brand(forPartialNumber: candidate) == .visa { return candidate }
        }
    }

    /// A Luhn-valid 16-digit number starting with 4.
    static func luhnNumber(_ rng: inout SplitMix64) -> String {
        var digits = [4] + (0..<14).map { _ in Int(rng.next() % 10) }
        var sum = 0
        for (index, digit) in digits.reversed().enumerated() {
            let d = index % 2 == 0 ? digit * 2 : digit
            sum += d > 9 ? d - 9 : d
        }
        digits.append((10 - sum % 10) % 10)
        return digits.map(String.init).joined()
    }

    /// 10,000 lines; every 100th is corrupted in one of five ways.
    static func corpus() -> [Case] {
        var rng = SplitMix64(seed: 0xC5E_11E5)
        var cases: [Case] = []
        for index in 0..<10_000 {
            let pan = pan(&rng)
            let month = Int(rng.next() % 12) + 1
            let year = 27 + Int(rng.next() % 10)
            let cvv = String(100 + Int(rng.next() % 900))
            let expiry = (month < 10 ? "0" : "") + "\(month)\(year)"
            let name = "Holder \(index) \"Q\" \u{00E9}"
            let masked = index % 2 == 0
            let cardNumber = masked ? stride(from: 0, to: 16, by: 4).map { String(Array(pan)[$0..<$0 + 4]) }.joined(separator: " ") : pan
            let expiryText = masked ? String(expiry.prefix(2)) + "/" + String(expiry.suffix(2)) : expiry
            let ownSession = index % 7 == 0
            var object: [(String, JSONValue)] = [
                ("cardNumber", .string(cardNumber)), ("expiryDate", .string(expiryText)), ("cvv", .string(cvv)),
                ("cardholderName", .string(name)),
            ]
            if ownSession { object.append(("clientSessionId", .string("session-\(index)"))) }
            let line = JSONValue.object(JSONObject(object)).serialized
            let session = ownSession ? "session-\(index)" : "batch-session"
            guard index % 100 == 37 else {
                cases.append(
                    Case(
                        line: line, values: [("cardNumber", pan), ("expiryDate", expiry), ("cvv", cvv), ("cardholderName", name)],
                        sessionID: session, failureKey: nil))
                continue
            }
            switch (index / 100) % 5 {
            case 0:  // truncated JSON
                cases.append(Case(line: String(line.dropLast(7)), values: nil, sessionID: session, failureKey: "error"))
            case 1:  // a field the product does not have
                cases.append(
                    Case(
                        line: line.replacingOccurrences(of: "\"cvv\"", with: "\"cvc\""), values: nil, sessionID: session,
                        failureKey: "error"))
            case 2:
                // A Luhn typo: validation rejects the line with its errors.
                var typo = object
                typo[0] = ("cardNumber", .string(String(pan.dropLast()) + String((Int(String(pan.last!))! + 1) % 10)))
                cases.append(
                    Case(line: JSONValue.object(JSONObject(typo)).serialized, values: nil, sessionID: session, failureKey: "errors"))
            case 3:  // a control byte before the object
                cases.append(Case(line: "\u{1}" + line, values: nil, sessionID: session, failureKey: "error"))
            default:  // an array, not an object
                cases.append(Case(line: "[" + line + "]", values: nil, sessionID: session, failureKey: "error"))
            }
        }
        return cases
    }

    @Test(
        "exactly 10,000 output lines in order; good lines decrypt with jwcrypto to their input; bad lines name their line number",
        .enabled(if: JWCryptoOracle.isAvailable, "needs /usr/bin/python3 with python3-jwcrypto (apt-get install python3-jwcrypto)"))
    func tenThousandLines() throws {
        let cases = Self.corpus()
        #expect(cases.filter { $0.failureKey != nil }.count == 100)
        let input = cases.map(\.line).joined(separator: "\n") + "\n"
        let result = try CLIFixtures.run(
            [
                "seal", "--lines", "--product", "builtin:card", "--key", "@PUBLICJSON",
                "--session-id", "batch-session", "--now", CLIFixtures.now,
            ], input)
        #expect(result.status == 1, "some lines failed")
        #expect(result.err.isEmpty)
        let lines = CLIFixtures.lines(result.out)
        try #require(lines.count == 10_000)

        var tokens: [String] = []
        var tokenLines: [Int] = []
        for (index, (line, expected)) in zip(lines, cases).enumerated() {
            let value = try CLIFixtures.json(line)
            if let key = expected.failureKey {
                #expect(value["line"]?.intValue == index + 1, "line \(index + 1): \(line)")
                #expect(value[key] != nil, "line \(index + 1): \(line)")
                #expect(value["encryptedCustomerInput"] == nil)
            } else {
                #expect(value["line"] == nil)
                tokens.append(try #require(value["encryptedCustomerInput"]?.stringValue, "line \(index + 1)"))
                tokenLines.append(index)
            }
        }
        try #require(tokens.count == 9_900)

        let privateKey = try String(contentsOfFile: CLIFixtures.privateKey, encoding: .utf8)
        let plaintexts = try JWCryptoOracle.decrypt(tokens, privateKeyPEM: privateKey, processes: BatchRunnerCores.count)
        try #require(plaintexts.count == tokens.count)
        for (plaintext, index) in zip(plaintexts, tokenLines) {
            let expected = cases[index]
            let payload = try JSONValue.parse(try #require(plaintext, "jwcrypto could not decrypt line \(index + 1)"))
            #expect(payload["clientSessionId"]?.stringValue == expected.sessionID, "line \(index + 1)")
            #expect(payload["nonce"]?.stringValue?.utf8.count == 32, "line \(index + 1)")
            let values = (payload["paymentValues"]?.arrayValue ?? []).map { ($0["key"]?.stringValue ?? "", $0["value"]?.stringValue ?? "") }
            #expect(values.map(\.0) == expected.values!.map(\.0), "line \(index + 1)")
            #expect(values.map(\.1) == expected.values!.map(\.1), "line \(index + 1)")
        }
    }
}

/// The cores the test machine offers (the oracle runs one interpreter per core).
enum BatchRunnerCores {
    static let count = max(1, ProcessInfo.processInfo.activeProcessorCount)
}
