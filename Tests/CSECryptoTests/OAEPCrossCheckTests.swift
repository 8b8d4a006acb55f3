@_spi(Testing) @testable import CSECrypto
import CSECore
import Testing
import TestSupport

/// The two RSA engines checked against each other and against OpenSSL's decryption, with freshly
/// generated 2048-, 3072- and 4096-bit keys and random messages.
@Suite("OAEP cross-checks: OpenSSL engine, GMP engine, OpenSSL decryption")
struct OAEPCrossCheckTests {
    static let sizes = [2048, 3072, 4096]
    static let hashes: [DigestAlgorithm] = [.sha1, .sha256]

    static func randomLength(upTo limit: Int) -> Int { Int.random(in: 0...limit) }

    @Test(
        "both engines give the same ciphertext for the same seed, and OpenSSL decrypts it",
        arguments: sizes, hashes)
    func enginesAgree(bits: Int, hash: DigestAlgorithm) throws {
        let key = GeneratedKeys.key(bits: bits)
        let limit = key.publicKey.maximumOAEPMessageLength(hash: hash)
        #expect(limit == bits / 8 - 2 * hash.byteCount - 2)
        for round in 0..<12 {
            let length = round == 0 ? 0 : round == 1 ? limit : Self.randomLength(upTo: limit)
            let message = try SecureRandom.bytes(length)
            let seed = try SecureRandom.bytes(hash.byteCount)
            let viaOpenSSL = try key.publicKey.encryptOAEP(message, hash: hash, engine: .openSSL, insecureFixedSeed: seed)
            let viaGMP = try key.publicKey.encryptOAEP(message, hash: hash, engine: .gmp, insecureFixedSeed: seed)
            let viaIFMA = try key.publicKey.encryptOAEP(message, hash: hash, engine: .ifma, insecureFixedSeed: seed)
            #expect(viaOpenSSL == viaGMP, "\(bits)-bit \(hash) round \(round): engines disagree")
            #expect(viaIFMA == viaGMP, "\(bits)-bit \(hash) round \(round): IFMA disagrees")
            #expect(viaOpenSSL.count == key.publicKey.byteCount)
            #expect(try key.decryptOAEP(viaOpenSSL, hash: hash).unsafeCopyToArray() == message, "\(bits)-bit \(hash) round \(round)")
        }
    }

    @Test("randomised encryptions with either engine decrypt, and never repeat", arguments: sizes, [RSAEngine.openSSL, .gmp, .ifma])
    func randomised(bits: Int, engine: RSAEngine) throws {
        let key = GeneratedKeys.key(bits: bits)
        let cek = try SecureRandom.secureBytes(64)
        let first = try key.publicKey.encryptOAEP(cek, hash: .sha1, engine: engine)
        let second = try key.publicKey.encryptOAEP(cek, hash: .sha1, engine: engine)
        #expect(first != second)
        #expect(try key.decryptOAEP(first, hash: .sha1) == cek)
        #expect(try key.decryptOAEP(second, hash: .sha1) == cek)
    }

    @Test("the raw public operations agree on random inputs, for e = 65537 and for other exponents")
    func rawOperations() throws {
        let modulus = GeneratedKeys.rsa2048.publicKey.modulus
        let exponents: [[UInt8]] = [[0x01, 0x00, 0x01], [0x03], [0x01, 0x00, 0x03], [UInt8](repeating: 0xFF, count: 32)]
        for exponent in exponents {
            let key = try RSAPublicKey(unsafeModulus: modulus, exponent: exponent)
            for round in 0..<10 {
                var input = try SecureRandom.bytes(modulus.count)
                input[0] = round == 0 ? 0 : input[0] % modulus[0]  // keep it below n
                if round == 1 { input = [UInt8](repeating: 0, count: modulus.count) }
                if round == 2 { input = [UInt8](repeating: 0, count: modulus.count - 1) + [1] }
                var a = [UInt8](repeating: 0xEE, count: modulus.count), b = a
                try input.withUnsafeBytes { i in
                    try a.withUnsafeMutableBytes { try key.publicOperation(.openSSL).apply(i, into: $0) }
                    try b.withUnsafeMutableBytes { try key.publicOperation(.gmp).apply(i, into: $0) }
                }
                #expect(a == b, "e = \(Hex.encode(exponent)), round \(round)")
                var c = a
                try input.withUnsafeBytes { i in try c.withUnsafeMutableBytes { try key.publicOperation(.ifma).apply(i, into: $0) } }
                #expect(c == b, "ifma, e = \(Hex.encode(exponent)), round \(round)")
            }
            // 0^e = 0 and 1^e = 1, left-padded to k bytes.
            var out = [UInt8](repeating: 0xEE, count: modulus.count)
            let zero = [UInt8](repeating: 0, count: modulus.count)
            try zero.withUnsafeBytes { i in try out.withUnsafeMutableBytes { try key.publicOperation(.gmp).apply(i, into: $0) } }
            #expect(out == zero)
        }
    }

    @Test("inputs not below the modulus are refused by both engines")
    func inputRange() throws {
        let key = GeneratedKeys.rsa2048.publicKey
        for engine in [RSAEngine.openSSL, .gmp, .ifma] {
            var out = [UInt8](repeating: 0, count: key.byteCount)
            #expect(throws: CSEError(.rsaOperationFailed, "")) {
                try key.modulus.withUnsafeBytes { i in try out.withUnsafeMutableBytes { try key.publicOperation(engine).apply(i, into: $0) }
                }
            }
        }
    }

    @Test("a message one byte over the limit is refused", arguments: hashes)
    func tooLong(hash: DigestAlgorithm) throws {
        let key = GeneratedKeys.rsa2048.publicKey
        let message = [UInt8](repeating: 1, count: key.maximumOAEPMessageLength(hash: hash) + 1)
        #expect(throws: CSEError(.rsaMessageTooLong, "")) { try key.encryptOAEP(message, hash: hash) }
    }

    @Test("a label must match on decryption")
    func labels() throws {
        let key = GeneratedKeys.rsa2048
        let label = Array("CSEKit label".utf8)
        for engine in [RSAEngine.openSSL, .gmp, .ifma] {
            let ciphertext = try key.publicKey.encryptOAEP([1, 2, 3], hash: .sha256, label: label, engine: engine)
            #expect(try key.decryptOAEP(ciphertext, hash: .sha256, label: label).unsafeCopyToArray() == [1, 2, 3])
            #expect(throws: CSEError(.rsaDecryptionFailed, "")) { try key.decryptOAEP(ciphertext, hash: .sha256) }
        }
    }

    @Test("flipping any single bit of a ciphertext gives the uniform error", arguments: [RSAEngine.openSSL, .gmp, .ifma])
    func tampering(engine: RSAEngine) throws {
        let key = GeneratedKeys.rsa2048
        let ciphertext = try key.publicKey.encryptOAEP(try SecureRandom.bytes(32), hash: .sha1, engine: engine)
        for bit in stride(from: 0, to: ciphertext.count * 8, by: 61) {
            var tampered = ciphertext
            tampered[bit / 8] ^= UInt8(1 << (bit % 8))
            do {
                _ = try key.decryptOAEP(tampered, hash: .sha1)
                Issue.record("bit \(bit): a tampered ciphertext decrypted")
            } catch {
                #expect(
                    error.code == .rsaDecryptionFailed && error.reason == "RSA-OAEP decryption failed" && error.context.isEmpty,
                    "bit \(bit)")
            }
        }
        for wrongLength in [0, ciphertext.count - 1, ciphertext.count + 1] {
            #expect(throws: CSEError(.rsaDecryptionFailed, "")) {
                try key.decryptOAEP(Array((ciphertext + [0]).prefix(wrongLength)), hash: .sha1)
            }
        }
    }
}
