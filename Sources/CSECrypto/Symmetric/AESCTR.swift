package import CSECore
internal import COpenSSL
internal import CCSEShims

extension AES {
    /// AES in counter mode (NIST SP 800-38A §6.5) with 128- or 256-bit keys, a 128-bit initial
    /// counter block and the standard incrementing function on the whole block (SP 800-38A
    /// Appendix B.1, as OpenSSL's `AES-*-CTR` ciphers do it).
    ///
    /// Google Pay's ECIES-KEM uses it with a zero initial counter block: ECv1 with AES-128, ECv2
    /// with AES-256 ("Payment data cryptography for merchants").
    ///
    /// - Warning: CTR alone is not authenticated, and a counter block must never be reused with the
    ///   same key. Google Pay authenticates the ciphertext with HMAC-SHA-256 under a separate key;
    ///   check that tag, in constant time, before calling this.
    package enum CTR {
        /// The initial counter block's length in bytes.
        package static let counterBlockByteCount = 16

        /// XORs `input` with the AES-CTR keystream of `key` from `initialCounterBlock`: encryption
        /// and decryption are the same operation (SP 800-38A §6.5).
        /// - Parameters:
        ///   - input: Any number of bytes; the output has the same length.
        ///   - key: 16 or 32 bytes.
        ///   - initialCounterBlock: 16 bytes.
        /// - Returns: The output, in a zeroing buffer (it is plaintext when decrypting).
        /// - Throws: ``CSEError/Code/invalidSymmetricKeyLength``, ``CSEError/Code/invalidIVLength``,
        ///   ``CSEError/Code/symmetricInputTooLarge`` or ``CSEError/Code/symmetricBackendFailure``.
        package static func apply(
            to input: RawSpan, key: SecureBytes, initialCounterBlock: RawSpan
        ) throws(CSEError) -> SecureBytes {
            try key.withUnsafeBytes { (keyBuffer) throws(CSEError) -> SecureBytes in
                try initialCounterBlock.withUnsafeBytes { (counter) throws(CSEError) -> SecureBytes in
                    try input.withUnsafeBytes { (bytes) throws(CSEError) -> SecureBytes in
                        try apply(key: keyBuffer, counter: counter, input: bytes)
                    }
                }
            }
        }

        static func apply(
            key: UnsafeRawBufferPointer, counter: UnsafeRawBufferPointer, input: UnsafeRawBufferPointer
        ) throws(CSEError) -> SecureBytes {
            let cipher: FetchedAlgorithm
            switch key.count {
            case 16: cipher = SymmetricBackend.aes128CTR
            case 32: cipher = SymmetricBackend.aes256CTR
            default: throw SymmetricError.keyLength("AES-CTR", expected: "16 or 32", actual: key.count)
            }
            guard counter.count == counterBlockByteCount else {
                throw SymmetricError.ivLength("AES-CTR", expected: counterBlockByteCount, actual: counter.count)
            }
            guard input.count <= SymmetricBackend.maximumInputByteCount else {
                throw SymmetricError.inputTooLarge("AES-CTR input", limit: SymmetricBackend.maximumInputByteCount)
            }
            let evpCipher = try cipher.get()
            // One context per call, freed (and with it the key schedule cleansed by
            // EVP_CIPHER_CTX_free) before returning: a wallet token costs one ECDH, two
            // signature checks and this, so a per-thread context would save nothing measurable.
            guard let context = EVP_CIPHER_CTX_new() else { throw SymmetricError.backend("EVP_CIPHER_CTX_new") }
            defer { EVP_CIPHER_CTX_free(context) }
            return try SecureBytes(count: input.count) { (out) throws(CSEError) in
                var written: Int32 = 0
                guard EVP_CipherInit_ex2(context, evpCipher, key.uint8, counter.uint8, 1, nil) == 1,
                    input.count == 0
                        || (EVP_CipherUpdate(context, out.uint8, &written, input.uint8, Int32(input.count)) == 1
                            && Int(written) == input.count)
                else { throw SymmetricError.backend("AES-CTR") }
            }
        }
    }
}

extension SymmetricBackend {
    static let aes128CTR = FetchedAlgorithm(name: "AES-128-CTR") { EVP_CIPHER_fetch(nil, $0, nil) }
    static let aes256CTR = FetchedAlgorithm(name: "AES-256-CTR") { EVP_CIPHER_fetch(nil, $0, nil) }
}
