import CSECore
import Foundation
import Testing
@testable import CSEValidation

@Suite("regularExpression validator (reference §2, §5, §6)")
struct RegexValidatorTests {
    @Test("every pattern that skips the ICU check is one ICU accepts", arguments: RegexPattern.icuAcceptedPatterns.sorted())
    func icuAcceptedPatternsAreValid(pattern: String) throws {
        _ = try NSRegularExpression(pattern: pattern, options: [])
        _ = try NSRegularExpression(pattern: "\\A(?:" + pattern + ")\\z", options: [])
        #expect(try RegexPattern(pattern).usesBuiltinEngine)
    }

    private let context = ValidationContext(currentMonth: CalendarMonth(year: 2026, month: 1)!)

    private func verdict(_ pattern: String, _ value: String, _ mode: RegularExpressionValidator.MatchMode = .exactlyOneMatch) throws -> Bool
    {
        try RegularExpressionValidator(pattern: pattern, matchMode: mode).validate(value, in: context).isValid
    }

    @Test(
        "\\d{3} accepts exactly one match: 123 and 1234 valid, abc and 123456 invalid",
        arguments: [
            ("123", true), ("abc", false), ("1234", true), ("123456", false), ("", false), ("12", false), ("a123b", true),
        ])
    func worldlineExactlyOne(value: String, valid: Bool) throws {
        #expect(try verdict(#"\d{3}"#, value) == valid, "value \(value)")
    }

    @Test(
        "full-match mode requires the whole value",
        arguments: [
            ("123", true), ("1234", false), ("abc", false), ("123456", false),
        ])
    func fullMatch(value: String, valid: Bool) throws {
        #expect(try verdict(#"\d{3}"#, value, .fullMatch) == valid, "value \(value)")
    }

    @Test(
        "expiry date pattern of the builtin card product",
        arguments: [
            ("1235", true), ("0126", true), ("1335", false), ("0012", false), ("12/35", false), ("123", false),
            ("01234", true), ("12351235", false),
        ])
    func expiryPattern(value: String, valid: Bool) throws {
        #expect(try verdict("(?:0[1-9]|1[0-2])[0-9]{2}", value) == valid, "value \(value)")
    }

    @Test(
        "CVV pattern of the builtin card product",
        arguments: [
            ("123", true), ("1234", true), ("12", false), ("12345", false), ("12a", false), ("123\n", true), ("", false),
        ])
    func cvvPattern(value: String, valid: Bool) throws {
        #expect(try verdict("^[0-9]{3}[0-9]?$", value) == valid, "value \(value.debugDescription)")
    }

    @Test(
        "card number pattern of the PaymentRequest test facts",
        arguments: [
            ("4242424242424242", true), ("", true), ("4242 4242 4242 4242", false), ("4242a4242b4242c4", false),
        ])
    func cardPattern(value: String, valid: Bool) throws {
        #expect(try verdict("^[0-9]*$", value) == valid, "value \(value)")
    }

    @Test("\\d is Unicode Nd as in ICU; [0-9] is ASCII only")
    func arabicIndicDigits() throws {
        #expect(try verdict(#"\d{3}"#, "٤١١"))
        #expect(try !verdict("[0-9]{3}", "٤١١"))
        #expect(try verdict("^[0-9]{3}[0-9]?$", "٤١١١") == false)
    }

    @Test("the failure names the pattern, never the value")
    func failureParameters() throws {
        let result = try RegularExpressionValidator(pattern: #"\d{3}"#).validate("4111111111111111", in: context)
        #expect(result.failures == [ValidationFailure(.regularExpression, ["regularExpression": .string(#"\d{3}"#)])])
        #expect(!result.description.contains("4111"))
        #expect(try RegularExpressionValidator(pattern: "x").code == .regularExpression)
    }

    @Test(
        "an invalid pattern is a typed error when the rule is created",
        arguments: [
            "(", "[a-", "a{2,1}", "*a", "(?<", #"\"#, "[z-a]", "a)",
        ])
    func invalidPattern(pattern: String) {
        #expect(throws: CSEError(.regexInvalidPattern, "")) { try RegularExpressionValidator(pattern: pattern) }
    }

    @Test("a pattern over the length limit is rejected")
    func patternTooLong() {
        let pattern = String(repeating: "a", count: RegexPattern.maximumPatternLength + 1)
        #expect(throws: CSEError(.regexPatternTooLong, "")) { try RegexPattern(pattern) }
        #expect(throws: Never.self) { try RegexPattern(String(repeating: "a", count: RegexPattern.maximumPatternLength)) }
    }

    @Test("a value over the engine's limit is invalid with reason inputTooLong")
    func valueTooLong() throws {
        let validator = try RegularExpressionValidator(pattern: "^[0-9]*$")
        let value = String(repeating: "1", count: RegexPattern.maximumInputLength + 1)
        let result = validator.validate(value, in: context)
        #expect(result.failures.first?.parameters["reason"] == .string("inputTooLong"))
        #expect(result.failures.first?.parameters["maxInputLength"] == .int(RegexPattern.maximumInputLength))
        #expect(throws: CSEError(.regexInputTooLong, "")) { try validator.pattern.numberOfMatches(in: value) }
        #expect(validator.validate(String(repeating: "1", count: 10_000), in: context).isValid)
    }

    @Test("the ICU fallback has its own, smaller input limit")
    func fallbackLimit() throws {
        let validator = try RegularExpressionValidator(pattern: #"^(?=\d)\d+$"#)
        #expect(!validator.pattern.usesBuiltinEngine)
        #expect(validator.validate(String(repeating: "1", count: RegexPattern.maximumFallbackInputLength), in: context).isValid)
        let result = validator.validate(String(repeating: "1", count: RegexPattern.maximumFallbackInputLength + 1), in: context)
        #expect(result.failures.first?.parameters["reason"] == .string("inputTooLong"))
    }

    @Test("firstMatch returns the leftmost-first range")
    func firstMatch() throws {
        let value = "ab😀123x"
        let range = try #require(try RegexPattern(#"\d+"#).firstMatch(in: value))
        #expect(value[range] == "123")
        #expect(try RegexPattern("a|ab").firstMatch(in: "ab").map { String("ab"[$0]) } == "a")
        #expect(try RegexPattern("a|ab").matchesWhole("ab"))
        #expect(try RegexPattern("z").firstMatch(in: value) == nil)
    }

    @Test("patterns are values: equal by source, described as /pattern/")
    func patternValue() throws {
        #expect(try RegexPattern("a+") == RegexPattern("a+"))
        #expect(try RegexPattern("a+").description == "/a+/")
        #expect(RegularExpressionValidator.MatchMode.fullMatch.description == "fullMatch")
    }
}

/// Issue 8: hostile patterns must finish because the engine is linear by construction. These
/// assert correctness (the counts follow from the pattern), never time.
@Suite("regex denial of service")
struct RegexHostileTests {
    static let strategies: [RegexPattern.Strategy] = [.automatic, .backtracker, .pikeVM]

    @Test("(a+)+$ against 10,000 a's", arguments: strategies)
    func nestedPlus(strategy: RegexPattern.Strategy) throws {
        let regex = try RegexPattern("(a+)+$")
        #expect(regex.usesBuiltinEngine)
        let run = String(repeating: "a", count: 10_000)
        #expect(try regex.numberOfMatches(in: run + "!", limit: .max, strategy: strategy) == 0)
        #expect(try regex.numberOfMatches(in: run, limit: .max, strategy: strategy) == 1)
        #expect(try regex.matchesWhole(run + "!", strategy: strategy) == false)
    }

    @Test("(a|aa)*b against 5,000 a's", arguments: strategies)
    func overlappingAlternation(strategy: RegexPattern.Strategy) throws {
        let regex = try RegexPattern("(a|aa)*b")
        let run = String(repeating: "a", count: 5_000)
        #expect(try regex.numberOfMatches(in: run, limit: .max, strategy: strategy) == 0)
        #expect(try regex.numberOfMatches(in: run + "b", limit: .max, strategy: strategy) == 1)
        #expect(try regex.numberOfMatches(in: run + "b" + run + "b", limit: .max, strategy: strategy) == 2)
    }

    @Test("(.*a){12} against 10 kB", arguments: strategies)
    func dotStarPowers(strategy: RegexPattern.Strategy) throws {
        let regex = try RegexPattern("(.*a){12}")
        let noA = String(repeating: "b", count: 10_000)
        #expect(try regex.numberOfMatches(in: noA, limit: .max, strategy: strategy) == 0)
        // Eleven a's cannot satisfy twelve iterations; twelve can, once.
        let eleven = String(repeating: "b" + String(repeating: "x", count: 800) + "a", count: 11)
        #expect(try regex.numberOfMatches(in: eleven, limit: .max, strategy: strategy) == 0)
        #expect(try regex.numberOfMatches(in: eleven + "a", limit: .max, strategy: strategy) == 1)
    }

    @Test("an exponential-for-backtrackers email pattern against a long near-miss", arguments: strategies)
    func emailNearMiss(strategy: RegexPattern.Strategy) throws {
        let regex = try RegexPattern(#"^\w+([\.-]?\w+)*@\w+([\.-]?\w+)*(\.\w{2,3})+$"#)
        let value = String(repeating: "a", count: 5_000) + "!"
        #expect(try regex.numberOfMatches(in: value, limit: .max, strategy: strategy) == 0)
    }

    @Test("a catastrophic pattern in a validator yields a verdict on a 10 kB value")
    func validatorVerdict() throws {
        let validator = try RegularExpressionValidator(pattern: "(a+)+$")
        let context = ValidationContext(currentMonth: CalendarMonth(year: 2026, month: 1)!)
        #expect(!validator.validate(String(repeating: "a", count: 10_000) + "!", in: context).isValid)
    }
}
