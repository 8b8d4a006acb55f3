/// Why the built-in engine declined a pattern. Not an error: the pattern then runs on ICU.
struct RegexUnsupported: Error, Sendable {
    /// A short, non-secret description of the construct, for diagnostics.
    let construct: String
}

/// A recursive-descent parser for the ICU subset the built-in engine runs.
///
/// The parser is deliberately conservative: anything whose ICU meaning is not certain (nested
/// sets, set operators, `\p{…}`, lookaround, backreferences, inline flags, possessive
/// quantifiers, octal escapes, unbalanced `]` or `}` …) is reported as unsupported, and the
/// pattern runs on ICU instead (`RegexICUEngine`). Validity is always decided by ICU first, so
/// this parser never has to reproduce ICU's error rules.
struct RegexParser {
    private let scalars: [UInt32]
    private var index = 0

    /// The largest repetition bound the built-in engine expands.
    static let maximumRepetition = 1_000

    init(_ pattern: String) {
        scalars = pattern.unicodeScalars.map(\.value)
    }

    /// Parses the whole pattern.
    static func parse(_ pattern: String) throws(RegexUnsupported) -> RegexNode {
        var parser = RegexParser(pattern)
        let node = try parser.parseAlternation()
        guard parser.index == parser.scalars.count else { throw RegexUnsupported(construct: "unbalanced )") }
        return node
    }

    private var atEnd: Bool { index >= scalars.count }
    private func peek(_ offset: Int = 0) -> UInt32? {
        index + offset < scalars.count ? scalars[index + offset] : nil
    }

    private mutating func parseAlternation() throws(RegexUnsupported) -> RegexNode {
        var alternatives = [try parseConcatenation()]
        while peek() == 0x7C /* | */ {
            index += 1
            alternatives.append(try parseConcatenation())
        }
        return alternatives.count == 1 ? alternatives[0] : .alternate(alternatives)
    }

    private mutating func parseConcatenation() throws(RegexUnsupported) -> RegexNode {
        var items: [RegexNode] = []
        while let c = peek(), c != 0x7C, c != 0x29 /* ) */ {
            let atom = try parseAtom()
            items.append(try parseQuantifiers(atom))
        }
        switch items.count {
        case 0: return .empty
        case 1: return items[0]
        default: return .concat(items)
        }
    }

    private mutating func parseAtom() throws(RegexUnsupported) -> RegexNode {
        let c = scalars[index]
        index += 1
        switch c {
        case 0x28:  // (
            if peek() == 0x3F /* ? */ {
                guard peek(1) == 0x3A /* : */ else { throw RegexUnsupported(construct: "(? group") }
                index += 2
            }
            let inner = try parseAlternation()
            guard peek() == 0x29 else { throw RegexUnsupported(construct: "unclosed (") }
            index += 1
            return inner
        case 0x5B: return .set(try parseClass())
        case 0x2E: return .any
        case 0x5E: return .assertion(.start)
        case 0x24: return .assertion(.endBeforeFinalLineTerminator)
        case 0x5C: return try parseEscape()
        case 0x2A, 0x2B, 0x3F, 0x7B, 0x7D, 0x5D:
            throw RegexUnsupported(construct: "bare quantifier or bracket")
        default: return .scalar(c)
        }
    }

    private mutating func parseQuantifiers(_ atom: RegexNode) throws(RegexUnsupported) -> RegexNode {
        guard let c = peek() else { return atom }
        var min = 0, max: Int? = nil
        switch c {
        case 0x2A: index += 1
        case 0x2B: index += 1; min = 1
        case 0x3F: index += 1; max = 1
        case 0x7B:
            index += 1
            min = try parseNumber()
            if peek() == 0x2C /* , */ {
                index += 1
                max = peek() == 0x7D ? nil : try parseNumber()
            } else {
                max = min
            }
            guard peek() == 0x7D else { throw RegexUnsupported(construct: "malformed {n,m}") }
            index += 1
            if let m = max, m < min { throw RegexUnsupported(construct: "{n,m} with n > m") }
        default: return atom
        }
        var greedy = true
        if peek() == 0x3F {
            index += 1; greedy = false
        } else if peek() == 0x2B {
            throw RegexUnsupported(construct: "possessive quantifier")
        }
        if let next = peek(), next == 0x2A || next == 0x2B || next == 0x3F || next == 0x7B {
            throw RegexUnsupported(construct: "stacked quantifiers")
        }
        if case .assertion = atom { throw RegexUnsupported(construct: "quantified assertion") }
        if atom.isNullable && (max == nil || max! > 1) {
            // ICU ends a loop after an empty iteration (Perl's rule); a visited-state engine
            // instead prunes it, which can pick a different match. Leave these to ICU.
            throw RegexUnsupported(construct: "repetition of a sub-pattern that can match empty")
        }
        return .repetition(atom, min: min, max: max, greedy: greedy)
    }

    private mutating func parseNumber() throws(RegexUnsupported) -> Int {
        var value = 0, digits = 0
        while let c = peek(), c >= 0x30, c <= 0x39 {
            value = value * 10 + Int(c - 0x30)
            digits += 1
            index += 1
            if value > Self.maximumRepetition { throw RegexUnsupported(construct: "large repetition count") }
        }
        guard digits > 0 else { throw RegexUnsupported(construct: "malformed {n,m}") }
        return value
    }

    /// An escape outside a class; the backslash is consumed.
    private mutating func parseEscape() throws(RegexUnsupported) -> RegexNode {
        guard let c = peek() else { throw RegexUnsupported(construct: "trailing backslash") }
        switch c {
        case 0x64, 0x44, 0x77, 0x57, 0x73, 0x53:  // d D w W s S
            index += 1
            var set = RegexCharSet()
            set.insert(Self.propertyClass(c), negated: c < 0x60)
            return .set(set)
        case 0x62: index += 1; return .assertion(.wordBoundary)  // b
        case 0x42: index += 1; return .assertion(.notWordBoundary)  // B
        case 0x41: index += 1; return .assertion(.start)  // A
        case 0x7A: index += 1; return .assertion(.end)  // z
        case 0x5A: index += 1; return .assertion(.endBeforeFinalLineTerminator)  // Z
        default: return .scalar(try parseScalarEscape())
        }
    }

    private static func propertyClass(_ c: UInt32) -> RegexPropertyClass {
        switch c | 0x20 {
        case 0x64: return .digit
        case 0x77: return .word
        default: return .space
        }
    }

    /// An escape that denotes one scalar (`\n`, `\u0041`, `\x{1F600}`, `\.` …); backslash consumed.
    private mutating func parseScalarEscape() throws(RegexUnsupported) -> UInt32 {
        guard let c = peek() else { throw RegexUnsupported(construct: "trailing backslash") }
        index += 1
        switch c {
        case 0x6E: return 0x0A  // n
        case 0x72: return 0x0D  // r
        case 0x74: return 0x09  // t
        case 0x66: return 0x0C  // f
        case 0x61: return 0x07  // a
        case 0x65: return 0x1B  // e
        case 0x75: return try parseHex(count: 4)  // uhhhh
        case 0x55: return try parseHex(count: 8)  // Uhhhhhhhh
        case 0x78:  // xhh or x{h…}
            if peek() == 0x7B {
                index += 1
                var value: UInt32 = 0, digits = 0
                while let d = peek(), let v = Self.hexValue(d) {
                    value = value << 4 | v
                    digits += 1
                    index += 1
                    guard digits <= 6 else { throw RegexUnsupported(construct: "long \\x{}") }
                }
                guard digits > 0, peek() == 0x7D else { throw RegexUnsupported(construct: "malformed \\x{}") }
                index += 1
                return try checkedScalar(value)
            }
            let value = try parseHex(count: 2)
            if let d = peek(), Self.hexValue(d) != nil { throw RegexUnsupported(construct: "ambiguous \\x") }
            return value
        default:
            // Any other ASCII letter or digit has a special or undefined meaning in ICU.
            guard c < 0x80, !Self.isASCIIAlphanumeric(c) else {
                throw RegexUnsupported(construct: "escape \\\(Unicode.Scalar(c).map { String($0) } ?? "?")")
            }
            return c
        }
    }

    private mutating func parseHex(count: Int) throws(RegexUnsupported) -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<count {
            guard let d = peek(), let v = Self.hexValue(d) else { throw RegexUnsupported(construct: "short hex escape") }
            value = value << 4 | v
            index += 1
        }
        return try checkedScalar(value)
    }

    private func checkedScalar(_ value: UInt32) throws(RegexUnsupported) -> UInt32 {
        guard Unicode.Scalar(value) != nil else { throw RegexUnsupported(construct: "escape outside Unicode scalars") }
        return value
    }

    private static func hexValue(_ c: UInt32) -> UInt32? {
        switch c {
        case 0x30...0x39: return c - 0x30
        case 0x41...0x46: return c - 0x37
        case 0x61...0x66: return c - 0x57
        default: return nil
        }
    }

    private static func isASCIIAlphanumeric(_ c: UInt32) -> Bool {
        (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5A) || (c >= 0x61 && c <= 0x7A)
    }

    /// A bracket class; the `[` is consumed.
    private mutating func parseClass() throws(RegexUnsupported) -> RegexCharSet {
        var set = RegexCharSet()
        if peek() == 0x5E { index += 1; set.isNegated = true }
        let firstItem = index
        while true {
            guard let c = peek() else { throw RegexUnsupported(construct: "unclosed [") }
            if c == 0x5D /* ] */ {
                guard index > firstItem else { throw RegexUnsupported(construct: "empty or ]-first class") }
                index += 1
                return set
            }
            switch c {
            case 0x5B: throw RegexUnsupported(construct: "nested set or POSIX class")
            case 0x26 where peek(1) == 0x26: throw RegexUnsupported(construct: "set intersection")
            case 0x2D:  // '-' is literal only first or last
                if index == firstItem || peek(1) == 0x5D {
                    index += 1
                    set.insert(c, c)
                    continue
                }
                throw RegexUnsupported(construct: "ambiguous - in class")
            default: break
            }
            // One item: a scalar (maybe the start of a range) or a predefined class.
            let lo: UInt32
            if c == 0x5C {
                index += 1
                guard let e = peek() else { throw RegexUnsupported(construct: "trailing backslash") }
                if [0x64, 0x44, 0x77, 0x57, 0x73, 0x53].contains(e) {
                    index += 1
                    set.insert(Self.propertyClass(e), negated: e < 0x60)
                    if peek() == 0x2D && peek(1) != 0x5D { throw RegexUnsupported(construct: "range from a class") }
                    continue
                }
                if e == 0x62 { throw RegexUnsupported(construct: "\\b in class") }
                lo = try parseScalarEscape()
            } else {
                index += 1
                lo = c
            }
            guard peek() == 0x2D, let after = peek(1), after != 0x5D else {
                set.insert(lo, lo)
                continue
            }
            index += 1  // '-'
            let hi: UInt32
            if after == 0x5C {
                index += 1
                guard let e = peek(), ![0x64, 0x44, 0x77, 0x57, 0x73, 0x53, 0x62].contains(e) else {
                    throw RegexUnsupported(construct: "range to a class")
                }
                hi = try parseScalarEscape()
            } else if after == 0x5B || after == 0x2D {
                throw RegexUnsupported(construct: "set operator in class")
            } else {
                index += 1
                hi = after
            }
            guard lo <= hi else { throw RegexUnsupported(construct: "reversed range") }
            set.insert(lo, hi)
        }
    }
}
