import CSECore
import CSECrypto
import CSEHTTP
import CSEServerAPI
import Testing

@Suite("Worldline v1HMAC: the string to sign and the Worldline server SDK's known answers")
struct WorldlineSignatureTests {
    /// Known answer 1 of the Worldline server SDK's V1HmacAuthenticator tests.
    static let deleteString =
        "DELETE\napplication/json\nFri, 06 Jun 2014 13:39:43 GMT\nx-gcs-clientmetainfo:processed header value\n"
        + "x-gcs-customerheader:processed header value\nx-gcs-servermetainfo:processed header value\n/v2/1/tokens/2\n"

    @Test("secretApiKey signs the DELETE string to jXG/ESTt…")
    func knownAnswerDelete() throws {
        #expect(
            try WorldlineSignature.signature(of: Self.deleteString, secret: secret("secretApiKey"))
                == "jXG/ESTtRWawO4OOyxOrtWcQA8XkrZKeoHeGGIj4jws=")
    }

    @Test("6Kj5HT0M… signs the GET string without Content-Type to vCos01y7…")
    func knownAnswerGet() throws {
        let text = "GET\n\nFri, 06 Jun 2014 13:39:43 GMT\n/v2/1/tokens/2\n"
        #expect(
            try WorldlineSignature.signature(of: text, secret: secret("6Kj5HT0MQKC6D8eb7W3lTg71kVKVDSt1"))
                == "vCos01y77soPNJOW6kDCm4Bu5b2darAZ09PP7Wa+jRA=")
    }

    /// The research notes' derived GetPayment vector (§1.2): a GET has no body, so no
    /// Content-Type line content, and the server meta info is the only `X-GCS-*` line.
    @Test("GetPayment's GET string with X-GCS-ServerMetaInfo signs to lQDx6HAG…")
    func knownAnswerGetPayment() throws {
        let headers: [(name: String, value: String)] = [
            ("Date", "Fri, 06 Jun 2014 13:39:43 GMT"), ("X-GCS-ServerMetaInfo", "eyJzZGtJZGVudGlmaWVyIjoiQ1NFS2l0L3YxLjAuMCJ9"),
        ]
        let text = WorldlineSignature.stringToSign(method: "GET", headers: headers, path: "/v2/1/payments/3066019730_0")
        #expect(
            text == "GET\n\nFri, 06 Jun 2014 13:39:43 GMT\nx-gcs-servermetainfo:eyJzZGtJZGVudGlmaWVyIjoiQ1NFS2l0L3YxLjAuMCJ9\n"
                + "/v2/1/payments/3066019730_0\n")
        #expect(
            try WorldlineSignature.signature(of: text, secret: secret("secretApiKey")) == "lQDx6HAGPrE7aJTmojm/9MPh9Yc9h7/vprr2WHvvEV8=")
    }

    /// The derived vector of the research notes (§1.2, Python `hmac` and `openssl dgst -hmac`
    /// agree): the idempotence key is an `X-GCS-*` header, signed and sorted with the others.
    @Test("X-GCS-Idempotence-Key is signed between the other X-GCS-* lines: V28bMzbV…")
    func knownAnswerIdempotenceKey() throws {
        let headers: [(name: String, value: String)] = [
            ("Content-Type", "application/json"), ("Date", "Fri, 06 Jun 2014 13:39:43 GMT"),
            ("X-GCS-ServerMetaInfo", "eyJzZGtJZGVudGlmaWVyIjoiQ1NFS2l0L3YxLjAuMCJ9"),
            ("X-GCS-Idempotence-Key", "8f3a1c2e-0b7d-4e59-9c1a-2d4e6f708192"),
        ]
        let text = WorldlineSignature.stringToSign(method: "POST", headers: headers, path: "/v2/1/payments")
        #expect(
            text == "POST\napplication/json\nFri, 06 Jun 2014 13:39:43 GMT\nx-gcs-idempotence-key:8f3a1c2e-0b7d-4e59-9c1a-2d4e6f708192\n"
                + "x-gcs-servermetainfo:eyJzZGtJZGVudGlmaWVyIjoiQ1NFS2l0L3YxLjAuMCJ9\n/v2/1/payments\n")
        #expect(
            try WorldlineSignature.signature(of: text, secret: secret("secretApiKey")) == "V28bMzbV9AbdxxYYj0wNSbbUsy50eEdgm4SsKISaFls=")
    }

    @Test("the string to sign: method upper-cased, Content-Type, Date, X-GCS-* lower-cased and sorted, then the path")
    func stringToSignFromHeaders() {
        let headers: [(name: String, value: String)] = [
            ("X-GCS-ServerMetaInfo", "processed header value"), ("Content-Type", "application/json"),
            ("X-GCS-ClientMetaInfo", "processed header value"), ("Date", "Fri, 06 Jun 2014 13:39:43 GMT"),
            ("X-GCS-CustomerHeader", "processed header value"), ("Accept", "application/json"), ("Authorization", "ignored"),
        ]
        #expect(WorldlineSignature.stringToSign(method: "delete", headers: headers, path: "/v2/1/tokens/2") == Self.deleteString)
    }

    @Test("without Content-Type the second line is empty; the query follows the path after '?'")
    func stringToSignWithoutContentType() {
        let text = WorldlineSignature.stringToSign(method: "GET", headers: [("Date", "D")], path: "/v2/1/products", query: "countryCode=NL")
        #expect(text == "GET\n\nD\n/v2/1/products?countryCode=NL\n")
    }

    @Test(
        "header values are unfolded: a line break and the whitespace after it become one space; ends are trimmed",
        arguments: [
            ("some value", "some value"), ("some\n value", "some value"), ("some\r\n \t value", "some value"),
            ("  padded  ", "padded"), ("a\nb", "a b"), ("x\r\n  y\n z", "x y z"),
        ])
    func unfolding(input: String, expected: String) {
        #expect(WorldlineSignature.canonicalValue(input) == expected)
    }

    @Test("the Authorization header is GCS v1HMAC:<apiKeyId>:<signature>")
    func authorization() {
        #expect(WorldlineSignature.authorization(apiKeyID: "5e45c937b9db33ae", signature: "abc=") == "GCS v1HMAC:5e45c937b9db33ae:abc=")
    }

    @Test("an empty secret is a credentials error, not a signature")
    func emptySecret() {
        #expect(throws: CSEError(.serverAPICredentials, "")) {
            try WorldlineSignature.signature(of: "GET\n", secret: SecureBytes(zeros: 0))
        }
    }

    @Test("the Date header is the IMF-fixdate of RFC 9110 §5.6.7")
    func imfFixdate() {
        #expect(HTTPDate.imfFixdate(secondsSinceEpoch: 1_402_061_983) == "Fri, 06 Jun 2014 13:39:43 GMT")
        #expect(HTTPDate.imfFixdate(secondsSinceEpoch: 0) == "Thu, 01 Jan 1970 00:00:00 GMT")
        #expect(HTTPDate.now().hasSuffix(" GMT"))
    }
}

@Suite("Worldline webhooks: X-GCS-Signature over the raw body, for the key named by X-GCS-KeyId")
struct WorldlineWebhookTests {
    static let body = Array(#"{"apiVersion":"v1","id":"8ee793f6-4553-4749-85dc-f2ef095c5ab0","type":"payment.created"}"#.utf8)
    /// base64(HMAC-SHA256("hello+world", body)), computed with Python's hmac module.
    static let signature = "TLypUey0ycj4/1OjNnyUoIOi5XFQxKt3jhxvS6ugfFE="

    static func secrets(_ keyID: String) -> SecureBytes? { keyID == "dummy-key-id" ? secret("hello+world") : nil }

    @Test("a body signed with the key's secret is valid")
    func valid() throws {
        #expect(try WorldlineWebhook.isValid(signature: Self.signature, body: Self.body, secret: secret("hello+world")))
        let headers = [(name: "x-gcs-signature", value: Self.signature), (name: "X-GCS-KeyId", value: "dummy-key-id")]
        #expect(try WorldlineWebhook.isValid(body: Self.body, headers: headers, secrets: Self.secrets))
    }

    @Test("a changed body, a changed secret or a changed signature is invalid")
    func invalid() throws {
        var tampered = Self.body
        tampered[10] ^= 1
        #expect(try !WorldlineWebhook.isValid(signature: Self.signature, body: tampered, secret: secret("hello+world")))
        #expect(try !WorldlineWebhook.isValid(signature: Self.signature, body: Self.body, secret: secret("1hello+world")))
        #expect(try !WorldlineWebhook.isValid(signature: "1" + Self.signature, body: Self.body, secret: secret("hello+world")))
        #expect(try !WorldlineWebhook.isValid(signature: "", body: Self.body, secret: secret("hello+world")))
        #expect(try !WorldlineWebhook.isValid(signature: "not base64!", body: Self.body, secret: secret("hello+world")))
        // The same MAC in hex is not the documented base64 form.
        #expect(
            try !WorldlineWebhook.isValid(
                signature: "4cbca951ecb4c9c8f8ff53a3367c94a083a2e5715", body: Self.body, secret: secret("hello+world")))
    }

    @Test("a missing or repeated header is an error naming the header; an unknown key id is an error")
    func headerErrors() {
        #expect(throws: CSEError(.worldlineWebhookHeader, "")) {
            try WorldlineWebhook.isValid(body: Self.body, headers: [(name: "X-GCS-KeyId", value: "dummy-key-id")], secrets: Self.secrets)
        }
        #expect(throws: CSEError(.worldlineWebhookHeader, "")) {
            try WorldlineWebhook.isValid(
                body: Self.body, headers: [(name: "X-GCS-Signature", value: Self.signature)], secrets: Self.secrets)
        }
        #expect(throws: CSEError(.worldlineWebhookHeader, "")) {
            try WorldlineWebhook.isValid(
                body: Self.body,
                headers: [
                    (name: "X-GCS-Signature", value: Self.signature), (name: "X-GCS-KeyId", value: "dummy-key-id"),
                    (name: "X-GCS-Signature", value: "1" + Self.signature),
                ], secrets: Self.secrets)
        }
        #expect(throws: CSEError(.worldlineWebhookUnknownKey, "")) {
            try WorldlineWebhook.isValid(
                body: Self.body,
                headers: [
                    (name: "X-GCS-Signature", value: Self.signature), (name: "X-GCS-KeyId", value: "other-key"),
                ], secrets: Self.secrets)
        }
    }
}

func secret(_ text: String) -> SecureBytes { SecureBytes(Array(text.utf8)) }
