/// The value being matched, as the UTF-8 bytes of a Swift `String` (always valid UTF-8).
/// Offsets are byte offsets at scalar boundaries; matching itself is over Unicode scalars
/// (ICU code points), decoded on the fly with an ASCII fast path.
struct RegexInput {
    let bytes: UnsafeBufferPointer<UInt8>

    @inline(__always) var count: Int { bytes.count }

    /// The scalar starting at `i` (< count) and its length in bytes.
    @inline(__always)
    func scalar(at i: Int) -> (value: UInt32, length: Int) {
        let b0 = UInt32(bytes[i])
        if b0 < 0x80 { return (b0, 1) }
        if b0 < 0xE0 { return ((b0 & 0x1F) << 6 | UInt32(bytes[i + 1] & 0x3F), 2) }
        if b0 < 0xF0 {
            return ((b0 & 0x0F) << 12 | UInt32(bytes[i + 1] & 0x3F) << 6 | UInt32(bytes[i + 2] & 0x3F), 3)
        }
        return (
            (b0 & 0x07) << 18 | UInt32(bytes[i + 1] & 0x3F) << 12 | UInt32(bytes[i + 2] & 0x3F) << 6
                | UInt32(bytes[i + 3] & 0x3F), 4
        )
    }

    /// The offset of the scalar that ends at `i` (> 0).
    @inline(__always)
    func previousStart(_ i: Int) -> Int {
        var j = i - 1
        while j > 0 && bytes[j] & 0xC0 == 0x80 { j -= 1 }
        return j
    }

    /// The length in bytes of the scalar at `i` (< count).
    @inline(__always)
    func length(at i: Int) -> Int {
        let b0 = bytes[i]
        return b0 < 0x80 ? 1 : b0 < 0xE0 ? 2 : b0 < 0xF0 ? 3 : 4
    }

    /// Evaluates the assertion with code `code` (see ``RegexProgram/code(_:)``) at offset `pos`.
    func check(_ code: Int32, at pos: Int) -> Bool {
        switch code {
        case 0: return pos == 0
        case 1: return pos == count
        case 2: return isEndBeforeFinalLineTerminator(pos)
        case 3: return isWordBoundary(pos)
        default: return !isWordBoundary(pos)
        }
    }

    /// ICU `URX_DOLLAR` without MULTILINE: end of input, or before a final line terminator, where
    /// a final `\r\n` counts as one terminator (so the offset between `\r` and `\n` does not match).
    private func isEndBeforeFinalLineTerminator(_ pos: Int) -> Bool {
        if pos >= count { return true }
        let (c, len) = scalar(at: pos)
        if pos + len == count {
            guard isICULineTerminator(c) else { return false }
            return !(c == 0x0A && pos > 0 && bytes[pos - 1] == 0x0D)
        }
        return c == 0x0D && pos + 2 == count && bytes[pos + 1] == 0x0A
    }

    /// ICU `isWordBoundary` (default, non-UWORD mode): compares the word-ness of the scalar at
    /// `pos` with that of the previous scalar that is not a Grapheme_Extend or format character;
    /// a position just before such a character is never a boundary.
    private func isWordBoundary(_ pos: Int) -> Bool {
        var isWord = false
        if pos < count {
            let c = scalar(at: pos).value
            if Self.isExtendOrFormat(c) { return false }
            isWord = Self.isWord(c)
        }
        var previousIsWord = false
        var i = pos
        while i > 0 {
            let j = previousStart(i)
            let c = scalar(at: j).value
            if !Self.isExtendOrFormat(c) {
                previousIsWord = Self.isWord(c)
                break
            }
            i = j
        }
        return isWord != previousIsWord
    }

    private static func isWord(_ c: UInt32) -> Bool {
        guard let s = Unicode.Scalar(c) else { return false }
        return RegexPropertyClass.isWord(s)
    }

    private static func isExtendOrFormat(_ c: UInt32) -> Bool {
        guard c >= 0x80, let s = Unicode.Scalar(c) else { return false }
        return s.properties.isGraphemeExtend || s.properties.generalCategory == .format
    }
}
