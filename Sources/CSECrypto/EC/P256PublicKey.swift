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

    private static func decode(spki: [UInt8]) throws(CSEError) -> EVPKey {
        let point = Array(spki[spkiPrefix.count...])
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
    package func isValidECDSASignature(
        _ derSignature: some Collection<UInt8>, forSHA256Of message: some Collection<UInt8>
    ) -> Bool {
        let signature = Array(derSignature)
        let bytes = Array(message)
        guard let context = EVP_MD_CTX_new() else { return false }
        defer {
            EVP_MD_CTX_free(context)
            ERR_clear_error()
        }
        guard EVP_DigestVerifyInit_ex(context, nil, StaticCString.sha256, nil, nil, key.pointer, nil) == 1 else {
            return false
        }
        return signature.withUnsafeBufferPointer { sig in
            bytes.withUnsafeBufferPointer { msg in
                EVP_DigestVerify(context, sig.baseAddress, sig.count, msg.baseAddress, msg.count) == 1
            }
        }
    }
}
