internal import CSECore

/// ASN.1 universal tags and the context-specific tags CSEKit reads (X.680 §8.4, X.690 §8.1.2).
enum DERTag {
    static let integer: UInt8 = 0x02
    static let bitString: UInt8 = 0x03
    static let octetString: UInt8 = 0x04
    static let null: UInt8 = 0x05
    static let objectIdentifier: UInt8 = 0x06
    static let sequence: UInt8 = 0x30
    /// `[0]` constructed, context-specific (PKCS#8 `attributes`).
    static let contextConstructed0: UInt8 = 0xA0
}

/// A strict, index-based reader of DER (ITU-T X.690 §10) over a byte slice.
///
/// It reads one TLV at a time without copying: values are slices of the caller's buffer. It accepts
/// only definite, minimally encoded lengths of at most four octets and low tag numbers, and it caps
/// the nesting depth. Structures are read by schema (see `RSAKeyStructures.swift`), and each
/// container must be consumed exactly (``finish()``), so trailing bytes anywhere are rejected.
struct DERReader {
    /// The deepest nesting of constructed values a reader will enter. RSA key structures need 3.
    static let maximumDepth = 8

    private(set) var bytes: ArraySlice<UInt8>
    let depth: Int

    /// A reader positioned at the start of `bytes`.
    init(_ bytes: ArraySlice<UInt8>, depth: Int = 0) {
        self.bytes = bytes
        self.depth = depth
    }

    /// A reader positioned at the start of `bytes`.
    init(_ bytes: [UInt8]) { self.init(bytes[...]) }

    /// `true` when every byte has been read.
    var isAtEnd: Bool { bytes.isEmpty }

    /// The tag of the next value, without consuming it; `nil` at the end.
    var peekTag: UInt8? { bytes.first }

    /// Reads the next TLV and returns its tag and value octets.
    /// - Throws: `der.truncated`, `der.unsupportedTag`, `der.indefiniteLength`,
    ///   `der.nonMinimalLength`, `der.lengthTooLarge`.
    mutating func readAny() throws(CSEError) -> (tag: UInt8, value: ArraySlice<UInt8>) {
        var index = bytes.startIndex
        guard index < bytes.endIndex else { throw Self.truncated("a tag") }
        let tag = bytes[index]
        guard tag & 0x1F != 0x1F else {
            throw CSEError(
                .derMalformed, "high-tag-number identifiers are not supported",
                context: ["offset": "\(index)"])
        }
        index += 1
        guard index < bytes.endIndex else { throw Self.truncated("a length") }
        let first = bytes[index]
        index += 1
        var length = 0
        if first < 0x80 {
            length = Int(first)
        } else if first == 0x80 {
            throw CSEError(
                .derMalformed, "the indefinite length form is not DER",
                context: ["offset": "\(index - 1)"])
        } else {
            let octets = Int(first & 0x7F)
            guard octets <= 4 else {
                throw CSEError(
                    .derTooLarge, "length fields longer than four octets are not supported",
                    context: ["octets": "\(octets)"])
            }
            guard bytes.endIndex - index >= octets else { throw Self.truncated("a long-form length") }
            guard bytes[index] != 0 else {
                throw CSEError(
                    .derMalformed, "a long-form length starts with a zero octet",
                    context: ["offset": "\(index)"])
            }
            for _ in 0..<octets {
                length = length << 8 | Int(bytes[index])
                index += 1
            }
            guard length >= 0x80 else {
                throw CSEError(
                    .derMalformed, "a length below 128 uses the long form",
                    context: ["length": "\(length)"])
            }
        }
        guard bytes.endIndex - index >= length else {
            throw Self.truncated("a value", context: ["declared": "\(length)", "available": "\(bytes.endIndex - index)"])
        }
        let value = bytes[index..<(index + length)]
        bytes = bytes[(index + length)...]
        return (tag, value)
    }

    /// Reads the next TLV, which must carry `tag`, and returns its value octets.
    /// - Throws: `der.unexpectedTag` for another tag, plus the errors of ``readAny()``.
    mutating func read(tag expected: UInt8) throws(CSEError) -> ArraySlice<UInt8> {
        let (tag, value) = try readAny()
        guard tag == expected else {
            throw CSEError(
                .derMalformed, "unexpected ASN.1 tag",
                context: ["expected": Self.hex(expected), "found": Self.hex(tag)])
        }
        return value
    }

    /// Reads a constructed value with `tag` (a SEQUENCE by default) and returns a reader over its
    /// contents, one level deeper.
    /// - Throws: `der.tooDeep` past ``maximumDepth``, plus the errors of ``read(tag:)``.
    mutating func readConstructed(tag: UInt8 = DERTag.sequence) throws(CSEError) -> DERReader {
        guard depth < Self.maximumDepth else {
            throw CSEError(
                .derTooLarge, "ASN.1 values are nested too deeply",
                context: ["limit": "\(Self.maximumDepth)"])
        }
        return DERReader(try read(tag: tag), depth: depth + 1)
    }

    /// Reads a non-negative INTEGER (X.690 §8.3) and returns its magnitude without leading zeros
    /// (an empty slice for zero).
    /// - Throws: `der.nonMinimalInteger` for empty or redundantly padded content,
    ///   `der.negativeInteger` for a negative value, plus the errors of ``read(tag:)``.
    mutating func readUnsignedInteger() throws(CSEError) -> ArraySlice<UInt8> {
        let content = try read(tag: DERTag.integer)
        guard let first = content.first else {
            throw CSEError(.derMalformed, "an INTEGER has no content octets")
        }
        if content.count > 1 {
            let second = content[content.startIndex + 1]
            if (first == 0x00 && second < 0x80) || (first == 0xFF && second >= 0x80) {
                throw CSEError(.derMalformed, "an INTEGER has a redundant leading octet")
            }
        }
        guard first < 0x80 else { throw CSEError(.derMalformed, "an INTEGER is negative") }
        return first == 0 ? content.dropFirst() : content
    }

    /// Reads a small non-negative INTEGER such as a version number.
    /// - Throws: the errors of ``readUnsignedInteger()``, and `der.lengthTooLarge` above 2^31.
    mutating func readSmallInteger() throws(CSEError) -> Int {
        let magnitude = try readUnsignedInteger()
        guard magnitude.count <= 4 else {
            throw CSEError(.derTooLarge, "a version INTEGER is too large")
        }
        return magnitude.reduce(0) { $0 << 8 | Int($1) }
    }

    /// Reads a NULL (X.690 §8.8), which must be empty.
    /// - Throws: `der.badNull`, plus the errors of ``read(tag:)``.
    mutating func readNull() throws(CSEError) {
        guard try read(tag: DERTag.null).isEmpty else {
            throw CSEError(.derMalformed, "a NULL has content octets")
        }
    }

    /// Reads a BIT STRING that holds whole octets (no unused bits) and returns those octets.
    /// - Throws: `der.badBitString`, plus the errors of ``read(tag:)``.
    mutating func readOctetAlignedBitString() throws(CSEError) -> ArraySlice<UInt8> {
        let content = try read(tag: DERTag.bitString)
        guard let unused = content.first else {
            throw CSEError(.derMalformed, "a BIT STRING has no content octets")
        }
        guard unused == 0 else {
            throw CSEError(.derMalformed, "a BIT STRING has unused bits", context: ["unused": "\(unused)"])
        }
        return content.dropFirst()
    }

    /// Requires that every byte has been read.
    /// - Throws: `der.trailingBytes` otherwise.
    func finish() throws(CSEError) {
        guard bytes.isEmpty else {
            throw CSEError(
                .derMalformed, "bytes follow the end of an ASN.1 value",
                context: ["count": "\(bytes.count)", "depth": "\(depth)"])
        }
    }

    private static func truncated(_ what: String, context: [String: String] = [:]) -> CSEError {
        CSEError(.derTruncated, "DER input ends inside \(what)", context: context)
    }

    private static func hex(_ byte: UInt8) -> String { "0x" + Base16.encode(CollectionOfOne(byte)) }
}
