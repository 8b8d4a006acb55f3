import CSECore
import CSECrypto
import CSEJOSE
import Testing

/// Issue #13 F14 (kid) and F08 (the JWE side): `kid` is matched by bytes, and every kind of
/// unwrap failure still ends in the one `jwe.decryptionFailed`.
@Suite("kid matched by bytes (F14); one failure for every unwrap outcome (F08)")
struct JWEKeyIDAndUnwrapFailureTests {
    static let key = JOSEVectors.key2048

    @Test("a kid of KELVIN SIGN + -1 does not match an expected kid K-1 (canonically equivalent, other bytes)")
    func kelvinKid() throws {
        let jwe = try JWEEncryptor(publicKey: Self.key.publicKey, keyID: "\u{212A}-1").encrypt("{}".utf8)
        #expect(throws: CSEError(.jweKeyIDMismatch, "")) { try JWEDecryptor(privateKey: Self.key, expectedKeyID: "K-1").decrypt(jwe) }
        #expect(
            try JWEDecryptor(privateKey: Self.key, expectedKeyID: "\u{212A}-1").decrypt(jwe).plaintext.unsafeCopyToArray()
                == Array("{}".utf8))
        // A precomposed and a decomposed é are different kids too.
        let composed = try JWEEncryptor(publicKey: Self.key.publicKey, keyID: "caf\u{E9}").encrypt("{}".utf8)
        #expect(throws: CSEError(.jweKeyIDMismatch, "")) {
            try JWEDecryptor(privateKey: Self.key, expectedKeyID: "cafe\u{301}").decrypt(composed)
        }
    }

    @Test("header member names match by bytes: a KELVIN SIGN kid member is not read as kid")
    func headerMemberNames() throws {
        let header = try JSONValue.parse(#"{"alg":"RSA-OAEP","enc":"A256GCM","\u212Aid":"x"}"#)
        #expect(header["kid"] == nil)
    }

    @Test("bad OAEP padding, a wrong-size CEK and a bad tag all give jwe.decryptionFailed", arguments: [0, 1, 2])
    func uniformFailure(kind: Int) throws {
        let decryptor = try JWEDecryptor(privateKey: Self.key)
        let good = try JWEEncryptor(publicKey: Self.key.publicKey, keyID: nil, encryption: .a256gcm).encrypt("{\"a\":1}".utf8)
        var parts = good.split(separator: ".").map(String.init)
        switch kind {
        case 0:
            var random = [UInt8](repeating: 0x33, count: Self.key.publicKey.byteCount)
            random[0] = 0x01
            parts[1] = Base64.encode(random, alphabet: .url, padding: false)
        case 1:
            // A genuine OAEP ciphertext of a 16-byte key where A256GCM needs 32.
            parts[1] = Base64.encode(
                try Self.key.publicKey.encryptOAEP(Array(repeating: 1, count: 16), hash: .sha1),
                alphabet: .url, padding: false)
        default:
            var tag = Array(parts[4].utf8)
            tag[0] = tag[0] == UInt8(ascii: "A") ? UInt8(ascii: "B") : UInt8(ascii: "A")
            parts[4] = String(decoding: tag, as: UTF8.self)
        }
        #expect(throws: CSEError(.jweDecryptionFailed, "")) { try decryptor.decrypt(parts.joined(separator: ".")) }
        // The decryptor keeps working after any failure.
        #expect(try decryptor.decrypt(good).plaintext.unsafeCopyToArray() == Array("{\"a\":1}".utf8))
    }
}
