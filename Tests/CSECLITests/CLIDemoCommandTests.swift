import CSECore
import Testing
import TestSupport

/// `demo` reads no input and no file: it must work with an empty, a JSON-looking or a garbage
/// stdin alike, and there is no file to be missing.
@Suite("cse demo end to end")
struct CLIDemoCommandTests {
    @Test(
        "success: every step passes, card numbers appear as first 6 / last 4 only, the CVV never",
        arguments: ["", "{\"malformed\":", "\u{0}garbage"])
    func text(stdin: String) throws {
        let result = try CLIFixtures.run(["demo"], stdin)
        #expect(result.status == 0, "\(result.err)")
        #expect(result.err.isEmpty)
        let out = result.out
        #expect(out.contains("csekit-demo-key-TEST-ONLY"))
        #expect(out.contains("TEST-ONLY: its private key is published"))
        #expect(out.contains("cardNumber 411111******1111"))
        #expect(out.contains("411111******1112 -> invalid: cardNumber: luhn (caught, as expected)"))
        #expect(out.contains("SUPPORTED visa (Visa)"))
        #expect(out.contains(#"protected header {"alg":"RSA-OAEP","enc":"A256CBC-HS512","kid":"csekit-demo-key-TEST-ONLY"}"#))
        #expect(out.contains("iban DE89370400440532013000"))
        #expect(out.contains("iban(reason=checksum) (caught, as expected)"))
        #expect(out.contains("All 13 steps passed."))
        #expect(!out.contains("FAILED"))
        #expect(!out.contains("4111111111111111") && !out.contains("4111 1111 1111 1111"))
        #expect(!out.contains("cvv 123") && out.contains("cvv ***"))
    }

    @Test("--json: the same steps as one JSON object; every step ok, values masked")
    func json() throws {
        let result = try CLIFixtures.run(["demo", "--json"])
        #expect(result.status == 0)
        #expect(CLIFixtures.lines(result.out).count == 1)
        let value = try CLIFixtures.json(result.out)
        #expect(value["ok"]?.boolValue == true)
        #expect(value["testOnlyKey"]?.boolValue == true)
        let scenarios = try #require(value["scenarios"]?.arrayValue)
        #expect(scenarios.map { $0["product"]?.stringValue } == ["card", "sepa-direct-debit"])
        let cardSteps = try #require(scenarios[0]["steps"]?.arrayValue)
        #expect(cardSteps.map { $0["step"]?.stringValue ?? "" } == ["input", "iin", "validate", "typo", "seal", "decrypt", "round-trip"])
        #expect(cardSteps.allSatisfy { $0["ok"]?.boolValue == true })
        #expect(cardSteps[5]["paymentValues"]?["cardNumber"]?.stringValue == "411111******1111")
        #expect(cardSteps[5]["paymentValues"]?["cvv"]?.stringValue == "***")
        #expect(cardSteps[3]["errors"]?.serialized == #"[{"field":"cardNumber","code":"luhn"}]"#)
        // The sealed output decrypts with the bundled key through the CLI as well.
        let jwe = try #require(cardSteps[4]["encryptedCustomerInput"]?.stringValue)
        #expect(jwe.split(separator: ".").count == 5)
    }

    @Test(
        "unknown options and arguments are usage errors",
        arguments: [
            (["--bogus"], "Unknown option '--bogus'."),
            (["--json=yes"], "The flag '--json' does not take a value."),
            (["card"], "Unexpected argument at position 1."),
        ])
    func usage(arguments: [String], message: String) throws {
        try CLIFixtures.run(["demo"] + arguments).expectUsageError(message, command: "demo")
    }
}
