public import CSECore
public import CSECrypto

/// The result of a successful decryption.
public struct JWEDecrypted: Sendable {
    /// The verified protected header.
    public let header: JWEHeader
    /// The plaintext, in a zeroing buffer.
    public let plaintext: SecureBytes
}

/// Decrypts JWE compact serializations with an RSA private key, for the service that receives
/// encrypted customer input (RFC 7516 §5.2).
///
/// Parsing is strict (five segments, strict base64url, a JSON-object header on the allow-lists,
/// IV and tag lengths fixed by `enc`, size limits). After parsing, every failure — a wrong key, a
/// bad OAEP encoding, a CEK of the wrong size, a wrong tag, bad padding — produces the single
/// error ``CSEError/Code/jweDecryptionFailed``. When the key cannot be unwrapped, decryption
/// continues with a random CEK so that the tag check fails in the same way and in similar time
/// (RFC 7516 §11.5). The tag is always verified, in constant time, before any decryption.
public struct JWEDecryptor: Sendable {
    /// The private key.
    package let privateKey: RSAPrivateKey
    /// When set, the JWE's `kid` must equal it.
    public let expectedKeyID: String?
    /// Size bounds.
    public let limits: JWELimits

    /// Creates a decryptor.
    /// - Parameters:
    ///   - privateKey: The RSA private key; at least 2048 bits.
    ///   - expectedKeyId: The `kid` the JWE must carry, or `nil` to accept any.
    ///   - limits: Size bounds.
    /// - Throws: ``CSEError/Code/jweKeyTooSmall`` for keys under 2048 bits.
    public init(privateKey: RSAPrivateKey, expectedKeyID: String? = nil, limits: JWELimits = .default) throws(CSEError) {
        guard privateKey.bitCount >= 2048 else {
            throw CSEError(.jweKeyTooSmall, "RSA keys under 2048 bits are refused", context: ["bits": String(privateKey.bitCount)])
        }
        self.privateKey = privateKey
        self.expectedKeyID = expectedKeyID
        self.limits = limits
    }

    /// Decrypts a compact JWE.
    /// - Throws: ``CSEError/Code/jweTooLarge``, ``CSEError/Code/jweMalformed``,
    ///   ``CSEError/Code/jweUnsupportedAlgorithm``, ``CSEError/Code/jweUnsupportedEncryption``,
    ///   ``CSEError/Code/jweUnsupportedHeader``, ``CSEError/Code/jweKeyIDMismatch`` or
    ///   ``CSEError/Code/jweDecryptionFailed``.
    public func decrypt(_ compact: String) throws(CSEError) -> JWEDecrypted {
        try withContiguousBytes(of: compact.utf8) { (utf8) throws(CSEError) in try decrypt(utf8) }
    }

    /// Decrypts a compact JWE given as ASCII bytes (see ``decrypt(_:)-(String)``).
    package func decrypt(_ compact: UnsafeRawBufferPointer) throws(CSEError) -> JWEDecrypted {
        let parts = try JWECompactParts(compact, limits: limits)
        let header = try JWEHeader(json: parts.header)
        if let expectedKeyID, !header.keyID.isByteEqual(to: expectedKeyID) {
            throw CSEError(.jweKeyIDMismatch, "the JWE kid does not name this key")
        }
        let enc = header.encryption.algorithm
        guard parts.iv.count == enc.ivByteCount else {
            throw CSEError(.jweMalformed, "IV length does not match enc", context: ["expected": String(enc.ivByteCount)])
        }
        guard parts.tag.count == enc.tagByteCount else {
            throw CSEError(.jweMalformed, "tag length does not match enc", context: ["expected": String(enc.tagByteCount)])
        }
        // RFC 7516 §11.5: on any unwrap failure, carry on with a random CEK so the failure is
        // indistinguishable from a tag failure. The unwrap draws that CEK every time and picks
        // between it and the decrypted key without branching (issue #13 F08).
        let cek = try privateKey.unwrapContentKeyOAEP(
            parts.encryptedKey, hash: header.algorithm.oaepHash,
            keyByteCount: enc.keyByteCount)
        do throws(CSEError) {
            let plaintext = try enc.open(
                ciphertext: parts.ciphertext, key: cek, iv: parts.iv, aad: parts.encodedHeader, tag: parts.tag)
            return JWEDecrypted(header: header, plaintext: plaintext)
        } catch {
            throw CSEError(.jweDecryptionFailed, "JWE decryption failed")
        }
    }
}

/// The five segments of a compact JWE (RFC 7516 §7.1), decoded strictly.
struct JWECompactParts {
    let encodedHeader: [UInt8]
    let header: [UInt8]
    let encryptedKey: [UInt8]
    let iv: [UInt8]
    let ciphertext: [UInt8]
    let tag: [UInt8]

    init(_ compact: UnsafeRawBufferPointer, limits: JWELimits) throws(CSEError) {
        guard compact.count <= limits.maxCompactBytes else {
            throw CSEError(.jweTooLarge, "JWE exceeds the size limit", context: ["limit": String(limits.maxCompactBytes)])
        }
        var dots: [Int] = []
        for (i, byte) in compact.enumerated() where byte == UInt8(ascii: ".") {
            dots.append(i)
            if dots.count > 4 { break }
        }
        guard dots.count == 4 else {
            throw CSEError(
                .jweMalformed, "a compact JWE has exactly five segments",
                context: ["segments": dots.count > 4 ? ">5" : String(dots.count + 1)])
        }
        let bounds = [(0, dots[0]), (dots[0] + 1, dots[1]), (dots[1] + 1, dots[2]), (dots[2] + 1, dots[3]), (dots[3] + 1, compact.count)]
        var decoded: [[UInt8]] = []
        for (index, (start, end)) in bounds.enumerated() {
            do throws(CSEError) {
                decoded.append(
                    try Base64.decode(UnsafeRawBufferPointer(rebasing: compact[start..<end]), alphabet: .url, padding: .forbidden))
            } catch {
                throw CSEError(
                    .jweMalformed, "segment is not strict base64url", context: ["segment": String(index + 1)],
                    underlying: error)
            }
        }
        guard !decoded[0].isEmpty else { throw CSEError(.jweMalformed, "empty protected header") }
        guard !decoded[1].isEmpty else { throw CSEError(.jweMalformed, "empty encrypted key (dir is not supported)") }
        self.encodedHeader = Array(UnsafeRawBufferPointer(rebasing: compact[0..<dots[0]]))
        self.header = decoded[0]
        self.encryptedKey = decoded[1]
        self.iv = decoded[2]
        self.ciphertext = decoded[3]
        self.tag = decoded[4]
    }
}
