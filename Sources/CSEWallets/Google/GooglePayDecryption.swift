internal import CSECore
internal import CSECrypto

/// Google Pay's ECIES-KEM ("Payment data cryptography for merchants", "Decrypt the payment
/// data"): ECDH on P-256 with the token's 65-byte uncompressed ephemeral point, HKDF-SHA-256
/// over `ephemeralPublicKey ‖ Z` (empty salt, info "Google"), the HMAC-SHA-256 tag checked in
/// constant time, and only then AES-CTR with a zero initial counter block.
///
/// Every failure is the one `wallet.decryptionFailed`: which step failed (the point, the
/// agreement, the tag) is never told.
enum GooglePayDecryption {
    /// The symmetric keys of one token: the HKDF output split in two halves.
    struct Keys {
        /// AES-128 (ECv1) or AES-256 (ECv2).
        let encryptionKey: SecureBytes
        /// HMAC-SHA-256 key: 16 (ECv1) or 32 (ECv2) bytes.
        let macKey: SecureBytes
    }

    static let info = Array("Google".utf8)

    static func failure() -> CSEError {
        CSEError(.walletDecryptionFailed, "Google Pay: the message could not be decrypted with any configured recipient key")
    }

    /// The symmetric half length for `version`: 16 bytes for ECv1, 32 for ECv2.
    static func halfByteCount(_ version: GooglePayProtocolVersion) -> Int { version == .ecV1 ? 16 : 32 }

    /// Derives the keys of `message` for `privateKey`.
    static func keys(
        _ message: GooglePayEncryptedMessage, privateKey: P256PrivateKey, version: GooglePayProtocolVersion
    ) throws(CSEError) -> Keys {
        do {
            let z = try privateKey.sharedSecret(withUncompressedPoint: message.ephemeralPublicKey)
            let inputKeyMaterial = SecureBytes(count: message.ephemeralPublicKey.count + z.count) { out in
                out.copyBytes(from: message.ephemeralPublicKey)
                z.withUnsafeBytes { UnsafeMutableRawBufferPointer(rebasing: out[message.ephemeralPublicKey.count...]).copyMemory(from: $0) }
            }
            let half = halfByteCount(version)
            let material = try KeyDerivation.hkdfSHA256(
                inputKeyMaterial: inputKeyMaterial, salt: [], info: info, outputByteCount: 2 * half)
            return Keys(encryptionKey: material.slice(0..<half), macKey: material.slice(half..<(2 * half)))
        } catch {
            throw failure()
        }
    }

    /// Tries each private key in order and returns the plaintext under the first whose HMAC tag
    /// matches.
    static func decrypt(
        _ message: GooglePayEncryptedMessage, privateKeys: [P256PrivateKey], version: GooglePayProtocolVersion
    ) throws(CSEError) -> SecureBytes {
        guard message.tag.count == HMAC.Algorithm.sha256.digestByteCount else { throw failure() }
        for privateKey in privateKeys {
            guard let keys = try? self.keys(message, privateKey: privateKey, version: version) else { continue }
            let matches: Bool
            do {
                matches = try HMAC.isValidAuthenticationCode(
                    message.tag.span.bytes, algorithm: .sha256, key: keys.macKey, message: message.encryptedMessage.span.bytes)
            } catch { throw failure() }
            guard matches else { continue }
            let zeroCounter = [UInt8](repeating: 0, count: AES.CTR.counterBlockByteCount)
            do {
                return try AES.CTR.apply(
                    to: message.encryptedMessage.span.bytes, key: keys.encryptionKey, initialCounterBlock: zeroCounter.span.bytes)
            } catch { throw failure() }
        }
        throw failure()
    }
}
