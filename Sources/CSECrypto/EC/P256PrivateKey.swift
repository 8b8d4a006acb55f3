package import CSECore
internal import COpenSSL
internal import CCSEShims

/// A private key on NIST P-256 (secp256r1), held by OpenSSL: a merchant's Apple Pay Payment
/// Processing key or Google Pay recipient key, for ECDH (NIST SP 800-56A §5.7.1.2).
///
/// The value is immutable and `Sendable`; it never shows key material.
package struct P256PrivateKey: Sendable, CustomStringConvertible {
    let key: EVPKey

    /// The matching public key.
    package let publicKey: P256PublicKey

    /// The DER of the named-curve OID prime256v1 (1.2.840.10045.3.1.7, RFC 5480 §2.1.1.1), the
    /// whole content of an `EC PARAMETERS` block written by `openssl ecparam -genkey`.
    static let namedCurveOID: [UInt8] = [0x06, 0x08, 0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x03, 0x01, 0x07]

    /// Imports a PEM private key as OpenSSL and the platforms' consoles write it: a PKCS#8
    /// `PRIVATE KEY` block (RFC 5208, RFC 7468 §10) or a SEC 1 `EC PRIVATE KEY` block (RFC 5915),
    /// optionally preceded by an `EC PARAMETERS` block naming P-256. Encrypted keys are refused.
    /// - Throws: `pem.malformed`, `pem.unexpectedLabel`, `key.unsupportedType` for another
    ///   algorithm or curve, `key.malformed` for a key OpenSSL refuses.
    package init(pem: String) throws(CSEError) {
        var text = Array(pem.utf8)
        defer { secureZero(&text) }
        let keyText = try Self.droppingParametersBlock(text)
        var document = try PEMDocument(parsing: keyText)
        defer { document.wipe() }
        let isPKCS8 = document.label.isByteEqual(to: "PRIVATE KEY")
        guard isPKCS8 || document.label.isByteEqual(to: "EC PRIVATE KEY") else {
            throw CSEError(
                .pemUnexpectedLabel, "expected a PRIVATE KEY or EC PRIVATE KEY block",
                context: ["label": SecretMasking.echoName(document.label)])
        }
        // The label must agree with the structure: PKCS#8 has an AlgorithmIdentifier SEQUENCE after
        // the version, SEC 1 the private key OCTET STRING.
        var probe = DERReader(document.derBytes)
        var outer = try probe.readConstructed()
        _ = try outer.readAny()
        guard (outer.peekTag == DERTag.sequence) == isPKCS8 else {
            throw CSEError(
                .derMalformed, "the PEM label does not match the key structure",
                context: ["label": SecretMasking.echoName(document.label)])
        }
        try self.init(der: document.derBytes)
    }

    /// Creates the key d from its 32-byte big-endian scalar (SEC 1 §2.3.6); OpenSSL computes the
    /// public point. For known-answer tests (Wycheproof gives private keys as integers).
    /// - Throws: `key.malformed` for a scalar of another length, zero, or ≥ n.
    package init(rawScalar scalar: some Collection<UInt8>) throws(CSEError) {
        guard scalar.count == 32 else { throw ECKeyError.malformed("the private scalar") }
        // ECPrivateKey (RFC 5915 §3): SEQUENCE { INTEGER 1, OCTET STRING d, [0] prime256v1 }, 51
        // bytes written in place so the scalar is copied once and zeroed after.
        var der: [UInt8] = []
        der.reserveCapacity(51)
        defer { secureZero(&der) }
        der += [0x30, 0x31, 0x02, 0x01, 0x01, 0x04, 0x20]
        der.append(contentsOf: scalar)
        der += [0xA0, 0x0A]
        der += Self.namedCurveOID
        try self.init(der: der)
    }

    private init(der: [UInt8]) throws(CSEError) {
        let made = der.withUnsafeBytes { buffer -> OpaquePointer? in
            var consumed = 0
            let raw = CCSEShims_d2i_PrivateKey(CCSEShims_EVP_PKEY_EC(), buffer.baseAddress, buffer.count, &consumed)
            guard let raw else { return nil }
            guard consumed == buffer.count else {
                EVP_PKEY_free(OpaquePointer(raw))
                return nil
            }
            return OpaquePointer(raw)
        }
        guard let made else { throw ECKeyError.malformed("the private key") }
        let key = EVPKey(taking: made)
        guard EVP_PKEY_is_a(key.pointer, "EC") == 1, Self.groupName(of: key) == "prime256v1" else {
            throw ECKeyError.notP256("the private key")
        }
        self.key = key
        // The public point, through its SPKI (OpenSSL computed it when the file had none).
        let length = i2d_PUBKEY(key.pointer, nil)
        guard length > 0 else { throw ECKeyError.malformed("the private key") }
        var spki = [UInt8](repeating: 0, count: Int(length))
        spki.withUnsafeMutableBufferPointer { buffer in
            var cursor = buffer.baseAddress
            _ = i2d_PUBKEY(key.pointer, &cursor)
        }
        self.publicKey = try P256PublicKey(subjectPublicKeyInfo: spki)
    }

    private static func groupName(of key: EVPKey) -> String? {
        var name = [CChar](repeating: 0, count: 64)
        var length = 0
        guard EVP_PKEY_get_group_name(key.pointer, &name, name.count, &length) == 1 else { return nil }
        return String(decoding: name.prefix(length).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Returns the key block of `text`, after an `EC PARAMETERS` block when one comes first; that
    /// block must name P-256.
    private static func droppingParametersBlock(_ text: [UInt8]) throws(CSEError) -> ArraySlice<UInt8> {
        let begin = Array("-----BEGIN EC PARAMETERS-----".utf8)
        let end = Array("-----END EC PARAMETERS-----".utf8)
        var start = text.startIndex
        while start < text.endIndex, [0x20, 0x09, 0x0A, 0x0D].contains(text[start]) { start += 1 }
        guard text[start...].starts(with: begin) else { return text[...] }
        guard let endIndex = text.firstRange(of: end)?.upperBound else {
            throw CSEError(.pemMalformed, "not a strict PEM block: the EC PARAMETERS block has no END line")
        }
        let parameters = try PEMDocument(parsing: text[start..<endIndex])
        guard parameters.label == "EC PARAMETERS" else {
            throw CSEError(.pemMalformed, "not a strict PEM block: bad EC PARAMETERS block")
        }
        guard parameters.derBytes == namedCurveOID else { throw ECKeyError.notP256("the EC PARAMETERS block") }
        return text[endIndex...]
    }

    /// The shared secret Z of ECDH (SEC 1 §3.3.1, NIST SP 800-56A §5.7.1.2): the x-coordinate of
    /// d·Q, always 32 bytes with its leading zeros (OpenSSL pads to the field size; no BIGNUM
    /// round trip drops them).
    ///
    /// `peer` was validated at import (``P256PublicKey``: an uncompressed point, so never the
    /// point at infinity, with coordinates below p and on the curve), and P-256's cofactor is 1,
    /// so every such point has order n. OpenSSL's peer check (`validate_peer` 1, which runs
    /// `EVP_PKEY_public_check` and its n·Q scalar multiplication) would find nothing more; it cost
    /// about 650,000 instructions, a quarter of an Apple Pay token's, so it is off.
    /// - Throws: `crypto.keyAgreementFailed` when OpenSSL cannot derive.
    package func sharedSecret(with peer: P256PublicKey) throws(CSEError) -> SecureBytes {
        // A derivation context of this key from its pool (set up once; each use sets its peer).
        guard let context = key.takeContext(for: .derive) else { throw Self.agreementFailed() }
        defer { key.returnContext(context, for: .derive) }
        var length = 32
        guard EVP_PKEY_derive_set_peer_ex(context, peer.key.pointer, 0) == 1,
            EVP_PKEY_derive(context, nil, &length) == 1, length == 32
        else { throw Self.agreementFailed() }
        return try SecureBytes(count: 32) { (out) throws(CSEError) in
            var written = 32
            guard EVP_PKEY_derive(context, out.baseAddress?.assumingMemoryBound(to: UInt8.self), &written) == 1,
                written == 32
            else { throw Self.agreementFailed() }
        }
    }

    private static func agreementFailed() -> CSEError {
        ERR_clear_error()
        return CSEError(.keyAgreementFailed, "the P-256 key agreement failed")
    }

    /// Never shows key material.
    package var description: String { "P256PrivateKey(<redacted>)" }
}
