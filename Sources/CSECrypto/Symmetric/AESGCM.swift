package import CSECore
internal import COpenSSL
internal import CCSEShims

extension AES {
    /// AES in Galois/Counter Mode (NIST SP 800-38D) with 128-, 192- or 256-bit keys, a 96-bit IV and
    /// a 128-bit tag: the parameters of JWE's A128GCM, A192GCM and A256GCM (RFC 7518 §5.3).
    ///
    /// Other IV lengths are refused with ``CSEError/Code/invalidIVLength``: SP 800-38D §8.2
    /// recommends 96-bit IVs, other lengths go through GHASH (where counter-wrap bugs live) and JWE
    /// never uses them. Shorter tags are refused too (``CSEError/Code/decryptionFailed`` on open).
    package enum GCM {
        /// The IV length in bytes (96 bits).
        package static let ivByteCount = 12
        /// The tag length in bytes (128 bits).
        package static let tagByteCount = 16

        /// Encrypts and authenticates.
        /// - Parameters:
        ///   - plaintext: Any number of bytes; the ciphertext has the same length.
        ///   - key: 16, 24 or 32 bytes.
        ///   - iv: 12 bytes, never reused with the same key.
        ///   - aad: Additional authenticated data (in JWE, the ASCII of the encoded protected header).
        /// - Returns: The ciphertext and the 16-byte tag.
        /// - Throws: ``CSEError/Code/invalidSymmetricKeyLength``, ``CSEError/Code/invalidIVLength``,
        ///   ``CSEError/Code/symmetricInputTooLarge`` or ``CSEError/Code/symmetricBackendFailure``.
        package static func seal(
            plaintext: RawSpan, key: SecureBytes, iv: RawSpan, aad: RawSpan
        ) throws(CSEError) -> (ciphertext: [UInt8], tag: [UInt8]) {
            var tag: [UInt8] = []
            let ciphertext = try makeByteArray(capacity: plaintext.byteCount) { (out) throws(CSEError) -> Int in
                tag = try makeByteArray(capacity: tagByteCount) { (tagOut) throws(CSEError) -> Int in
                    try key.withUnsafeBytes { (keyBuffer) throws(CSEError) in
                        try iv.withUnsafeBytes { (ivBuffer) throws(CSEError) in
                            try aad.withUnsafeBytes { (aadBuffer) throws(CSEError) in
                                try plaintext.withUnsafeBytes { (input) throws(CSEError) in
                                    try seal(
                                        key: keyBuffer, iv: ivBuffer, aad: aadBuffer, plaintext: input,
                                        ciphertext: out, tag: tagOut)
                                }
                            }
                        }
                    }
                    return tagByteCount
                }
                return plaintext.byteCount
            }
            return (ciphertext, tag)
        }

        /// Checks the tag and decrypts.
        /// - Parameters:
        ///   - ciphertext: The ciphertext.
        ///   - key: 16, 24 or 32 bytes.
        ///   - iv: 12 bytes.
        ///   - aad: The additional authenticated data used when sealing.
        ///   - tag: The 16-byte tag.
        /// - Returns: The plaintext, in a zeroing buffer.
        /// - Throws: ``CSEError/Code/decryptionFailed`` for a wrong or wrong-length tag (and any other
        ///   authentication failure); ``CSEError/Code/invalidSymmetricKeyLength`` or
        ///   ``CSEError/Code/invalidIVLength`` for wrong parameters.
        package static func open(
            ciphertext: RawSpan, key: SecureBytes, iv: RawSpan, aad: RawSpan, tag: RawSpan
        ) throws(CSEError) -> SecureBytes {
            try withBuffers(ciphertext: ciphertext, key: key, iv: iv, aad: aad, tag: tag, open(key:iv:aad:ciphertext:tag:))
        }

        /// Calls `body` with the bytes of the five inputs of an open.
        private static func withBuffers(
            ciphertext: RawSpan, key: SecureBytes, iv: RawSpan, aad: RawSpan, tag: RawSpan,
            _ body: (
                _ key: UnsafeRawBufferPointer, _ iv: UnsafeRawBufferPointer, _ aad: UnsafeRawBufferPointer,
                _ ciphertext: UnsafeRawBufferPointer, _ tag: UnsafeRawBufferPointer
            ) throws(CSEError) -> SecureBytes
        ) throws(CSEError) -> SecureBytes {
            try key.withUnsafeBytes { (keyBuffer) throws(CSEError) -> SecureBytes in
                try iv.withUnsafeBytes { (ivBuffer) throws(CSEError) -> SecureBytes in
                    try aad.withUnsafeBytes { (aadBuffer) throws(CSEError) -> SecureBytes in
                        try ciphertext.withUnsafeBytes { (input) throws(CSEError) -> SecureBytes in
                            try tag.withUnsafeBytes { (tagBuffer) throws(CSEError) -> SecureBytes in
                                try body(keyBuffer, ivBuffer, aadBuffer, input, tagBuffer)
                            }
                        }
                    }
                }
            }
        }

        /// The 128-bit IV length of Apple Pay's payment data (16 zero bytes), the only other IV
        /// length accepted, and only by ``open(ciphertext:key:iv128:aad:tag:)``.
        package static let longIVByteCount = 16

        /// Checks the tag and decrypts with a 128-bit IV (SP 800-38D §7.1: J0 = GHASH(IV ‖ pad ‖
        /// len(IV))), the parameters of Apple Pay's `EC_v1` and `RSA_v1` payment data. The 96-bit
        /// entry points keep refusing every other IV length.
        /// - Parameters:
        ///   - ciphertext: The ciphertext.
        ///   - key: 16, 24 or 32 bytes.
        ///   - iv128: 16 bytes.
        ///   - aad: The additional authenticated data used when sealing.
        ///   - tag: The 16-byte tag.
        /// - Returns: The plaintext, in a zeroing buffer.
        /// - Throws: ``CSEError/Code/decryptionFailed`` for a wrong or wrong-length tag;
        ///   ``CSEError/Code/invalidSymmetricKeyLength`` or ``CSEError/Code/invalidIVLength``.
        package static func open(
            ciphertext: RawSpan, key: SecureBytes, iv128 iv: RawSpan, aad: RawSpan, tag: RawSpan
        ) throws(CSEError) -> SecureBytes {
            try withBuffers(ciphertext: ciphertext, key: key, iv: iv, aad: aad, tag: tag, openLongIV(key:iv:aad:ciphertext:tag:))
        }

        /// Opens with a 16-byte IV on a context of its own (the IV length is a context setting, so
        /// the thread's cached 96-bit contexts are left alone); freeing the context cleanses it.
        static func openLongIV(
            key: UnsafeRawBufferPointer, iv: UnsafeRawBufferPointer, aad: UnsafeRawBufferPointer,
            ciphertext: UnsafeRawBufferPointer, tag: UnsafeRawBufferPointer
        ) throws(CSEError) -> SecureBytes {
            let size = try checkParameters(key: key, iv: iv, aad: aad, text: ciphertext.count, ivByteCount: longIVByteCount)
            guard tag.count == tagByteCount else { throw SymmetricError.decryptionFailed() }
            let cipher = try size.gcm.get()
            guard let context = EVP_CIPHER_CTX_new() else { throw SymmetricError.backend("AES-GCM decryption") }
            defer { EVP_CIPHER_CTX_free(context) }
            guard EVP_CipherInit_ex2(context, cipher, nil, nil, 0, nil) == 1,
                EVP_CIPHER_CTX_ctrl(context, EVP_CTRL_AEAD_SET_IVLEN, Int32(longIVByteCount), nil) == 1
            else { throw SymmetricError.backend("AES-GCM decryption") }
            return try decrypt(context: context, key: key, iv: iv, aad: aad, ciphertext: ciphertext, tag: tag)
        }

        @inline(__always)
        static func checkParameters(
            key: UnsafeRawBufferPointer, iv: UnsafeRawBufferPointer, aad: UnsafeRawBufferPointer, text: Int,
            ivByteCount: Int = ivByteCount
        ) throws(CSEError) -> AESKeySize {
            let size = try AESKeySize(byteCount: key.count, algorithm: "AES-GCM")
            guard iv.count == ivByteCount else {
                throw SymmetricError.ivLength("AES-GCM", expected: ivByteCount, actual: iv.count)
            }
            guard aad.count <= SymmetricBackend.maximumInputByteCount,
                text <= SymmetricBackend.maximumInputByteCount
            else { throw SymmetricError.inputTooLarge("GCM input", limit: SymmetricBackend.maximumInputByteCount) }
            return size
        }

        /// Seals into caller-provided buffers: `ciphertext` needs `plaintext.count` bytes, `tag` 16.
        static func seal(
            key: UnsafeRawBufferPointer, iv: UnsafeRawBufferPointer, aad: UnsafeRawBufferPointer,
            plaintext: UnsafeRawBufferPointer,
            ciphertext: UnsafeMutableRawBufferPointer, tag: UnsafeMutableRawBufferPointer
        ) throws(CSEError) {
            let size = try checkParameters(key: key, iv: iv, aad: aad, text: plaintext.count)
            guard ciphertext.count >= plaintext.count else {
                throw SymmetricError.outputTooSmall("ciphertext", needed: plaintext.count, available: ciphertext.count)
            }
            guard tag.count >= tagByteCount else {
                throw SymmetricError.outputTooSmall("tag", needed: tagByteCount, available: tag.count)
            }
            let state = SymmetricThreadState.current()
            let context = try state.cipherContext(size.gcmSlot(encrypt: true), cipher: size.gcm, encrypt: true)
            defer { state.scrub(context, encrypt: true) }
            var written: Int32 = 0
            var finalByte: UInt8 = 0
            guard EVP_CipherInit_ex2(context, nil, key.uint8, iv.uint8, 1, nil) == 1,
                aad.count == 0 || EVP_CipherUpdate(context, nil, &written, aad.uint8, Int32(aad.count)) == 1,
                plaintext.count == 0
                    || (EVP_CipherUpdate(context, ciphertext.uint8, &written, plaintext.uint8, Int32(plaintext.count)) == 1
                        && Int(written) == plaintext.count),
                EVP_CipherFinal_ex(context, &finalByte, &written) == 1,
                EVP_CIPHER_CTX_ctrl(context, EVP_CTRL_AEAD_GET_TAG, Int32(tagByteCount), tag.baseAddress) == 1
            else { throw SymmetricError.backend("AES-GCM encryption") }
        }

        /// Opens into a new zeroing buffer; the buffer is discarded (and cleansed) when the tag fails.
        static func open(
            key: UnsafeRawBufferPointer, iv: UnsafeRawBufferPointer, aad: UnsafeRawBufferPointer,
            ciphertext: UnsafeRawBufferPointer, tag: UnsafeRawBufferPointer
        ) throws(CSEError) -> SecureBytes {
            let size = try checkParameters(key: key, iv: iv, aad: aad, text: ciphertext.count)
            guard tag.count == tagByteCount else { throw SymmetricError.decryptionFailed() }
            let state = SymmetricThreadState.current()
            let context = try state.cipherContext(size.gcmSlot(encrypt: false), cipher: size.gcm, encrypt: false)
            defer { state.scrub(context, encrypt: false) }
            return try decrypt(context: context, key: key, iv: iv, aad: aad, ciphertext: ciphertext, tag: tag)
        }

        /// Keys `context` (a GCM decryption context whose IV length is set), checks the tag and
        /// decrypts into a new zeroing buffer.
        private static func decrypt(
            context: OpaquePointer, key: UnsafeRawBufferPointer, iv: UnsafeRawBufferPointer, aad: UnsafeRawBufferPointer,
            ciphertext: UnsafeRawBufferPointer, tag: UnsafeRawBufferPointer
        ) throws(CSEError) -> SecureBytes {
            try SecureBytes(count: ciphertext.count) { (out) throws(CSEError) in
                var written: Int32 = 0
                guard EVP_CipherInit_ex2(context, nil, key.uint8, iv.uint8, 0, nil) == 1,
                    aad.count == 0 || EVP_CipherUpdate(context, nil, &written, aad.uint8, Int32(aad.count)) == 1,
                    ciphertext.count == 0
                        || (EVP_CipherUpdate(context, out.uint8, &written, ciphertext.uint8, Int32(ciphertext.count)) == 1
                            && Int(written) == ciphertext.count),
                    EVP_CIPHER_CTX_ctrl(
                        context, EVP_CTRL_AEAD_SET_TAG, Int32(tagByteCount),
                        UnsafeMutableRawPointer(mutating: tag.baseAddress)) == 1
                else { throw SymmetricError.backend("AES-GCM decryption") }
                var finalByte: UInt8 = 0
                guard EVP_CipherFinal_ex(context, &finalByte, &written) == 1 else {
                    ERR_clear_error()
                    throw SymmetricError.decryptionFailed()
                }
            }
        }
    }
}
