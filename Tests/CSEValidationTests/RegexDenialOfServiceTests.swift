import CSECore
import CSEValidation
import Testing

/// Catastrophic backtracking (ReDoS) cannot hang validation. Patterns in the built-in subset run
/// in linear time by construction; patterns that need the ICU fallback (lookaround,
/// backreferences…) are cut off after ``RegexPattern/maximumFallbackProgressReports`` ICU
/// progress reports. Before that bound existed, `(a+)+(?=b)c` against 40 `a` ran for hours
/// (found by the `validators` fuzz target's hostile-pattern seeds).
@Suite("regular-expression denial of service is bounded")
struct RegexDenialOfServiceTests {
    private let context = ValidationContext(currentMonth: CalendarMonth(year: 2026, month: 5)!)

    static let runOfA = String(repeating: "a", count: RegexPattern.maximumFallbackInputLength)

    @Test(
        "classic catastrophic patterns run on the linear built-in engine",
        arguments: [
            "(a+)+$", "(a|aa)*b", "(.*a){12}", "^(a+)+$", "(\\w+\\s?)*$",
        ])
    func builtinPatterns(pattern: String) throws {
        let regex = try RegexPattern(pattern)
        #expect(regex.usesBuiltinEngine, "pattern \(pattern)")
        let value = String(repeating: "a", count: RegexPattern.maximumInputLength - 1) + "!"
        _ = try regex.numberOfMatches(in: value, limit: 2)
        _ = try regex.matchesWhole(value)
    }

    @Test(
        "catastrophic patterns that need ICU stop with regex.stepLimitExceeded",
        arguments: [
            "(a+)+(?=b)c", "(a|aa)+(?!a)b", "(a*)*\\1b", "(?<x>a+)+b",
        ])
    func fallbackPatterns(pattern: String) throws {
        let regex = try RegexPattern(pattern)
        #expect(!regex.usesBuiltinEngine, "pattern \(pattern)")
        #expect(throws: CSEError(.regexStepLimitExceeded, "")) { try regex.numberOfMatches(in: Self.runOfA, limit: 2) }
        #expect(throws: CSEError(.regexStepLimitExceeded, "")) { try regex.firstMatch(in: Self.runOfA) }
        #expect(throws: CSEError(.regexStepLimitExceeded, "")) { try regex.matchesWhole(Self.runOfA) }
    }

    @Test("the validator reports a step-limit value as invalid with reason stepLimit, never valid")
    func validatorVerdict() throws {
        for mode in [RegularExpressionValidator.MatchMode.exactlyOneMatch, .fullMatch] {
            let result = try RegularExpressionValidator(pattern: "(a+)+(?=b)c", matchMode: mode).validate(Self.runOfA, in: context)
            #expect(!result.isValid)
            #expect(result.failures.first?.code == .regularExpression)
            #expect(result.failures.first?.parameters["reason"] == .string("stepLimit"))
        }
    }

    @Test(
        "ordinary ICU-fallback patterns on maximum-length values still get their real verdict",
        arguments: [
            ("(?<=a)b", String(repeating: "a", count: 1_023) + "b", 1),
            ("(?=a)a", String(repeating: "b", count: 1_023) + "a", 1),
            ("(a|b)*(?=c)", runOfA, 0),
            ("\\p{L}+z", runOfA, 0),
            ("(\\d)\\1", String(repeating: "12", count: 511) + "33", 1),
        ])
    func benignFallback(pattern: String, value: String, matches: Int) throws {
        let regex = try RegexPattern(pattern)
        #expect(!regex.usesBuiltinEngine, "pattern \(pattern)")
        #expect(try regex.numberOfMatches(in: value, limit: 2) == matches, "pattern \(pattern)")
    }

    @Test("the fallback's input limit still applies first: regex.inputTooLong")
    func inputLimitFirst() throws {
        let regex = try RegexPattern("(a+)+(?=b)c")
        #expect(throws: CSEError(.regexInputTooLong, "")) { try regex.numberOfMatches(in: Self.runOfA + "a") }
    }
}
