import CSECore
@testable import CSEValidation
import Foundation
import Testing

/// Issue #13 F07: the ICU fallback's step budget was about 5× the documented one. The search
/// allowed one progress report per start position on top of the 250 step reports, and ICU's
/// per-step and per-position reports look the same, so one anchored attempt (`^…`, or a full
/// match) could use 1,275 reports (12.75 M steps) on a 1,024-unit value. Now only step reports
/// exist and 250 of them (2.5 M steps) end any search, count or full match.
@Suite("the ICU fallback step budget is the documented 2.5 M steps (F07)")
struct RegexFallbackStepBudgetTests {
    /// About 416 step reports (4.2 M steps) in one attempt at position 0 on 200 `a`: over the
    /// documented budget, under the old one (200 + 1 + 250 = 451 reports).
    static let cubic = "^(?:a|b)*(?:a|b)*(?:a|b)*(?=c)"
    static let twoHundredA = String(repeating: "a", count: 200)

    @Test("an anchored search costing ~4.2 M steps stops with regex.stepLimitExceeded (the old budget let it finish)")
    func anchoredSearchOverBudget() throws {
        let regex = try RegexPattern(Self.cubic)
        #expect(!regex.usesBuiltinEngine)
        #expect(throws: CSEError(.regexStepLimitExceeded, "")) { try regex.numberOfMatches(in: Self.twoHundredA, limit: 2) }
        #expect(throws: CSEError(.regexStepLimitExceeded, "")) { try regex.firstMatch(in: Self.twoHundredA) }
        let result = try RegularExpressionValidator(pattern: Self.cubic).validate(
            Self.twoHundredA, in: ValidationContext(currentMonth: CalendarMonth(year: 2026, month: 5)!))
        #expect(result.failures.first?.parameters["reason"] == .string("stepLimit"))
    }

    @Test("a full match costing ~4.2 M steps stops too (a full match has one start position)")
    func fullMatchOverBudget() throws {
        let regex = try RegexPattern("(?:a|b)*(?:a|b)*(?:a|b)*(?=c)")
        #expect(throws: CSEError(.regexStepLimitExceeded, "")) { try regex.matchesWhole(Self.twoHundredA) }
    }

    @Test("the same pattern within budget still gets its verdict (150 a: ~177 reports)")
    func withinBudget() throws {
        let regex = try RegexPattern(Self.cubic)
        #expect(try regex.numberOfMatches(in: String(repeating: "a", count: 150), limit: 2) == 0)
        #expect(try regex.numberOfMatches(in: String(repeating: "a", count: 150) + "c", limit: 2) == 1)
    }

    @Test(
        "the stepwise search finds ICU's own matches (differential against NSRegularExpression)",
        arguments: [
            "(?=x)", "(?<=a)b", "^a", "a$", "\\bab", "(\\d)\\1", "(?i)abc", "x*", "a|(?=b)", "(?<x>a)\\k<x>",
            "\\p{L}+", "(?!a).", "$", "^", "(?m)^b", "a(?=b)", "(?=😀)", "\\Gab", "(a)|b", "(?:)",
        ])
    func stepwiseMatchesICU(pattern: String) throws {
        let engine = try RegexICUEngine(pattern: pattern)
        let icu = try NSRegularExpression(pattern: pattern)
        for value in ["", "a", "ab", "aab", "xaxb", "abab", "1122", "ABCabc", "b\nb", "😀a😀b", "xx", "ba", "aabb", "ab ab"] {
            let expected = icu.matches(in: value, range: NSRange(location: 0, length: value.utf16.count)).map {
                $0.range.location..<($0.range.location + $0.range.length)
            }
            #expect(try engine.numberOfMatches(in: value, limit: .max) == expected.count, "\(pattern) on \(value.debugDescription)")
            #expect(try engine.numberOfMatches(in: value, limit: 2) == min(expected.count, 2), "\(pattern) on \(value.debugDescription)")
            #expect(try engine.firstMatch(in: value) == expected.first, "\(pattern) on \(value.debugDescription)")
        }
    }

    @Test("first matches keep ICU's boundaries")
    func firstMatchBoundaries() throws {
        let value = "xxab"
        let found = try #require(try RegexPattern("(?<=x)ab").firstMatch(in: value))
        #expect(value[found] == "ab")
        let lookahead = try #require(try RegexPattern("x(?=a)").firstMatch(in: value))
        #expect(value.utf16.distance(from: value.startIndex, to: lookahead.lowerBound) == 1)
    }
}
