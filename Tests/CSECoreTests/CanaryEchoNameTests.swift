import CSECore
import Testing

/// `SecretMasking.echoName` decides what of an untrusted name (a JOSE `alg`/`enc`, a PEM label, a
/// JWK `kty`) an error may repeat. Found by the canary tests: a card number placed in those
/// fields used to be echoed verbatim.
@Suite("Canary: untrusted names are echoed only when they cannot hold a card number")
struct CanaryEchoNameTests {
    @Test(
        "registered and plausible names are echoed as they are",
        arguments: [
            "RSA-OAEP-256", "A256CBC-HS512", "A128GCMKW", "ECDH-ES+A256KW", "PUBLIC KEY", "CERTIFICATE", "EC", "oct", "",
        ])
    func names(name: String) {
        #expect(SecretMasking.echoName(name) == name)
    }

    @Test(
        "8 or more digits, with or without separators, are redacted",
        arguments: [
            "4917484589897107", "4917 4845 8989 7107", "4917-4845-8989-7107", "A4917484589897107", "12345678",
        ])
    func cardNumbers(name: String) {
        #expect(SecretMasking.echoName(name) == "<redacted \(name.unicodeScalars.count) chars>")
    }

    @Test("non-printable characters become '?', and the length is capped")
    func printable() {
        #expect(SecretMasking.echoName("A\u{0}B\u{7F}é") == "A?B??")
        #expect(SecretMasking.echoName(String(repeating: "X", count: 100)) == String(repeating: "X", count: 32))
        #expect(SecretMasking.echoName(String(repeating: "X", count: 100), limit: 16).count == 16)
    }
}
