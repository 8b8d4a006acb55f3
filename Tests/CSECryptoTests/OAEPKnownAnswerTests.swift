@_spi(Testing) @testable import CSECrypto
import CSECore
import Foundation
import Testing
import TestSupport

/// RSAES-OAEP known answers with fixed seeds: RSA Laboratories' PKCS#1 v2.1 `oaep-vect.txt`
/// (SHA-1, 60 examples) and forge's SHA-256 set (59 examples), both over the same ten 1024–2048-bit
/// keys, plus `oaep-int.txt` with every intermediate value. Read from ../shared/vectors/rsa-oaep.
@Suite("OAEP known answers (seeded)", .enabled(if: RSAVectors.available, "needs ../shared/vectors/rsa-oaep"))
struct OAEPKnownAnswerTests {
    static let engines: [RSAEngine] = [.openSSL, .gmp, .ifma]

    @Test("the vector files hold 60 SHA-1 and 59 SHA-256 examples")
    func counts() {
        #expect(RSAVectors.sha1Examples.count == 60)
        #expect(RSAVectors.sha256Examples.count == 59)
    }

    @Test(
        "on a CPU with AVX-512 IFMA every vector key runs the IFMA kernel, so `ifma` above is not OpenSSL again",
        .enabled(if: RSAEngine.isIFMAAvailable, "this CPU has no AVX-512 IFMA: the ifma rows above ran the OpenSSL fallback"))
    func ifmaKernelCoversTheVectorKeys() throws {
        for example in RSAVectors.sha1Examples + RSAVectors.sha256Examples {
            let key = try RSAPublicKey(unsafeModulus: example.n, exponent: example.e)
            #expect(key.hasIFMAKernel, "example \(example.id) (\(example.keyTitle))")
        }
    }

    @Test(
        "SHA-1 / MGF1-SHA1: every seeded example encrypts byte for byte",
        arguments: engines, RSAVectors.sha1Examples)
    func sha1Encrypt(engine: RSAEngine, example: RSAVectors.SeededExample) throws {
        let key = try RSAPublicKey(unsafeModulus: example.n, exponent: example.e)
        let ciphertext = try key.encryptOAEP(example.message, hash: .sha1, engine: engine, insecureFixedSeed: example.seed)
        #expect(ciphertext == example.ciphertext, "example \(example.id) (\(example.keyTitle)) with \(engine)")
    }

    @Test(
        "SHA-256 / MGF1-SHA256: every seeded example encrypts byte for byte",
        arguments: engines, RSAVectors.sha256Examples)
    func sha256Encrypt(engine: RSAEngine, example: RSAVectors.SeededExample) throws {
        let key = try RSAPublicKey(unsafeModulus: example.n, exponent: example.e)
        let ciphertext = try key.encryptOAEP(example.message, hash: .sha256, engine: engine, insecureFixedSeed: example.seed)
        #expect(ciphertext == example.ciphertext, "example \(example.id) (\(example.keyTitle)) with \(engine)")
    }

    @Test("OpenSSL decrypts every SHA-1 example ciphertext to its message", arguments: RSAVectors.sha1Examples)
    func sha1Decrypt(example: RSAVectors.SeededExample) throws {
        let key = try Self.privateKey(example)
        let message = try key.decryptOAEP(example.ciphertext, hash: .sha1)
        #expect(message.unsafeCopyToArray() == example.message, "example \(example.id)")
    }

    @Test("OpenSSL decrypts every SHA-256 example ciphertext to its message", arguments: RSAVectors.sha256Examples)
    func sha256Decrypt(example: RSAVectors.SeededExample) throws {
        let key = try Self.privateKey(example)
        let message = try key.decryptOAEP(example.ciphertext, hash: .sha256)
        #expect(message.unsafeCopyToArray() == example.message, "example \(example.id)")
        // The same ciphertext under the other hash is the uniform failure.
        #expect(throws: CSEError(.rsaDecryptionFailed, "")) { try key.decryptOAEP(example.ciphertext, hash: .sha1) }
    }

    @Test("oaep-int.txt: DB, dbMask, maskedDB, seedMask, EM and C are reproduced step by step", arguments: engines)
    func intermediateValues(engine: RSAEngine) throws {
        let root = try #require(try RSAVectors.json("rsa-oaep/oaep-int-sha1.json"))
        func hex(_ name: String) -> [UInt8] { Hex.decode(root[name]!.stringValue!) }
        let keyFields = try #require(root["key"])
        let n = Hex.decode(keyFields["n"]!.stringValue!), e = Hex.decode(keyFields["e"]!.stringValue!)
        let message = hex("message"), seed = hex("seed"), db = hex("DB")

        #expect(try DigestAlgorithm.sha1.hash([]) == hex("pHash"), "lHash")
        // dbMask = MGF1(seed, k − hLen − 1)
        var dbMask = [UInt8](repeating: 0, count: db.count)
        try seed.withUnsafeBytes { s in try dbMask.withUnsafeMutableBytes { try OAEPEncoding.xorMGF1(hash: .sha1, seed: s, into: $0) } }
        #expect(dbMask == hex("dbMask"), "dbMask")
        let maskedDB = zip(db, dbMask).map { $0 ^ $1 }
        #expect(maskedDB == hex("maskedDB"), "maskedDB")
        // seedMask = MGF1(maskedDB, hLen)
        var seedMask = [UInt8](repeating: 0, count: 20)
        try maskedDB.withUnsafeBytes { m in try seedMask.withUnsafeMutableBytes { try OAEPEncoding.xorMGF1(hash: .sha1, seed: m, into: $0) }
        }
        #expect(seedMask == hex("seedMask"), "seedMask")
        #expect(zip(seed, seedMask).map { $0 ^ $1 } == hex("maskedSeed"), "maskedSeed")

        // The whole encoding in one call: EM = 0x00 ‖ maskedSeed ‖ maskedDB.
        var em = [UInt8](repeating: 0xAA, count: n.count)
        let lHash = hex("pHash")
        try message.withUnsafeBytes { m in
            try lHash.withUnsafeBytes { l in
                try seed.withUnsafeBytes { s in
                    try em.withUnsafeMutableBytes { try OAEPEncoding.encode(message: m, labelHash: l, hash: .sha1, seed: s, into: $0) }
                }
            }
        }
        #expect(em == hex("EM_v21"), "EM")
        #expect(Array(em.dropFirst()) == hex("EM"), "EM without the leading zero")

        // C = EM^e mod n (e = 17 here, so the general exponentiation path runs).
        let key = try RSAPublicKey(unsafeModulus: n, exponent: e)
        #expect(try key.encryptOAEP(message, hash: .sha1, engine: engine, insecureFixedSeed: seed) == hex("ciphertext"), "C with \(engine)")
    }

    @Test("a fixed seed of the wrong length is refused")
    func seedLength() throws {
        let example = try #require(RSAVectors.sha1Examples.first)
        let key = try RSAPublicKey(unsafeModulus: example.n, exponent: example.e)
        #expect(throws: CSEError(.rsaBadSeedLength, "")) {
            try key.encryptOAEP(example.message, hash: .sha256, insecureFixedSeed: example.seed)
        }
    }

    static func privateKey(_ example: RSAVectors.SeededExample) throws -> RSAPrivateKey {
        try RSAPrivateKey(
            unsafeModulus: example.n, publicExponent: example.e, privateExponent: example.d,
            prime1: example.p, prime2: example.q, exponent1: example.dp, exponent2: example.dq,
            coefficient: example.qinv)
    }
}
