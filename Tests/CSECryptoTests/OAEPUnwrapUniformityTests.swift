@testable import CSECrypto
import CSECore
import Testing

/// Issue #13 F08: bad OAEP padding and good padding with a bad tag failed alike, but not in the
/// same time: the fallback CEK was drawn only on failure, and a context that saw a failure was
/// freed instead of going back to the pool, so the *next* call paid for a new one. The timing
/// itself is measured by `cse-bench --oaep-timing` (never asserted in a unit test); these tests
/// check the mechanisms.
@Suite("the OAEP unwrap takes one path for good and bad padding (F08)")
struct OAEPUnwrapUniformityTests {
    static let key = GeneratedKeys.rsa2048

    static func badCiphertext() -> [UInt8] {
        var bytes = [UInt8](repeating: 0x5A, count: key.publicKey.byteCount)
        bytes[0] = 0x01
        return bytes
    }

    @Test("a context that saw a bad padding goes back to the pool; alternating outcomes reuse one context")
    func contextReturnedAfterFailure() throws {
        let key = try RSAPrivateKey.generate(bits: 2048)
        let good = try key.publicKey.encryptOAEP(Array(repeating: 7, count: 32), hash: .sha1)
        #expect(throws: CSEError(.rsaDecryptionFailed, "")) { try key.decryptOAEP(Self.badCiphertext(), hash: .sha1) }
        #expect(key.key.pooledOAEPContextCount == 1, "the failed context was freed instead of pooled")
        for _ in 0..<50 {
            _ = try key.decryptOAEP(good, hash: .sha1)
            _ = try? key.decryptOAEP(Self.badCiphertext(), hash: .sha1)
            _ = try key.unwrapContentKeyOAEP(Self.badCiphertext(), hash: .sha1, keyByteCount: 32)
        }
        #expect(key.key.pooledOAEPContextCount == 1)
        // A pooled context that saw failures still decrypts correctly.
        #expect(try key.decryptOAEP(good, hash: .sha1).unsafeCopyToArray() == Array(repeating: 7, count: 32))
    }

    @Test("unwrapContentKeyOAEP returns the key for a good ciphertext of the right size, else fresh random bytes")
    func unwrapSelects() throws {
        let cek = (0..<32).map { UInt8($0) }
        for hash in [DigestAlgorithm.sha1, .sha256] {
            let good = try Self.key.publicKey.encryptOAEP(cek, hash: hash)
            #expect(try Self.key.unwrapContentKeyOAEP(good, hash: hash, keyByteCount: 32).unsafeCopyToArray() == cek)
            // Right padding, wrong size: the fallback, not a prefix or an extension of the key.
            let wrongSize = try Self.key.unwrapContentKeyOAEP(good, hash: hash, keyByteCount: 16).unsafeCopyToArray()
            #expect(wrongSize.count == 16 && wrongSize != Array(cek.prefix(16)))
            let a = try Self.key.unwrapContentKeyOAEP(Self.badCiphertext(), hash: hash, keyByteCount: 32).unsafeCopyToArray()
            let b = try Self.key.unwrapContentKeyOAEP(Self.badCiphertext(), hash: hash, keyByteCount: 32).unsafeCopyToArray()
            #expect(a.count == 32 && b.count == 32 && a != b && a != cek)
            // A short ciphertext (public length) takes the fallback too.
            #expect(try Self.key.unwrapContentKeyOAEP([1, 2, 3], hash: hash, keyByteCount: 32).count == 32)
        }
    }
}
