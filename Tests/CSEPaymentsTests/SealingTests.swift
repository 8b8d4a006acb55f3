import CSECore
import CSECrypto
import CSEJOSE
@_spi(Testing) import CSEPayments
import CSEValidation
import Foundation
import TestSupport
import Testing

@Suite("sealing: encryptedCustomerInput and encodedClientMetaInfo")
struct SealingTests {
    @Test(
        "with nonce and clock injected, the sealed payload decrypts to the golden file byte for byte",
        arguments: [
            "card-request.json", "account-on-file-request.json",
        ])
    func goldenThroughSeal(name: String) throws {
        let isCard = name == "card-request.json"
        let sealer = try demoSealer(nonce: .unsafeFixed(isCard ? GoldenRequests.nonceA : GoldenRequests.nonceB))
        let sealed = try sealer.seal(
            isCard ? try GoldenRequests.card() : try GoldenRequests.accountOnFile(),
            clientSessionID: isCard ? GoldenRequests.cardSession : GoldenRequests.accountSession)
        // Issue #14: sealing the built-in card product writes the brand's platform id (Amex: 2)
        // where the payload writer's golden file has the product's own id "card".
        var golden = String(decoding: try GoldenRequests.golden(name), as: UTF8.self)
        if !isCard { golden = golden.replacingOccurrences(of: #""paymentProductId":"card""#, with: #""paymentProductId":2"#) }
        #expect(try openSealed(sealed.encryptedCustomerInput) == Array(golden.utf8), "case \(name)")
        let meta =
            #"{"platformIdentifier":"Linux/6.1.0","sdkIdentifier":"CSEKit/v0.1.0","sdkCreator":"CSEKit","deviceBrand":"UNKNOWN","deviceType":"x86_64","appIdentifier":"UNKNOWN"}"#
        #expect(sealed.encodedClientMetaInfo == Data(meta.utf8).base64EncodedString(), "case \(name)")
    }

    @Test("the JWE header is RSA-OAEP / A256CBC-HS512 with kid = keyId; other algorithms can be chosen")
    func header() throws {
        let sealed = try demoSealer().seal(try GoldenRequests.card(), clientSessionID: "s")
        let header = try demoDecryptor.decrypt(sealed.encryptedCustomerInput).header
        #expect(header.algorithm == .rsaOAEP && header.encryption == .a256cbcHS512 && header.keyID == DemoKeys.testOnlyKeyID)
        let other = try PaymentRequestSealer(
            publicKey: DemoKeys.testOnlyPublicKey, keyID: "k2", algorithm: .rsaOAEP256,
            encryption: .a256gcm, options: SealingOptions(allowDemoKey: true))
        let jwe = try other.seal(try GoldenRequests.card(), clientSessionID: "s").encryptedCustomerInput
        let decrypted = try JWEDecryptor(privateKey: DemoKeys.testOnlyPrivateKey()).decrypt(jwe)
        #expect(decrypted.header.algorithm == .rsaOAEP256 && decrypted.header.encryption == .a256gcm && decrypted.header.keyID == "k2")
    }

    @Test("a Client API key response ({keyId, publicKey}) gives the kid")
    func fromKeyResponse() throws {
        let der = Base64.encode(DemoKeys.testOnlyPublicKey.derRepresentation)
        let response = try PublicKeyResponse(
            json: Array(#"{"keyId": "86b64e4e-f43e-4a27-9863-9bbd5b499f82", "publicKey": "\#(der)"}"#.utf8))
        let sealer = try PaymentRequestSealer(publicKeyResponse: response, options: SealingOptions(allowDemoKey: true))
        let jwe = try sealer.seal(try GoldenRequests.card(), clientSessionID: "s").encryptedCustomerInput
        let header = try JWEDecryptor(privateKey: DemoKeys.testOnlyPrivateKey()).decrypt(jwe).header
        #expect(header.keyID == "86b64e4e-f43e-4a27-9863-9bbd5b499f82")
    }

    @Test("the demo key is refused unless allowDemoKey is passed; any other key is accepted")
    func demoKeyRefused() throws {
        let error = caught { () throws(CSEError) in
            try PaymentRequestSealer(publicKey: DemoKeys.testOnlyPublicKey, keyID: DemoKeys.testOnlyKeyID)
        }
        #expect(error?.code == .paymentsDemoKeyRefused)
        let card = try GoldenRequests.card()
        let viaStatic = caught { () throws(CSEError) in
            try PaymentRequestSealer.seal(
                card, publicKey: DemoKeys.testOnlyPublicKey, keyID: "k",
                clientSessionID: "s", options: SealingOptions(currentMonth: CalendarMonth(year: 2026, month: 5)))
        }
        #expect(viaStatic?.code == .paymentsDemoKeyRefused)
        let other = try RSAPrivateKey.generate(bits: 2048)
        let sealed = try PaymentRequestSealer.seal(
            try GoldenRequests.card(), publicKey: other.publicKey, keyID: "prod-key",
            clientSessionID: "s",
            options: SealingOptions(currentMonth: CalendarMonth(year: 2026, month: 5)))
        let plaintext = try JWEDecryptor(privateKey: other).decrypt(sealed.encryptedCustomerInput).plaintext.unsafeCopyToArray()
        #expect(try JSONValue.parse(plaintext)["paymentProductId"] == .number("1"))
        #expect(try RefusedKeys.isRefused(DemoKeys.testOnlyPublicKey) && !RefusedKeys.isRefused(other.publicKey))
        #expect(try DemoKeys.testOnlyPrivateKey().publicKey == DemoKeys.testOnlyPublicKey)
    }

    // Regression (issue #13, F12): the refusal compared the whole key, so the demo modulus with
    // e = 65539 was sealed to without allowDemoKey, and the published factors decrypt it.
    @Test("the demo modulus is refused with any public exponent, not only with the demo key's e = 65537")
    func demoModulusRefusedWithOtherExponent() throws {
        let sameModulus = try RSAPublicKey(modulus: DemoKeys.testOnlyPublicKey.modulus, exponent: [0x01, 0x00, 0x03])
        #expect(sameModulus != DemoKeys.testOnlyPublicKey)
        #expect(try RefusedKeys.isRefused(sameModulus))
        let error = caught { () throws(CSEError) in
            try PaymentRequestSealer(publicKey: sameModulus, keyID: "k")
        }
        #expect(error?.code == .paymentsDemoKeyRefused)
        #expect(throws: Never.self) {
            try PaymentRequestSealer(publicKey: sameModulus, keyID: "k", options: SealingOptions(allowDemoKey: true))
        }
    }

    @Test("an invalid request is refused, naming fields and codes; allowInvalidRequest seals it anyway")
    func invalidRequest() throws {
        var request = try GoldenRequests.card()
        try request.setValue("4242 4242 4242 4241", forField: "cardNumber")
        try request.setValue("01/20", forField: "expiryDate")
        let error = caught { () throws(CSEError) in try demoSealer().seal(request, clientSessionID: "s") }
        #expect(error?.code == .paymentsInvalidRequest)
        #expect(error?.context["fields"] == "cardNumber,expiryDate")
        #expect(error?.context["codes"] == "cardNumber:luhn,expiryDate:expirationDate")
        let sealed = try demoSealer(allowInvalid: true).seal(request, clientSessionID: "s")
        let values = try JSONValue.parse(try openSealed(sealed.encryptedCustomerInput))["paymentValues"]?.arrayValue
        #expect(values?.first?["value"]?.stringValue == "4242424242424241")
    }

    @Test("the sealer reports what validation found: the refusal carries the issues, a request sealed anyway carries them too")
    func reportsValidationIssues() throws {
        var request = try GoldenRequests.card()
        try request.setValue("4242 4242 4242 4241", forField: "cardNumber")
        let expected = request.validate(in: ValidationContext(currentMonth: try #require(CalendarMonth(year: 2026, month: 5))))
        #expect(expected.map { $0.code } == [ValidationCode.luhn])
        let error = caught { () throws(CSEError) in try demoSealer().seal(request, clientSessionID: "s") }
        #expect(error?.code == .paymentsInvalidRequest && error?.validationIssues == expected)
        #expect(try demoSealer(allowInvalid: true).seal(request, clientSessionID: "s").validationIssues == expected)
        #expect(try demoSealer().seal(try GoldenRequests.card(), clientSessionID: "s").validationIssues.isEmpty)
        #expect(CSEError(.paymentsInvalidNonce, "another error").validationIssues.isEmpty)
    }

    @Test("an invalid request is refused before its session id is looked at (validate, then seal)")
    func validatesFirst() throws {
        var request = try GoldenRequests.card()
        try request.setValue("4242 4242 4242 4241", forField: "cardNumber")
        #expect(caught { () throws(CSEError) in try demoSealer().seal(request, clientSessionID: "") }?.code == .paymentsInvalidRequest)
        #expect(
            caught { () throws(CSEError) in try demoSealer(allowInvalid: true).seal(request, clientSessionID: "") }?.code
                == .paymentsInvalidClientSessionID)
    }

    @Test("validation at seal time uses the injected clock")
    func clock() throws {
        var request = try GoldenRequests.card()
        try request.setValue("05/26", forField: "expiryDate")
        _ = try demoSealer().seal(request, clientSessionID: "s")
        let june = try PaymentRequestSealer(
            publicKey: DemoKeys.testOnlyPublicKey, keyID: "k",
            options: SealingOptions(allowDemoKey: true, currentMonth: CalendarMonth(year: 2026, month: 6)))
        #expect(caught { () throws(CSEError) in try june.seal(request, clientSessionID: "s") }?.code == .paymentsInvalidRequest)
    }

    @Test("bad session ids and nonce sources are typed errors", arguments: ["", "a\nb", "tab\there", "del\u{7F}"])
    func badSessionID(id: String) throws {
        let card = try GoldenRequests.card()
        #expect(
            caught { () throws(CSEError) in try demoSealer().seal(card, clientSessionID: id) }?.code
                == .paymentsInvalidClientSessionID, "case \(id.debugDescription)")
    }

    @Test("a nonce source must give 16 bytes; a failing one fails the seal")
    func badNonce() throws {
        let card = try GoldenRequests.card()
        let short = caught { () throws(CSEError) in
            try demoSealer(nonce: .unsafeFixed([1, 2, 3])).seal(card, clientSessionID: "s")
        }
        #expect(short?.code == .paymentsInvalidNonce)
        let failing = NonceSource { () throws(CSEError) -> [UInt8] in throw CSEError(.randomFailure, "test") }
        #expect(
            caught { () throws(CSEError) in try demoSealer(nonce: failing).seal(card, clientSessionID: "s") }?.code
                == .randomFailure)
    }

    @Test("every seal has a fresh nonce and a fresh JWE")
    func freshNonce() throws {
        let sealer = try demoSealer()
        var nonces = Set<String>()
        var jwes = Set<String>()
        for _ in 0..<50 {
            let jwe = try sealer.seal(try GoldenRequests.card(), clientSessionID: "s").encryptedCustomerInput
            jwes.insert(jwe)
            let nonce = try #require(try JSONValue.parse(try openSealed(jwe))["nonce"]?.stringValue)
            #expect(nonce.count == 32 && nonce.utf8.allSatisfy { ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x61 && $0 <= 0x66) })
            nonces.insert(nonce)
        }
        #expect(nonces.count == 50 && jwes.count == 50)
    }

    @Test("a sealed request's description shows lengths only")
    func sealedDescription() throws {
        let sealed = try demoSealer().seal(try GoldenRequests.card(), clientSessionID: "s")
        #expect(sealed.description.hasPrefix("SealedPaymentRequest(encryptedCustomerInput: "))
        #expect(!sealed.description.contains(sealed.encryptedCustomerInput))
    }
}

@Suite("sealing: interoperability with python3-jwcrypto")
struct SealingInteropTests {
    @Test(
        "sealed requests decrypt with jwcrypto to exactly the documented shape, unmasked values, fresh nonces",
        .enabled(if: JWCryptoOracle.isAvailable, "needs /usr/bin/python3 with python3-jwcrypto"))
    func jwcryptoDecrypts() throws {
        let sealer = try demoSealer()
        let card = try GoldenRequests.card()
        let aof = try GoldenRequests.accountOnFile()
        var jwes: [String] = []
        for i in 0..<10 {
            jwes.append(try sealer.seal(i % 2 == 0 ? card : aof, clientSessionID: "session-\(i)").encryptedCustomerInput)
        }
        let output = try JWCryptoOracle.batch("decrypt", keyPEM: DemoKeys.testOnlyPrivateKeyPEM, lines: jwes)
        #expect(output.count == 10)
        var nonces = Set<String>()
        for (i, line) in output.enumerated() {
            #expect(!line.hasPrefix("ERROR"), "jwe \(i): \(line)")
            let object = try #require(try JSONValue.parse(Hex.decode(line)).objectValue, "jwe \(i)")
            let isCard = i % 2 == 0
            #expect(
                object.keys
                    == (isCard
                        ? ["clientSessionId", "nonce", "paymentProductId", "tokenize", "paymentValues"]
                        : ["clientSessionId", "nonce", "paymentProductId", "accountOnFileId", "paymentValues"]),
                "jwe \(i)")
            #expect(object["clientSessionId"] == .string("session-\(i)"), "jwe \(i)")
            // Issue #14: the built-in card product seals the brand's platform id (Amex 2), not "card".
            #expect(object["paymentProductId"] == (isCard ? .number("1") : .number("2")), "jwe \(i)")
            let values = (object["paymentValues"]?.arrayValue ?? []).map {
                "\($0["key"]?.stringValue ?? "")=\($0["value"]?.stringValue ?? "")"
            }
            #expect(
                values
                    == (isCard
                        ? ["cardNumber=4242424242424242", "expiryDate=1235", "cvv=123"]
                        : ["cvv=7373", #"cardholderName=Zoë "Z" Ørsted\/ 👍"#]),
                "jwe \(i)")
            if isCard {
                #expect(object["tokenize"] == .bool(true), "jwe \(i)")
            } else {
                #expect(object["accountOnFileId"] == .string("aof-7"), "jwe \(i)")
            }
            nonces.insert(object["nonce"]?.stringValue ?? "")
        }
        #expect(nonces.count == 10)
        let headers = try JWCryptoOracle.batch("header", keyPEM: nil, lines: [jwes[0]])
        #expect(headers == [#"{"alg": "RSA-OAEP", "enc": "A256CBC-HS512", "kid": "csekit-demo-key-TEST-ONLY"}"#])
    }

    @Test("10,000 seals from 4 threads: 10,000 distinct nonces, all decrypt (in-process; a sample through jwcrypto)", .tags(.concurrency))
    func concurrentBatch() async throws {
        let sealer = try demoSealer()
        let request = try GoldenRequests.card()
        let perWorker = 2_500
        let batches = try await withThrowingTaskGroup(of: [String].self) { group in
            for _ in 0..<4 {
                group.addTask {
                    var out: [String] = []
                    out.reserveCapacity(perWorker)
                    for _ in 0..<perWorker { out.append(try sealer.seal(request, clientSessionID: "batch").encryptedCustomerInput) }
                    return out
                }
            }
            return try await group.reduce(into: [[String]]()) { $0.append($1) }
        }
        let jwes = batches.flatMap { $0 }
        #expect(jwes.count == 10_000)
        let nonceLists = try await withThrowingTaskGroup(of: [String].self) { group in
            for batch in batches {
                group.addTask {
                    try batch.map { jwe in
                        let object = try JSONValue.parse(try openSealed(jwe))
                        return object["nonce"]?.stringValue ?? ""
                    }
                }
            }
            return try await group.reduce(into: [String]()) { $0.append(contentsOf: $1) }
        }
        #expect(nonceLists.count == 10_000)
        #expect(Set(nonceLists).count == 10_000)
        #expect(nonceLists.allSatisfy { $0.count == 32 })
        if JWCryptoOracle.isAvailable {
            let sample = stride(from: 0, to: 10_000, by: 400).map { jwes[$0] }
            let output = try JWCryptoOracle.batch("decrypt", keyPEM: DemoKeys.testOnlyPrivateKeyPEM, lines: sample)
            #expect(output.count == sample.count)
            #expect(output.allSatisfy { !$0.hasPrefix("ERROR") })
        }
    }
}

/// Issue #13 F12: the demo key is refused by its modulus, so a different exponent does not
/// smuggle it past the sealer (the published factors decrypt whatever it seals).
@Suite("The demo key is refused by modulus")
struct DemoKeyModulusTests {
    @Test("the demo modulus with e = 65539 is refused like the demo key itself")
    func otherExponentRefused() throws {
        let demo = DemoKeys.testOnlyPublicKey
        let sameModulus = try RSAPublicKey(modulus: demo.modulus, exponent: [0x01, 0x00, 0x03])
        #expect(sameModulus != demo)
        #expect(try RefusedKeys.isRefused(sameModulus))
        let error = #expect(throws: CSEError.self) {
            try PaymentRequestSealer.seal(
                try GoldenRequests.card(), publicKey: sameModulus, keyID: "k",
                clientSessionID: "s", options: SealingOptions(currentMonth: CalendarMonth(year: 2026, month: 5)))
        }
        #expect(error?.code == .paymentsDemoKeyRefused)
    }
}
