import CSECore
import CSECrypto
import CSEGateways
import Foundation
import Testing

/// Hashes text with the `openssl dgst` command line tool, independently of CSEKit.
func opensslDigest(_ algorithm: String, _ text: String) throws -> String {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["openssl", "dgst", "-" + algorithm, "-r"]
    let input = Pipe(), output = Pipe()
    process.standardInput = input
    process.standardOutput = output
    try process.run()
    input.fileHandleForWriting.write(Data(text.utf8))
    try input.fileHandleForWriting.close()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return String(decoding: data, as: UTF8.self).split(separator: " ").first.map(String.init) ?? ""
}

let opensslAvailable = FileManager.default.isExecutableFile(atPath: "/usr/bin/openssl")

@Suite("APS signatures: the public rule, checked against OpenSSL's digest, plus tampering")
struct APSSignatureTests {
    /// The example parameters of the APS "Signature Calculation" page, with its example phrase.
    static let docParameters = JSONObject([
        ("command", "PURCHASE"), ("access_code", "SILgpo7pWbmzuURp2qri"), ("merchant_identifier", "MxvOupuG"),
        ("merchant_reference", "ORD-12345-2024"), ("amount", "2000"), ("currency", "AED"), ("language", "en"),
        ("customer_email", "customer@example.com"),
    ])
    static let phrase = "MySecretKey123"
    /// The same string built by hand: phrase, names sorted, name=value without separators, phrase.
    static let docString =
        "MySecretKey123" + "access_code=SILgpo7pWbmzuURp2qri" + "amount=2000" + "command=PURCHASE"
        + "currency=AED" + "customer_email=customer@example.com" + "language=en" + "merchant_identifier=MxvOupuG"
        + "merchant_reference=ORD-12345-2024" + "MySecretKey123"

    @Test("the signing string of the documented example is the hand-built one")
    func signingString() throws {
        let bytes = try APSSignature.signingBytes(Self.docParameters, phrase: Self.phrase)
        #expect(String(decoding: bytes, as: UTF8.self) == Self.docString)
    }

    @Test(
        "the signature equals `openssl dgst` of the hand-built string", .enabled(if: opensslAvailable, "needs /usr/bin/openssl"),
        arguments: [(APSSignatureAlgorithm.sha256, "sha256"), (.sha512, "sha512"), (.sha1, "sha1")])
    func matchesOpenSSL(algorithm: APSSignatureAlgorithm, opensslName: String) throws {
        let expected = try opensslDigest(opensslName, Self.docString)
        #expect(expected.count == algorithm.digest.byteCount * 2, "openssl printed \(expected)")
        let signature = try APSSignature.sign(Self.docParameters, phrase: Self.phrase, algorithm: algorithm)
        #expect(signature == expected, "\(opensslName)")
        #expect(try APSSignature.isValid(signature, for: Self.docParameters, phrase: Self.phrase, algorithm: algorithm))
    }

    @Test("the signature equals CSECrypto's digest over the hand-built string (no OpenSSL CLI needed)")
    func matchesDigestOfString() throws {
        let digest = try DigestAlgorithm.sha256.hash(Array(Self.docString.utf8))
        let hex = digest.map { String($0, radix: 16).count == 1 ? "0" + String($0, radix: 16) : String($0, radix: 16) }.joined()
        #expect(try APSSignature.sign(Self.docParameters, phrase: Self.phrase) == hex)
    }

    @Test("names sort case-sensitively in byte order: upper case, then '_', then lower case")
    func caseSensitiveOrder() throws {
        let parameters = JSONObject([("alpha", "1"), ("_x", "2"), ("Zeta", "3"), ("B", "4"), ("a", "5")])
        let text = String(decoding: try APSSignature.signingBytes(parameters, phrase: "P"), as: UTF8.self)
        #expect(text == "PB=4Zeta=3_x=2a=5alpha=1P")
    }

    @Test("the signature parameter itself is left out; numbers and Booleans are written as sent")
    func signatureExcludedAndScalars() throws {
        var parameters = Self.docParameters
        parameters["signature"] = "0123"
        #expect(try APSSignature.signingBytes(parameters, phrase: Self.phrase) == Array(Self.docString.utf8))
        let scalars = JSONObject([("amount", .number("10000")), ("flag", .bool(true))])
        #expect(String(decoding: try APSSignature.signingBytes(scalars, phrase: "P"), as: UTF8.self) == "Pamount=10000flag=trueP")
    }

    @Test("an object value is written {k=v, k=v} in the order sent (the Apple Pay apple_header form)")
    func nestedObject() throws {
        let parameters = JSONObject([
            ("digital_wallet", "APPLE_PAY"),
            (
                "apple_header",
                .object(
                    JSONObject([
                        ("apple_transactionId", "T1"), ("apple_ephemeralPublicKey", "E2"),
                        ("apple_publicKeyHash", "H3"),
                    ]))
            ),
        ])
        let text = String(decoding: try APSSignature.signingBytes(parameters, phrase: "P"), as: UTF8.self)
        #expect(
            text == "Papple_header={apple_transactionId=T1, apple_ephemeralPublicKey=E2, apple_publicKeyHash=H3}digital_wallet=APPLE_PAYP")
    }

    @Test(
        "arrays, null and doubly nested objects have no documented form and are refused",
        arguments: [
            JSONValue.array(["a"]), .null, .object(JSONObject([("inner", .object(JSONObject([("x", "1")])))])),
        ])
    func unsupportedValues(value: JSONValue) {
        #expect(throws: CSEError(.apsSignatureUnsupportedValue, "")) {
            try APSSignature.sign(JSONObject([("items", value)]), phrase: "P")
        }
    }

    @Test("an empty phrase is refused; algorithm names follow the APS dashboard")
    func phraseAndNames() throws {
        #expect(throws: CSEError(.apsSignatureEmptyPhrase, "")) { try APSSignature.sign(Self.docParameters, phrase: "") }
        #expect(try APSSignatureAlgorithm(name: "SHA-128") == .sha1)
        #expect(try APSSignatureAlgorithm(name: "sha-512") == .sha512)
        #expect(try APSSignatureAlgorithm(name: "SHA256") == .sha256)
        #expect(throws: CSEError(.apsSignatureUnknownAlgorithm, "")) { try APSSignatureAlgorithm(name: "md5") }
    }

    @Test(
        "tampering is detected",
        arguments: [
            "amount changed", "parameter added", "parameter removed", "wrong phrase", "truncated", "not hex", "other algorithm",
        ])
    func tamper(caseID: String) throws {
        let good = try APSSignature.sign(Self.docParameters, phrase: Self.phrase)
        var parameters = Self.docParameters
        var signature = good
        var phrase = Self.phrase
        var algorithm = APSSignatureAlgorithm.sha256
        switch caseID {
        case "amount changed": parameters["amount"] = "2001"
        case "parameter added": parameters["order_description"] = "x"
        case "parameter removed": parameters["language"] = nil
        case "wrong phrase": phrase = "MySecretKey124"
        case "truncated": signature = String(good.dropLast(2))
        case "not hex": signature = "z" + good.dropFirst()
        default: algorithm = .sha512
        }
        #expect(try !APSSignature.isValid(signature, for: parameters, phrase: phrase, algorithm: algorithm), "\(caseID)")
    }

    @Test("hex case does not matter, and member order does not either")
    func caseAndOrder() throws {
        let good = try APSSignature.sign(Self.docParameters, phrase: Self.phrase)
        #expect(try APSSignature.isValid(good.uppercased(), for: Self.docParameters, phrase: Self.phrase))
        let reversed = JSONObject(zip(Self.docParameters.keys, Self.docParameters.values).reversed().map { ($0.0, $0.1) })
        #expect(try APSSignature.isValid(good, for: reversed, phrase: Self.phrase))
    }

    /// The documented example as the JSON text a merchant would send.
    static let docText = #"""
        {"command":"PURCHASE","access_code":"SILgpo7pWbmzuURp2qri","merchant_identifier":"MxvOupuG",
         "merchant_reference":"ORD-12345-2024","amount":"2000","currency":"AED","language":"en",
         "customer_email":"customer@example.com","signature":"ignored"}
        """#

    @Test(
        "the public API signs the request's JSON text: the documented example gives `openssl dgst` of the hand-built string",
        .enabled(if: opensslAvailable, "needs /usr/bin/openssl"))
    func signsJSONText() throws {
        let phrase = SecureBytes(Self.phrase.utf8)
        let signature = try APSSignature.sign(Array(Self.docText.utf8), phrase: phrase)
        #expect(signature == (try opensslDigest("sha256", Self.docString)))
        #expect(try APSSignature.isValid(signature, for: Array(Self.docText.utf8), phrase: phrase))
        let changed = Self.docText.replacing(#""amount":"2000""#, with: #""amount":"2001""#)
        #expect(try !APSSignature.isValid(signature, for: Array(changed.utf8), phrase: phrase))
    }

    @Test("JSON text that is not an object, or not JSON, is refused with the json code")
    func nonObjectText() {
        let phrase = SecureBytes("P".utf8)
        #expect(throws: CSEError(.jsonUnexpectedValue, "")) { try APSSignature.sign(Array("[]".utf8), phrase: phrase) }
        #expect(throws: CSEError(.jsonSyntax, "")) { try APSSignature.sign(Array("{".utf8), phrase: phrase) }
        #expect(throws: CSEError(.jsonUnexpectedValue, "")) { try APSSignature.isValid("00", for: Array("1".utf8), phrase: phrase) }
    }
}

@Suite("APS responses: signature, every request parameter echoed, response_code and status")
struct APSResponseTests {
    static let request = JSONObject([
        ("command", "PURCHASE"), ("merchant_reference", "XYZ9239-yu898"), ("amount", "10000"), ("currency", "AED"),
        ("language", "en"), ("customer_email", "customer1@domain.com"), ("card_number", "4005550000000001"),
        ("card_security_code", "123"), ("signature", "request-signature"),
    ])
    static let responsePhrase = "ResponsePhrase!"

    static func response(_ changes: [String: JSONValue?] = [:], sign: Bool = true) throws -> JSONObject {
        var response = JSONObject([
            ("command", "PURCHASE"), ("merchant_reference", "XYZ9239-yu898"), ("amount", "10000"), ("currency", "AED"),
            ("language", "en"), ("customer_email", "customer1@domain.com"), ("card_number", "400555******0001"),
            ("fort_id", "149295435400084008"), ("response_code", "14000"), ("response_message", "Success"), ("status", "14"),
        ])
        for (key, value) in changes { response[key] = value ?? nil }
        if sign { response["signature"] = .string(try APSSignature.sign(response, phrase: responsePhrase)) }
        return response
    }

    @Test("a signed response that echoes every parameter (card number masked as the documents show) is valid")
    func valid() throws {
        let result = try APSSignature.verifyResponse(
            request: Self.request, response: try Self.response(),
            responsePhrase: Self.responsePhrase)
        #expect(result.isValid, "\(result)")
        let unmasked = try APSSignature.verifyResponse(
            request: Self.request, response: try Self.response(["card_number": "4005550000000001"]),
            responsePhrase: Self.responsePhrase)
        #expect(unmasked.isValid)
    }

    @Test("a changed or missing echo is named without its value; an unsigned or re-signed-with-another-phrase response fails")
    func failures() throws {
        let changed = try APSSignature.verifyResponse(
            request: Self.request, response: try Self.response(["amount": "1000", "customer_email": nil]),
            responsePhrase: Self.responsePhrase)
        #expect(changed.signatureValid && changed.changedParameters == ["amount"] && changed.missingParameters == ["customer_email"])
        #expect(!changed.description.contains("1000"))
        let wrongMask = try APSSignature.verifyResponse(
            request: Self.request, response: try Self.response(["card_number": "400556******0001"]),
            responsePhrase: Self.responsePhrase)
        #expect(wrongMask.changedParameters == ["card_number"])
        let unsigned = try APSSignature.verifyResponse(
            request: Self.request, response: try Self.response(sign: false),
            responsePhrase: Self.responsePhrase)
        #expect(!unsigned.signatureValid && !unsigned.isValid)
        var tampered = try Self.response()
        tampered["status"] = "13"
        let forged = try APSSignature.verifyResponse(request: Self.request, response: tampered, responsePhrase: Self.responsePhrase)
        #expect(!forged.signatureValid)
        let otherPhrase = try APSSignature.verifyResponse(
            request: Self.request, response: try Self.response(),
            responsePhrase: "RequestPhrase")
        #expect(!otherPhrase.signatureValid)
    }

    @Test(
        "response_code is 2 status digits + 3 message digits",
        arguments: [
            ("14000", "14", "000", Optional("Purchase Success"), Optional("Success"), APSResponseCode.Outcome.success),
            ("00008", "00", "008", "Invalid Request", "Signature mismatch", .failure),
            ("22000", "22", "000", "SDK Token creation success", "Success", .success),
            ("20064", "20", "064", "On hold", "3-D Secure check requested", .pending),
            ("13666", "13", "666", "Purchase Failure", "Transaction declined", .failure),
            ("99999", "99", "999", nil, nil, .unknown),
        ])
    func responseCodes(
        text: String, status: String, message: String, statusText: String?, messageText: String?,
        outcome: APSResponseCode.Outcome
    ) throws {
        let code = try APSResponseCode(text)
        #expect(code.status == status && code.message == message && code.description == text)
        #expect(code.statusDescription == statusText && code.messageDescription == messageText && code.outcome == outcome, "\(text)")
    }

    @Test("malformed response codes are refused", arguments: ["", "1400", "140000", "14a00", "١٤٠٠٠", " 1400"])
    func malformed(text: String) {
        #expect(throws: CSEError(.apsResponseCodeMalformed, "")) { try APSResponseCode(text) }
    }

    @Test("status must agree with the response code's first two digits")
    func statusAgreement() throws {
        #expect(try APSResponseStatus(response: try Self.response()).outcome == .success)
        let inconsistent = try APSResponseStatus(response: try Self.response(["status": "13"]))
        #expect(!inconsistent.statusMatches && inconsistent.outcome == .unknown)
        #expect(throws: CSEError(.apsResponseCodeMalformed, "")) { try APSResponseStatus(response: JSONObject()) }
    }

    @Test("the public API reads the request and the response as JSON text: the documents' echo rules apply unchanged")
    func jsonText() throws {
        let request = Array(
            #"{"command":"PURCHASE","merchant_reference":"XYZ9239-yu898","amount":"10000","currency":"AED","language":"en","customer_email":"customer1@domain.com","card_number":"4005550000000001","card_security_code":"123"}"#
                .utf8)
        let phrase = SecureBytes(Self.responsePhrase.utf8)
        var response = try Self.response()
        let good = Array(#"{"#.utf8) + response.map { "\"\($0.0)\":\"\($0.1.stringValue!)\"" }.joined(separator: ",").utf8 + Array("}".utf8)
        #expect(try APSSignature.verifyResponse(request: request, response: good, responsePhrase: phrase).isValid)
        #expect(try APSResponseStatus(response: good).outcome == .success)
        response["amount"] = "1000"
        let changed =
            Array(#"{"#.utf8) + response.map { "\"\($0.0)\":\"\($0.1.stringValue!)\"" }.joined(separator: ",").utf8 + Array("}".utf8)
        let verdict = try APSSignature.verifyResponse(request: request, response: changed, responsePhrase: phrase)
        #expect(!verdict.signatureValid && verdict.changedParameters == ["amount"])
        #expect(throws: CSEError(.jsonUnexpectedValue, "")) { try APSResponseStatus(response: Array("[]".utf8)) }
    }

    @Test("the response-code table has unique 2-digit statuses and 3-digit messages")
    func table() throws {
        let json = try GW.vector("aps-response-codes.json")
        let statuses = (json["statuses"]?.arrayValue ?? []).compactMap { $0["status"]?.stringValue }
        let messages = (json["messages"]?.arrayValue ?? []).compactMap { $0["message"]?.stringValue }
        #expect(statuses.count == 62 && Set(statuses).count == statuses.count && statuses.allSatisfy { $0.count == 2 })
        #expect(Set(messages).count == messages.count && messages.allSatisfy { $0.count == 3 })
    }
}
