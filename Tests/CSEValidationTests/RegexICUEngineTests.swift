import CSECore
@testable import CSEValidation
import Foundation
import TestSupport
import Testing

/// The ICU fallback calls ICU's C API from Debian's libicu, opened on first use (issue #16), in
/// place of `NSRegularExpression`. These tests pin what changed with it; the differential suites
/// (`RegexDifferentialTests`, `RegexFallbackStepBudgetTests`) compare its matches with
/// `NSRegularExpression` itself.
@Suite("RegexICUEngine: ICU's C API, loaded on first use")
struct RegexICUEngineTests {
    @Test("a long fallback pattern (over 256 UTF-16 units) compiles and matches as NSRegularExpression does")
    func longPattern() throws {
        // swift-corelibs-foundation leaked its copy of every such pattern (CSEKit kept a
        // process-wide cache to bound it); uregex_open does not, so no cache is needed.
        let pattern = "(?:" + String(repeating: "ab", count: 200) + ")+(?=c)"
        #expect(pattern.utf16.count > 256)
        let oracle = try NSRegularExpression(pattern: pattern)
        for _ in 0..<3 {
            let regex = try RegexPattern(pattern)
            #expect(!regex.usesBuiltinEngine)
            for value in [String(repeating: "ab", count: 200) + "c", String(repeating: "ab", count: 200), "c"] {
                let expected = oracle.numberOfMatches(in: value, range: NSRange(location: 0, length: value.utf16.count))
                #expect(try regex.numberOfMatches(in: value) == expected)
            }
        }
    }

    @Test("a rejected pattern names ICU's error, never a value", arguments: ["(", "a{2,1}", "[z-a]", "(?<=a+)b", "\\p{NoSuchProperty}"])
    func rejectedPattern(pattern: String) throws {
        #expect(throws: (any Error).self) { try NSRegularExpression(pattern: pattern) }
        let error = try #require(throws: CSEError.self) { try RegexPattern(pattern) }
        #expect(error.code == .regexInvalidPattern)
        let name = try #require(error.context["icuError"])
        #expect(name.hasPrefix("U_"), "\(name)")
        #expect(error.context["pattern"] == pattern)
    }

    @Test("a built-in-subset pattern outside the built-in products is still checked by ICU")
    func validityStillICUs() throws {
        // `[a-\d]` (a range ending in a class) is rejected by ICU, whichever engine would run it;
        // `[0-9]{4}`, which is not in the built-in products' list, passes ICU's check and then
        // runs on the built-in engine.
        #expect(throws: CSEError(.regexInvalidPattern, "")) { try RegexPattern("[a-\\d]") }
        #expect(try RegexPattern("[0-9]{4}").usesBuiltinEngine)
    }

    @Test(
        "searches share one compiled pattern across threads (one holds it, the others work on clones)",
        .tags(.concurrency))
    func concurrentSearches() async throws {
        let regex = try RegexPattern("(?<=a)b+(?=c)")
        #expect(!regex.usesBuiltinEngine)
        let counts = try await withThrowingTaskGroup(of: Int.self) { group in
            for index in 0..<8 {
                group.addTask {
                    var total = 0
                    for round in 0..<200 {
                        let value = String(repeating: "abbc", count: 1 + (index + round) % 5)
                        total += try regex.numberOfMatches(in: value)
                        #expect(try regex.matchesWhole(value) == false)
                    }
                    return total
                }
            }
            return try await group.reduce(0, +)
        }
        // Per task: rounds cycle through 1…5 repetitions, each repetition one match.
        let expected = (0..<8).reduce(0) { sum, index in sum + (0..<200).reduce(0) { $0 + 1 + (index + $1) % 5 } }
        #expect(counts == expected)
    }

    @Test("ICU's backtracking stack limit is a step-limit verdict, where NSRegularExpression silently finds nothing")
    func stackLimit() throws {
        // Every iteration of the alternation saves a backtrack frame holding all 480 groups
        // (≈ 7.7 KB); 1,000 iterations pass ICU's default 8 MB stack long before 2.5 M steps.
        let pattern = "(?:a" + String(repeating: "()", count: 480) + "|b)*(?=c)"
        let value = String(repeating: "a", count: 1_000) + "c"
        let regex = try RegexPattern(pattern)
        #expect(!regex.usesBuiltinEngine)
        let error = try #require(throws: CSEError.self) { try regex.numberOfMatches(in: value, limit: 2) }
        #expect(error.code == .regexStepLimitExceeded)
        #expect(error.context["icuError"] == "U_REGEX_STACK_OVERFLOW")
        // Foundation stops its enumeration on the same ICU failure and reports no match at all,
        // although the value matches (the whole run of a, then the lookahead sees c).
        let oracle = try NSRegularExpression(pattern: pattern)
        #expect(oracle.numberOfMatches(in: value, range: NSRange(location: 0, length: value.utf16.count)) == 0)
        // The validator turns it into an invalid verdict with the step-limit reason.
        let result = RegularExpressionValidator(regex).validate(
            value, in: ValidationContext(currentMonth: CalendarMonth(year: 2026, month: 5)!))
        #expect(result.failures.first?.parameters["reason"] == .string("stepLimit"))
        // A shorter run stays within the stack and matches.
        let short = String(repeating: "a", count: 100) + "c"
        #expect(try regex.numberOfMatches(in: short, limit: 2) >= 1)
    }
}
