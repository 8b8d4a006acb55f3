import CSECore
@testable import CSECrypto
import CSEPayments
import Testing

/// Drip-feed truncation for the key formats KeyDripFeedTests does not cover (PKCS#1 private DER,
/// the `RSA PUBLIC KEY` and `RSA PRIVATE KEY` PEM labels, the private JWK, the Client API
/// response) and for the content-sniffing entry point `RSAKeyMaterial(contents:)` over every
/// format: every proper prefix fails with the one code its length predicts, never succeeds.
@Suite("Drip-feed: every truncation of every key format fails with a predictable code")
struct DripFeedKeyFormatsTests {
    typealias Forms = KeyImportTests.OpenSSLForms

    /// Every proper prefix of `full` fails with `expected(length)`; `full` itself imports.
    static func dripFeed(
        _ full: [UInt8], _ what: String, expected: (Int) -> CSEError.Code,
        parse: ([UInt8]) throws(CSEError) -> Void
    ) {
        var mismatches = 0
        for length in 0..<full.count {
            do throws(CSEError) {
                try parse(Array(full[..<length]))
                Issue.record("\(what): the \(length)-byte prefix was accepted")
                mismatches += 1
            } catch {
                if error.code != expected(length) {
                    if mismatches < 5 {
                        Issue.record("\(what): the \(length)-byte prefix failed with \(error.code), expected \(expected(length))")
                    }
                    mismatches += 1
                }
            }
        }
        #expect(mismatches == 0, "\(what): \(mismatches) of \(full.count) prefixes")
        #expect(throws: Never.self, "\(what) in full") { try parse(full) }
    }

    /// A private JWK for a key, written from its PKCS#1 components (RFC 7518 §6.3).
    static func privateJWK(_ pkcs1DER: [UInt8]) throws -> [UInt8] {
        let c = try RSAKeyStructures.readPrivateKey(pkcs1DER[...])
        func b64(_ bytes: ArraySlice<UInt8>) -> String { Base64URL.encode(bytes) }
        return Array(
            #"{"kty":"RSA","kid":"k","n":"\#(b64(c.modulus))","e":"\#(b64(c.publicExponent))","d":"\#(b64(c.privateExponent))","p":"\#(b64(c.prime1))","q":"\#(b64(c.prime2))","dp":"\#(b64(c.exponent1))","dq":"\#(b64(c.exponent2))","qi":"\#(b64(c.coefficient))"}"#
                .utf8)
    }

    static func withoutFinalNewline(_ pem: String) -> [UInt8] {
        var bytes = Array(pem.utf8)
        while bytes.last == 0x0A { bytes.removeLast() }
        return bytes
    }

    @Test("PKCS#1 RSAPrivateKey DER prefixes fail with der.truncated", .enabled(if: OpenSSLTool.path != nil, "needs the openssl tool"))
    func pkcs1PrivateDER() throws {
        let forms = try #require(Forms.shared)
        Self.dripFeed(forms.pkcs1DER, "PKCS#1 private DER", expected: { _ in .derTruncated }) { (bytes) throws(CSEError) in
            _ = try RSAPrivateKey(derRepresentation: bytes)
        }
    }

    @Test(
        "RSA PUBLIC KEY and RSA PRIVATE KEY PEM prefixes fail with pem.malformed",
        .enabled(if: OpenSSLTool.path != nil, "needs the openssl tool"))
    func pkcs1PEM() throws {
        let forms = try #require(Forms.shared)
        Self.dripFeed(Self.withoutFinalNewline(forms.pkcs1PublicPEM), "RSA PUBLIC KEY PEM", expected: { _ in .pemMalformed }) {
            (bytes) throws(CSEError) in
            _ = try RSAPublicKey(pemRepresentation: String(decoding: bytes, as: UTF8.self))
        }
        Self.dripFeed(Self.withoutFinalNewline(forms.pkcs1PEM), "RSA PRIVATE KEY PEM", expected: { _ in .pemMalformed }) {
            (bytes) throws(CSEError) in
            _ = try RSAPrivateKey(pemRepresentation: String(decoding: bytes, as: UTF8.self))
        }
    }

    @Test("private JWK prefixes fail with jwk.malformed", .enabled(if: OpenSSLTool.path != nil, "needs the openssl tool"))
    func privateJWK() throws {
        let forms = try #require(Forms.shared)
        Self.dripFeed(try Self.privateJWK(forms.pkcs1DER), "private JWK", expected: { _ in .jwkMalformed }) { (bytes) throws(CSEError) in
            _ = try RSAPrivateKey(jwkRepresentation: bytes)
        }
    }

    @Test(
        "Client API public-key response prefixes fail with keyResponse.malformed",
        .enabled(if: OpenSSLTool.path != nil, "needs the openssl tool"))
    func clientAPIResponse() throws {
        let forms = try #require(Forms.shared)
        let json = Array(#"{"keyId":"k","publicKey":"\#(Base64.encode(forms.spkiDER))"}"#.utf8)
        Self.dripFeed(json, "Client API response", expected: { _ in .keyResponseMalformed }) { (bytes) throws(CSEError) in
            _ = try PublicKeyResponse(json: bytes)
        }
    }

    /// `RSAKeyMaterial(contents:)` sniffs the format from the first bytes, so the expected code
    /// depends on how much of the start survived: nothing is `key.unsupportedFormat`; less than
    /// `-----BEGIN ` is not recognisably PEM; after that PEM, DER and JSON each have their code.
    @Test(
        "RSAKeyMaterial(contents:) over every prefix of all eleven formats", .enabled(if: OpenSSLTool.path != nil, "needs the openssl tool")
    )
    func keyMaterial() throws {
        let forms = try #require(Forms.shared)
        let pem: (Int) -> CSEError.Code = { $0 < 11 ? .keyUnsupportedFormat : .pemMalformed }
        let der: (Int) -> CSEError.Code = { $0 == 0 ? .keyUnsupportedFormat : .derTruncated }
        let json: (Int) -> CSEError.Code = { $0 == 0 ? .keyUnsupportedFormat : .jsonSyntax }
        let publicJWK = Array(try RSAPrivateKey(derRepresentation: forms.pkcs8DER).publicKey.jwkRepresentation(keyID: "k").utf8)
        let cases: [(String, [UInt8], (Int) -> CSEError.Code)] = [
            ("PKCS#8 PEM", Self.withoutFinalNewline(forms.pkcs8PEM), pem),
            ("RSA PRIVATE KEY PEM", Self.withoutFinalNewline(forms.pkcs1PEM), pem),
            ("SPKI PEM", Self.withoutFinalNewline(forms.spkiPEM), pem),
            ("RSA PUBLIC KEY PEM", Self.withoutFinalNewline(forms.pkcs1PublicPEM), pem),
            ("PKCS#8 DER", forms.pkcs8DER, der),
            ("PKCS#1 private DER", forms.pkcs1DER, der),
            ("SPKI DER", forms.spkiDER, der),
            ("PKCS#1 public DER", forms.pkcs1PublicDER, der),
            ("public JWK", publicJWK, json),
            ("private JWK", try Self.privateJWK(forms.pkcs1DER), json),
            ("Client API response", Array(#"{"keyId":"k","publicKey":"\#(Base64.encode(forms.spkiDER))"}"#.utf8), json),
        ]
        for (what, bytes, expected) in cases {
            Self.dripFeed(bytes, "RSAKeyMaterial \(what)", expected: expected) { (bytes) throws(CSEError) in
                _ = try RSAKeyMaterial(contents: bytes)
            }
        }
    }
}
