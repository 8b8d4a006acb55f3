public import CSECore

extension CSEError.Code {
    /// The compact serialization is malformed: wrong segment count, bad base64url, a header that
    /// is not a JSON object, missing `alg`/`enc`, or wrong IV/tag/key lengths for the `enc`.
    public static let jweMalformed = Self("jwe.malformed")
    /// The JWE is longer than ``JWELimits/maxCompactBytes`` (when decrypting, or when the
    /// encryptor would write it) or the plaintext than ``JWELimits/maxPlaintextBytes``.
    public static let jweTooLarge = Self("jwe.tooLarge")
    /// The `alg` is not on the allow-list (`RSA-OAEP`, `RSA-OAEP-256`). `RSA1_5`, `dir` and `none`
    /// are refused on purpose.
    public static let jweUnsupportedAlgorithm = Self("jwe.unsupportedAlgorithm")
    /// The `enc` is not on the allow-list (`A128CBC-HS256`, `A192CBC-HS384`, `A256CBC-HS512`,
    /// `A128GCM`, `A192GCM`, `A256GCM`).
    public static let jweUnsupportedEncryption = Self("jwe.unsupportedEncryption")
    /// The header asks for something this implementation does not do: `zip` compression or any
    /// `crit` extension (RFC 7516 §4.1.13 requires refusing unknown critical parameters).
    public static let jweUnsupportedHeader = Self("jwe.unsupportedHeader")
    /// Decryption failed. Every key-unwrap, tag, padding and length failure after parsing gives
    /// this one code and message, so the error reveals nothing an attacker could use as an oracle.
    public static let jweDecryptionFailed = Self("jwe.decryptionFailed")
    /// The RSA key is below the 2048-bit policy minimum of the public JWE API.
    public static let jweKeyTooSmall = Self("jwe.keyTooSmall")
    /// The key id given to the encryptor is longer than 1,024 UTF-8 bytes: its header could exceed what the decryptor reads. The context gives the `limit`
    /// and the `bytes`, never the id.
    public static let jweKeyIDTooLong = Self("jwe.keyIdTooLong")
    /// The `kid` of the JWE does not name the decryption key.
    public static let jweKeyIDMismatch = Self("jwe.keyIdMismatch")
}
