/// Bounds on what a JWE may cost to parse and decrypt, and on what the encryptor writes: with the
/// same limits, every JWE a ``JWEEncryptor`` writes is one a ``JWEDecryptor`` reads (the
/// encryptor refuses a plaintext over ``maxPlaintextBytes``, an output over ``maxCompactBytes``
/// and a key id over 1,024 UTF-8 bytes).
public struct JWELimits: Hashable, Sendable {
    /// The longest compact serialization, in bytes: the decryptor reads none longer, and the
    /// encryptor writes none longer.
    public var maxCompactBytes: Int
    /// The largest plaintext accepted for encryption, in bytes.
    public var maxPlaintextBytes: Int

    /// Creates limits.
    public init(maxCompactBytes: Int = 1 << 20, maxPlaintextBytes: Int = 512 * 1024) {
        self.maxCompactBytes = maxCompactBytes
        self.maxPlaintextBytes = maxPlaintextBytes
    }

    /// 1 MiB of compact JWE and 512 KiB of plaintext: far above any customer-input payload.
    public static let `default` = JWELimits()

    /// The largest protected header the decryptor parses, in bytes of JSON: 8 KiB (depth 8).
    package static let maxProtectedHeaderBytes = 8_192

    /// The longest `kid` the encryptor writes, in UTF-8 bytes: 1,024 (a Client API key id is a
    /// 36-character UUID). JSON escaping writes at most six bytes per byte (`\u00XX`), so the
    /// header this library writes stays under 6,200 bytes, inside `maxProtectedHeaderBytes`:
    /// every JWE the encryptor writes is one the decryptor reads. Checked when the encryptor is
    /// made, that is when a key is imported for sealing (`jwe.keyIdTooLong`).
    package static let maxKeyIDBytes = 1_024
}
