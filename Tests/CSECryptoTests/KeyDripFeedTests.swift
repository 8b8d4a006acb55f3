import CSECore
import CSECrypto
import Testing

/// Drip-feed truncation (the swift-asn1 / swift-certificates practice): every proper prefix of a
/// valid encoding must fail with one specific error code, never succeed and never crash.
@Suite("Key import: every truncation fails with a specific code")
struct KeyDripFeedTests {
    static let key = GeneratedKeys.rsa2048

    /// Asserts that every proper prefix of `full` fails with `code` under `parse`, and that `full` parses.
    static func dripFeed(_ full: [UInt8], code: CSEError.Code, _ what: String, parse: ([UInt8]) throws(CSEError) -> Void) {
        var failures = 0
        for length in 0..<full.count {
            do {
                try parse(Array(full[..<length]))
                Issue.record("\(what): the \(length)-byte prefix was accepted")
            } catch {
                if error.code == code {
                    failures += 1
                } else {
                    Issue.record("\(what): the \(length)-byte prefix failed with \(error.code), expected \(code)")
                }
            }
        }
        #expect(failures == full.count, "\(what)")
        #expect(throws: Never.self, "\(what) in full") { try parse(full) }
    }

    @Test("SubjectPublicKeyInfo DER prefixes fail with der.truncated")
    func spki() {
        Self.dripFeed(Self.key.publicKey.derRepresentation, code: .derTruncated, "SPKI DER") { (bytes) throws(CSEError) in
            _ = try RSAPublicKey(derRepresentation: bytes)
        }
    }

    @Test("PKCS#1 RSAPublicKey DER prefixes fail with der.truncated")
    func pkcs1Public() {
        Self.dripFeed(Self.key.publicKey.pkcs1DERRepresentation, code: .derTruncated, "PKCS#1 public DER") { (bytes) throws(CSEError) in
            _ = try RSAPublicKey(derRepresentation: bytes)
        }
    }

    @Test("PKCS#8 PrivateKeyInfo DER prefixes fail with der.truncated")
    func pkcs8() throws {
        let der = try Self.key.derRepresentation.unsafeCopyToArray()
        Self.dripFeed(der, code: .derTruncated, "PKCS#8 DER") { (bytes) throws(CSEError) in
            _ = try RSAPrivateKey(derRepresentation: bytes)
        }
    }

    @Test("SPKI PEM prefixes fail with pem.malformed")
    func spkiPEM() {
        // Without the final line break: a prefix that only lacks trailing whitespace is the whole block.
        let pem = Array(Self.key.publicKey.pemRepresentation.utf8.dropLast())
        Self.dripFeed(pem, code: .pemMalformed, "SPKI PEM") { (bytes) throws(CSEError) in
            _ = try RSAPublicKey(pemRepresentation: String(decoding: bytes, as: UTF8.self))
        }
    }

    @Test("PKCS#8 PEM prefixes fail with pem.malformed")
    func pkcs8PEM() throws {
        let pem = Array(try Self.key.pemRepresentation.utf8.dropLast())
        Self.dripFeed(pem, code: .pemMalformed, "PKCS#8 PEM") { (bytes) throws(CSEError) in
            _ = try RSAPrivateKey(pemRepresentation: String(decoding: bytes, as: UTF8.self))
        }
    }

    @Test("JWK prefixes fail with jwk.malformed")
    func jwk() {
        let json = Array(Self.key.publicKey.jwkRepresentation(keyID: "k").utf8)
        Self.dripFeed(json, code: .jwkMalformed, "public JWK") { (bytes) throws(CSEError) in
            _ = try RSAPublicKey(jwkRepresentation: bytes)
        }
    }
}
