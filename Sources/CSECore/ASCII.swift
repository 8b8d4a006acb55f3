// The project's digit policy: only ASCII 0-9 are digits, at the byte level, in every module. These
// are the one definition of the byte checks; hot loops call them (they are inlinable).

extension UInt8 {
    /// Whether the byte is an ASCII digit `0`...`9` (`0x30`...`0x39`).
    @inlinable @inline(__always)
    package var isASCIIDigit: Bool { self &- 0x30 < 10 }

    /// The value of an ASCII digit byte, or `nil` for any other byte.
    @inlinable @inline(__always)
    package var asciiDigitValue: Int? { isASCIIDigit ? Int(self &- 0x30) : nil }

    /// The value of an ASCII hex digit of either case (`0-9`, `a-f`, `A-F`), or `nil`.
    @inlinable @inline(__always)
    package var asciiHexDigitValue: UInt8? {
        if isASCIIDigit { return self &- 0x30 }
        let lower = self | 0x20
        return lower &- 0x61 < 6 ? lower &- 0x61 &+ 10 : nil
    }

    /// Whether the byte is an ASCII letter `A`...`Z` or `a`...`z`.
    @inlinable @inline(__always)
    package var isASCIILetter: Bool { (self | 0x20) &- 0x61 < 26 }
}

extension StringProtocol {
    /// Whether the text is non-empty and every UTF-8 byte is an ASCII digit.
    @inlinable
    package var isAllASCIIDigits: Bool {
        var any = false
        for byte in utf8 {
            guard byte.isASCIIDigit else { return false }
            any = true
        }
        return any
    }
}
