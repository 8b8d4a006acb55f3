/// Bounds on what a JWE may cost to parse and decrypt.
public struct JWELimits: Hashable, Sendable {
    /// The longest accepted compact serialization, in bytes.
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
}
