public import CSECore
internal import CCSEShims

extension RSAPublicKey {
    /// Encrypts `message` with RSAES-OAEP (RFC 8017 §7.1.1): EME-OAEP encoding with `hash` and
    /// MGF1 over the same hash, a fresh seed from ``SecureRandom``, then RSAEP with `engine`.
    ///
    /// JOSE `RSA-OAEP` is `hash: .sha1`; `RSA-OAEP-256` is `hash: .sha256` (RFC 7518 §4.3). The
    /// encoded message, seed and masks are zeroed before returning.
    /// - Parameters:
    ///   - message: M, at most k − 2·hLen − 2 bytes.
    ///   - hash: The OAEP and MGF1 hash.
    ///   - label: L, empty by default (JOSE uses the empty label).
    ///   - engine: Which implementation computes m^e mod n.
    /// - Returns: The ciphertext, exactly ``byteCount`` bytes.
    /// - Throws: `rsa.messageTooLong`, `crypto.randomFailure`, `digest.failure`, `rsa.operationFailed`.
    @usableFromInline
    package func encryptOAEP(
        _ message: UnsafeRawBufferPointer, hash: DigestAlgorithm, label: [UInt8] = [],
        engine: RSAEngine = .default
    ) throws(CSEError) -> [UInt8] {
        try encryptOAEP(message, hash: hash, label: label, engine: engine, fixedSeed: nil)
    }

    /// Encrypts `message` with RSAES-OAEP (RFC 8017 §7.1.1): EME-OAEP encoding with `hash` and MGF1
    /// over the same hash, a fresh seed from ``SecureRandom``, then RSAEP with `engine`. JOSE
    /// `RSA-OAEP` is `hash: .sha1`; `RSA-OAEP-256` is `hash: .sha256` (RFC 7518 §4.3). The encoded
    /// message, seed and masks are zeroed before returning.
    /// - Parameters:
    ///   - message: M, at most k − 2·hLen − 2 bytes (``maximumOAEPMessageLength(hash:)``).
    ///   - hash: The OAEP and MGF1 hash.
    ///   - label: L, empty by default (JOSE uses the empty label).
    ///   - engine: Which implementation computes m^e mod n.
    /// - Returns: The ciphertext, exactly ``byteCount`` bytes.
    /// - Throws: `rsa.messageTooLong`, `crypto.randomFailure`, `digest.failure`, `rsa.operationFailed`.
    @inlinable
    package func encryptOAEP(
        _ message: some Collection<UInt8>, hash: DigestAlgorithm, label: [UInt8] = [],
        engine: RSAEngine = .default
    ) throws(CSEError) -> [UInt8] {
        // Inlinable, so the caller's collection type is specialized in its module: an unspecialized
        // generic call instantiates `Result` and `Optional` metadata at run time (≈ 1,100
        // instructions per call, callgrind on jwe-encrypt).
        try withContiguousBytes(of: message) { (bytes) throws(CSEError) in
            try encryptOAEP(bytes, hash: hash, label: label, engine: engine)
        }
    }

    /// Encrypts a secret such as a JWE content-encryption key with RSAES-OAEP (see
    /// the byte-collection form of `encryptOAEP(_:hash:label:engine:)`).
    package func encryptOAEP(
        _ message: SecureBytes, hash: DigestAlgorithm, label: [UInt8] = [],
        engine: RSAEngine = .default
    ) throws(CSEError) -> [UInt8] {
        try message.withUnsafeBytes { (bytes) throws(CSEError) in
            try encryptOAEP(bytes, hash: hash, label: label, engine: engine, fixedSeed: nil)
        }
    }

    /// RSAES-OAEP with a caller-chosen seed, for known-answer tests.
    ///
    /// - Warning: **Never use this outside tests.** OAEP is secure only with a fresh random seed per
    ///   message; a fixed or reused seed makes encryption deterministic and leaks equal messages.
    /// - Parameters:
    ///   - insecureFixedSeed: The seed, exactly `hash.byteCount` bytes.
    /// - Throws: `rsa.badSeedLength`, and the errors of the randomised variant.
    package func encryptOAEP(
        _ message: some Collection<UInt8>, hash: DigestAlgorithm, label: [UInt8] = [],
        engine: RSAEngine = .default, insecureFixedSeed seed: [UInt8]
    ) throws(CSEError) -> [UInt8] {
        guard seed.count == hash.byteCount else {
            throw CSEError(
                .rsaBadSeedLength, "an OAEP seed must have the hash length",
                context: ["expected": "\(hash.byteCount)", "found": "\(seed.count)"])
        }
        return try withContiguousBytes(of: message) { (bytes) throws(CSEError) in
            try seed.withCSEBytes { (seedBytes) throws(CSEError) in
                try encryptOAEP(bytes, hash: hash, label: label, engine: engine, fixedSeed: seedBytes)
            }
        }
    }

    /// RSAES-OAEP with a seed the caller drew from the CSPRNG together with other per-message
    /// randomness (the JWE encryptor draws CEK, IV and seed in one `RAND_bytes` call).
    ///
    /// - Warning: The seed must be fresh CSPRNG output for every message; see
    ///   `encryptOAEP(_:hash:label:engine:insecureFixedSeed:)`.
    package func encryptOAEP(
        _ message: UnsafeRawBufferPointer, hash: DigestAlgorithm, freshSeed seed: UnsafeRawBufferPointer,
        engine: RSAEngine = .default
    ) throws(CSEError) -> [UInt8] {
        guard seed.count == hash.byteCount else {
            throw CSEError(
                .rsaBadSeedLength, "an OAEP seed must have the hash length",
                context: ["expected": "\(hash.byteCount)", "found": "\(seed.count)"])
        }
        return try encryptOAEP(message, hash: hash, label: [], engine: engine, fixedSeed: seed)
    }

    /// The largest message RSAES-OAEP can encrypt to this key with `hash` (k − 2·hLen − 2 bytes).
    package func maximumOAEPMessageLength(hash: DigestAlgorithm) -> Int {
        max(0, OAEPEncoding.maximumMessageLength(modulusBytes: byteCount, hash: hash))
    }

    private func encryptOAEP(
        _ message: UnsafeRawBufferPointer, hash: DigestAlgorithm, label: [UInt8],
        engine: RSAEngine, fixedSeed: UnsafeRawBufferPointer?
    ) throws(CSEError) -> [UInt8] {
        let k = byteCount
        let hLen = hash.byteCount
        // One scratch block: EM (k bytes) | seed (hLen) | lHash (hLen). Zeroed and freed on exit.
        let scratch = UnsafeMutableRawBufferPointer.allocate(byteCount: k + 2 * hLen, alignment: 16)
        defer {
            secureZero(UnsafeMutableRawBufferPointer(start: scratch.baseAddress!, count: scratch.count))
            scratch.deallocate()
        }
        let em = UnsafeMutableRawBufferPointer(rebasing: scratch[0..<k])
        let seed = UnsafeMutableRawBufferPointer(rebasing: scratch[k..<(k + hLen)])
        let labelHash = UnsafeMutableRawBufferPointer(rebasing: scratch[(k + hLen)...])
        if let fixedSeed {
            seed.copyMemory(from: fixedSeed)
        } else {
            try SecureRandom.fill(seed)
        }
        if label.isEmpty {
            OAEPEncoding.emptyLabelHash(hash).withUnsafeBytes { labelHash.copyMemory(from: $0) }
        } else {
            try label.withCSEBytes { (bytes) throws(CSEError) in
                try hash.hash(bytes, UnsafeRawBufferPointer(start: nil, count: 0), into: labelHash.baseAddress!)
            }
        }
        try OAEPEncoding.encode(
            message: message, labelHash: UnsafeRawBufferPointer(labelHash), hash: hash,
            seed: UnsafeRawBufferPointer(seed), into: em)
        var ciphertext = [UInt8](repeating: 0, count: k)
        let operation = publicOperation(engine)
        try ciphertext.withCSEMutableBytes { (out) throws(CSEError) in
            try operation.apply(UnsafeRawBufferPointer(em), into: out)
        }
        return ciphertext
    }
}
