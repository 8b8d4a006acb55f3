internal import CSECore

/// One BER value (ITU-T X.690 §8.1): its identifier octet, its contents octets and its whole
/// encoding, both slices of the reader's input (no copy).
struct BERElement {
    /// The identifier octet (class, constructed bit and a low tag number).
    let tag: UInt8
    /// The contents octets; for the indefinite form, without the end-of-contents octets.
    let contents: ArraySlice<UInt8>
    /// The whole encoding: identifier, length, contents and, for the indefinite form, the
    /// end-of-contents octets.
    let encoded: ArraySlice<UInt8>
    /// Whether the length used the indefinite form (X.690 §8.1.3.6).
    let isIndefinite: Bool
    /// Whether the length octets are DER's (X.690 §10.1): definite and in the fewest octets.
    let hasDERLength: Bool

    /// Whether the constructed bit is set.
    var isConstructed: Bool { tag & 0x20 != 0 }
}

/// A bounded reader of BER (ITU-T X.690 §8) as Apple's payment-token signatures use it: definite
/// lengths of up to four octets, and the indefinite form closed by end-of-contents octets in
/// constructed values. It reads one value at a time; values are slices of the input.
///
/// Every malformation is a `wallet.malformed` error, never a trap: a truncated value, a length
/// beyond the input, the indefinite form on a primitive value, a high tag number, nesting deeper
/// than ``maximumDepth`` (the end of an indefinite value is found by reading its children, so the
/// depth also bounds that recursion) and an input larger than ``maximumInputSize``.
struct BERReader {
    /// The deepest nesting of constructed values the reader enters or skips.
    static let maximumDepth = 24
    /// The largest input accepted: a payment-token signature is about 3.5 KB.
    static let maximumInputSize = 1 << 20

    /// The bytes not read yet.
    private(set) var remaining: ArraySlice<UInt8>
    /// The nesting depth of the values this reader reads (0 for the outermost).
    let depth: Int

    /// A reader over the whole of `bytes`.
    /// - Throws: `wallet.malformed` when `bytes` exceeds ``maximumInputSize``.
    init(_ bytes: [UInt8]) throws(CSEError) {
        guard bytes.count <= Self.maximumInputSize else { throw WalletError.malformed("the BER input is too large") }
        self.init(bytes[...], depth: 0)
    }

    /// A reader over `bytes` at `depth`.
    init(_ bytes: ArraySlice<UInt8>, depth: Int) {
        self.remaining = bytes
        self.depth = depth
    }

    /// Whether every byte has been read.
    var isAtEnd: Bool { remaining.isEmpty }

    /// The identifier octet of the next value, without reading it; `nil` at the end.
    var peekTag: UInt8? { remaining.first }

    /// Reads the next value.
    /// - Throws: `wallet.malformed` for any malformation listed on the type.
    mutating func next() throws(CSEError) -> BERElement {
        let element = try Self.element(in: remaining, depth: depth)
        remaining = remaining[element.encoded.endIndex...]
        return element
    }

    /// Reads the next value, which must have the identifier `tag`.
    /// - Throws: `wallet.malformed` for another identifier, plus the errors of ``next()``.
    mutating func next(tag: UInt8) throws(CSEError) -> BERElement {
        let element = try next()
        guard element.tag == tag else { throw WalletError.malformed("an ASN.1 value has an unexpected tag") }
        return element
    }

    /// A reader over the contents of `element`, one level deeper.
    /// - Throws: `wallet.malformed` when `element` is primitive or the nesting is too deep.
    func children(of element: BERElement) throws(CSEError) -> BERReader {
        guard element.isConstructed else { throw WalletError.malformed("a primitive ASN.1 value has no children") }
        guard depth < Self.maximumDepth else { throw WalletError.malformed("ASN.1 values are nested too deeply") }
        return BERReader(element.contents, depth: depth + 1)
    }

    /// Requires that every byte has been read.
    /// - Throws: `wallet.malformed` otherwise.
    func finish() throws(CSEError) {
        guard remaining.isEmpty else { throw WalletError.malformed("bytes follow the end of an ASN.1 value") }
    }

    /// The value that starts at `bytes.startIndex`, at nesting `depth`.
    private static func element(in bytes: ArraySlice<UInt8>, depth: Int) throws(CSEError) -> BERElement {
        var index = bytes.startIndex
        guard index < bytes.endIndex else { throw WalletError.malformed("the BER input ends inside a tag") }
        let tag = bytes[index]
        guard tag & 0x1F != 0x1F else { throw WalletError.malformed("a BER high tag number is not supported") }
        index += 1
        guard index < bytes.endIndex else { throw WalletError.malformed("the BER input ends inside a length") }
        let first = bytes[index]
        index += 1
        if first == 0x80 {
            guard tag & 0x20 != 0 else { throw WalletError.malformed("a primitive value has the indefinite length form") }
            guard depth < maximumDepth else { throw WalletError.malformed("ASN.1 values are nested too deeply") }
            let start = index
            while true {
                guard bytes.endIndex - index >= 2 else { throw WalletError.malformed("an indefinite-length value has no end") }
                if bytes[index] == 0, bytes[index + 1] == 0 {
                    return BERElement(
                        tag: tag, contents: bytes[start..<index], encoded: bytes[bytes.startIndex..<(index + 2)],
                        isIndefinite: true, hasDERLength: false)
                }
                index = try Self.element(in: bytes[index...], depth: depth + 1).encoded.endIndex
            }
        }
        var length = 0
        var minimal = true
        if first < 0x80 {
            length = Int(first)
        } else {
            let octets = Int(first & 0x7F)
            guard octets <= 4 else { throw WalletError.malformed("a BER length is longer than four octets") }
            guard bytes.endIndex - index >= octets else { throw WalletError.malformed("the BER input ends inside a length") }
            for _ in 0..<octets {
                length = length << 8 | Int(bytes[index])
                index += 1
            }
            minimal = bytes[bytes.startIndex + 2] != 0 && length >= 0x80
        }
        guard bytes.endIndex - index >= length else { throw WalletError.malformed("a BER length goes beyond the input") }
        return BERElement(
            tag: tag, contents: bytes[index..<(index + length)], encoded: bytes[bytes.startIndex..<(index + length)],
            isIndefinite: false, hasDERLength: minimal)
    }
}
