package import CSECore
internal import COpenSSL
internal import CCSEShims

/// A public key on NIST P-256 (secp256r1, FIPS 186-5 / SEC 2 §2.4.2), held by OpenSSL: the peer of
/// an ECDH key agreement (Apple Pay's and Google Pay's ephemeral keys) and the key that checks an
/// ECDSA signature (Google Pay's signing keys).
///
/// Both initializers accept exactly one encoding, the uncompressed point with the named-curve OID,
/// and OpenSSL refuses a point that is not on the curve or has a coordinate ≥ p; so other curves,
/// explicit curve parameters, compressed points and invalid-curve points are all refused at import
/// (Wycheproof `ecdh_secp256r1`, `ecdh_secp256r1_ecpoint`).
package struct P256PublicKey: Sendable {
    let key: EVPKey

    /// The DER `SubjectPublicKeyInfo` (RFC 5480 §2) of every P-256 key with an uncompressed point,
    /// up to the point: SEQUENCE { SEQUENCE { id-ecPublicKey, prime256v1 }, BIT STRING 00 04 … }.
    /// DER is canonical, so a valid encoding is exactly these 26 bytes followed by the 65-byte point.
    static let spkiPrefix: [UInt8] = [
        0x30, 0x59, 0x30, 0x13, 0x06, 0x07, 0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x02, 0x01, 0x06, 0x08, 0x2A,
        0x86, 0x48, 0xCE, 0x3D, 0x03, 0x01, 0x07, 0x03, 0x42, 0x00,
    ]
    /// The length of an uncompressed point (SEC 1 §2.3.3): 04 ‖ X ‖ Y.
    package static let uncompressedPointByteCount = 65

    /// Imports a DER `SubjectPublicKeyInfo` (RFC 5480) of a P-256 key with an uncompressed point,
    /// as Apple Pay's `header.ephemeralPublicKey` carries it.
    /// - Throws: `key.unsupportedType` for another algorithm or curve, or explicit parameters;
    ///   `key.malformed` for another encoding of the point or a point not on the curve.
    package init(subjectPublicKeyInfo der: some Collection<UInt8>) throws(CSEError) {
        let bytes = Array(der)
        let prefix = Self.spkiPrefix
        // The AlgorithmIdentifier names P-256 exactly as DER writes it: otherwise another curve,
        // another algorithm, or explicit parameters.
        let algorithm = prefix[2..<23]
        guard bytes.count >= 23, bytes[2..<23].elementsEqual(algorithm) else {
            throw ECKeyError.notP256("the SubjectPublicKeyInfo")
        }
        guard bytes.count == prefix.count + Self.uncompressedPointByteCount, bytes.starts(with: prefix),
            bytes[prefix.count] == 0x04
        else { throw ECKeyError.malformed("the SubjectPublicKeyInfo") }
        self.key = try Self.decode(spki: bytes)
    }

    /// Imports an uncompressed point 04 ‖ X ‖ Y (SEC 1 §2.3.3, X9.62), 65 bytes, as Google Pay's
    /// `ephemeralPublicKey` carries it.
    /// - Throws: `key.malformed` for another length or form, or a point not on the curve.
    package init(x962Uncompressed point: some Collection<UInt8>) throws(CSEError) {
        guard point.count == Self.uncompressedPointByteCount, point.first == 0x04 else {
            throw ECKeyError.malformed("the point")
        }
        self.key = try Self.decode(spki: Self.spkiPrefix + Array(point))
    }

    init(key: EVPKey) { self.key = key }

    /// Hands the uncompressed point of a canonical SPKI to OpenSSL (`EVP_PKEY_fromdata` with the
    /// named group), which checks that the point is on the curve. Decoding the SPKI with
    /// `d2i_PUBKEY` gives the same key but runs OpenSSL 3.0's generic decoder chain: 114 µs against
    /// 17 µs per key on the CI machine, and a wallet token carries one or two such keys.
    /// `EVP_PKEY_PUBLIC_KEY` (a macro Swift does not import): OSSL_KEYMGMT_SELECT_PUBLIC_KEY |
    /// OSSL_KEYMGMT_SELECT_ALL_PARAMETERS = 0x02 | 0x84.
    private static let publicKeySelection: Int32 = 0x86

    /// The key of a canonical SPKI's point: a copy of ``template`` holding it, or when OpenSSL
    /// refuses the copy, ``fromData(point:)``, whose refusal is the error. Either way OpenSSL's
    /// `EC_POINT_oct2point` checks that the point is on the curve.
    private static func decode(spki: [UInt8]) throws(CSEError) -> EVPKey {
        let point = Array(spki[spkiPrefix.count...])
        if let template, let copy = copy(of: template, withPoint: point) { return copy }
        return try fromData(point: point)
    }

    /// The base point G of P-256 (SEC 2 §2.4.2), uncompressed: the public point of ``template``.
    private static let basePoint: [UInt8] = [
        0x04, 0x6B, 0x17, 0xD1, 0xF2, 0xE1, 0x2C, 0x42, 0x47, 0xF8, 0xBC, 0xE6, 0xE5, 0x63, 0xA4, 0x40, 0xF2, 0x77, 0x03,
        0x7D, 0x81, 0x2D, 0xEB, 0x33, 0xA0, 0xF4, 0xA1, 0x39, 0x45, 0xD8, 0x98, 0xC2, 0x96, 0x4F, 0xE3, 0x42, 0xE2, 0xFE,
        0x1A, 0x7F, 0x9B, 0x8E, 0xE7, 0xEB, 0x4A, 0x7C, 0x0F, 0x9E, 0x16, 0x2B, 0xCE, 0x33, 0x57, 0x6B, 0x31, 0x5E, 0xCE,
        0xCB, 0xB6, 0x40, 0x68, 0x37, 0xBF, 0x51, 0xF5,
    ]

    /// A P-256 key made once per process, never modified, that every later import copies
    /// (issue #37). `EVP_PKEY_fromdata` builds the curve's group from its name for every key
    /// (≈ 170,000 of its ≈ 210,000 instructions: the Montgomery context and an inverse);
    /// `EVP_PKEY_dup` copies the template's group instead, and `EVP_PKEY_set1_encoded_public_key`
    /// then reads the point with the same `EC_POINT_oct2point` that `EVP_PKEY_fromdata` uses, so
    /// the same points are accepted and refused (Wycheproof `ecdh_secp256r1_ecpoint`).
    private static let template: EVPKey? = try? fromData(point: basePoint)

    /// A copy of `template` holding `point`, or `nil` when OpenSSL refuses (then ``fromData(point:)``
    /// decides, and reports).
    private static func copy(of template: EVPKey, withPoint point: [UInt8]) -> EVPKey? {
        guard let copy = EVP_PKEY_dup(template.pointer) else {
            ERR_clear_error()
            return nil
        }
        guard point.withUnsafeBufferPointer({ EVP_PKEY_set1_encoded_public_key(copy, $0.baseAddress, $0.count) }) == 1 else {
            EVP_PKEY_free(copy)
            ERR_clear_error()
            return nil
        }
        return EVPKey(taking: copy)
    }

    /// `EVP_PKEY_fromdata` with the named group and the point.
    private static func fromData(point: [UInt8]) throws(CSEError) -> EVPKey {
        let made = point.withUnsafeBytes { buffer -> OpaquePointer? in
            guard let context = EVP_PKEY_CTX_new_from_name(nil, "EC", nil) else { return nil }
            defer { EVP_PKEY_CTX_free(context) }
            return "group".withCString { groupKey in
                "prime256v1".withCString { group in
                    "pub".withCString { publicKey in
                        var parameters = [
                            OSSL_PARAM_construct_utf8_string(groupKey, UnsafeMutablePointer(mutating: group), 0),
                            OSSL_PARAM_construct_octet_string(
                                publicKey, UnsafeMutableRawPointer(mutating: buffer.baseAddress), buffer.count),
                            OSSL_PARAM_construct_end(),
                        ]
                        var key: OpaquePointer?
                        guard EVP_PKEY_fromdata_init(context) == 1,
                            EVP_PKEY_fromdata(context, &key, Self.publicKeySelection, &parameters) == 1
                        else { return nil }
                        return key
                    }
                }
            }
        }
        guard let made else {
            ERR_clear_error()
            throw ECKeyError.malformed("the point")
        }
        return EVPKey(taking: made)
    }

    /// The uncompressed point 04 ‖ X ‖ Y.
    package var x962Uncompressed: [UInt8] {
        Array(subjectPublicKeyInfo.dropFirst(Self.spkiPrefix.count))
    }

    /// The DER `SubjectPublicKeyInfo` (RFC 5480 §2).
    package var subjectPublicKeyInfo: [UInt8] {
        let count = i2d_PUBKEY(key.pointer, nil)
        guard count == Int32(Self.spkiPrefix.count + Self.uncompressedPointByteCount) else { return [] }
        var out = [UInt8](repeating: 0, count: Int(count))
        out.withUnsafeMutableBufferPointer { buffer in
            var cursor = buffer.baseAddress
            _ = i2d_PUBKEY(key.pointer, &cursor)
        }
        return out
    }

    /// Whether `derSignature` is a valid ECDSA signature (FIPS 186-5 §6.4.2) with SHA-256 over
    /// `message` under this key. The signature is the DER `ECDSA-Sig-Value` (RFC 3279 §2.2.3);
    /// OpenSSL refuses BER variants and r or s out of range. Never throws: any failure is `false`.
    ///
    /// The SHA-256 is computed here (`LowLevelSHA256`) and OpenSSL verifies the digest
    /// (`EVP_PKEY_verify`), which is what `EVP_DigestVerify` does inside for ECDSA, without fetching
    /// the digest by name and setting up a digest context for every signature (issue #37).
    package func isValidECDSASignature(
        _ derSignature: some Collection<UInt8>, forSHA256Of message: some Collection<UInt8>
    ) -> Bool {
        let signature = Array(derSignature)
        let bytes = Array(message)
        var digest = [UInt8](repeating: 0, count: LowLevelSHA256.digestByteCount)
        var state = LowLevelSHA256.Context()
        let hashed = bytes.withUnsafeBytes { buffer in
            digest.withUnsafeMutableBufferPointer { out in
                LowLevelSHA256.initialize(&state) == 1 && LowLevelSHA256.update(&state, buffer.baseAddress, buffer.count) == 1
                    && LowLevelSHA256.finalize(&state, into: out.baseAddress!) == 1
            }
        }
        // A verification context of this key from its pool (a remembered signer's key verifies
        // every token), set up once.
        guard hashed, let context = key.takeContext(for: .verify) else { return false }
        defer {
            key.returnContext(context, for: .verify)
            ERR_clear_error()
        }
        return EVP_PKEY_verify(context, signature, signature.count, digest, digest.count) == 1
    }
}
