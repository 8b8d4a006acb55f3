import CSECore
@testable import CSEValidation
import Testing

/// swift-corelibs-foundation leaks its UTF-16 copy of every successfully compiled pattern longer
/// than 256 units (found by the `product` fuzz target under LeakSanitizer). CSEKit compiles each
/// such pattern once per process, so loading the same definitions again does not leak again.
@Suite("Hardening: long ICU patterns are compiled once per process")
struct HardeningRegexLeakTests {
    @Test("a long fallback pattern compiled twice shares one NSRegularExpression")
    func longPatternShared() throws {
        let pattern = "(?:" + String(repeating: "ab", count: 200) + ")+(?=c)"
        #expect(pattern.utf16.count > CompiledPatternCache.leakThreshold)
        let first = try RegexPattern(pattern)
        let second = try RegexPattern(pattern)
        #expect(!first.usesBuiltinEngine)
        #expect(try first.numberOfMatches(in: String(repeating: "ab", count: 200) + "c") == 1)
        #expect(try second.matchesWhole(String(repeating: "ab", count: 200)) == false)
        #expect(try CompiledPatternCache.shared.regex(for: pattern) === (try CompiledPatternCache.shared.regex(for: pattern)))
    }

    @Test("a long built-in pattern is validated through the same store")
    func longBuiltinValidated() throws {
        let pattern = "^(?:" + String(repeating: "[0-9]", count: 100) + ")$"
        #expect(pattern.utf16.count > CompiledPatternCache.leakThreshold)
        let regex = try RegexPattern(pattern)
        #expect(regex.usesBuiltinEngine)
        #expect(CompiledPatternCache.shared.contains(pattern), "validated through the store")
    }

    @Test("short patterns are not stored (they do not leak)")
    func shortNotStored() throws {
        _ = try RegexPattern("(?<=a)b")
        #expect(!CompiledPatternCache.shared.contains("(?<=a)b"))
    }
}
