import CSECore
import CSECrypto
import CSEJOSE
import Testing
import TestSupport

@Suite("JWE: tampering")
struct JWETamperTests {
    /// Flips every bit of the decoded bytes of the encrypted key, IV, ciphertext and tag segments
    /// and re-encodes: every variant must fail with the one uniform error. Header bits are
    /// authenticated as AAD: a flip that still yields an allowed header fails the tag with the
    /// uniform error, and a flip that breaks the header fails parsing with a header error.
    @Test("flipping any bit of any segment makes decryption fail", arguments: [JWEContentEncryption.a256cbcHS512, .a128cbcHS256, .a256gcm])
    func everyBitFlip(enc: JWEContentEncryption) throws {
        let key = JOSEVectors.key2048
        let decryptor = try JWEDecryptor(privateKey: key)
        let token = try JWEEncryptor(publicKey: key.publicKey, keyID: "kid-1", encryption: enc).encrypt(#"{"cardNumber":"4111"}"#.utf8)
        let parts = token.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        var uniform = 0, headerErrors = 0
        for segment in 0..<5 {
            let bytes = try Base64URL.decode(parts[segment])
            for bit in 0..<(bytes.count * 8) {
                var flipped = bytes
                flipped[bit / 8] ^= UInt8(1 << (bit % 8))
                var tampered = parts
                tampered[segment] = Base64URL.encode(flipped)
                let error = #expect(throws: CSEError.self, "segment \(segment + 1) bit \(bit)") {
                    _ = try decryptor.decrypt(tampered.joined(separator: "."))
                }
                if segment == 0 {
                    let allowed: Set<CSEError.Code> = [
                        .jweDecryptionFailed, .jweMalformed, .jweUnsupportedAlgorithm, .jweUnsupportedEncryption,
                    ]
                    #expect(error.map { allowed.contains($0.code) } == true, "header bit \(bit)")
                    if error?.code == .jweDecryptionFailed { uniform += 1 } else { headerErrors += 1 }
                } else {
                    #expect(error?.code == .jweDecryptionFailed, "segment \(segment + 1) bit \(bit)")
                    #expect(error?.reason == "JWE decryption failed" && error?.context.isEmpty == true)
                    uniform += 1
                }
            }
        }
        #expect(uniform > 2_000)
        #expect(headerErrors > 0)
    }

    @Test("a JWE encrypted to another key fails with the same uniform error as a wrong tag")
    func wrongKey() throws {
        let other = try JWEEncryptor(publicKey: JOSEVectors.key2048.publicKey, keyID: nil).encrypt("x".utf8)
        let parts = other.split(separator: ".").map(String.init)
        // Right length for a 4096-bit key is 512 bytes; a 256-byte key segment is a wrong-size
        // unwrap, which must not be distinguishable from a bad tag.
        let e2 = #expect(throws: CSEError.self) {
            _ = try JWEDecryptor(privateKey: JOSEVectors.key4096).decrypt(parts.joined(separator: "."))
        }
        #expect(e2?.code == .jweDecryptionFailed)
        #expect(e2?.description == CSEError(.jweDecryptionFailed, "JWE decryption failed").description)
    }
}
