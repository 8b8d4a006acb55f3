public import CSECore
internal import COpenSSL
internal import CCSEShims

extension CSEError.Code {
    /// RSAES-OAEP decryption failed. One code and one message for every cause (wrong length,
    /// integer out of range, bad padding, label mismatch), so callers cannot build a padding oracle
    /// (Manger, CRYPTO 2001).
    public static let rsaDecryptionFailed = Self("rsa.decryptionFailed")
}

extension RSAPrivateKey {
    /// Decrypts an RSAES-OAEP ciphertext (RFC 8017 §7.1.2) with OpenSSL (`EVP_PKEY_decrypt`,
    /// `RSA_PKCS1_OAEP_PADDING`, OAEP and MGF1 hash `hash`, label `label`).
    ///
    /// Every failure, whatever its cause, throws the same ``CSEError/Code/rsaDecryptionFailed``
    /// error with the same message, and OpenSSL's error queue is cleared so nothing else records
    /// the cause.
    /// - Parameters:
    ///   - ciphertext: C, exactly k bytes.
    ///   - hash: The OAEP and MGF1 hash (`.sha1` for JOSE `RSA-OAEP`, `.sha256` for `RSA-OAEP-256`).
    ///   - label: L, empty by default.
    /// - Returns: M in a zeroing buffer.
    /// - Throws: ``CSEError/Code/rsaDecryptionFailed``.
    @usableFromInline
    package func decryptOAEP(
        _ ciphertext: UnsafeRawBufferPointer, hash: DigestAlgorithm,
        label: [UInt8] = []
    ) throws(CSEError) -> SecureBytes {
        guard ciphertext.count == publicKey.byteCount, let md = hash.openSSLDigest else { throw Self.decryptionFailed() }
        if label.isEmpty {
            // The JOSE case: a pooled context already configured for this hash.
            guard let ctx = key.takeContext(for: .oaepDecrypt(digest: md)) else { throw Self.decryptionFailed() }
            // The context goes back to the pool whatever the outcome (see EVPKey.returnContext).
            defer { key.returnContext(ctx, for: .oaepDecrypt(digest: md)) }
            return try Self.decrypt(ciphertext, with: ctx)
        }
        guard let ctx = EVP_PKEY_CTX_new_from_pkey(nil, key.pointer, nil) else { throw Self.decryptionFailed() }
        defer { EVP_PKEY_CTX_free(ctx) }
        guard EVP_PKEY_decrypt_init(ctx) == 1,
            EVP_PKEY_CTX_set_rsa_padding(ctx, RSA_PKCS1_OAEP_PADDING) == 1,
            EVP_PKEY_CTX_set_rsa_oaep_md(ctx, md) == 1,
            EVP_PKEY_CTX_set_rsa_mgf1_md(ctx, md) == 1
        else { throw Self.decryptionFailed() }
        // OpenSSL takes ownership of the label buffer.
        guard let copy = CRYPTO_malloc(label.count, StaticCString.file, 0) else { throw Self.decryptionFailed() }
        label.withUnsafeBytes { copy.copyMemory(from: $0.baseAddress!, byteCount: $0.count) }
        guard EVP_PKEY_CTX_set0_rsa_oaep_label(ctx, copy, Int32(label.count)) == 1 else {
            CRYPTO_free(copy, StaticCString.file, 0)
            throw Self.decryptionFailed()
        }
        return try Self.decrypt(ciphertext, with: ctx)
    }

    /// Unwraps a content-encryption key for JWE (RFC 7516 §11.5, RFC 3218 §2.3.2): the
    /// RSAES-OAEP plaintext when decryption succeeds and it is exactly `keyByteCount` bytes,
    /// otherwise `keyByteCount` random bytes, so the caller goes on to fail the tag check the same
    /// way either way.
    ///
    /// Both outcomes take the same path: the random fallback is always drawn, the pooled context
    /// is always returned, OpenSSL's error queue is always cleared, and the result is chosen byte
    /// by byte with a mask, without a branch on the outcome. Only the public ciphertext length
    /// is branched on.
    /// - Parameters:
    ///   - ciphertext: The JWE encrypted key, k bytes when well-formed.
    ///   - hash: The OAEP and MGF1 hash.
    ///   - keyByteCount: The CEK size `enc` requires.
    /// - Returns: The CEK or the random fallback, in a zeroing buffer.
    /// - Throws: `crypto.randomFailure` when the CSPRNG fails (never for a bad ciphertext).
    package func unwrapContentKeyOAEP(
        _ ciphertext: [UInt8], hash: DigestAlgorithm,
        keyByteCount: Int
    ) throws(CSEError) -> SecureBytes {
        var result = try SecureRandom.secureBytes(keyByteCount)
        let k = publicKey.byteCount
        guard ciphertext.count == k, keyByteCount <= k, let md = hash.openSSLDigest,
            let ctx = key.takeContext(for: .oaepDecrypt(digest: md))
        else {
            ERR_clear_error()
            return result
        }
        var plaintext = SecureBytes(zeros: k)
        var length = k
        let status = plaintext.withUnsafeMutableBytes { out in
            ciphertext.withUnsafeBytes { input in
                EVP_PKEY_decrypt(
                    ctx, out.baseAddress!.assumingMemoryBound(to: UInt8.self), &length,
                    input.baseAddress!.assumingMemoryBound(to: UInt8.self), input.count)
            }
        }
        key.returnContext(ctx, for: .oaepDecrypt(digest: md))
        ERR_clear_error()
        // 0xFF when the plaintext is the key, 0x00 otherwise, computed without a branch.
        let difference = UInt(bitPattern: Int(status) ^ 1) | (UInt(bitPattern: length) ^ UInt(bitPattern: keyByteCount))
        let isZero = ((difference | (0 &- difference)) >> (UInt.bitWidth - 1)) ^ 1
        let mask = 0 &- UInt8(truncatingIfNeeded: isZero)
        plaintext.withUnsafeBytes { key in
            result.withUnsafeMutableBytes { out in
                for i in 0..<keyByteCount { out[i] = (key[i] & mask) | (out[i] & ~mask) }
            }
        }
        return result
    }

    /// One `EVP_PKEY_decrypt` into a zeroing buffer.
    private static func decrypt(_ ciphertext: UnsafeRawBufferPointer, with ctx: OpaquePointer) throws(CSEError) -> SecureBytes {
        var plaintext = SecureBytes(zeros: ciphertext.count)
        var length = ciphertext.count
        let status = plaintext.withUnsafeMutableBytes { out in
            EVP_PKEY_decrypt(
                ctx, out.baseAddress!.assumingMemoryBound(to: UInt8.self), &length,
                ciphertext.baseAddress!.assumingMemoryBound(to: UInt8.self), ciphertext.count)
        }
        guard status == 1, length <= ciphertext.count else { throw Self.decryptionFailed() }
        return plaintext.slice(0..<length)
    }

    /// Decrypts an RSAES-OAEP ciphertext (RFC 8017 §7.1.2) with OpenSSL. Every failure, whatever its
    /// cause, throws the same ``CSEError/Code/rsaDecryptionFailed`` error with the same message.
    /// - Parameters:
    ///   - ciphertext: C, exactly k bytes.
    ///   - hash: The OAEP and MGF1 hash (`.sha1` for JOSE `RSA-OAEP`, `.sha256` for `RSA-OAEP-256`).
    ///   - label: L, empty by default.
    /// - Returns: M in a zeroing buffer.
    @inlinable
    package func decryptOAEP(
        _ ciphertext: some Collection<UInt8>, hash: DigestAlgorithm, label: [UInt8] = []
    ) throws(CSEError) -> SecureBytes {
        // Inlinable, so the caller's collection type is specialized in its module (see
        // `RSAPublicKey.encryptOAEP(_:hash:label:engine:)`).
        try withContiguousBytes(of: ciphertext) { (bytes) throws(CSEError) in try decryptOAEP(bytes, hash: hash, label: label) }
    }

    /// The uniform failure. Clears OpenSSL's error queue.
    private static func decryptionFailed() -> CSEError {
        ERR_clear_error()
        return CSEError(.rsaDecryptionFailed, "RSA-OAEP decryption failed")
    }
}
