public import CSECore
public import CSECrypto

/// Encrypts plaintexts (usually the customer-input JSON) into JWE compact serializations for one
/// RSA public key (RFC 7516 §5.1, §7.1).
///
/// The protected header is fixed per encryptor, so its JSON and base64url form (which is also the
/// AAD) are computed once. Each `encrypt` call draws the CEK, the IV and the OAEP seed from
/// OpenSSL's CSPRNG in a single call, zeroes them afterwards, and never shares mutable state, so
/// one encryptor can be used from many threads at once.
///
///     let encryptor = try JWEEncryptor(publicKey: key, keyId: "86b64e4e-…")
///     let jwe = try encryptor.encrypt(Array(json.utf8))
public struct JWEEncryptor: Sendable {
    /// The header written into every JWE.
    public let header: JWEHeader
    /// The recipient's key.
    public let publicKey: RSAPublicKey
    /// Size bounds.
    public let limits: JWELimits
    /// The RSA engine of the key encryption: ``RSAEngine/default`` unless a benchmark or test forces
    /// another one (`cse-bench`'s `…/openSSL` variants measure a CPU without AVX-512 IFMA this way).
    package var rsaEngine: RSAEngine = .default
    /// The base64url of the header JSON: the first segment, and the AAD (RFC 7516 §5.1 step 14).
    private let encodedHeader: [UInt8]

    /// Creates an encryptor.
    /// - Parameters:
    ///   - publicKey: The recipient's RSA key; at least 2048 bits.
    ///   - keyId: The `kid` to put in the header (the Client API `keyId`), or `nil` for none.
    ///   - algorithm: `RSA-OAEP` (default, the Worldline wire format) or `RSA-OAEP-256`.
    ///   - encryption: `A256CBC-HS512` (default) or another allowed `enc`.
    ///   - limits: Size bounds.
    /// - Throws: ``CSEError/Code/jweKeyTooSmall`` for keys under 2048 bits,
    ///   ``CSEError/Code/jweKeyIDTooLong`` for a key id over 1,024 UTF-8 bytes.
    public init(
        publicKey: RSAPublicKey, keyID: String?, algorithm: JWEKeyAlgorithm = .rsaOAEP,
        encryption: JWEContentEncryption = .a256cbcHS512, limits: JWELimits = .default
    ) throws(CSEError) {
        guard publicKey.bitCount >= 2048 else {
            throw CSEError(.jweKeyTooSmall, "RSA keys under 2048 bits are refused", context: ["bits": String(publicKey.bitCount)])
        }
        if let keyID, keyID.utf8.count > JWELimits.maxKeyIDBytes {
            throw CSEError(
                .jweKeyIDTooLong, "the key id is longer than the JWE header allows",
                context: ["limit": String(JWELimits.maxKeyIDBytes), "bytes": String(keyID.utf8.count)])
        }
        self.publicKey = publicKey
        self.limits = limits
        self.header = JWEHeader(algorithm: algorithm, encryption: encryption, keyID: keyID)
        var encoded: [UInt8] = []
        let json = header.jsonBytes
        json.withUnsafeBytes { Base64.encode($0, appendingTo: &encoded, alphabet: .url, padding: false) }
        self.encodedHeader = encoded
    }

    /// The protected header as JSON text.
    package var protectedHeaderJSON: String { String(decoding: header.jsonBytes, as: UTF8.self) }

    /// Encrypts `plaintext` into a JWE compact serialization.
    /// - Throws: ``CSEError/Code/jweTooLarge`` (a plaintext over ``JWELimits/maxPlaintextBytes``
    ///   or an output over ``JWELimits/maxCompactBytes``), or ``CSEError/Code/randomFailure`` when the CSPRNG
    ///   fails (there is no fallback).
    @usableFromInline
    package func encrypt(_ plaintext: UnsafeRawBufferPointer) throws(CSEError) -> String {
        try withFreshRandomness { (cek, iv, oaepSeed) throws(CSEError) in
            try seal(plaintext, cek: cek, iv: iv, oaepSeed: oaepSeed) { count, write in
                String(unsafeUninitializedCapacity: count) { buffer in
                    write(UnsafeMutableRawBufferPointer(buffer))
                    return count
                }
            }
        }
    }

    /// Encrypts `plaintext` as ``encrypt(_:)-(UnsafeRawBufferPointer)`` does and appends the compact
    /// serialization's bytes to `bytes`, for writers that embed it (`cse encrypt --lines` puts it
    /// in `{"jwe":…}`) without a `String` in between.
    /// - Throws: As ``encrypt(_:)-(UnsafeRawBufferPointer)``; `bytes` is unchanged then.
    package func encrypt(_ plaintext: UnsafeRawBufferPointer, appendingTo bytes: inout [UInt8]) throws(CSEError) {
        try withFreshRandomness { (cek, iv, oaepSeed) throws(CSEError) in
            try seal(plaintext, cek: cek, iv: iv, oaepSeed: oaepSeed) { count, write in
                let start = bytes.count
                bytes.append(contentsOf: repeatElement(0, count: count))
                bytes.withUnsafeMutableBytes { write(UnsafeMutableRawBufferPointer(rebasing: $0[start...])) }
            }
        }
    }

    /// One CSPRNG call per message: CEK ‖ IV ‖ OAEP seed, in a zeroing buffer.
    private func withFreshRandomness<Result>(
        _ body: (SecureBytes, UnsafeRawBufferPointer, UnsafeRawBufferPointer) throws(CSEError) -> Result
    ) throws(CSEError) -> Result {
        let enc = header.encryption.algorithm
        let keyCount = enc.keyByteCount, ivCount = enc.ivByteCount
        let randomness = try SecureRandom.secureBytes(keyCount + ivCount + header.algorithm.oaepHash.byteCount)
        let cek = randomness.slice(0..<keyCount)
        return try randomness.withUnsafeBytes { (random) throws(CSEError) -> Result in
            try body(
                cek, UnsafeRawBufferPointer(rebasing: random[keyCount..<(keyCount + ivCount)]),
                UnsafeRawBufferPointer(rebasing: random[(keyCount + ivCount)...]))
        }
    }

    /// Encrypts `plaintext` into a JWE compact serialization (RFC 7516 §7.1) with a fresh CEK, IV
    /// and OAEP seed from one CSPRNG call.
    /// - Parameter plaintext: The bytes to encrypt: `[UInt8]`, `Data`, or a string's `utf8` view
    ///   (contiguous collections are read in place).
    @inlinable
    public func encrypt(_ plaintext: some Collection<UInt8>) throws(CSEError) -> String {
        // Inlinable, so the caller's collection type is specialized in its module (see
        // `CSECrypto's `RSAPublicKey.encryptOAEP``).
        try withContiguousBytes(of: plaintext) { (buffer) throws(CSEError) in try encrypt(buffer) }
    }

    /// The deterministic core, with the CEK, IV and OAEP seed supplied. Known-answer tests call it
    /// directly; production calls always go through the randomised `encrypt(_:)`.
    package func encrypt(
        _ plaintext: UnsafeRawBufferPointer, cek: SecureBytes, iv: UnsafeRawBufferPointer,
        oaepSeed: UnsafeRawBufferPointer
    ) throws(CSEError) -> String {
        try seal(plaintext, cek: cek, iv: iv, oaepSeed: oaepSeed) { count, write in
            String(unsafeUninitializedCapacity: count) { buffer in
                write(UnsafeMutableRawBufferPointer(buffer))
                return count
            }
        }
    }

    /// Encrypts and hands the compact serialization's length to `output`, which makes room for it
    /// and calls `write` once with exactly that many bytes to fill.
    private func seal<Output>(
        _ plaintext: UnsafeRawBufferPointer, cek: SecureBytes, iv: UnsafeRawBufferPointer,
        oaepSeed: UnsafeRawBufferPointer,
        output: (_ count: Int, _ write: (UnsafeMutableRawBufferPointer) -> Void) -> Output
    ) throws(CSEError) -> Output {
        guard plaintext.count <= limits.maxPlaintextBytes else {
            throw CSEError(.jweTooLarge, "plaintext exceeds the limit", context: ["limit": String(limits.maxPlaintextBytes)])
        }
        let enc = header.encryption.algorithm
        // What we write must be what we read: refuse, before any RSA work, an output the
        // decryptor with these limits would refuse.
        let outputCount = compactByteCount(
            encryptedKeyCount: publicKey.byteCount, ivCount: iv.count,
            ciphertextCount: enc.ciphertextByteCount(plaintextByteCount: plaintext.count))
        guard outputCount <= limits.maxCompactBytes else {
            throw CSEError(.jweTooLarge, "the JWE would exceed the compact size limit", context: ["limit": String(limits.maxCompactBytes)])
        }
        let encryptedKey = try cek.withUnsafeBytes { (key) throws(CSEError) in
            try publicKey.encryptOAEP(key, hash: header.algorithm.oaepHash, freshSeed: oaepSeed, engine: rsaEngine)
        }
        // Ciphertext and tag go into one scratch buffer (neither is secret), not two new arrays.
        let ciphertextCount = enc.ciphertextByteCount(plaintextByteCount: plaintext.count)
        let tagCount = enc.tagByteCount
        return try withUnsafeTemporaryAllocation(byteCount: ciphertextCount + tagCount, alignment: 16) {
            (scratch) throws(CSEError) -> Output in
            let ciphertext = UnsafeMutableRawBufferPointer(rebasing: scratch[0..<ciphertextCount])
            let tag = UnsafeMutableRawBufferPointer(rebasing: scratch[ciphertextCount...])
            let written = try enc.seal(
                plaintext: plaintext.bytes, key: cek, iv: iv.bytes, aad: encodedHeader.span.bytes,
                ciphertext: ciphertext, tag: tag)
            let body = UnsafeRawBufferPointer(rebasing: ciphertext[0..<written])
            let total = compactByteCount(encryptedKeyCount: encryptedKey.count, ivCount: iv.count, ciphertextCount: written)
            return output(total) { out in
                compact(encryptedKey: encryptedKey, iv: iv, ciphertext: body, tag: UnsafeRawBufferPointer(tag), into: out)
            }
        }
    }

    /// The length of the compact serialization: four dots and five unpadded base64url segments.
    private func compactByteCount(encryptedKeyCount: Int, ivCount: Int, ciphertextCount: Int) -> Int {
        encodedHeader.count + 4
            + Base64.encodedLength(of: encryptedKeyCount, padding: false)
            + Base64.encodedLength(of: ivCount, padding: false)
            + Base64.encodedLength(of: ciphertextCount, padding: false)
            + Base64.encodedLength(of: header.encryption.algorithm.tagByteCount, padding: false)
    }

    /// The five segments, written straight into `out` (exactly ``compactByteCount`` bytes): no
    /// intermediate array.
    private func compact(
        encryptedKey: [UInt8], iv: UnsafeRawBufferPointer, ciphertext: UnsafeRawBufferPointer,
        tag: UnsafeRawBufferPointer, into out: UnsafeMutableRawBufferPointer
    ) {
        var offset = 0
        func segment(_ bytes: UnsafeRawBufferPointer, dot: Bool) {
            offset += Base64.encode(
                bytes, into: UnsafeMutableRawBufferPointer(rebasing: out[offset...]),
                alphabet: .url, padding: false)
            if dot {
                out[offset] = UInt8(ascii: ".")
                offset += 1
            }
        }
        encodedHeader.withUnsafeBytes { header in
            UnsafeMutableRawBufferPointer(rebasing: out[0..<header.count]).copyMemory(from: header)
        }
        offset = encodedHeader.count
        out[offset] = UInt8(ascii: ".")
        offset += 1
        encryptedKey.withUnsafeBytes { segment($0, dot: true) }
        segment(iv, dot: true)
        segment(ciphertext, dot: true)
        segment(tag, dot: false)
    }
}
