import CSECore
import Foundation
import Testing
import TestSupport
@testable import CSEValidation

/// The oracle: ICU through `NSRegularExpression`, used the way the Worldline SDK uses it, but over
/// the whole value (UTF-16 length).
private struct ICUOracle {
    let search: NSRegularExpression
    let full: NSRegularExpression

    init(_ pattern: String) throws {
        search = try NSRegularExpression(pattern: pattern, options: [])
        full = try NSRegularExpression(pattern: "\\A(?:" + pattern + ")\\z", options: [])
    }

    func count(_ value: String) -> Int {
        search.numberOfMatches(in: value, options: [], range: NSRange(location: 0, length: value.utf16.count))
    }

    func first(_ value: String) -> Range<Int>? {
        guard let m = search.firstMatch(in: value, options: [], range: NSRange(location: 0, length: value.utf16.count))
        else { return nil }
        return m.range.location..<(m.range.location + m.range.length)
    }

    func matchesWhole(_ value: String) -> Bool {
        full.firstMatch(in: value, options: [], range: NSRange(location: 0, length: value.utf16.count)) != nil
    }
}


enum RegexCorpus {
    /// The builtin products' patterns (reference §2, §5, §6) and typical Worldline / PayFort field
    /// patterns, plus syntax and priority edge cases.
    static let productPatterns: [String] = [
        #"\d{3}"#,
        #"(?:0[1-9]|1[0-2])[0-9]{2}"#,
        #"^[0-9]{3}[0-9]?$"#,
        #"^[0-9]*$"#,
        #"^[^@\.]+(\.[^@\.]+)*@([^@\.]+\.)*[^@\.]+\.[^@\.][^@\.]+$"#,
        #"^[A-Z]{2}[0-9]{2}[A-Z0-9]{4}[0-9]{7}([A-Z0-9]?){0,16}$"#,
    ]

    static let fieldPatterns: [String] = [
        #"^[0-9]{5}$"#, #"^[0-9]{4} ?[A-Z]{2}$"#, #"^[A-Z]{1,2}[0-9][A-Z0-9]? ?[0-9][A-Z]{2}$"#,
        #"^\d{5}(-\d{4})?$"#, #"^[0-9]{3}-[0-9]{4}$"#, #"^\+?[0-9 ()\-]{7,20}$"#,
        #"^(\+|00)[1-9][0-9]{7,14}$"#, #"^05\d{8}$"#, #"^[A-Za-z ,.'\-]{1,50}$"#,
        #"^[a-zA-Z\u00C0-\u017F' \-]+$"#, #"^\d+(\.\d{1,2})?$"#, #"^[0-9]{1,10}$"#,
        #"^(0|[1-9][0-9]*)(\.[0-9]{2})?$"#, #"^[a-zA-Z0-9_\-]{1,40}$"#, #"^[A-Z]{3}$"#, #"^[a-z]{2}$"#,
        #"^\w+([\.-]?\w+)*@\w+([\.-]?\w+)*(\.\w{2,3})+$"#, #"[0-9]{13,19}"#, #"^4[0-9]{12}(?:[0-9]{3})?$"#,
        #"^3[47][0-9]{13}$"#, #"^(?:5[1-5][0-9]{2}|222[1-9]|22[3-9][0-9]|2[3-6][0-9]{2}|27[01][0-9]|2720)[0-9]{12}$"#,
        #"^[0-9]{2}/[0-9]{2}$"#, #"^\s*\S.*$"#, #"^[^<>%$]*$"#, #"\d{3}\s?\d{3}"#,
    ]

    static let edgePatterns: [String] = [
        "a|ab", "ab|a", "a*?b", "(a|b)*?c", "x*", #"\bfoo\b"#, #"\Bo"#, "^$", "$", "^", "a$", ".+", ".*?",
        "[^a-c]+", #"\D+"#, #"\s+"#, #"\W"#, #"a\Z"#, #"a\z"#, #"\A\d"#, "colou?r", #"[$€]\d+"#, "[a^]",
        "[-a]", "[a-]", #"\x41"#, #"\u0041+"#, #"\x{1F600}"#, "a{2,}", "a{0,3}?", "(ab|a)(bc|c)?",
        #"[\-\/]"#, #"\."#, #"\\"#, "a{2}", "(a|aa)+?", ".", "..", "é", #"[\u0300-\u036F]"#, "(?:)", "a||b",
        #"[\d.]+"#, #"[^\d\s]"#, #"[\w-]+"#, "(a+)+$", "(a|aa)*b", "\t| ", #"\r\n?|\n"#, "[\n]", "a.c",
        #"\u00E9|e\u0301"#, "😀+", #"\b"#, #"\B"#, "(?:a|b)*", "[a-z]*?[0-9]",
    ]

    /// Unanchored patterns of bounded length where leftmost-first priority decides the end of a
    /// match (a longest-match DFA would count these differently from ICU).
    static let boundedPriorityPatterns: [String] = [
        "a|ab", "ab|a", "(ab|a)(bc|c)?", "colou?r", "a{1,3}?", "a{2,4}?b?", "(?:a|ab)(?:c|bcd)",
        "(?:ab|a)(?:bc|c){1,2}", "a?b{1,3}|ab", "(?:a|b|ab){1,3}?c?", "[0-9]{2,4}?", "[0-9]{13,19}",
        #"\d{3}\s?\d{3}"#, "(?:1|12|123)(?:23|3)?", "b{1,60}",
    ]

    /// Patterns whose constructs the built-in engine declines (they must run on ICU).
    static let fallbackPatterns: [String] = [
        #"(?=a)a"#, #"(a)\1"#, #"\p{L}+"#, #"(?i)abc"#, "a*+", "(?<name>a)", #"[[a-z]&&[^aeiou]]"#,
        #"([A-Z0-9]?){0,16}"#, "(a*)*", "(?>a+)b", #"\Qa.b\E"#, "[]a]",
    ]

    /// Values every pattern meets.
    static let fixedValues: [String] = [
        "", "1", "12", "123", "1234", "123456", "12345678", "abc", "a", "aa", "aaa", "ab", "abc\n", "12\r\n",
        "123\n", "123\r", "123\r\n", "0123", "1235", "1335", "0012", "01234", "٤١١", "١٢٣٤", "x😀y", "😀😀",
        "e\u{301}", "é", "foo bar", "foo\u{301} bar", "\u{2028}", "a\u{85}", "colour", "color", "$12",
        "€5", "4242424242424242", "4242 4242 4242 4242", "378282246310005", "5555555555554444",
        "fred@example.com", "a.b@c.de", "Abc.example.com", "A@b@c@example.com", "GB33BUKB20201555555555",
        "1234 AB", "SW1A 1AA", "12345-6789", "+31 20 123 4567", "0031201234567", "0512345678",
        "O'Brien-Smith", "Zoë", "12.50", "0.5", "ORD_123-abc", "EUR", "en", "12/25", "  x", "<b>",
        "a-b/c", "a.c", "abbc", "aab", "\t", " ", "a\nb", "\u{200D}", "foo", "x foo y", "ax", "_",
    ]

    static var allBuiltinPatterns: [String] { productPatterns.filter { $0 != productPatterns[5] } + fieldPatterns + edgePatterns }

    /// `count` random values over the pattern's literal characters plus a base alphabet, from a
    /// seed derived from the pattern so each case is reproducible on its own.
    static func randomValues(for pattern: String, count: Int) -> [String] {
        let base = Array("0123456789aAbZz .-_@/+\n\r\t€٤é\u{301}😀")
        let literals = pattern.filter { !"\\^$[]{}()|*+?".contains($0) }
        let alphabet = base + Array(literals)
        var rng = SplitMix64(seed: pattern.utf8.reduce(0xC0FFEE) { $0 &* 31 &+ UInt64($1) })
        return (0..<count).map { _ in
            let length = Int.random(in: 0...14, using: &rng)
            return String((0..<length).map { _ in alphabet[Int.random(in: 0..<alphabet.count, using: &rng)] })
        }
    }
}

@Suite("RegexPattern agrees with NSRegularExpression")
struct RegexDifferentialTests {
    @Test(
        "patterns of the product definitions and field corpus run on the built-in engine",
        arguments: RegexCorpus.allBuiltinPatterns)
    func usesBuiltin(pattern: String) throws {
        #expect(try RegexPattern(pattern).usesBuiltinEngine, "pattern \(pattern)")
    }

    @Test("the builtin products' patterns count with the ASCII DFA", arguments: RegexCorpus.productPatterns.prefix(5))
    func usesDFA(pattern: String) throws {
        #expect(try RegexPattern(pattern).hasDFA, "pattern \(pattern)")
    }

    /// The DFA is the normal path for payment fields: every field pattern of the corpus has one,
    /// including the unanchored variable-length ones (`[0-9]{13,19}`, `\d{3}\s?\d{3}`), whose
    /// count depends on leftmost-first priority and which take the ordered DFA (docs/SECURITY.md,
    /// issue #24 point 1).
    @Test("every payment field pattern counts with the ASCII DFA", arguments: RegexCorpus.fieldPatterns)
    func fieldPatternsUseDFA(pattern: String) throws {
        #expect(try RegexPattern(pattern).hasDFA, "pattern \(pattern)")
    }

    /// Unanchored patterns whose matches are 1 to 64 scalars long take the ordered DFA, where
    /// priority decides where a match ends: alternatives, lazy and greedy bounded quantifiers.
    @Test("unanchored bounded-length patterns count with the ordered DFA", arguments: RegexCorpus.boundedPriorityPatterns)
    func boundedPatternsUseDFA(pattern: String) throws {
        #expect(try RegexPattern(pattern).hasDFA, "pattern \(pattern)")
    }

    /// The ordered DFA against ICU on ASCII values made of the pattern's own letters, where
    /// priority matters most: long runs (`aaaa…`, digits) and near misses.
    @Test("the ordered DFA counts as ICU does on dense ASCII values", arguments: RegexCorpus.boundedPriorityPatterns)
    func orderedDFAAgrees(pattern: String) throws {
        let oracle = try ICUOracle(pattern)
        let regex = try RegexPattern(pattern)
        let letters = Array(Set(pattern.filter { $0.isASCII && ($0.isLetter || $0.isNumber) })).sorted() + ["0", "9", " "]
        var rng = SplitMix64(seed: pattern.utf8.reduce(0xD1FA) { $0 &* 31 &+ UInt64($1) })
        let values = (0..<400).map { i -> String in
            let length = i < 40 ? i : Int.random(in: 0...80, using: &rng)
            return String((0..<length).map { _ in letters[Int.random(in: 0..<letters.count, using: &rng)] })
        }
        for value in values + [String(repeating: "a", count: 70), String(repeating: "1234567890", count: 9)] {
            #expect(
                try regex.numberOfMatches(in: value, limit: .max, strategy: .automatic) == oracle.count(value),
                "pattern \(pattern) value \(value.debugDescription)")
        }
    }

    /// Patterns that may match the empty string, or whose matches have no upper bound, or are
    /// longer than 64, or contain assertions, keep the backtracker and the Pike VM.
    @Test(
        "nullable, unbounded, over-long or asserting unanchored patterns have no DFA",
        arguments: ["a{0,3}?", "x*", "a{2,}", "[0-9]{13,65}", #"\bfoo\b"#, "(a|aa)+?", "a$"])
    func patternsWithoutDFA(pattern: String) throws {
        #expect(try !RegexPattern(pattern).hasDFA, "pattern \(pattern)")
    }

    @Test("patterns outside the subset fall back to ICU", arguments: RegexCorpus.fallbackPatterns)
    func fallsBack(pattern: String) throws {
        #expect(try !RegexPattern(pattern).usesBuiltinEngine, "pattern \(pattern)")
    }

    @Test(
        "same match count, first match and verdicts in both modes, on both matchers",
        arguments: RegexCorpus.productPatterns + RegexCorpus.fieldPatterns + RegexCorpus.edgePatterns
            + RegexCorpus.boundedPriorityPatterns + RegexCorpus.fallbackPatterns)
    func agrees(pattern: String) throws {
        let oracle = try ICUOracle(pattern)
        let regex = try RegexPattern(pattern)
        let exactlyOne = RegularExpressionValidator(regex)
        let full = RegularExpressionValidator(regex, matchMode: .fullMatch)
        let context = ValidationContext(currentMonth: CalendarMonth(year: 2026, month: 1)!)
        for value in RegexCorpus.fixedValues + RegexCorpus.randomValues(for: pattern, count: 80) {
            let id = "pattern \(pattern) value \(value.debugDescription)"
            let expected = oracle.count(value)
            for strategy in [RegexPattern.Strategy.automatic, .backtracker, .pikeVM] {
                #expect(
                    try regex.numberOfMatches(in: value, limit: .max, strategy: strategy) == expected,
                    "\(id) strategy \(strategy)")
                #expect(
                    try regex.matchesWhole(value, strategy: strategy) == oracle.matchesWhole(value),
                    "\(id) strategy \(strategy) fullMatch")
            }
            let first = try regex.firstMatch(in: value).map {
                value.utf16.distance(
                    from: value.startIndex, to: $0.lowerBound)..<value.utf16.distance(from: value.startIndex, to: $0.upperBound)
            }
            #expect(first == oracle.first(value), "\(id) first match")
            #expect(exactlyOne.validate(value, in: context).isValid == (expected == 1), "\(id) exactlyOneMatch")
            #expect(full.validate(value, in: context).isValid == oracle.matchesWhole(value), "\(id) fullMatch verdict")
        }
    }

    /// Class membership over every Unicode scalar, chunked, compared match by match with ICU.
    @Test(
        "predefined classes, dot and word boundaries agree with ICU on every scalar",
        arguments: [#"\d"#, #"\D"#, #"\w"#, #"\W"#, #"\s"#, #"\S"#, ".", #"[^\d\s]"#, #"\b"#, #"\B"#, "$"])
    func everyScalar(pattern: String) throws {
        let oracle = try ICUOracle(pattern)
        let regex = try RegexPattern(pattern)
        let scalars = Self.scalarsAssignedInBoth
        let chunk = 4_000
        var mismatches: [String] = []
        var start = 0
        while start < scalars.count {
            var value = String.UnicodeScalarView()
            value.append(contentsOf: scalars[start..<min(start + chunk, scalars.count)])
            let text = String(value)
            var icu: [Int] = []
            oracle.search.enumerateMatches(in: text, options: [], range: NSRange(location: 0, length: text.utf16.count)) { m, _, _ in
                if let m { icu.append(m.range.location) }
            }
            let ours = try Self.matchStarts(regex, text)
            if ours != icu {
                let a = Set(ours), b = Set(icu)
                for o in a.symmetricDifference(b).sorted().prefix(5) {
                    let s =
                        text.utf16[text.utf16.index(text.utf16.startIndex, offsetBy: o)...].first.map { String(format: "%04X", $0) }
                        ?? "end"
                    mismatches.append("U+\(s) ours=\(a.contains(o)) icu=\(b.contains(o))")
                }
            }
            start += chunk
        }
        #expect(mismatches.isEmpty, "pattern \(pattern): \(mismatches.prefix(20))")
    }

    /// Every scalar that both Swift's Unicode tables and Foundation's ICU consider assigned. The
    /// two ship different Unicode versions (the standard library is newer), and scalars assigned
    /// only in the newer one legitimately differ; the engine documents that it uses Swift's tables.
    static let scalarsAssignedInBoth: [Unicode.Scalar] = {
        var all = String.UnicodeScalarView()
        for v in UInt32(0)...0x10FFFF {
            if let s = Unicode.Scalar(v), s.properties.generalCategory != .unassigned { all.append(s) }
        }
        let text = String(all)
        var unassignedInICU = Set<Int>()
        let cn = try! NSRegularExpression(pattern: #"\p{Cn}"#)
        cn.enumerateMatches(in: text, options: [], range: NSRange(location: 0, length: text.utf16.count)) { m, _, _ in
            if let m { unassignedInICU.insert(m.range.location) }
        }
        var result: [Unicode.Scalar] = []
        var unit = 0
        for s in text.unicodeScalars {
            if !unassignedInICU.contains(unit) { result.append(s) }
            unit += UTF16.width(s)
        }
        return result
    }()

    /// Match starts in UTF-16 offsets, from the engine's own enumeration.
    static func matchStarts(_ regex: RegexPattern, _ text: String) throws -> [Int] {
        var starts: [Int] = []
        try regex.enumerateMatches(in: text) { lower, _ in starts.append(lower) }
        var utf16Offsets: [Int] = []
        var byte = 0, unit = 0
        var it = starts.makeIterator()
        var next = it.next()
        for s in text.unicodeScalars {
            while let n = next, n == byte { utf16Offsets.append(unit); next = it.next() }
            byte += UTF8.width(s)
            unit += UTF16.width(s)
        }
        while next != nil { utf16Offsets.append(unit); next = it.next() }
        return utf16Offsets
    }
}
