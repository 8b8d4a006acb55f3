public import CSECore
internal import CCSEShims

extension CSEError.Code {
    /// The message is longer than RSAES-OAEP allows for this key and hash: k − 2·hLen − 2 bytes
    /// (RFC 8017 §7.1.1 step 1b).
    public static let rsaMessageTooLong = Self("rsa.messageTooLong")
    /// A fixed OAEP seed for a known-answer test does not have the hash length.
    public static let rsaBadSeedLength = Self("rsa.badSeedLength")
}

/// EME-OAEP encoding (RFC 8017 §7.1.1 step 2) and MGF1 (RFC 8017 §B.2.1), in place, without
/// allocation. Callers own the buffers and zero them after use.
enum OAEPEncoding {
    /// XORs MGF1(`seed`, `target.count`) with `hash` into `target`. `seed` and `target` must not
    /// overlap.
    static func xorMGF1(
        hash: DigestAlgorithm, seed: UnsafeRawBufferPointer,
        into target: UnsafeMutableRawBufferPointer
    ) throws(CSEError) {
        let hLen = hash.byteCount
        // SHA-1 and SHA-256 (JOSE RSA-OAEP and RSA-OAEP-256) absorb the seed once and restart each
        // block from that midstate in C: at 2048 bits, MGF1 of the 235-byte DB and the 20-byte
        // seed mask drops from ≈ 1.2 µs to ≈ 0.6 µs (13 blocks, ≈ 47 instead of ≈ 90 ns each).
        if hash == .sha1 || hash == .sha256 {
            guard
                target.count == 0
                    || CCSEShims_MGF1_xor(
                        Int32(hLen), seed.baseAddress, seed.count,
                        target.baseAddress, target.count) == 1
            else { throw CSEError(.digestFailure, "OpenSSL failed to compute MGF1 with \(hash.name)") }
            return
        }
        let block = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 + 4, alignment: 16)
        defer {
            CCSEShims_OPENSSL_cleanse(block.baseAddress!, block.count)
            block.deallocate()
        }
        let digest = block.baseAddress!
        let counterBytes = UnsafeMutableRawBufferPointer(rebasing: block[64..<68])
        var counter: UInt32 = 0
        var offset = 0
        while offset < target.count {
            counterBytes[0] = UInt8(truncatingIfNeeded: counter >> 24)
            counterBytes[1] = UInt8(truncatingIfNeeded: counter >> 16)
            counterBytes[2] = UInt8(truncatingIfNeeded: counter >> 8)
            counterBytes[3] = UInt8(truncatingIfNeeded: counter)
            try hash.hash(seed, UnsafeRawBufferPointer(counterBytes), into: digest)
            let count = min(hLen, target.count - offset)
            for index in 0..<count {
                target[offset + index] ^= digest.load(fromByteOffset: index, as: UInt8.self)
            }
            offset += count
            counter &+= 1
        }
    }

    /// The largest message, in bytes, OAEP can carry in a k-byte modulus with `hash`.
    static func maximumMessageLength(modulusBytes k: Int, hash: DigestAlgorithm) -> Int {
        k - 2 * hash.byteCount - 2
    }

    /// Writes EM = 0x00 ‖ maskedSeed ‖ maskedDB into `em` (k bytes), where
    /// DB = lHash ‖ PS ‖ 0x01 ‖ M.
    /// - Parameters:
    ///   - message: M.
    ///   - labelHash: lHash = Hash(L), hLen bytes.
    ///   - seed: hLen random bytes.
    ///   - em: The k-byte output.
    /// - Throws: `rsa.messageTooLong`, `digest.failure`.
    static func encode(
        message: UnsafeRawBufferPointer, labelHash: UnsafeRawBufferPointer, hash: DigestAlgorithm,
        seed: UnsafeRawBufferPointer, into em: UnsafeMutableRawBufferPointer
    ) throws(CSEError) {
        let k = em.count
        let hLen = hash.byteCount
        let maximum = maximumMessageLength(modulusBytes: k, hash: hash)
        guard message.count <= maximum else {
            throw CSEError(
                .rsaMessageTooLong, "the message is too long for RSAES-OAEP with this key and hash",
                context: ["length": "\(message.count)", "limit": "\(max(maximum, 0))"])
        }
        em.initializeMemory(as: UInt8.self, repeating: 0)
        let maskedSeed = UnsafeMutableRawBufferPointer(rebasing: em[1..<(1 + hLen)])
        let db = UnsafeMutableRawBufferPointer(rebasing: em[(1 + hLen)..<k])
        maskedSeed.copyMemory(from: seed)
        UnsafeMutableRawBufferPointer(rebasing: db[0..<hLen]).copyMemory(from: labelHash)
        db[db.count - message.count - 1] = 0x01
        if message.count > 0 {
            UnsafeMutableRawBufferPointer(rebasing: db[(db.count - message.count)...]).copyMemory(from: message)
        }
        try xorMGF1(hash: hash, seed: UnsafeRawBufferPointer(maskedSeed), into: db)
        try xorMGF1(hash: hash, seed: UnsafeRawBufferPointer(db), into: maskedSeed)
    }

    /// Hash("") for each algorithm (FIPS 180-4 values; checked against OpenSSL in the tests), so
    /// the common empty JOSE label costs nothing.
    static func emptyLabelHash(_ hash: DigestAlgorithm) -> [UInt8] {
        switch hash {
        case .sha1: emptySHA1
        case .sha256: emptySHA256
        case .sha384: emptySHA384
        default: emptySHA512
        }
    }
}

private let emptySHA1: [UInt8] = hexBytes("da39a3ee5e6b4b0d3255bfef95601890afd80709")
private let emptySHA256: [UInt8] = hexBytes("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
private let emptySHA384: [UInt8] = hexBytes(
    "38b060a751ac96384cd9327eb1b1e36a21fdb71114be07434c0cc7bf63f6e1da274edebfe76f65fbd51ad2f14898b95b")
private let emptySHA512: [UInt8] = hexBytes(
    "cf83e1357eefb8bdf1542850d66d8007d620e4050b5715dc83f4a921d36ce9ce47d0d13c5d85f2b0ff8318d2877eec2f63b931bd47417a81a538327af927da3e")

private func hexBytes(_ hex: StaticString) -> [UInt8] {
    let digits = Array(hex.description.utf8)
    func nibble(_ c: UInt8) -> UInt8 { c <= 57 ? c - 48 : c - 87 }
    return stride(from: 0, to: digits.count, by: 2).map { nibble(digits[$0]) << 4 | nibble(digits[$0 + 1]) }
}
