internal import CSECore
internal import CCSEShims

/// AES_CBC_HMAC_SHA2 (RFC 7518 §5.2): AES-CBC encryption followed by an HMAC-SHA2 tag over
/// AAD ‖ IV ‖ E ‖ AL, truncated to half the HMAC output.
///
/// The key K is MAC_KEY ‖ ENC_KEY (§5.2.2.1 step 1). The halves are never copied: they are the two
/// halves of the caller's ``SecureBytes`` CEK, so there is nothing extra to zero.
struct AESCBCHMAC {
    /// HMAC-SHA-256, -384 or -512.
    let mac: HMAC.Algorithm
    /// MAC_KEY_LEN = ENC_KEY_LEN = T_LEN (16, 24 or 32 bytes, §5.2.3–§5.2.5).
    let halfKeyByteCount: Int

    var keyByteCount: Int { 2 * halfKeyByteCount }
    var tagByteCount: Int { halfKeyByteCount }

    /// Encrypts `plaintext` into `ciphertext` and writes the T_LEN-byte tag into `tag`
    /// (RFC 7518 §5.2.2.1). Returns the ciphertext length. Lengths were checked by the caller.
    func seal(
        key: UnsafeRawBufferPointer, iv: UnsafeRawBufferPointer, aad: UnsafeRawBufferPointer,
        plaintext: UnsafeRawBufferPointer,
        ciphertext: UnsafeMutableRawBufferPointer, tag: UnsafeMutableRawBufferPointer
    ) throws(CSEError) -> Int {
        let macKey = UnsafeRawBufferPointer(rebasing: key[0..<halfKeyByteCount])
        let encryptionKey = UnsafeRawBufferPointer(rebasing: key[halfKeyByteCount..<keyByteCount])
        let count = try AES.CBC.encrypt(key: encryptionKey, iv: iv, plaintext: plaintext, into: ciphertext)
        try authenticate(
            macKey: macKey, iv: iv, aad: aad,
            ciphertext: UnsafeRawBufferPointer(rebasing: ciphertext[0..<count])
        ) { full in
            tag.baseAddress!.copyMemory(from: full, byteCount: tagByteCount)
        }
        return count
    }

    /// Verifies the tag in constant time and only then decrypts (RFC 7518 §5.2.2.2). Every tag,
    /// length and padding failure throws the same ``CSEError/Code/decryptionFailed``.
    func open(
        key: UnsafeRawBufferPointer, iv: UnsafeRawBufferPointer, aad: UnsafeRawBufferPointer,
        ciphertext: UnsafeRawBufferPointer, tag: UnsafeRawBufferPointer
    ) throws(CSEError) -> SecureBytes {
        guard tag.count == tagByteCount, ciphertext.count >= 16, ciphertext.count % 16 == 0 else {
            throw SymmetricError.decryptionFailed()
        }
        let macKey = UnsafeRawBufferPointer(rebasing: key[0..<halfKeyByteCount])
        let encryptionKey = UnsafeRawBufferPointer(rebasing: key[halfKeyByteCount..<keyByteCount])
        var tagMatches = false
        try authenticate(macKey: macKey, iv: iv, aad: aad, ciphertext: ciphertext) { full in
            tagMatches = ConstantTime.equals(UnsafeRawBufferPointer(start: full, count: tagByteCount), tag)
        }
        guard tagMatches else { throw SymmetricError.decryptionFailed() }
        return try AES.CBC.decrypt(key: encryptionKey, iv: iv, ciphertext: ciphertext)
    }

    /// M = HMAC(MAC_KEY, A ‖ IV ‖ E ‖ AL), with AL the bit length of A as a 64-bit big-endian
    /// integer (§5.2.2.1 steps 4–5). `body` sees M in stack memory that is cleansed afterwards.
    @inline(__always)
    private func authenticate(
        macKey: UnsafeRawBufferPointer, iv: UnsafeRawBufferPointer, aad: UnsafeRawBufferPointer,
        ciphertext: UnsafeRawBufferPointer, _ body: (UnsafeRawPointer) -> Void
    ) throws(CSEError) {
        guard aad.count <= SymmetricBackend.maximumInputByteCount else {
            throw SymmetricError.inputTooLarge("AAD", limit: SymmetricBackend.maximumInputByteCount)
        }
        let bitLength = UInt64(aad.count) &* 8
        try withUnsafeBytes(of: bitLength.bigEndian) { (al) throws(CSEError) in
            try withUnsafeTemporaryAllocation(byteCount: 64, alignment: 16) { (full) throws(CSEError) in
                defer { secureZero(UnsafeMutableRawBufferPointer(start: full.baseAddress!, count: 64)) }
                try HMAC.compute(mac, key: macKey, aad, iv, ciphertext, al, into: full.baseAddress!)
                body(full.baseAddress!)
            }
        }
    }
}
