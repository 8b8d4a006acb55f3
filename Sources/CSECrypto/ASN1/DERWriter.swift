internal import CSECore
internal import CCSEShims

/// A minimal DER writer (ITU-T X.690 §10) for the structures CSEKit exports: definite minimal
/// lengths, unsigned INTEGERs in their shortest two's-complement form.
struct DERWriter {
    private(set) var bytes: [UInt8] = []

    /// An empty writer.
    init() {}

    /// A writer for secret content: the buffer is reserved up front so it never reallocates (which
    /// would leave unzeroed copies behind) as long as `secretCapacity` suffices. Call ``wipe()``.
    init(secretCapacity: Int) { bytes.reserveCapacity(secretCapacity) }

    /// Zeroes the written bytes.
    mutating func wipe() {
        bytes.withUnsafeMutableBytes { buffer in
            if let base = buffer.baseAddress { secureZero(UnsafeMutableRawBufferPointer(start: base, count: buffer.count)) }
        }
        bytes.removeAll(keepingCapacity: false)
    }

    /// Appends a TLV with `tag` and the given value octets.
    mutating func append(tag: UInt8, value: some Collection<UInt8>) {
        bytes.append(tag)
        appendLength(value.count)
        bytes.append(contentsOf: value)
    }

    /// Appends a constructed value (a SEQUENCE by default) whose contents `body` writes.
    mutating func appendConstructed(tag: UInt8 = DERTag.sequence, _ body: (inout DERWriter) -> Void) {
        var inner = DERWriter()
        body(&inner)
        append(tag: tag, value: inner.bytes)
    }

    /// Appends a non-negative INTEGER from its big-endian magnitude (leading zeros allowed).
    mutating func appendUnsignedInteger(_ magnitude: some Collection<UInt8>) {
        let trimmed = magnitude.drop { $0 == 0 }
        var content: [UInt8] = []
        content.reserveCapacity(trimmed.count + 1)
        if trimmed.first.map({ $0 >= 0x80 }) ?? true { content.append(0) }
        content.append(contentsOf: trimmed)
        append(tag: DERTag.integer, value: content)
    }

    /// Appends a NULL.
    mutating func appendNull() { append(tag: DERTag.null, value: EmptyCollection()) }

    /// Appends a BIT STRING holding whole octets.
    mutating func appendOctetAlignedBitString(_ octets: some Collection<UInt8>) {
        bytes.append(DERTag.bitString)
        appendLength(octets.count + 1)
        bytes.append(0)
        bytes.append(contentsOf: octets)
    }

    private mutating func appendLength(_ length: Int) {
        if length < 0x80 {
            bytes.append(UInt8(length))
            return
        }
        var octets: [UInt8] = []
        var rest = length
        while rest > 0 {
            octets.insert(UInt8(rest & 0xFF), at: 0)
            rest >>= 8
        }
        bytes.append(0x80 | UInt8(octets.count))
        bytes.append(contentsOf: octets)
    }
}
