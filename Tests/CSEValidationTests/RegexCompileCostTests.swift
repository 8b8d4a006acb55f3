import CSECore
@testable import CSEValidation
import Testing

/// A compiled pattern is small and built on first use: a class repeated by `{n}` is stored once,
/// the instructions once (not once per matcher), and nothing is compiled before the first value.
/// What a pattern will cost is known from its syntax alone, exactly for instructions.
@Suite("Regex programs are compact, compiled on first use, and sized before compiling")
struct RegexCompileCostTests {
    static let heavy =
        "(?:[ab]{999}|[ac]{999}|[ad]{999}|[ae]{999}|[af]{999}|[ag]{999}|[ah]{999}|[ai]{999}|[aj]{999}|[ak]{999}|[al]{999}|[am]{999}|[an]{999}|[ao]{999}|[ap]{999}|[aq]{999}|[ar]{999}|[as]{999}|[at]{999})z"

    @Test("a class repeated 999 times is one class of the program (it was 999)")
    func classesShared() throws {
        let program = try RegexProgram(try RegexParser.parse("[ab]{999}[0-9]{3}[ab]"), fullMatch: false)
        #expect(program.sets.count == 2)
        #expect(program.instructions.count == 1_003 + 1)
    }

    @Test("the largest program compiles to about 230 KB per matcher (it held about 3.3 MB)")
    func largestProgramBytes() throws {
        let regex = try RegexPattern(Self.heavy)
        #expect(regex.usesBuiltinEngine)
        #expect(regex.compiledByteCount == 0)
        _ = try regex.numberOfMatches(in: "az", limit: 2)
        let search = regex.compiledByteCount
        #expect(search > 18 * 999 * 12 && search < 19_000 * 12 + 4_096)
        _ = try regex.matchesWhole("az")
        #expect(regex.compiledByteCount <= regex.compileCost.bytes)
        #expect(regex.compileCost.instructions == 19 * 999 + 18 * 2 + 2)
    }

    @Test("a large program is not compiled before the first value, and copies share what is compiled")
    func compiledOnFirstUse() throws {
        let regex = try RegexPattern("^[0-9]{600}$")
        #expect(regex.compileCost.instructions > RegexPattern.eagerInstructionLimit)
        let copy = regex
        #expect(regex.compiledByteCount == 0)
        #expect(try copy.numberOfMatches(in: String(repeating: "1", count: 600), limit: 2) == 1)
        #expect(regex.compiledByteCount > 0)
        #expect(regex.compiledByteCount <= regex.compileCost.bytes)
    }

    @Test("a small program (every payment pattern) is compiled with the pattern, within its bound")
    func smallProgramsCompiledEagerly() throws {
        let regex = try RegexPattern("^[0-9]{3}[0-9]?$")
        #expect(regex.compiledByteCount > 0)
        #expect(regex.compiledByteCount <= regex.compileCost.bytes)
        #expect(regex.hasDFA)
    }

    @Test(
        "the instruction count known from the syntax is the compiled program's, in both modes",
        arguments: [
            "", "a", "abc", "a|b|c", "(?:a|bc)*d", "a+?", "a{3}", "a{2,5}", "a{2,}", "(?:ab|c){2,4}x", "^\\d{3}\\d?$",
            "[0-9]{13,19}", "(a+)+$", "(.*a){12}", "\\bfoo\\B", "(?:0[1-9]|1[0-2])[0-9]{2}", "x*?y??z{0,3}",
            RegexCompileCostTests.heavy,
        ])
    func instructionCountExact(pattern: String) throws {
        let node = try RegexParser.parse(pattern)
        for fullMatch in [false, true] {
            let program = try RegexProgram(node, fullMatch: fullMatch)
            #expect(node.instructionCount(fullMatch: fullMatch) == program.instructions.count, "\(pattern) \(fullMatch)")
        }
    }

    @Test("the built-in engine takes programs up to 20,000 instructions, decided without compiling")
    func programLimitEdge() throws {
        // 20 × 999 + 2 (end assertion, match) = 19,982 for the full match: built-in.
        #expect(try RegexPattern("(?:a{999}){20}").usesBuiltinEngine)
        #expect(RegexPattern.plan("(?:a{999}){20}")?.usesBuiltinEngine == true)
        // 20 × 1,000 + 2 = 20,002: ICU.
        #expect(try !RegexPattern("(?:a{1000}){20}").usesBuiltinEngine)
        #expect(RegexPattern.plan("(?:a{1000}){20}")?.usesBuiltinEngine == false)
        // Nested bounds that would overflow a product saturate instead.
        #expect(RegexPattern.plan("(?:(?:(?:(?:(?:(?:a{1000}){1000}){1000}){1000}){1000}){1000}){1000}")?.usesBuiltinEngine == false)
        #expect(RegexPattern.plan(String(repeating: "a", count: RegexPattern.maximumPatternLength + 1)) == nil)
    }
}
