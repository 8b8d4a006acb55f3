public import CSECore
internal import COpenSSL
internal import CCSEShims

/// An RSA private key (RFC 8017 §3.2), held by OpenSSL, for RSAES-OAEP decryption and for
/// generating test key pairs.
///
/// Importing checks the key's structure, applies the same policy as ``RSAPublicKey`` (unless an
/// `unsafe…` initializer is used) and checks that the components belong together (n = p·q,
/// e·d ≡ 1, the CRT values), so a corrupted key is refused at import rather than misbehaving later.
/// The value is immutable and `Sendable`. Its ``description`` never shows key material.
public struct RSAPrivateKey: Sendable, CustomStringConvertible, CustomReflectable {
    let key: EVPKey

    /// The matching public key.
    public let publicKey: RSAPublicKey

    private init(key: EVPKey, publicKey: RSAPublicKey) {
        self.key = key
        self.publicKey = publicKey
    }

    /// Validates `components` and hands them to OpenSSL.
    init(components: RSAKeyStructures.PrivateComponents, enforcingPolicy: Bool) throws(CSEError) {
        let publicKey = try RSAPublicKey(components: components.publicComponents, enforcingPolicy: enforcingPolicy)
        for (name, value) in [
            ("d", components.privateExponent), ("p", components.prime1), ("q", components.prime2),
            ("dp", components.exponent1), ("dq", components.exponent2), ("qi", components.coefficient),
        ]
        where value.isEmpty {
            throw CSEError(.keyMalformed, "a private RSA component is zero", context: ["component": name])
        }
        try RSAKeyConsistency.check(components)
        let der = RSAKeyStructures.writePKCS1PrivateKey(components)
        let made = der.withUnsafeBytes { buffer -> OpaquePointer? in
            var consumed = 0
            let raw = CCSEShims_d2i_PrivateKey(CCSEShims_EVP_PKEY_RSA(), buffer.baseAddress, buffer.count, &consumed)
            guard let raw else { return nil }
            guard consumed == buffer.count else {
                EVP_PKEY_free(OpaquePointer(raw))
                return nil
            }
            return OpaquePointer(raw)
        }
        guard let made else {
            ERR_clear_error()
            throw CSEError(.keyMalformed, "OpenSSL refused the RSA private key")
        }
        let key = EVPKey(taking: made)
        self.init(key: key, publicKey: publicKey)
    }

    // MARK: Importing

    /// Imports a DER PKCS#8 `PrivateKeyInfo` (RFC 5208 §5; also RFC 5958 version 1) with
    /// rsaEncryption, or a DER PKCS#1 `RSAPrivateKey` (RFC 8017 §A.1.2), told apart by the element
    /// after the version. DER is read strictly; multi-prime keys are refused.
    /// - Throws: a `der.*` code for malformed DER, `key.unsupportedType`, `key.malformed`, or the
    ///   policy errors of ``RSAPublicKey/init(modulus:exponent:)``.
    public init(derRepresentation der: some Collection<UInt8>) throws(CSEError) {
        try self.init(der: der, enforcingPolicy: true)
    }

    /// ``init(derRepresentation:)`` without the size and exponent policy (moduli from 512 bits).
    /// - Warning: For known-answer tests with historical keys only.
    package init(unsafeDERRepresentation der: some Collection<UInt8>) throws(CSEError) {
        try self.init(der: der, enforcingPolicy: false)
    }

    private init(der: some Collection<UInt8>, enforcingPolicy: Bool) throws(CSEError) {
        var bytes = Array(der)
        defer { secureZero(&bytes) }
        try self.init(components: RSAKeyStructures.readPrivateKey(bytes[...]), enforcingPolicy: enforcingPolicy)
    }

    /// Imports a PEM `PRIVATE KEY` (PKCS#8, RFC 7468 §10) or `RSA PRIVATE KEY` (PKCS#1) block.
    /// Encrypted PEM (`ENCRYPTED PRIVATE KEY`, or RFC 1421 headers) is refused.
    /// - Throws: `pem.malformed`, `pem.unexpectedLabel`, then the errors of ``init(derRepresentation:)``.
    public init(pemRepresentation pem: some StringProtocol) throws(CSEError) {
        var document = try PEMDocument(parsing: Array(pem.utf8))
        defer { document.wipe() }
        guard document.label.isByteEqual(to: "PRIVATE KEY") || document.label.isByteEqual(to: "RSA PRIVATE KEY") else {
            throw CSEError(
                .pemUnexpectedLabel, "expected a PRIVATE KEY or RSA PRIVATE KEY block",
                context: ["label": SecretMasking.echoName(document.label)])
        }
        let components = try RSAKeyStructures.readPrivateKey(document.derBytes[...])
        // The label must agree with the structure found.
        var probe = DERReader(document.derBytes)
        var outer = try probe.readConstructed()
        _ = try outer.readAny()
        let isPKCS8 = outer.peekTag == DERTag.sequence
        guard isPKCS8 == document.label.isByteEqual(to: "PRIVATE KEY") else {
            throw CSEError(
                .derMalformed, "the PEM label does not match the key structure",
                context: ["label": SecretMasking.echoName(document.label)])
        }
        try self.init(components: components, enforcingPolicy: true)
    }

    /// Imports a private JSON Web Key with `"kty":"RSA"` (RFC 7518 §6.3.2): `n`, `e`, `d`, `p`,
    /// `q`, `dp`, `dq` and `qi`, all base64url.
    /// - Throws: `jwk.malformed`, `key.unsupportedType` (another `kty`, or `oth`), `key.malformed`,
    ///   or the policy errors.
    public init(jwkRepresentation json: some Collection<UInt8>) throws(CSEError) {
        try self.init(jwk: RSAJWK.parse(json))
    }

    /// Imports a parsed private JSON Web Key (see ``init(jwkRepresentation:)``).
    package init(jwk: JSONValue) throws(CSEError) {
        var members = try RSAJWK.privateMembers(jwk)
        defer { members.wipe() }
        try self.init(components: members.components, enforcingPolicy: true)
    }

    /// Creates a key from its eight PKCS#1 integers (RFC 8017 §3.2), big-endian unsigned bytes,
    /// without the size and exponent policy.
    /// - Warning: For known-answer tests with historical keys only.
    /// - Throws: `key.malformed` when OpenSSL refuses the components or they are inconsistent.
    package init(
        unsafeModulus modulus: [UInt8], publicExponent: [UInt8], privateExponent: [UInt8],
        prime1: [UInt8], prime2: [UInt8], exponent1: [UInt8], exponent2: [UInt8],
        coefficient: [UInt8]
    ) throws(CSEError) {
        func trimmed(_ bytes: [UInt8]) -> ArraySlice<UInt8> { bytes.drop { $0 == 0 } }
        try self.init(
            components: .init(
                modulus: trimmed(modulus), publicExponent: trimmed(publicExponent),
                privateExponent: trimmed(privateExponent), prime1: trimmed(prime1), prime2: trimmed(prime2),
                exponent1: trimmed(exponent1), exponent2: trimmed(exponent2), coefficient: trimmed(coefficient)),
            enforcingPolicy: false)
    }

    // MARK: Generating

    /// Generates a new key pair with e = 65537 from OpenSSL's CSPRNG (for `cse keygen` and tests).
    /// - Parameter bits: The modulus size, from 2048 to 16384.
    /// - Throws: `key.tooSmall` / `key.tooLarge` for a size outside the policy,
    ///   `key.operationFailed` if OpenSSL fails.
    public static func generate(bits: Int = 2048) throws(CSEError) -> RSAPrivateKey {
        guard bits >= RSAKeyPolicy.minimumBits else {
            throw CSEError(.keyTooSmall, "RSA keys must have at least \(RSAKeyPolicy.minimumBits) bits", context: ["bits": "\(bits)"])
        }
        guard bits <= RSAKeyPolicy.maximumBits else {
            throw CSEError(.keyTooLarge, "RSA keys must have at most \(RSAKeyPolicy.maximumBits) bits", context: ["bits": "\(bits)"])
        }
        guard let ctx = EVP_PKEY_CTX_new_from_name(nil, StaticCString.rsa, nil) else {
            throw generationFailure()
        }
        defer { EVP_PKEY_CTX_free(ctx) }
        var made: OpaquePointer?
        guard EVP_PKEY_keygen_init(ctx) == 1,
            EVP_PKEY_CTX_set_rsa_keygen_bits(ctx, Int32(bits)) == 1,
            EVP_PKEY_generate(ctx, &made) == 1,
            let made
        else { throw generationFailure() }
        let key = EVPKey(taking: made)
        let publicKey = try RSAPublicKey(
            components: .init(
                modulus: try bigNumberParameter(key, "n")[...],
                exponent: try bigNumberParameter(key, "e")[...]),
            enforcingPolicy: true)
        return RSAPrivateKey(key: key, publicKey: publicKey)
    }

    private static func generationFailure() -> CSEError {
        ERR_clear_error()
        return CSEError(.keyOperationFailed, "OpenSSL could not generate an RSA key")
    }

    /// A public `BIGNUM` parameter of `key` as big-endian bytes.
    private static func bigNumberParameter(_ key: EVPKey, _ name: String) throws(CSEError) -> [UInt8] {
        var number: OpaquePointer?
        guard EVP_PKEY_get_bn_param(key.pointer, name, &number) == 1, let number else {
            throw generationFailure()
        }
        defer { BN_free(number) }
        let count = (Int(BN_num_bits(number)) + 7) / 8
        var bytes = [UInt8](repeating: 0, count: count)
        _ = bytes.withUnsafeMutableBufferPointer { BN_bn2bin(number, $0.baseAddress) }
        return bytes
    }

    // MARK: Properties and export

    /// The exact bit length of the modulus.
    public var bitCount: Int { publicKey.bitCount }

    /// DER PKCS#8 `PrivateKeyInfo` (RFC 5208 §5), in a zeroing buffer.
    /// - Throws: `key.operationFailed` if OpenSSL cannot encode the key.
    public var derRepresentation: SecureBytes {
        get throws(CSEError) {
            try withPKCS8 { SecureBytes($0) }
        }
    }

    /// PEM `PRIVATE KEY` (PKCS#8, RFC 7468 §10).
    ///
    /// - Note: A Swift `String` cannot be zeroed; write it out and drop it promptly.
    /// - Throws: `key.operationFailed` if OpenSSL cannot encode the key.
    public var pemRepresentation: String {
        get throws(CSEError) {
            try withPKCS8 { PEMDocument.encode(label: "PRIVATE KEY", der: $0) }
        }
    }

    /// Calls `body` with the PKCS#8 DER in an OpenSSL buffer that is zeroed and freed afterwards.
    private func withPKCS8<R>(_ body: (UnsafeRawBufferPointer) -> R) throws(CSEError) -> R {
        guard
            let encoder = OSSL_ENCODER_CTX_new_for_pkey(
                key.pointer, CCSEShims_EVP_PKEY_KEYPAIR(), StaticCString.der, StaticCString.privateKeyInfo, nil)
        else {
            ERR_clear_error()
            throw CSEError(.keyOperationFailed, "OpenSSL has no PKCS#8 encoder for this key")
        }
        defer { OSSL_ENCODER_CTX_free(encoder) }
        var data: UnsafeMutablePointer<UInt8>?
        var length = 0
        guard OSSL_ENCODER_to_data(encoder, &data, &length) == 1, let data else {
            ERR_clear_error()
            throw CSEError(.keyOperationFailed, "OpenSSL could not encode the private key")
        }
        defer { CCSEShims_OPENSSL_clear_free(data, length) }
        return body(UnsafeRawBufferPointer(start: data, count: length))
    }

    /// `RSAPrivateKey(2048 bits)`: the size only, never the key.
    public var description: String { "RSAPrivateKey(\(bitCount) bits)" }

    /// A mirror with no children, so `dump` and debuggers show no key material either.
    public var customMirror: Mirror { Mirror(self, children: [], displayStyle: .struct) }
}
