import CSECore

/// ICU's predefined classes, evaluated with the Swift standard library's Unicode tables.
///
/// - `\d`: General_Category = Decimal_Number (`\p{Nd}`), so Arabic-Indic `٤` is a digit, as in ICU.
/// - `\w`: `[\p{Alphabetic}\p{M}\p{Nd}\p{Pc}\u200C\u200D]` (ICU `URX_ISWORD_SET`).
/// - `\s`: `\p{White_Space}` (ICU `URX_ISSPACE_SET`).
enum RegexPropertyClass: UInt8, Sendable {
    case digit, word, space

    /// Whether `scalar` belongs to the class.
    @inline(__always)
    func contains(_ scalar: UInt32) -> Bool {
        if scalar < 0x80 { return Self.asciiContains(self, UInt8(truncatingIfNeeded: scalar)) }
        guard let s = Unicode.Scalar(scalar) else { return false }
        let p = s.properties
        switch self {
        case .digit: return p.generalCategory == .decimalNumber
        case .space: return p.isWhitespace
        case .word: return Self.isWord(s)
        }
    }

    /// ICU's word-character set, also used by `\b`.
    static func isWord(_ s: Unicode.Scalar) -> Bool {
        let v = s.value
        if v < 0x80 { return asciiContains(.word, UInt8(truncatingIfNeeded: v)) }
        if v == 0x200C || v == 0x200D { return true }
        let p = s.properties
        if p.isAlphabetic { return true }
        switch p.generalCategory {
        case .nonspacingMark, .spacingMark, .enclosingMark, .decimalNumber, .connectorPunctuation: return true
        default: return false
        }
    }

    private static func asciiContains(_ cls: Self, _ b: UInt8) -> Bool {
        switch cls {
        case .digit: return b.isASCIIDigit
        case .space: return (b >= 0x09 && b <= 0x0D) || b == 0x20
        case .word:
            return b.isASCIIDigit || (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) || b == 0x5F
        }
    }
}

/// A character class: a 128-bit ASCII bitmap for the hot path, plus sorted ranges and predefined
/// classes for scalars at or above U+0080.
struct RegexCharSet: Sendable {
    /// Bits 0…63 of the ASCII bitmap.
    private(set) var low: UInt64 = 0
    /// Bits 64…127 of the ASCII bitmap.
    private(set) var high: UInt64 = 0
    /// Non-ASCII members as inclusive ranges, in insertion order.
    private(set) var ranges: [ClosedRange<UInt32>] = []
    /// Predefined classes (`\d`, `\w`, `\s`) and their complements, for non-ASCII scalars.
    private(set) var properties: [(cls: RegexPropertyClass, negated: Bool)] = []
    /// `[^…]`.
    var isNegated = false

    /// Adds `lo…hi`.
    mutating func insert(_ lo: UInt32, _ hi: UInt32) {
        var c = lo
        while c <= hi && c < 0x80 { setASCII(UInt8(c)); c += 1 }
        if hi >= 0x80 { ranges.append(max(lo, 0x80)...hi) }
    }

    /// Adds a predefined class or its complement (`\D`, `\W`, `\S`).
    mutating func insert(_ cls: RegexPropertyClass, negated: Bool) {
        for b in UInt32(0)..<0x80 where cls.contains(b) != negated { setASCII(UInt8(b)) }
        properties.append((cls, negated))
    }

    private mutating func setASCII(_ b: UInt8) {
        if b < 64 { low |= 1 << UInt64(b) } else { high |= 1 << UInt64(b - 64) }
    }

    /// Whether the ASCII byte `b` (< 0x80) is in the class, before negation.
    @inline(__always)
    func asciiMember(_ b: UInt8) -> Bool {
        b < 64 ? (low >> UInt64(b)) & 1 != 0 : (high >> UInt64(b &- 64)) & 1 != 0
    }

    /// Whether `scalar` matches the class, negation applied.
    @inline(__always)
    func matches(_ scalar: UInt32) -> Bool {
        if scalar < 0x80 { return asciiMember(UInt8(truncatingIfNeeded: scalar)) != isNegated }
        return nonASCIIMember(scalar) != isNegated
    }

    private func nonASCIIMember(_ scalar: UInt32) -> Bool {
        for r in ranges where r.contains(scalar) { return true }
        for p in properties where p.cls.contains(scalar) != p.negated { return true }
        return false
    }

    /// Whether any scalar ≥ U+0080 can match (for the first-byte prefilter).
    var mayMatchNonASCII: Bool { isNegated || !ranges.isEmpty || !properties.isEmpty }
}

extension RegexCharSet: Hashable {
    /// Classes with the same members written the same way compare equal, so a program keeps one
    /// copy of a class however often a repetition expands it.
    static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.low == rhs.low && lhs.high == rhs.high && lhs.isNegated == rhs.isNegated && lhs.ranges == rhs.ranges
            && lhs.properties.elementsEqual(rhs.properties) { $0.cls == $1.cls && $0.negated == $1.negated }
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(low)
        hasher.combine(high)
        hasher.combine(isNegated)
        hasher.combine(ranges.count)
        hasher.combine(properties.count)
    }
}

/// ICU line terminators: `\n`, `\u000B`, `\f`, `\r`, U+0085, U+2028, U+2029.
@inline(__always)
func isICULineTerminator(_ c: UInt32) -> Bool {
    (c >= 0x0A && c <= 0x0D) || c == 0x85 || c == 0x2028 || c == 0x2029
}
