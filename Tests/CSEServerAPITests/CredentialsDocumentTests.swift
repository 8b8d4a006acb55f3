import CSECore
import CSECrypto
import CSEGateways
import CSEServerAPI
import Testing

@Suite("Credentials files: flat JSON objects of strings, secrets kept in wiping buffers")
struct CredentialsDocumentTests {
    func document(_ text: String) throws -> CredentialsDocument { try CredentialsDocument(bytes: Array(text.utf8)) }

    @Test("members are read with JSON escapes decoded into the secret's bytes")
    func escapes() throws {
        let doc = try document(#"{"merchantId":"1234","apiKeyId":"ab-12","secretApiKey":"a\"b\\c\/d\n\u00e9\ud83d\ude00\u0041"}"#)
        #expect(doc.names == ["apiKeyId", "merchantId", "secretApiKey"])
        #expect(try doc.text("merchantId") == "1234")
        let value = try doc.secret("secretApiKey").unsafeCopyToArray()
        #expect(value == Array("a\"b\\c/d\né😀A".utf8))
    }

    @Test("Worldline, APS, Mastercard and Paysafe credentials read their documented members")
    func gatewayCredentials() throws {
        let worldline = try WorldlineServerCredentials(document: document(#"{"merchantId":"1","apiKeyId":"k","secretApiKey":"s"}"#))
        #expect(worldline.merchantID == "1" && worldline.apiKeyID == "k")
        let aps = try APSCredentials(
            document: document(
                #"{"access_code":"zx0IPmPy5jp1vAz8Kpg7","merchant_identifier":"CycHZxVj","sha_request_phrase":"a","sha_response_phrase":"b","sha_type":"SHA-512"}"#
            ))
        #expect(aps.algorithm == .sha512)
        let mastercard = try MastercardCredentials(document: document(#"{"merchantId":"TEST_12345","apiPassword":"pw"}"#))
        #expect(mastercard.merchantID == "TEST_12345")
        _ = try PaysafeCredentials(document: document(#"{"apiKey":"dXNlcjpwYXNz"}"#))
    }

    @Test(
        "a missing member, an empty one, a non-string one or a non-object document is a credentials error naming the member",
        arguments: [
            #"{"merchantId":"1","apiKeyId":"k"}"#, #"{"merchantId":"1","apiKeyId":"k","secretApiKey":""}"#,
            #"{"merchantId":1,"apiKeyId":"k","secretApiKey":"s"}"#, #"["s"]"#, #"{"merchantId":"a/b","apiKeyId":"k","secretApiKey":"s"}"#,
        ])
    func rejected(text: String) {
        #expect(throws: CSEError(.serverAPICredentials, "")) {
            _ = try WorldlineServerCredentials(document: try document(text))
        }
    }

    @Test("malformed JSON is a json.* error and never echoes the secret")
    func malformed() throws {
        do {
            _ = try document(#"{"secretApiKey":"CANARY-SECRET-7f3a""#)
            Issue.record("accepted malformed JSON")
        } catch let error as CSEError {
            #expect(error.code.rawValue.hasPrefix("json."))
            #expect(!error.description.contains("CANARY"))
        }
    }

    @Test("descriptions never show a secret")
    func descriptions() throws {
        let canary = "CANARY-PHRASE-91c2"
        let aps = try APSCredentials(
            accessCode: "abc", merchantIdentifier: "def", requestPhrase: secret(canary), responsePhrase: secret(canary))
        let mastercard = try MastercardCredentials(merchantID: "m", apiPassword: secret(canary))
        let worldline = try WorldlineServerCredentials(merchantID: "m", apiKeyID: "k", secretAPIKey: secret(canary))
        for text in [aps.description, mastercard.description, worldline.description, String(reflecting: aps)] {
            #expect(!text.contains(canary))
        }
    }

    @Test("Paysafe keys are checked as the SDK checks them: empty → 9167, not base64 user:pass → 9013")
    func paysafeKeys() throws {
        for (key, code) in [("", "9167"), ("not-base64", "9013"), ("dXNlcg==", "9013")] {
            do {
                _ = try PaysafeCredentials(apiKey: secret(key))
                Issue.record("accepted \(key)")
            } catch {
                #expect(error.code == .paysafeAPIKey)
                #expect(error.context["paysafeCode"] == code)
            }
        }
    }
}
