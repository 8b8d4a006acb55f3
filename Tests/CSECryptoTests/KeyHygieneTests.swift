import CSECore
@testable import CSECrypto
import CSEPayments
import Testing

/// What can be tested of key hygiene without reading freed memory: the helpers that hold
/// decoded private-key bytes zero them in place, and the key types refuse weak keys at every
/// public entry point. (That `SecureBytes` cleanses on deinit is reviewed, not tested: reading
/// its memory after release would be undefined behaviour. See docs/SECURITY.md.)
@Suite("private-key buffers are zeroed; weak keys are refused")
struct KeyHygieneTests {
    static let key = GeneratedKeys.rsa2048

    @Test("PEMDocument.wipe zeroes the decoded private key in place")
    func pemWipe() throws {
        var document = try PEMDocument(parsing: Array(try Self.key.pemRepresentation.utf8))
        let count = document.derBytes.count
        #expect(count > 1_000 && document.derBytes.contains { $0 != 0 })
        document.wipe()
        #expect(document.derBytes.count == count && document.derBytes.allSatisfy { $0 == 0 })
    }

    @Test("a private JWK's decoded members are zeroed by wipe")
    func jwkWipe() throws {
        let pkcs8 = try Self.key.derRepresentation.unsafeCopyToArray()
        let c = try RSAKeyStructures.readPrivateKey(pkcs8[...])
        let json =
            #"{"kty":"RSA","n":"\#(Base64URL.encode(c.modulus))","e":"\#(Base64URL.encode(c.publicExponent))","d":"\#(Base64URL.encode(c.privateExponent))","p":"\#(Base64URL.encode(c.prime1))","q":"\#(Base64URL.encode(c.prime2))","dp":"\#(Base64URL.encode(c.exponent1))","dq":"\#(Base64URL.encode(c.exponent2))","qi":"\#(Base64URL.encode(c.coefficient))"}"#
        var members = try RSAJWK.privateMembers(try JSONValue.parse(json))
        #expect(members.privateExponent == Array(c.privateExponent))
        members.wipe()
        for (name, value) in [
            ("d", members.privateExponent), ("p", members.prime1), ("q", members.prime2),
            ("dp", members.exponent1), ("dq", members.exponent2), ("qi", members.coefficient),
        ] {
            #expect(value.allSatisfy { $0 == 0 }, "\(name) not zeroed")
        }
    }

    @Test("SecureBytes copies are independent storage, so each copy is cleansed by its own owner")
    func secureBytesCopies() throws {
        let secret = try SecureRandom.secureBytes(32)
        var copy = secret
        copy.withUnsafeMutableBytes { $0[0] ^= 0xFF }
        #expect(copy != secret, "mutation copied the storage instead of writing through")
        let slice = secret.slice(8..<24)
        #expect(slice.unsafeCopyToArray() == Array(secret.unsafeCopyToArray()[8..<24]))
        #expect(String(describing: secret) == "SecureBytes(32 bytes)")
    }

    /// KeyImportTests covers modulus, DER, PEM and generate; these are the remaining entry points.
    @Test(
        "a 1024-bit key is refused as a JWK, as key material and in a key response",
        .enabled(if: OpenSSLTool.path != nil, "needs the openssl tool"))
    func weakKey() throws {
        let pem = try OpenSSLTool.run(["genpkey", "-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:1024"])
        let der = Array(try OpenSSLTool.run(["pkey", "-outform", "DER"], stdin: pem))
        let spki = Array(try OpenSSLTool.run(["pkey", "-pubout", "-outform", "DER"], stdin: pem))
        let weak = try RSAPrivateKey(unsafeDERRepresentation: der)
        #expect(weak.bitCount == 1024)
        let jwk = Array(weak.publicKey.jwkRepresentation().utf8)
        #expect(throws: CSEError(.keyTooSmall, "")) { try RSAPublicKey(jwkRepresentation: jwk) }
        for material in [der, spki, jwk, Array(pem)] {
            #expect(throws: CSEError(.keyTooSmall, "")) { try RSAKeyMaterial(contents: material) }
        }
        #expect(throws: CSEError(.keyTooSmall, "")) {
            try PublicKeyResponse(json: Array(#"{"keyId":"k","publicKey":"\#(Base64.encode(spki))"}"#.utf8))
        }
    }
}
