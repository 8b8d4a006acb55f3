// Fuzz target `regex`: regular expressions from product definitions, with hostile patterns and
// values. Input: `pattern NUL value`. The pattern compiles (built-in linear-time engine, or the
// ICU fallback with its input and step limits) or fails with a regex code; then the match APIs
// must agree with each other and both validator modes give a verdict. Catastrophic patterns must
// finish: libFuzzer's -timeout catches a hang.
import CSECore
import CSEValidation

let regexContext = ValidationContext(currentMonth: CalendarMonth(year: 2026, month: 5)!)

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRegex(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    var input = FuzzInput(data, size)
    let pattern = text(input.field())
    let value = text(input.rest())
    checkRegex(pattern: pattern, value: value, context: regexContext)
    return 0
}

func checkRegex(pattern: String, value: String, context: ValidationContext) {
    let regex: RegexPattern
    do throws(CSEError) {
        regex = try RegexPattern(pattern)
    } catch {
        require([.regexInvalidPattern, .regexPatternTooLong].contains(error.code), "unexpected code \(error.code)")
        return
    }
    do throws(CSEError) {
        let count = try regex.numberOfMatches(in: value, limit: 2)
        let first = try regex.firstMatch(in: value)
        let whole = try regex.matchesWhole(value)
        require((count > 0) == (first != nil), "numberOfMatches and firstMatch disagree")
        if whole { require(count > 0, "a whole match without any match") }
        if let first {
            require(first.lowerBound >= value.startIndex && first.upperBound <= value.endIndex, "match outside the value")
        }
        // The ASCII DFAs (anchored, fixed-length and the ordered bounded-length one) count as the
        // backtracker does, which follows ICU's leftmost-first priority step by step.
        if regex.usesBuiltinEngine {
            let traced = try regex.numberOfMatches(in: value, limit: 2, strategy: .backtracker)
            require(traced == count, "the DFA and the backtracker count differently")
            let tracedWhole = try regex.matchesWhole(value, strategy: .backtracker)
            require(tracedWhole == whole, "the DFA and the backtracker disagree on a whole match")
        }
    } catch {
        require([.regexInputTooLong, .regexStepLimitExceeded].contains(error.code), "unexpected code \(error.code)")
    }
    // The validators wrap the calls above; one verdict each is enough.
    let verdict = RegularExpressionValidator(regex).validate(value, in: context)
    if verdict.isValid { require((try? regex.numberOfMatches(in: value, limit: 2)) == 1, "valid without exactly one match") }
}
