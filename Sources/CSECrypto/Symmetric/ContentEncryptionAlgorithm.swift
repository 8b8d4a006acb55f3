package import CSECore

/// A JWE content-encryption algorithm: the `enc` header parameter (RFC 7516 §4.1.2), with the
/// authenticated encryption it names (RFC 7518 §5).
///
/// An open set of values over a private enumeration, so that algorithms can be added without a
/// breaking change. The supported values are the three AES_CBC_HMAC_SHA2 algorithms (RFC 7518 §5.2)
/// and the three AES-GCM algorithms (§5.3).
///
/// ```swift
/// let enc = ContentEncryptionAlgorithm.a256cbcHS512
/// let sealed = try enc.seal(plaintext: payload, key: cek, iv: iv, aad: Array(protectedHeaderB64.utf8))
/// let plaintext = try enc.open(ciphertext: sealed.ciphertext, key: cek, iv: iv, aad: aad, tag: sealed.tag)
/// ```
///
/// All functions are thread-safe: each thread reuses its own OpenSSL contexts.
package struct ContentEncryptionAlgorithm: Hashable, Sendable, CustomStringConvertible {
    private enum Backing: Hashable, Sendable {
        case a128cbcHS256, a192cbcHS384, a256cbcHS512, a128gcm, a192gcm, a256gcm
    }

    private let backing: Backing

    private init(_ backing: Backing) { self.backing = backing }

    /// `A128CBC-HS256`: AES-128-CBC with HMAC-SHA-256 truncated to 128 bits; 32-byte key
    /// (RFC 7518 §5.2.3).
    package static let a128cbcHS256 = Self(.a128cbcHS256)
    /// `A192CBC-HS384`: AES-192-CBC with HMAC-SHA-384 truncated to 192 bits; 48-byte key
    /// (RFC 7518 §5.2.4).
    package static let a192cbcHS384 = Self(.a192cbcHS384)
    /// `A256CBC-HS512`: AES-256-CBC with HMAC-SHA-512 truncated to 256 bits; 64-byte key
    /// (RFC 7518 §5.2.5). The Worldline default.
    package static let a256cbcHS512 = Self(.a256cbcHS512)
    /// `A128GCM`: AES-128-GCM, 96-bit IV, 128-bit tag (RFC 7518 §5.3).
    package static let a128gcm = Self(.a128gcm)
    /// `A192GCM`: AES-192-GCM, 96-bit IV, 128-bit tag (RFC 7518 §5.3).
    package static let a192gcm = Self(.a192gcm)
    /// `A256GCM`: AES-256-GCM, 96-bit IV, 128-bit tag (RFC 7518 §5.3).
    package static let a256gcm = Self(.a256gcm)

    /// Every supported algorithm, CBC-HMAC first.
    package static let allSupported: [ContentEncryptionAlgorithm] = [
        .a128cbcHS256, .a192cbcHS384, .a256cbcHS512, .a128gcm, .a192gcm, .a256gcm,
    ]

    /// The algorithm named by a JOSE `enc` value, or `nil` when CSEKit does not support it.
    /// Names are case-sensitive (RFC 7518 §7.1).
    /// - Parameter name: The `enc` header value, for example `A256CBC-HS512`.
    package init?(name: String) {
        switch name {
        case "A128CBC-HS256": self = .a128cbcHS256
        case "A192CBC-HS384": self = .a192cbcHS384
        case "A256CBC-HS512": self = .a256cbcHS512
        case "A128GCM": self = .a128gcm
        case "A192GCM": self = .a192gcm
        case "A256GCM": self = .a256gcm
        default: return nil
        }
    }

    /// The JOSE `enc` value (RFC 7518 §5.1), for example `A256CBC-HS512`.
    package var name: String {
        switch backing {
        case .a128cbcHS256: "A128CBC-HS256"
        case .a192cbcHS384: "A192CBC-HS384"
        case .a256cbcHS512: "A256CBC-HS512"
        case .a128gcm: "A128GCM"
        case .a192gcm: "A192GCM"
        case .a256gcm: "A256GCM"
        }
    }

    /// The ``name``.
    package var description: String { name }

    /// The content-encryption key (CEK) length in bytes: 32, 48 or 64 for CBC-HMAC (MAC key and
    /// encryption key together), 16, 24 or 32 for GCM.
    package var keyByteCount: Int {
        switch backing {
        case .a128cbcHS256: 32
        case .a192cbcHS384: 48
        case .a256cbcHS512: 64
        case .a128gcm: 16
        case .a192gcm: 24
        case .a256gcm: 32
        }
    }

    /// The IV length in bytes: 16 for CBC-HMAC, 12 for GCM.
    package var ivByteCount: Int {
        cbcHMAC == nil ? AES.GCM.ivByteCount : AES.CBC.ivByteCount
    }

    /// The authentication tag length in bytes: 16, 24 or 32 for CBC-HMAC (T_LEN), 16 for GCM.
    package var tagByteCount: Int {
        cbcHMAC?.tagByteCount ?? AES.GCM.tagByteCount
    }

    /// The ciphertext length for a plaintext of `plaintextByteCount` bytes: the same for GCM, the
    /// next multiple of 16 above it for CBC (PKCS#7 always pads).
    /// - Parameter plaintextByteCount: The plaintext length.
    package func ciphertextByteCount(plaintextByteCount: Int) -> Int {
        cbcHMAC == nil ? plaintextByteCount : AES.CBC.ciphertextByteCount(plaintextByteCount: plaintextByteCount)
    }

    // MARK: Sealing

    /// Encrypts and authenticates `plaintext` (RFC 7518 §5.2.2.1 or §5.3).
    /// - Parameters:
    ///   - plaintext: The content, usually the customer-input JSON.
    ///   - key: The CEK, ``keyByteCount`` bytes (for CBC-HMAC: MAC_KEY ‖ ENC_KEY).
    ///   - iv: ``ivByteCount`` fresh random bytes.
    ///   - aad: The additional authenticated data; in JWE compact, the ASCII bytes of the
    ///     base64url-encoded protected header (RFC 7516 §5.1 step 14).
    /// - Returns: The ciphertext (``ciphertextByteCount(plaintextByteCount:)`` bytes) and the
    ///   ``tagByteCount``-byte tag.
    /// - Throws: ``CSEError/Code/invalidSymmetricKeyLength``, ``CSEError/Code/invalidIVLength``,
    ///   ``CSEError/Code/symmetricInputTooLarge`` or ``CSEError/Code/symmetricBackendFailure``.
    package func seal(
        plaintext: RawSpan, key: SecureBytes, iv: RawSpan, aad: RawSpan
    ) throws(CSEError) -> (ciphertext: [UInt8], tag: [UInt8]) {
        guard plaintext.byteCount <= SymmetricBackend.maximumInputByteCount else {
            throw SymmetricError.inputTooLarge("plaintext", limit: SymmetricBackend.maximumInputByteCount)
        }
        var tag: [UInt8] = []
        let ciphertext = try makeByteArray(capacity: ciphertextByteCount(plaintextByteCount: plaintext.byteCount)) {
            (ciphertextBuffer) throws(CSEError) -> Int in
            var count = 0
            tag = try makeByteArray(capacity: tagByteCount) { (tagBuffer) throws(CSEError) -> Int in
                count = try seal(
                    plaintext: plaintext, key: key, iv: iv, aad: aad,
                    ciphertext: ciphertextBuffer, tag: tagBuffer)
                return tagByteCount
            }
            return count
        }
        return (ciphertext, tag)
    }

    /// Encrypts and authenticates into caller-provided memory, for hot paths that encode the
    /// result straight away (no allocation here).
    /// - Parameters:
    ///   - plaintext: The content.
    ///   - key: The CEK, ``keyByteCount`` bytes.
    ///   - iv: ``ivByteCount`` fresh random bytes.
    ///   - aad: The additional authenticated data.
    ///   - ciphertext: Receives the ciphertext at its start; at least
    ///     ``ciphertextByteCount(plaintextByteCount:)`` bytes.
    ///   - tag: Receives the tag at its start; at least ``tagByteCount`` bytes.
    /// - Returns: The number of ciphertext bytes written.
    /// - Throws: As ``seal(plaintext:key:iv:aad:)-(RawSpan,_,RawSpan,RawSpan)``, and ``CSEError/Code/outputBufferTooSmall``.
    package func seal(
        plaintext: RawSpan, key: SecureBytes, iv: RawSpan, aad: RawSpan,
        ciphertext: inout MutableRawSpan, tag: inout MutableRawSpan
    ) throws(CSEError) -> Int {
        try ciphertext.withUnsafeMutableBytes { (ciphertextBuffer) throws(CSEError) -> Int in
            try tag.withUnsafeMutableBytes { (tagBuffer) throws(CSEError) -> Int in
                try seal(
                    plaintext: plaintext, key: key, iv: iv, aad: aad,
                    ciphertext: ciphertextBuffer, tag: tagBuffer)
            }
        }
    }

    /// Seals into caller-owned buffers (the JWE encryptor's per-call scratch, so a JWE allocates no
    /// ciphertext or tag arrays). Returns the ciphertext length.
    package func seal(
        plaintext: RawSpan, key: SecureBytes, iv: RawSpan, aad: RawSpan,
        ciphertext: UnsafeMutableRawBufferPointer, tag: UnsafeMutableRawBufferPointer
    ) throws(CSEError) -> Int {
        try checkKeyAndIV(key: key, iv: iv)
        let needed = ciphertextByteCount(plaintextByteCount: plaintext.byteCount)
        guard ciphertext.count >= needed else {
            throw SymmetricError.outputTooSmall("ciphertext", needed: needed, available: ciphertext.count)
        }
        guard tag.count >= tagByteCount else {
            throw SymmetricError.outputTooSmall("tag", needed: tagByteCount, available: tag.count)
        }
        return try key.withUnsafeBytes { (keyBuffer) throws(CSEError) -> Int in
            try iv.withUnsafeBytes { (ivBuffer) throws(CSEError) -> Int in
                try aad.withUnsafeBytes { (aadBuffer) throws(CSEError) -> Int in
                    try plaintext.withUnsafeBytes { (input) throws(CSEError) -> Int in
                        if let cbcHMAC {
                            return try cbcHMAC.seal(
                                key: keyBuffer, iv: ivBuffer, aad: aadBuffer, plaintext: input,
                                ciphertext: ciphertext, tag: tag)
                        }
                        try AES.GCM.seal(
                            key: keyBuffer, iv: ivBuffer, aad: aadBuffer, plaintext: input,
                            ciphertext: ciphertext, tag: tag)
                        return input.count
                    }
                }
            }
        }
    }

    // MARK: Opening

    /// Verifies and decrypts (RFC 7518 §5.2.2.2 or §5.3). For CBC-HMAC the tag is checked in
    /// constant time *before* anything is decrypted.
    /// - Parameters:
    ///   - ciphertext: The ciphertext.
    ///   - key: The CEK, ``keyByteCount`` bytes.
    ///   - iv: The ``ivByteCount``-byte IV.
    ///   - aad: The additional authenticated data used when sealing.
    ///   - tag: The received tag.
    /// - Returns: The plaintext, in a zeroing buffer.
    /// - Throws: ``CSEError/Code/decryptionFailed`` for every authentication, tag-length,
    ///   ciphertext-length and padding failure (one code: no oracle);
    ///   ``CSEError/Code/invalidSymmetricKeyLength`` or ``CSEError/Code/invalidIVLength`` when the
    ///   caller passes a key or IV of the wrong size.
    package func open(
        ciphertext: RawSpan, key: SecureBytes, iv: RawSpan, aad: RawSpan, tag: RawSpan
    ) throws(CSEError) -> SecureBytes {
        try checkKeyAndIV(key: key, iv: iv)
        return try key.withUnsafeBytes { (keyBuffer) throws(CSEError) -> SecureBytes in
            try iv.withUnsafeBytes { (ivBuffer) throws(CSEError) -> SecureBytes in
                try aad.withUnsafeBytes { (aadBuffer) throws(CSEError) -> SecureBytes in
                    try ciphertext.withUnsafeBytes { (input) throws(CSEError) -> SecureBytes in
                        try tag.withUnsafeBytes { (tagBuffer) throws(CSEError) -> SecureBytes in
                            if let cbcHMAC {
                                return try cbcHMAC.open(
                                    key: keyBuffer, iv: ivBuffer, aad: aadBuffer,
                                    ciphertext: input, tag: tagBuffer)
                            }
                            return try AES.GCM.open(
                                key: keyBuffer, iv: ivBuffer, aad: aadBuffer,
                                ciphertext: input, tag: tagBuffer)
                        }
                    }
                }
            }
        }
    }

    // MARK: Array conveniences

    /// ``seal(plaintext:key:iv:aad:)-(RawSpan,_,RawSpan,RawSpan)`` for byte arrays.
    /// - Parameters:
    ///   - plaintext: The content.
    ///   - key: The CEK.
    ///   - iv: The IV.
    ///   - aad: The additional authenticated data.
    /// - Returns: The ciphertext and the tag.
    /// - Throws: As the `RawSpan` form.
    package func seal(
        plaintext: [UInt8], key: SecureBytes, iv: [UInt8], aad: [UInt8]
    ) throws(CSEError) -> (ciphertext: [UInt8], tag: [UInt8]) {
        try seal(plaintext: plaintext.span.bytes, key: key, iv: iv.span.bytes, aad: aad.span.bytes)
    }

    /// ``open(ciphertext:key:iv:aad:tag:)-(RawSpan,_,RawSpan,RawSpan,RawSpan)`` for byte arrays.
    /// - Parameters:
    ///   - ciphertext: The ciphertext.
    ///   - key: The CEK.
    ///   - iv: The IV.
    ///   - aad: The additional authenticated data.
    ///   - tag: The received tag.
    /// - Returns: The plaintext, in a zeroing buffer.
    /// - Throws: As the `RawSpan` form.
    package func open(
        ciphertext: [UInt8], key: SecureBytes, iv: [UInt8], aad: [UInt8], tag: [UInt8]
    ) throws(CSEError) -> SecureBytes {
        try open(
            ciphertext: ciphertext.span.bytes, key: key, iv: iv.span.bytes, aad: aad.span.bytes,
            tag: tag.span.bytes)
    }

    // MARK: Internals

    /// The AES_CBC_HMAC_SHA2 parameters, or `nil` for the GCM algorithms.
    private var cbcHMAC: AESCBCHMAC? {
        switch backing {
        case .a128cbcHS256: AESCBCHMAC(mac: .sha256, halfKeyByteCount: 16)
        case .a192cbcHS384: AESCBCHMAC(mac: .sha384, halfKeyByteCount: 24)
        case .a256cbcHS512: AESCBCHMAC(mac: .sha512, halfKeyByteCount: 32)
        case .a128gcm, .a192gcm, .a256gcm: nil
        }
    }

    @inline(__always)
    private func checkKeyAndIV(key: SecureBytes, iv: RawSpan) throws(CSEError) {
        guard key.count == keyByteCount else {
            throw SymmetricError.keyLength(name, expected: String(keyByteCount), actual: key.count)
        }
        guard iv.byteCount == ivByteCount else {
            throw SymmetricError.ivLength(name, expected: ivByteCount, actual: iv.byteCount)
        }
    }
}
