/// Bytes as a dictionary key: compared in full, hashed by their length and their first and last
/// 64 bytes. A key still matches only the exact bytes (equality decides); the hash only picks the
/// bucket. Hashing every byte cost more than a microsecond per wallet token for the 3.5 KB key of a
/// remembered Apple Pay chain (SipHash, about 1.5 cycles a byte; `[UInt8]`'s own `Hashable`, a
/// byte at a time, cost 27,000 instructions), issue #37. Keys that share their ends, which an
/// attacker could make, only share a bucket: the caches holding them are bounded (a few dozen
/// entries), so a lookup compares at most that many keys.
struct ExactBytes: Hashable, Sendable {
    let bytes: [UInt8]

    /// How many bytes of each end are hashed.
    static let hashedEndByteCount = 64

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    func hash(into hasher: inout Hasher) {
        hasher.combine(bytes.count)
        bytes.withUnsafeBytes { buffer in
            let end = Self.hashedEndByteCount
            if buffer.count <= 2 * end {
                hasher.combine(bytes: buffer)
            } else {
                hasher.combine(bytes: UnsafeRawBufferPointer(rebasing: buffer[..<end]))
                hasher.combine(bytes: UnsafeRawBufferPointer(rebasing: buffer[(buffer.count - end)...]))
            }
        }
    }

    static func == (lhs: ExactBytes, rhs: ExactBytes) -> Bool { lhs.bytes == rhs.bytes }
}
