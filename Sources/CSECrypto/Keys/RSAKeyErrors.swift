public import CSECore

extension CSEError.Code {
    /// The RSA modulus is shorter than the policy minimum (2048 bits).
    public static let keyTooSmall = Self("key.tooSmall")
    /// The RSA modulus is longer than the policy maximum (16384 bits).
    public static let keyTooLarge = Self("key.tooLarge")
    /// The public exponent is even, below 65537, or 2^256 or more (NIST SP 800-56B §6.2.1).
    public static let keyBadExponent = Self("key.badExponent")
    /// The key structure is well-formed DER but not a usable RSA key (an even or zero modulus, a
    /// wrong version, or private components that do not belong together).
    public static let keyMalformed = Self("key.malformed")
    /// The key is not an RSA key (another algorithm OID or JWK `kty`), or uses an unsupported
    /// RSA variant (multi-prime keys).
    public static let keyUnsupportedType = Self("key.unsupportedType")
    /// OpenSSL could not generate or import a key for a reason other than its input.
    public static let keyOperationFailed = Self("key.operationFailed")
    /// A JSON Web Key (RFC 7517/7518 §6.3) is not valid JSON, lacks a required member, or has a
    /// member that is not a base64url string.
    public static let jwkMalformed = Self("jwk.malformed")
    /// A JSON Web Key declares that it is for something other than RSA-OAEP key wrapping: a `use`
    /// other than `enc` (RFC 7517 §4.2), `key_ops` without `encrypt`/`wrapKey` for a public key or
    /// `decrypt`/`unwrapKey` for a private one (§4.3), or an `alg` other than `RSA-OAEP` and
    /// `RSA-OAEP-256` (§4.4). The context names the member (`member`), never key material.
    public static let jwkWrongPurpose = Self("jwk.wrongPurpose")
}
