/// Bytes as a dictionary key: hashed with one `Hasher.combine(bytes:)` call and compared in full.
/// `[UInt8]`'s own `Hashable` conformance feeds the hasher one byte at a time (about 8
/// instructions a byte: 27,000 per Apple Pay token for the 3.5 KB key of a remembered chain,
/// issue #37), and equality is the same either way, so a key still matches only the exact bytes.
struct ExactBytes: Hashable, Sendable {
    let bytes: [UInt8]

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    func hash(into hasher: inout Hasher) {
        bytes.withUnsafeBytes { hasher.combine(bytes: $0) }
    }

    static func == (lhs: ExactBytes, rhs: ExactBytes) -> Bool { lhs.bytes == rhs.bytes }
}
