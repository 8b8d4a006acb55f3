// The project's digit policy: only ASCII 0-9 are digits. The byte checks (`UInt8.isASCIIDigit`,
// `asciiDigitValue`) live in CSECore/ASCII.swift; these are the Character-level forms.
import CSECore

extension Character {
    /// `true` only for the ten characters `0`...`9` (U+0030...U+0039) standing alone. A digit with
    /// a combining mark, an Arabic-Indic or fullwidth digit is not an ASCII digit.
    @inline(__always)
    var isPlainASCIIDigit: Bool {
        let scalars = unicodeScalars
        guard let first = scalars.first, scalars.index(after: scalars.startIndex) == scalars.endIndex else {
            return false
        }
        return (0x30...0x39).contains(first.value)
    }

    /// `true` only for a lone ASCII lowercase letter `a`...`z`.
    @inline(__always)
    var isPlainASCIILowercase: Bool { isLone(in: 0x61...0x7A) }

    /// `true` only for a lone ASCII uppercase letter `A`...`Z`.
    @inline(__always)
    var isPlainASCIIUppercase: Bool { isLone(in: 0x41...0x5A) }

    @inline(__always)
    private func isLone(in range: ClosedRange<UInt32>) -> Bool {
        let scalars = unicodeScalars
        guard let first = scalars.first, scalars.index(after: scalars.startIndex) == scalars.endIndex else {
            return false
        }
        return range.contains(first.value)
    }
}

/// Locale-free parsing of ASCII decimal text.
enum ASCIIDecimal {
    /// Whether every UTF-8 byte of `text` is an ASCII digit. `false` for the empty string.
    static func isAllDigits(_ text: String) -> Bool { text.isAllASCIIDigits }

    /// The result of parsing an integer.
    enum IntegerParse: Equatable {
        /// A well-formed integer that fits in `Int`.
        case value(Int)
        /// A well-formed integer too large in magnitude for `Int`; `negative` gives its sign.
        case overflow(negative: Bool)
        /// Not an integer: empty, a lone sign, whitespace, a decimal point, a non-ASCII digit, …
        case malformed
    }

    /// Parses `[+-]?[0-9]+` exactly: one optional ASCII sign, then one or more ASCII digits,
    /// leading zeros allowed, nothing else (no whitespace, grouping separators or decimals).
    /// Linear in the length, never traps: magnitudes beyond `Int` are reported as overflow.
    static func parseInteger(_ text: String) -> IntegerParse {
        var bytes = text.utf8.makeIterator()
        guard var byte = bytes.next() else { return .malformed }
        var negative = false
        if byte == 0x2B || byte == 0x2D {  // "+" or "-"
            negative = byte == 0x2D
            guard let next = bytes.next() else { return .malformed }
            byte = next
        }
        // Accumulate negatively so that Int.min parses without overflow.
        var accumulator = 0
        var overflowed = false
        while true {
            guard let digit = byte.asciiDigitValue else { return .malformed }
            if !overflowed {
                let (times10, o1) = accumulator.multipliedReportingOverflow(by: 10)
                let (next, o2) = times10.subtractingReportingOverflow(digit)
                if o1 || o2 { overflowed = true } else { accumulator = next }
            }
            guard let following = bytes.next() else { break }
            byte = following
        }
        if overflowed { return .overflow(negative: negative) }
        if negative { return .value(accumulator) }
        let (positive, overflow) = (0).subtractingReportingOverflow(accumulator)
        return overflow ? .overflow(negative: false) : .value(positive)
    }
}
