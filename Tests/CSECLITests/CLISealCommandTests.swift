import CSECore
import CSECrypto
import CSEJOSE
import CSEPayments
import Foundation
import Testing
import TestSupport

@Suite("cse seal end to end")
struct CLISealCommandTests {
    /// Decrypts `jwe` with the suite's private key and returns the payload.
    func open(_ jwe: String) throws -> JSONValue {
        let decrypted = try CommandRunner.run(["decrypt", "--key", CLIFixtures.privateKey], input: jwe)
        #expect(decrypted.status == 0, "\(decrypted.err)")
        return try JSONValue.parse(decrypted.out)
    }

    @Test("success: masked values are validated, unmasked and sealed for the key file's keyId; stdout is one JSON line")
    func success() throws {
        let result = try CLIFixtures.run(
            ["seal", "--product", "builtin:card", "--key", "@PUBLICJSON", "--session-id", "sess-1", "--now", CLIFixtures.now],
            CLIFixtures.validCard)
        #expect(result.status == 0, "\(result.err)")
        #expect(result.err.isEmpty)
        let lines = CLIFixtures.lines(result.out)
        #expect(lines.count == 1)
        let sealed = try CLIFixtures.json(lines[0])
        #expect(sealed.objectValue?.keys == ["encryptedCustomerInput", "encodedClientMetaInfo"])
        let jwe = try #require(sealed["encryptedCustomerInput"]?.stringValue)
        let header = try JSONValue.parse(try Base64URL.decode(jwe.split(separator: ".")[0]))
        #expect(header.serialized == #"{"alg":"RSA-OAEP","enc":"A256CBC-HS512","kid":"kid-seal"}"#)
        let payload = try open(jwe)
        #expect(payload["clientSessionId"]?.stringValue == "sess-1")
        #expect(payload["paymentProductId"] == .number("1"))  // issue #14: Visa's platform id, not "card"
        #expect(
            payload["paymentValues"]?.serialized
                == #"[{"key":"cardNumber","value":"4111111111111111"},{"key":"expiryDate","value":"1235"},{"key":"cvv","value":"123"},{"key":"cardholderName","value":"Ada Lovelace"}]"#
        )
        let meta = try JSONValue.parse(try Base64.decode(try #require(sealed["encodedClientMetaInfo"]?.stringValue)))
        #expect(meta["sdkIdentifier"]?.stringValue?.hasPrefix("CSEKit/") == true)
    }

    @Test("a co-badged mada card seals its Visa id; a cardBrand member chooses the brand, and one the card lacks is refused")
    func coBadgedCardBrand() throws {
        let arguments = ["seal", "--product", "builtin:card", "--key", "@PUBLICJSON", "--session-id", "s", "--now", CLIFixtures.now]
        let card = #"{"cardNumber":"4407 9500 0000 0007","expiryDate":"12/35","cvv":"123","cardholderName":"Ada Lovelace""#
        let detected = try CLIFixtures.run(arguments, card + "}")
        #expect(detected.status == 0, "\(detected.err)")
        let jwe = try #require(try CLIFixtures.json(detected.out)["encryptedCustomerInput"]?.stringValue)
        #expect(try open(jwe)["paymentProductId"] == .number("1"))
        let chosen = try CLIFixtures.run(arguments, card + #","cardBrand":"visa"}"#)
        #expect(chosen.status == 0, "\(chosen.err)")
        let chosenJWE = try #require(try CLIFixtures.json(chosen.out)["encryptedCustomerInput"]?.stringValue)
        let payload = try open(chosenJWE)
        #expect(payload["paymentProductId"] == .number("1"))
        #expect(payload["paymentValues"]?.serialized.contains("cardBrand") == false)
        let refused = try CLIFixtures.run(arguments, card + #","cardBrand":"mastercard"}"#)
        #expect(refused.status == 1 && refused.err.contains("payments.cardBrandMismatch") && refused.err.contains("cardBrands=mada,visa"))
        #expect(!refused.err.contains("4407"))
        let unknown = try CLIFixtures.run(arguments, card + #","cardBrand":"no-such-brand"}"#)
        #expect(unknown.status == 1 && unknown.err.contains("payments.unknownCardBrand"))
        let notString = try CLIFixtures.run(arguments, card + #","cardBrand":1}"#)
        #expect(notString.status == 1 && notString.err.contains("cli.fieldNotString"))
    }

    @Test("a clientSessionId member overrides --session-id; --kid overrides the key file; a PEM without kid needs --kid")
    func sessionAndKid() throws {
        let input = #"{"iban":"DE89 3704 0044 0532 0130 00","accountHolderName":"Ada","clientSessionId":"from-input"}"#
        let result = try CLIFixtures.run(["seal", "--product", "builtin:sepa", "--key", "@PUBLIC", "--kid", "kid-x"], input)
        #expect(result.status == 0, "\(result.err)")
        let jwe = try #require(try CLIFixtures.json(result.out)["encryptedCustomerInput"]?.stringValue)
        let header = try JSONValue.parse(try Base64URL.decode(jwe.split(separator: ".")[0]))
        #expect(header["kid"]?.stringValue == "kid-x")
        #expect(try open(jwe)["clientSessionId"]?.stringValue == "from-input")

        let noKid = try CLIFixtures.run(["seal", "--product", "builtin:sepa", "--key", "@PUBLIC", "--session-id", "s"], input)
        noKid.expectFailure(code: "cli.missingKeyId")
        let noSession = try CLIFixtures.run(
            ["seal", "--product", "builtin:card", "--key", "@PUBLICJSON", "--now", CLIFixtures.now], CLIFixtures.validCard)
        noSession.expectFailure(code: "cli.missingSessionId")
    }

    @Test("invalid input: exit 1, the validation errors as JSON on stdout, fields (never values) on stderr, nothing sealed")
    func invalidInput() throws {
        let input = #"{"cardNumber":"4111 1111 1111 1112","expiryDate":"01/20","cvv":"12"}"#
        let result = try CLIFixtures.run(
            ["seal", "--product", "builtin:card", "--key", "@PUBLICJSON", "--session-id", "s", "--now", CLIFixtures.now], input)
        #expect(result.status == 1)
        #expect(
            result.out
                == #"{"valid":false,"errors":[{"field":"cardNumber","code":"luhn"},{"field":"expiryDate","code":"expirationDate","reason":"past"},{"field":"cvv","code":"length","maxLength":4,"minLength":3},{"field":"cvv","code":"regularExpression","regularExpression":"^[0-9]{3}[0-9]?$"},{"field":"cardholderName","code":"required"}]}"#
                + "\n")
        #expect(
            result.err
                == "Error: payments.invalidRequest: the payment request does not validate; it was not sealed (fields=cardNumber,expiryDate,cvv,cardholderName)\n"
        )
    }

    @Test("--allow-invalid seals anyway and warns on stderr")
    func allowInvalid() throws {
        let result = try CLIFixtures.run(
            ["seal", "--product", "builtin:card", "--key", "@PUBLICJSON", "--session-id", "s", "--allow-invalid"], #"{"cardNumber":"4111"}"#
        )
        #expect(result.status == 0)
        #expect(result.err == "warning: sealing a request that does not validate (fields=cardNumber,expiryDate,cvv,cardholderName)\n")
        let jwe = try #require(try CLIFixtures.json(result.out)["encryptedCustomerInput"]?.stringValue)
        #expect(try open(jwe)["paymentValues"]?.serialized == #"[{"key":"cardNumber","value":"4111"}]"#)
    }

    @Test("the TEST-ONLY demo key is refused unless --demo; --demo alone uses it")
    func demoKey() throws {
        let refused = try CLIFixtures.run(
            ["seal", "--product", "builtin:card", "--key", "@DEMO", "--kid", "k", "--session-id", "s", "--now", CLIFixtures.now],
            CLIFixtures.validCard)
        refused.expectFailure(code: "payments.demoKeyRefused")
        let allowed = try CLIFixtures.run(
            ["seal", "--product", "builtin:card", "--key", "@DEMO", "--kid", "k", "--session-id", "s", "--demo", "--now", CLIFixtures.now],
            CLIFixtures.validCard)
        #expect(allowed.status == 0, "\(allowed.err)")
        let demoOnly = try CLIFixtures.run(
            ["seal", "--product", "builtin:card", "--demo", "--session-id", "s", "--now", CLIFixtures.now], CLIFixtures.validCard)
        #expect(demoOnly.status == 0, "\(demoOnly.err)")
        let jwe = try #require(try CLIFixtures.json(demoOnly.out)["encryptedCustomerInput"]?.stringValue)
        let plaintext = try JWEDecryptor(privateKey: DemoKeys.testOnlyPrivateKey(), expectedKeyID: DemoKeys.testOnlyKeyID).decrypt(jwe)
            .plaintext
        #expect(try JSONValue.parse(plaintext.unsafeCopyToArray())["clientSessionId"]?.stringValue == "s")
    }

    @Test("a key from an environment variable (--key env:NAME)")
    func keyFromEnvironment() throws {
        let key = try String(contentsOfFile: CLIFixtures.publicKeyJSON, encoding: .utf8)
        var environment = ProcessInfo.processInfo.environment
        environment["CSE_TEST_PUBLIC_KEY"] = key
        let result = try CommandRunner.run(
            ["seal", "--product", "builtin:card", "--key", "env:CSE_TEST_PUBLIC_KEY", "--session-id", "s", "--now", CLIFixtures.now],
            stdin: Array(CLIFixtures.validCard.utf8), environment: environment)
        #expect(result.status == 0, "\(result.err)")
        let unset = try CLIFixtures.run(
            ["seal", "--product", "builtin:card", "--key", "env:CSE_TEST_UNSET_VARIABLE", "--session-id", "s"], CLIFixtures.validCard)
        unset.expectFailure(code: "cli.missingEnvironment")
    }

    @Test(
        "malformed JSON, a non-object, a non-string value and an unknown field exit 1 with a typed error",
        arguments: [
            (#"{"cardNumber":"4111"#, "json.syntax"),
            (#"["4111 1111 1111 1111"]"#, "cli.notAnObject"),
            (#"{"cardNumber":4111111111111111}"#, "cli.fieldNotString"),
            (#"{"cardNumber":"4111","cardNumber":"4112"}"#, "json.duplicateKey"),
            (#"{"iban":"DE89370400440532013000"}"#, "payments.unknownField"),
        ])
    func malformed(input: String, code: String) throws {
        let result = try CLIFixtures.run(["seal", "--product", "builtin:card", "--key", "@PUBLICJSON", "--session-id", "s"], input)
        result.expectFailure(code: code)
    }

    @Test(
        "a missing key or product file exits 1 naming the path",
        arguments: [
            ["--product", "builtin:card", "--key", "@MISSING"],
            ["--product", "@MISSING", "--key", "@PUBLICJSON"],
        ])
    func missingFile(arguments: [String]) throws {
        let result = try CLIFixtures.run(["seal", "--session-id", "s"] + arguments, CLIFixtures.validCard)
        result.expectFailure(code: "cli.file")
        #expect(result.err.contains("path=\(CLIFixtures.missingFile)"))
    }

    @Test(
        "usage errors exit 64",
        arguments: [
            (["--bogus"], "Unknown option '--bogus'."),
            (["--product", "builtin:card", "--session-id", "s"], "Give one of --key, --demo or --session."),
            (["--key", "k"], "Missing expected argument '--product <product>'."),
            (["--product", "builtin:nope", "--demo"], "Unknown built-in product"),
            (["--product", "builtin:card", "--demo", "--now", "2026-13"], "The value for '--now' must be a month written YYYY-MM"),
            (["--product", "builtin:card", "--demo", "--cvv", "123"], "Unknown option '--cvv'."),
        ])
    func usage(arguments: [String], message: String) throws {
        try CLIFixtures.run(["seal"] + arguments, CLIFixtures.validCard).expectUsageError(message, command: "seal")
    }

    @Test("empty stdin exits 1 with cli.emptyInput")
    func emptyInput() throws {
        try CLIFixtures.run(["seal", "--product", "builtin:card", "--key", "@PUBLICJSON", "--session-id", "s"], "").expectFailure(
            code: "cli.emptyInput")
    }

    @Test("a product JSON file works like the built-in one")
    func productFile() throws {
        let path = TestPaths.projectVectors.appendingPathComponent("products/card.json").path
        let result = try CLIFixtures.run(
            ["seal", "--product", path, "--key", "@PUBLICJSON", "--session-id", "s", "--now", CLIFixtures.now], CLIFixtures.validCard)
        #expect(result.status == 0, "\(result.err)")
        let broken = try CommandRunner.temporaryDirectory() + "/broken.json"
        try
            #"{"id":"x","fields":[{"id":"a","type":"string","dataRestrictions":{"validators":{"regularExpression":{"regularExpression":"("}}}}]}"#
            .write(toFile: broken, atomically: true, encoding: .utf8)
        let bad = try CLIFixtures.run(["seal", "--product", broken, "--key", "@PUBLICJSON", "--session-id", "s"], "{}")
        #expect(bad.status == 1)
        #expect(bad.out.isEmpty)
        #expect(bad.err.hasPrefix("Error: product."), "\(bad.err)")
    }

    @Test("--lines: sealed objects, rejected lines and errors, one per input line, with line numbers")
    func lines() throws {
        let input =
            [
                CLIFixtures.validCard,
                #"{"cardNumber":"4111 1111 1111 1112","expiryDate":"12/35","cvv":"123","cardholderName":"Ada"}"#,
                "not json",
                "",
                #"{"iban":"x"}"#,
                #"{"cardNumber":"5555 5555 5555 4444","expiryDate":"12/35","cvv":"321","cardholderName":"Bo","clientSessionId":"own"}"#,
            ].joined(separator: "\n") + "\n"
        let result = try CLIFixtures.run(
            ["seal", "--lines", "--product", "builtin:card", "--key", "@PUBLICJSON", "--session-id", "batch", "--now", CLIFixtures.now],
            input)
        #expect(result.status == 1)
        #expect(result.err.isEmpty, "no progress output when stderr is not a terminal")
        let lines = CLIFixtures.lines(result.out)
        try #require(lines.count == 6)
        #expect(
            try open(try #require(try CLIFixtures.json(lines[0])["encryptedCustomerInput"]?.stringValue))["clientSessionId"]?.stringValue
                == "batch")
        #expect(lines[1] == #"{"line":2,"valid":false,"errors":[{"field":"cardNumber","code":"luhn"}]}"#)
        #expect(try CLIFixtures.json(lines[2])["line"]?.intValue == 3)
        #expect(try CLIFixtures.json(lines[2])["error"]?["code"]?.stringValue == "json.syntax")
        #expect(try CLIFixtures.json(lines[3])["line"]?.intValue == 4)
        #expect(
            lines[4]
                == #"{"line":5,"error":{"code":"payments.unknownField","message":"payments.unknownField: the product has no such field (field=iban, product=card)"}}"#
        )
        #expect(
            try open(try #require(try CLIFixtures.json(lines[5])["encryptedCustomerInput"]?.stringValue))["clientSessionId"]?.stringValue
                == "own")

        let allGood = try CLIFixtures.run(
            ["seal", "--lines", "--product", "builtin:card", "--key", "@PUBLICJSON", "--session-id", "b", "--now", CLIFixtures.now],
            CLIFixtures.validCard + "\n" + CLIFixtures.validCard)
        #expect(allGood.status == 0)
        #expect(CLIFixtures.lines(allGood.out).count == 2)
        let empty = try CLIFixtures.run(["seal", "--lines", "--product", "builtin:card", "--key", "@PUBLICJSON", "--session-id", "b"], "")
        #expect(empty.status == 0 && empty.out.isEmpty && empty.err.isEmpty, "no lines in, no lines out")
    }
}
