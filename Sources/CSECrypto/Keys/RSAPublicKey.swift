public import CSECore

/// An RSA public key (RFC 8017 §3.1), ready for RSAES-OAEP encryption with either engine.
///
/// Importing a key validates it once and precomputes the OpenSSL engine's state (`BIGNUM`s and a
/// `BN_MONT_CTX`), so every encryption reuses it. The state of the other engines (GMP `mpz_t`s, the
/// IFMA key schedule) is built the first time that engine encrypts with the key, once. The key is
/// immutable and `Sendable`: one value may encrypt from many threads at once.
///
/// The ordinary initializers enforce CSEKit's policy: a modulus of at least 2048 and at most 16384
/// bits, and an odd public exponent with 65537 ≤ e < 2^256. The `unsafe…` initializers accept
/// moduli from 512 bits and any odd exponent ≥ 3, for known-answer tests with historical keys.
public struct RSAPublicKey: Sendable, Hashable, CustomStringConvertible, CustomReflectable {
    final class Backing: Sendable {
        let modulus: [UInt8]
        let exponent: [UInt8]
        let bitCount: Int
        let openSSL: OpenSSLPublicOperation
        /// Built on first use of ``RSAEngine/gmp`` with this key.
        let gmp: LazyEngineState<GMPPublicOperation>
        /// Built on first use of ``RSAEngine/ifma``; `nil` when the CPU, the exponent or the size
        /// rules the IFMA kernel out.
        let ifma: LazyEngineState<IFMAPublicOperation?>

        init(modulus: [UInt8], exponent: [UInt8]) throws(CSEError) {
            self.modulus = modulus
            self.exponent = exponent
            self.bitCount = RSAKeyPolicy.bitCount(modulus[...])
            self.openSSL = try OpenSSLPublicOperation(modulus: modulus, exponent: exponent)
            self.gmp = LazyEngineState { GMPPublicOperation(modulus: modulus, exponent: exponent) }
            self.ifma = LazyEngineState { IFMAPublicOperation(modulus: modulus, exponent: exponent) }
        }
    }

    let backing: Backing

    /// The smallest modulus, in bits, the policy-checked initializers accept.
    public static let minimumBitCount = RSAKeyPolicy.minimumBits
    /// The largest modulus, in bits, any initializer accepts.
    public static let maximumBitCount = RSAKeyPolicy.maximumBits

    /// Validates `components` and builds the OpenSSL engine's state (the others build theirs lazily).
    init(components: RSAKeyStructures.PublicComponents, enforcingPolicy: Bool) throws(CSEError) {
        try RSAKeyPolicy.check(modulus: components.modulus, exponent: components.exponent, enforcingPolicy: enforcingPolicy)
        backing = try Backing(modulus: Array(components.modulus), exponent: Array(components.exponent))
    }

    // MARK: Importing

    /// Creates a key from its modulus n and public exponent e, as big-endian unsigned bytes
    /// (leading zero bytes are ignored).
    /// - Throws: `key.malformed` (zero or even modulus), `key.tooSmall`, `key.tooLarge`,
    ///   `key.badExponent`.
    public init(modulus: some Collection<UInt8>, exponent: some Collection<UInt8>) throws(CSEError) {
        try self.init(
            components: .init(modulus: Array(modulus).drop { $0 == 0 }, exponent: Array(exponent).drop { $0 == 0 }),
            enforcingPolicy: true)
    }

    /// Creates a key from n and e without the size and exponent policy: moduli from 512 bits and
    /// odd exponents ≥ 3 are accepted.
    /// - Warning: For known-answer tests with historical keys only. Keys below 2048 bits or with
    ///   tiny exponents are not safe to encrypt to.
    /// - Throws: `key.malformed`, `key.tooSmall` (below 512 bits), `key.tooLarge`, `key.badExponent`.
    package init(unsafeModulus modulus: some Collection<UInt8>, exponent: some Collection<UInt8>) throws(CSEError) {
        try self.init(
            components: .init(modulus: Array(modulus).drop { $0 == 0 }, exponent: Array(exponent).drop { $0 == 0 }),
            enforcingPolicy: false)
    }

    /// Imports a DER `SubjectPublicKeyInfo` (RFC 5280 §4.1.2.7, rsaEncryption with NULL parameters)
    /// or a DER PKCS#1 `RSAPublicKey` (RFC 8017 §A.1.1), told apart by the first inner tag.
    ///
    /// DER is read strictly: definite minimal lengths, minimal INTEGERs, no trailing bytes.
    /// - Throws: a `der.*` code for malformed DER, `key.unsupportedType` for another algorithm,
    ///   or the policy errors of ``init(modulus:exponent:)``.
    public init(derRepresentation der: some Collection<UInt8>) throws(CSEError) {
        try self.init(components: RSAKeyStructures.readPublicKey(Array(der)[...]), enforcingPolicy: true)
    }

    /// Imports a DER `SubjectPublicKeyInfo` only (RFC 5280 §4.1.2.7), under the policy, for
    /// formats that carry exactly that structure (the Client API public-key response).
    /// - Throws: a `der.*` code, `key.unsupportedType`, or the policy errors.
    package init(subjectPublicKeyInfo der: some Collection<UInt8>) throws(CSEError) {
        try self.init(components: RSAKeyStructures.readSubjectPublicKeyInfo(Array(der)[...]), enforcingPolicy: true)
    }

    /// ``init(derRepresentation:)`` without the size and exponent policy.
    /// - Warning: For known-answer tests only (see ``init(unsafeModulus:exponent:)``).
    package init(unsafeDERRepresentation der: some Collection<UInt8>) throws(CSEError) {
        try self.init(components: RSAKeyStructures.readPublicKey(Array(der)[...]), enforcingPolicy: false)
    }

    /// Imports a PEM `PUBLIC KEY` (SubjectPublicKeyInfo, RFC 7468 §13) or `RSA PUBLIC KEY`
    /// (PKCS#1) block. Only whitespace may surround the block.
    /// - Throws: `pem.malformed`, `pem.unexpectedLabel` for any other label, then the errors of
    ///   ``init(derRepresentation:)``.
    public init(pemRepresentation pem: some StringProtocol) throws(CSEError) {
        let document = try PEMDocument(parsing: Array(pem.utf8))
        let components: RSAKeyStructures.PublicComponents
        switch document.label {
        case "PUBLIC KEY":
            components = try RSAKeyStructures.readSubjectPublicKeyInfo(document.derBytes[...])
        case "RSA PUBLIC KEY":
            var top = DERReader(document.derBytes)
            guard top.peekTag == DERTag.sequence else {
                throw CSEError(.derMalformed, "an RSA PUBLIC KEY block must hold an RSAPublicKey SEQUENCE")
            }
            var probe = try top.readConstructed()
            guard probe.peekTag == DERTag.integer else {
                throw CSEError(.derMalformed, "an RSA PUBLIC KEY block must hold an RSAPublicKey, not a SubjectPublicKeyInfo")
            }
            _ = try probe.readAny()
            components = try RSAKeyStructures.readPublicKey(document.derBytes[...])
        default:
            throw CSEError(
                .pemUnexpectedLabel, "expected a PUBLIC KEY or RSA PUBLIC KEY block",
                context: ["label": SecretMasking.echoName(document.label)])
        }
        try self.init(components: components, enforcingPolicy: true)
    }

    /// Imports a JSON Web Key with `"kty":"RSA"` (RFC 7517, RFC 7518 §6.3.1): the base64url
    /// members `n` and `e`. Private members, if present, are ignored.
    /// - Throws: `jwk.malformed` (bad JSON, a missing or non-string member, bad base64url, a
    ///   non-minimal integer), `key.unsupportedType` for another `kty` or a multi-prime key, then
    ///   the policy errors of ``init(modulus:exponent:)``.
    public init(jwkRepresentation json: some Collection<UInt8>) throws(CSEError) {
        try self.init(jwk: RSAJWK.parse(json))
    }

    /// Imports a parsed JSON Web Key (see ``init(jwkRepresentation:)``).
    package init(jwk: JSONValue) throws(CSEError) {
        let members = try RSAJWK.publicMembers(jwk)
        try self.init(components: .init(modulus: members.modulus[...], exponent: members.exponent[...]), enforcingPolicy: true)
    }

    // MARK: Properties and export

    /// The modulus n, big-endian, without leading zeros.
    public var modulus: [UInt8] { backing.modulus }
    /// The public exponent e, big-endian, without leading zeros.
    public var exponent: [UInt8] { backing.exponent }
    /// The exact bit length of n.
    public var bitCount: Int { backing.bitCount }
    /// The length k of n in bytes (RFC 8017 §2), which is the ciphertext length.
    public var byteCount: Int { backing.modulus.count }

    /// DER `SubjectPublicKeyInfo` (RFC 5280 §4.1.2.7) with rsaEncryption and NULL parameters.
    public var derRepresentation: [UInt8] {
        RSAKeyStructures.writeSubjectPublicKeyInfo(modulus: backing.modulus, exponent: backing.exponent)
    }

    /// DER PKCS#1 `RSAPublicKey` (RFC 8017 §A.1.1).
    package var pkcs1DERRepresentation: [UInt8] {
        RSAKeyStructures.writePKCS1PublicKey(modulus: backing.modulus, exponent: backing.exponent)
    }

    /// PEM `PUBLIC KEY` (RFC 7468 §13): the SubjectPublicKeyInfo in 64-character base64 lines.
    public var pemRepresentation: String {
        derRepresentation.withUnsafeBytes { PEMDocument.encode(label: "PUBLIC KEY", der: $0) }
    }

    /// A JSON Web Key (RFC 7518 §6.3.1): `{"kty":"RSA","kid":…,"n":…,"e":…}`, members in that
    /// order, `kid` only when given.
    /// - Parameter keyID: The `kid` member, if any.
    public func jwkRepresentation(keyID: String? = nil) -> String {
        RSAJWK.publicJWK(modulus: backing.modulus, exponent: backing.exponent, keyID: keyID)
    }

    /// `RSAPublicKey(2048 bits)`: the size only, never the key.
    public var description: String { "RSAPublicKey(\(bitCount) bits)" }

    /// A mirror with no children, so `dump` and debuggers show no key material either.
    public var customMirror: Mirror { Mirror(self, children: [], displayStyle: .struct) }

    /// Keys are equal when their modulus and exponent are equal.
    public static func == (lhs: RSAPublicKey, rhs: RSAPublicKey) -> Bool {
        lhs.backing === rhs.backing || (lhs.backing.modulus == rhs.backing.modulus && lhs.backing.exponent == rhs.backing.exponent)
    }

    /// Hashes the modulus and exponent.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(backing.modulus)
        hasher.combine(backing.exponent)
    }

    /// Whether ``RSAEngine/ifma`` runs the AVX-512 IFMA kernel for this key rather than falling
    /// back to ``RSAEngine/openSSL`` (it needs the CPU feature, e = 65537 and 415–4,158 bits).
    package var hasIFMAKernel: Bool { backing.ifma.value != nil }

    /// The precomputed public operation of `engine`.
    func publicOperation(_ engine: RSAEngine) -> any RSAPublicOperation {
        switch engine.backing {
        case .openSSL: backing.openSSL
        case .gmp: backing.gmp.value
        case .ifma: backing.ifma.value ?? backing.openSSL
        }
    }
}
