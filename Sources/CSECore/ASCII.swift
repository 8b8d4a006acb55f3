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

/// Byte scans over UTF-8 text, eight bytes per step (SWAR, Hacker's Delight §6-1): the one
/// definition of "is this ASCII" for the modules' fast paths.
@usableFromInline
package enum ASCIIScan {
    /// Whether no byte has its high bit set.
    @inlinable
    package static func isASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = UnsafeRawPointer(bytes.baseAddress) else { return true }
        let count = bytes.count
        var offset = 0, flags: UInt64 = 0
        while offset &+ 8 <= count {
            flags |= base.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
            offset &+= 8
        }
        while offset < count {
            flags |= UInt64(base.load(fromByteOffset: offset, as: UInt8.self))
            offset &+= 1
        }
        return flags & 0x8080_8080_8080_8080 == 0
    }

    /// The end of the leading whole 8-byte words of `count` bytes at `base`, from `start`, in which
    /// no byte needs a JSON string's closer look (RFC 8259 §7): none is `"`, `\`, a control
    /// character below 0x20 or non-ASCII (0x80 and above), nor, with `delete`, 0x7F. The word
    /// holding the first such byte is left to the caller's byte loop. SWAR (Hacker's Delight
    /// §6-1): `(x - 0x01…) & ~x & 0x80…` sets the high bit of each zero byte of `x`.
    /// The one scan both the JSON parser's string reading and the writer's escaping start with.
    @inlinable @inline(__always)
    package static func jsonPlainWordsEnd(_ base: UnsafeRawPointer, from start: Int, count: Int, delete: Bool) -> Int {
        let ones: UInt64 = 0x0101_0101_0101_0101, highs: UInt64 = 0x8080_8080_8080_8080
        var offset = start
        while offset &+ 8 <= count {
            let word = base.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
            let quote = word ^ (0x22 &* ones), backslash = word ^ (0x5C &* ones)
            let control = (word &- 0x20 &* ones) & ~word & highs
            // With `delete`, adding 1 carries 0x7F into the high bit; bytes ≥ 0x80 have it anyway.
            let high = (delete ? (word | ((word & ~highs) &+ ones)) : word) & highs
            let quotes = (quote &- ones) & ~quote & highs
            let backslashes = (backslash &- ones) & ~backslash & highs
            if control | high | quotes | backslashes != 0 { break }
            offset &+= 8
        }
        return offset
    }

    /// Whether every byte is ASCII and none is a line feed. Such text has one `Character` per
    /// byte: among ASCII scalars only CR LF forms a two-scalar grapheme cluster (UAX #29, GB3).
    @inlinable
    package static func isASCIIWithoutLineFeed(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = UnsafeRawPointer(bytes.baseAddress) else { return true }
        let count = bytes.count
        let ones: UInt64 = 0x0101_0101_0101_0101
        var offset = 0, flags: UInt64 = 0
        while offset &+ 8 <= count {
            let word = base.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
            let x = word ^ (0x0A &* ones)
            // A high bit: a non-ASCII byte, or a zero byte of `x` (a line feed in `word`).
            flags |= word | ((x &- ones) & ~x)
            offset &+= 8
        }
        while offset < count {
            let byte = base.load(fromByteOffset: offset, as: UInt8.self)
            flags |= UInt64(byte == 0x0A ? 0x80 : byte)
            offset &+= 1
        }
        return flags & 0x8080_8080_8080_8080 == 0
    }
}
