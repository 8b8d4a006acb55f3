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
    package func decryptOAEP(_ ciphertext: UnsafeRawBufferPointer, hash: DigestAlgorithm,
                            label: [UInt8] = []) throws(CSEError) -> SecureBytes {
        guard ciphertext.count == publicKey.byteCount, let md = hash.openSSLDigest else { throw Self.decryptionFailed() }
        if label.isEmpty {
            // The JOSE case: a pooled context already configured for this hash.
            guard let ctx = key.takeOAEPDecryptContext(digest: md) else { throw Self.decryptionFailed() }
            do throws(CSEError) {
                let plaintext = try Self.decrypt(ciphertext, with: ctx)
                key.returnOAEPDecryptContext(ctx, digest: md)
                return plaintext
            } catch {
                EVP_PKEY_CTX_free(ctx)
                throw error
            }
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

    /// One `EVP_PKEY_decrypt` into a zeroing buffer.
    private static func decrypt(_ ciphertext: UnsafeRawBufferPointer, with ctx: OpaquePointer) throws(CSEError) -> SecureBytes {
        var plaintext = SecureBytes(zeros: ciphertext.count)
        var length = ciphertext.count
        let status = plaintext.withUnsafeMutableBytes { out in
            EVP_PKEY_decrypt(ctx, out.baseAddress!.assumingMemoryBound(to: UInt8.self), &length,
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
    public func decryptOAEP(_ ciphertext: [UInt8], hash: DigestAlgorithm, label: [UInt8] = []) throws(CSEError) -> SecureBytes {
        try ciphertext.withCSEBytes { (bytes) throws(CSEError) in try decryptOAEP(bytes, hash: hash, label: label) }
    }

    /// The uniform failure. Clears OpenSSL's error queue.
    private static func decryptionFailed() -> CSEError {
        ERR_clear_error()
        return CSEError(.rsaDecryptionFailed, "RSA-OAEP decryption failed")
    }
}
