import CSECore
import CSECrypto
import CSEJOSE
import Testing
import TestSupport

/// The JWE size bounds at their exact edges (docs/SECURITY.md, "Limits"): the limit itself is
/// accepted, one byte more is `jwe.tooLarge` before any decoding or allocation.
@Suite("Bounds: JWE compact length, plaintext length and protected header size")
struct BoundsJWETests {
    static let key = JOSEVectors.key2048

    @Test("a compact JWE of exactly maxCompactBytes is parsed; one byte more is jwe.tooLarge")
    func compactLength() throws {
        let limit = JWELimits.default.maxCompactBytes
        #expect(limit == 1 << 20)
        let decryptor = try JWEDecryptor(privateKey: Self.key)
        let atLimit = String(repeating: "A", count: limit)
        #expect(throws: CSEError(.jweMalformed, "")) { try decryptor.decrypt(atLimit) }
        #expect(throws: CSEError(.jweTooLarge, "")) { try decryptor.decrypt(atLimit + "A") }
        let small = try JWEDecryptor(privateKey: Self.key, limits: JWELimits(maxCompactBytes: 64))
        #expect(throws: CSEError(.jweTooLarge, "")) { try small.decrypt(String(repeating: ".", count: 65)) }
    }

    @Test("a plaintext of exactly maxPlaintextBytes is encrypted; one byte more is jwe.tooLarge")
    func plaintextLength() throws {
        let limit = JWELimits.default.maxPlaintextBytes
        #expect(limit == 512 * 1024)
        let encryptor = try JWEEncryptor(publicKey: Self.key.publicKey, keyID: nil)
        let jwe = try encryptor.encrypt([UInt8](repeating: 0x41, count: limit))
        #expect(jwe.utf8.count <= JWELimits.default.maxCompactBytes, "the largest JWE we write is one we accept")
        #expect(try JWEDecryptor(privateKey: Self.key).decrypt(jwe).plaintext.count == limit)
        #expect(throws: CSEError(.jweTooLarge, "")) { try encryptor.encrypt([UInt8](repeating: 0x41, count: limit + 1)) }
    }

    @Test("a protected header over 8 KiB of JSON, or nested deeper than 8, is jwe.malformed")
    func headerBounds() throws {
        let decryptor = try JWEDecryptor(privateKey: Self.key)
        let rest = ".AAAA.AAAAAAAAAAAAAAAAAAAAAA.AAAA.AAAAAAAAAAAAAAAAAAAAAA"
        let big = #"{"alg":"RSA-OAEP","enc":"A256GCM","x":""# + String(repeating: "a", count: 8_192) + #""}"#
        let error = #expect(throws: CSEError.self) { try decryptor.decrypt(Base64URL.encode(Array(big.utf8)) + rest) }
        #expect(error?.code == .jweMalformed)
        #expect(error?.underlying?.code == .jsonTooLarge)
        let deep = #"{"alg":"RSA-OAEP","enc":"A256GCM","x":"# + String(repeating: "[", count: 8) + String(repeating: "]", count: 8) + "}"
        let deepError = #expect(throws: CSEError.self) { try decryptor.decrypt(Base64URL.encode(Array(deep.utf8)) + rest) }
        #expect(deepError?.underlying?.code == .jsonTooDeep)
    }

}
