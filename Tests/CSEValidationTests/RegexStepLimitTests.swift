import CSECore
@testable import CSEValidation
import Testing

/// The built-in engine is linear, but linear in program × input: a program of a few thousand
/// instructions on a long value is billions of steps. Every search, count or full match now
/// stops after ``RegexPattern/maximumBuiltinStepsPerSearch`` steps, and a request's searches
/// share ``RegexPattern/maximumStepsPerRequest`` on both engines. Assertions are on step counts
/// and errors, never on time.
@Suite("The regex engines stop at their step limits, per search and per request")
struct RegexStepLimitTests {
    /// About 3,000 instructions; on a run of `a` every alternative of every start in the last
    /// 999 offsets stays alive, so one search of 4,096 `a` needs about 10.8 million steps.
    static let heavy = "(?:[ab]{999}|[ac]{999}|[ad]{999})z"
    static let runOfA = String(repeating: "a", count: 4_096)

    @Test("a search of a large program on a long value stops at 5 M steps (it used to run to the end)")
    func builtinSearchLimit() throws {
        let regex = try RegexPattern(Self.heavy)
        #expect(regex.usesBuiltinEngine)
        for strategy in [RegexPattern.Strategy.automatic, .pikeVM] {
            do {
                _ = try regex.numberOfMatches(in: Self.runOfA, limit: 2, strategy: strategy)
                Issue.record("the search finished past the step limit (\(strategy))")
            } catch {
                #expect(error.code == .regexStepLimitExceeded)
                #expect(error.context["steps"] == String(RegexPattern.maximumBuiltinStepsPerSearch))
                #expect(error.context["budget"] == "search")
            }
        }
        #expect(throws: CSEError(.regexStepLimitExceeded, "")) { try regex.firstMatch(in: Self.runOfA) }
        let verdict = RegularExpressionValidator(regex).validate(Self.runOfA, in: ValidationContext())
        #expect(verdict.failures.first?.parameters[ValidationReason.parameterName] == .reason(.stepLimit))
    }

    @Test("the same program on a short value gets its verdict, and the steps it took are charged")
    func withinLimitCharged() throws {
        let regex = try RegexPattern(Self.heavy)
        let budget = RegexStepBudget(steps: 10_000_000)
        let value = String(repeating: "a", count: 999) + "z"
        #expect(try regex.numberOfMatches(in: value, limit: 2, budget: budget) == 1)
        // About 3 × 999² / 2 ≈ 1.5 M: at most two searches, each at most one step per
        // (instruction, offset).
        let used = 10_000_000 - budget.remainingSteps
        #expect(used > 1_000_000 && used <= 2 * 3_002 * (value.utf8.count + 1))
    }

    @Test("a request's budget is shared: once it is spent, every further search stops")
    func requestBudgetShared() throws {
        let regex = try RegexPattern(Self.heavy)
        let budget = RegexStepBudget(steps: 3_000_000)
        do {
            _ = try regex.numberOfMatches(in: Self.runOfA, limit: 2, budget: budget)
            Issue.record("the search passed the request's budget")
        } catch {
            #expect(error.code == .regexStepLimitExceeded)
            #expect(error.context["budget"] == "request")
            #expect(error.context["steps"] == "3000000")
        }
        #expect(budget.remainingSteps == 0)
        // A cheap search on the backtracker now stops too, and so does one on ICU.
        #expect(throws: CSEError(.regexStepLimitExceeded, "")) {
            try RegexPattern("(a|b)*c").numberOfMatches(in: "aab", limit: 2, budget: budget)
        }
        #expect(throws: CSEError(.regexStepLimitExceeded, "")) {
            try RegexPattern("a(?=b)").numberOfMatches(in: "aab", limit: 2, budget: budget)
        }
    }

    @Test("the ICU fallback charges the request 10,000 steps a progress report and stops at what is left")
    func fallbackSharesBudget() throws {
        let regex = try RegexPattern("(a|b)*(?=c)")
        #expect(!regex.usesBuiltinEngine)
        let value = String(repeating: "a", count: RegexPattern.maximumFallbackInputLength)
        // About 160 reports: within the search's own 250, past a request with 500,000 steps left.
        #expect(try regex.numberOfMatches(in: value, limit: 2) == 0)
        let budget = RegexStepBudget(steps: 500_000)
        do {
            _ = try regex.numberOfMatches(in: value, limit: 2, budget: budget)
            Issue.record("the ICU search passed the request's budget")
        } catch {
            #expect(error.code == .regexStepLimitExceeded)
            #expect(error.context["budget"] == "request")
        }
        #expect(budget.remainingSteps == 0)
        let roomy = RegexStepBudget(steps: 10_000_000)
        #expect(try regex.numberOfMatches(in: value, limit: 2, budget: roomy) == 0)
        let charged = 10_000_000 - roomy.remainingSteps
        #expect(charged >= 100 * RegexPattern.stepsPerProgressReport && charged <= 250 * RegexPattern.stepsPerProgressReport)
    }

    @Test(
        "payment patterns count maximum-length ASCII values on the DFA, which takes no steps",
        arguments: ["^[0-9]{3}[0-9]?$", "(?:0[1-9]|1[0-2])[0-9]{2}", "^[0-9]{13,19}$", "[0-9]{16}", "^[A-Z]{2}[0-9]{2}[A-Z0-9]{1,30}$"])
    func dfaTakesNoSteps(pattern: String) throws {
        let regex = try RegexPattern(pattern)
        let empty = RegexStepBudget(steps: 0)
        for value in [String(repeating: "1", count: RegexPattern.maximumInputLength), "1234", "0126", "DE89370400440532013000"] {
            _ = try regex.numberOfMatches(in: value, limit: 2, budget: empty)
            _ = try regex.matchesWhole(value, budget: empty)
        }
    }

    @Test("a step limit passes the classic linear cases: (.*a){12} on a maximum-length value takes about 3.2 M steps")
    func classicWithinLimit() throws {
        let value = String(repeating: "a", count: RegexPattern.maximumInputLength - 1) + "!"
        let budget = RegexStepBudget(steps: 100_000_000)
        #expect(try RegexPattern("(.*a){12}").numberOfMatches(in: value, limit: 2, budget: budget) == 1)
        let used = 100_000_000 - budget.remainingSteps
        #expect(used > 2_500_000 && used <= RegexPattern.maximumBuiltinStepsPerSearch)
    }
}
