import CSECore

/// A compiled ICU-syntax regular expression, immutable and safe to share between threads.
///
/// ## Engines
/// Every pattern is first compiled by ICU (`uregex_open`, no flags, as `NSRegularExpression`
/// compiles it; Debian's libicu, loaded on first use), so a pattern is
/// valid exactly when ICU accepts it; the patterns of the built-in products
/// (`icuAcceptedPatterns`, each checked against ICU by a test) skip that check, so a process that
/// only uses them never loads ICU's data. Then:
/// - **Built-in engine** (`usesBuiltinEngine` is `true`): patterns in the common subset run on
///   a compiled instruction program, matched by a visited-state backtracker (RE2 "BitState") for
///   short inputs or a Pike VM for long ones. Start-anchored and fixed-length patterns also get an
///   ASCII DFA (at most 64 states) that answers match counts of ASCII values without backtracking. Both follow ICU/Perl leftmost-first priority, so
///   match boundaries, and hence match counts, equal ICU's. Time is O(program × input) by
///   construction: catastrophic backtracking (`(a+)+$`, `(a|aa)*b`, `(.*a){12}`) cannot happen.
///   The subset: literals; escapes `\d \D \w \W \s \S \n \r \t \f \a \e \uhhhh \Uhhhhhhhh \xhh
///   \x{h…}` and any escaped ASCII punctuation; classes `[…]`/`[^…]` with ranges and those
///   escapes; `.`; anchors `^ $ \A \z \Z \b \B`; groups `(…)` and `(?:…)`; alternation `|`;
///   greedy and lazy quantifiers `* + ? {n} {n,} {n,m}` (bounds ≤ 1,000).
/// - **ICU fallback** (`usesBuiltinEngine` is `false`): anything else (lookaround,
///   backreferences, named groups, `\p{…}`, nested sets, inline flags, possessive quantifiers,
///   repeated sub-patterns that can match empty…) runs on ICU's regex engine, called as
///   `NSRegularExpression` calls it (`RegexICUEngine`). ICU backtracks,
///   so this engine only accepts values up to ``maximumFallbackInputLength`` UTF-16 units; with
///   the pattern limit that bounds, but does not make linear, its running time.
///
/// ## Semantics (ICU, default flags)
/// - Matching is over Unicode scalars (ICU code points), not Characters: `.` consumes one scalar.
/// - `.` matches anything but the ICU line terminators `\n \u000B \f \r \u0085 \u2028 \u2029`.
/// - `\d` is Unicode `Nd`, so Arabic-Indic `٤` is a digit; write `[0-9]` for ASCII digits.
///   `\w` is `[\p{Alphabetic}\p{M}\p{Nd}\p{Pc}\u200C\u200D]`, `\s` is `\p{White_Space}`.
/// - `^` matches only at the start; `$` at the end or before a final line terminator.
/// - Matching always covers the whole value. The Worldline SDK passes `NSRange(0, value.count)`,
///   a Character count, so for values with combining marks or astral scalars it searched only a
///   prefix of the value; that bug is not reproduced.
public struct RegexPattern: Sendable, Hashable, CustomStringConvertible {
    /// The longest accepted pattern, in Unicode scalars.
    public static let maximumPatternLength = 1_000
    /// The longest value the built-in engine matches, in UTF-8 bytes.
    public static let maximumInputLength = 65_536
    /// The longest value the ICU fallback matches, in UTF-16 code units.
    public static let maximumFallbackInputLength = 1_024

    /// Patterns ICU is known to accept: those of the built-in products (`BuiltinProducts`). A
    /// pattern in this set that the built-in engine also parses is compiled without asking ICU, so
    /// `cse seal --product builtin:card` never initialises ICU (whose first regex compilation cost
    /// a one-shot `cse seal` 8.1 M instructions, 16% of it; Benchmarks/README.md, round two).
    /// `RegexValidatorTests` checks every entry with `NSRegularExpression`, and
    /// `BuiltinProductsTests` that every built-in pattern is listed.
    package static let icuAcceptedPatterns: Set<String> = [
        "(?:0[1-9]|1[0-2])[0-9]{2}",
        "^[0-9]{3}[0-9]?$",
    ]

    /// How many ICU backtracking progress reports (one per 10,000 steps, so at most 2.5 million
    /// steps in all) one search, count or full match on the ICU fallback may take before it stops
    /// with ``CSEError/Code/regexStepLimitExceeded``. Only step reports count: the search runs in
    /// a form where ICU never moves the start position itself (see `RegexICUEngine`), so
    /// the per-start-position reports that used to be allowed on top (up to 1,025 more, ≈ 12.75 M
    /// steps in all; issue #13 F07) no longer exist. That is enough for quadratic work on a
    /// maximum-length value (`(a|b)*(?=c)` on 1,024 characters takes about 160 reports).
    /// Patterns on the built-in engine need no such bound: they run in linear time.
    public static let maximumFallbackProgressReports = 250

    /// The pattern as written.
    public var pattern: String { compiled.pattern }

    private enum Engine: Sendable {
        case builtin(search: RegexMachine, fullMatch: RegexMachine)
        case icu(RegexICUEngine)
    }
    /// Everything compiled, behind one reference: copying a pattern (or a validator holding one)
    /// costs one retain instead of five, and the ASCII DFAs sit outside the enum so the common
    /// case (an ASCII value, a DFA pattern) neither copies the enum payload nor switches twice.
    /// cse-bench regex-validate: about 48 → 30 ns per match.
    private final class Compiled: Sendable {
        let pattern: String
        let engine: Engine
        let searchDFA: RegexDFA?
        let fullMatchDFA: RegexDFA?

        init(pattern: String, engine: Engine, searchDFA: RegexDFA?, fullMatchDFA: RegexDFA?) {
            self.pattern = pattern
            self.engine = engine
            self.searchDFA = searchDFA
            self.fullMatchDFA = fullMatchDFA
        }
    }

    private let compiled: Compiled
    private var engine: Engine { compiled.engine }

    /// Compiles `pattern`.
    /// - Parameter pattern: An ICU regular expression.
    /// - Throws: ``CSEError/Code/regexPatternTooLong`` beyond ``maximumPatternLength`` scalars;
    ///   ``CSEError/Code/regexInvalidPattern`` when ICU rejects the pattern;
    ///   ``CSEError/Code/regexEngineUnavailable`` when the pattern needs ICU and ICU's library
    ///   cannot be loaded.
    public init(_ pattern: String) throws(CSEError) {
        let length = pattern.unicodeScalars.count
        guard length <= Self.maximumPatternLength else {
            throw CSEError(
                .regexPatternTooLong, "the regular expression is too long",
                context: ["length": String(length), "limit": String(Self.maximumPatternLength)])
        }
        do {
            let node = try RegexParser.parse(pattern)
            let search = try RegexProgram(node, fullMatch: false)
            let full = try RegexProgram(node, fullMatch: true)
            if !Self.icuAcceptedPatterns.contains(pattern) { try RegexICUEngine.validate(pattern) }
            let searchMachine = RegexMachine(search, fixedLength: node.fixedLength)
            let fullMachine = RegexMachine(full, fixedLength: nil)
            compiled = Compiled(
                pattern: pattern, engine: .builtin(search: searchMachine, fullMatch: fullMachine),
                searchDFA: searchMachine.dfa, fullMatchDFA: fullMachine.dfa)
        } catch is RegexUnsupported {
            compiled = Compiled(
                pattern: pattern, engine: .icu(try RegexICUEngine(pattern: pattern)),
                searchDFA: nil, fullMatchDFA: nil)
        } catch let error as CSEError {
            throw error
        } catch {
            throw CSEError(.regexInvalidPattern, "the regular expression cannot be compiled", context: ["pattern": pattern])
        }
    }

    /// Whether the pattern runs on the built-in linear-time engine rather than ICU.
    package var usesBuiltinEngine: Bool {
        if case .builtin = engine { return true }
        return false
    }

    /// The number of non-overlapping matches in `value`, counted as ICU `findNext` does, stopping
    /// at `limit`.
    /// - Parameters:
    ///   - value: The text to search.
    ///   - limit: Stop counting here; the Worldline rule needs only `limit: 2`.
    /// - Returns: A count in `0...limit`.
    /// - Throws: ``CSEError/Code/regexInputTooLong`` beyond the engine's input limit;
    ///   ``CSEError/Code/regexStepLimitExceeded`` when the ICU fallback backtracks too long.
    package func numberOfMatches(in value: String, limit: Int = .max) throws(CSEError) -> Int {
        try numberOfMatches(in: value, limit: limit, strategy: .automatic)
    }

    /// The first (leftmost-first) match in `value`, or `nil`.
    /// - Parameter value: The text to search.
    /// - Returns: The matched range of `value`.
    /// - Throws: ``CSEError/Code/regexInputTooLong`` beyond the engine's input limit;
    ///   ``CSEError/Code/regexStepLimitExceeded`` when the ICU fallback backtracks too long.
    package func firstMatch(in value: String) throws(CSEError) -> Range<String.Index>? {
        try checkLength(value)
        switch engine {
        case .builtin(let program, _):
            var found: Range<Int>? = nil
            _ = Self.run(program, on: value, limit: 1, strategy: .automatic) { found = $0..<$1 }
            guard let found else { return nil }
            let utf8 = value.utf8
            let lower = utf8.index(utf8.startIndex, offsetBy: found.lowerBound)
            let upper = utf8.index(lower, offsetBy: found.count)
            return lower..<upper
        case .icu(let regex):
            guard let found = try regex.firstMatch(in: value) else { return nil }
            let utf16 = value.utf16
            let lower = utf16.index(utf16.startIndex, offsetBy: found.lowerBound)
            let upper = utf16.index(lower, offsetBy: found.count)
            return lower..<upper
        }
    }

    /// Whether the entire value matches (ICU `matches()`: the pattern must consume everything,
    /// backtracking into other alternatives if needed, so `a|ab` matches all of `"ab"`).
    /// - Parameter value: The text to test.
    /// - Throws: ``CSEError/Code/regexInputTooLong`` beyond the engine's input limit;
    ///   ``CSEError/Code/regexStepLimitExceeded`` when the ICU fallback backtracks too long.
    package func matchesWhole(_ value: String) throws(CSEError) -> Bool {
        try matchesWhole(value, strategy: .automatic)
    }

    /// `/pattern/`.
    public var description: String { "/\(pattern)/" }

    /// Patterns compare by their source text.
    public static func == (lhs: RegexPattern, rhs: RegexPattern) -> Bool { lhs.pattern == rhs.pattern }

    /// Hashes the source text.
    public func hash(into hasher: inout Hasher) { hasher.combine(pattern) }

    // MARK: - Internals (strategies are exposed to tests)

    /// Which built-in matcher runs. `.automatic` counts with the DFA when the program has one
    /// and the value is ASCII, and otherwise picks the backtracker while its visited set stays
    /// within ``backtrackerBudgetBits``, else the Pike VM.
    enum Strategy { case automatic, backtracker, pikeVM }

    /// Whether counts may use the DFA (tests only).
    var hasDFA: Bool {
        guard case .builtin(let search, let full) = engine else { return false }
        return search.dfa != nil && full.dfa != nil
    }

    /// The largest visited set (instructions × (bytes + 1)) the backtracker uses: 32 KiB.
    static let backtrackerBudgetBits = 1 << 18

    func numberOfMatches(in value: String, limit: Int, strategy: Strategy) throws(CSEError) -> Int {
        if strategy == .automatic, let dfa = compiled.searchDFA, let count = Self.dfaCount(dfa, value, limit: limit) { return count }
        try checkLength(value)
        switch engine {
        case .builtin(let program, _):
            return Self.run(program, on: value, limit: limit, strategy: strategy, countOnly: true)
        case .icu(let regex): return try regex.numberOfMatches(in: value, limit: limit)
        }
    }

    func matchesWhole(_ value: String, strategy: Strategy) throws(CSEError) -> Bool {
        if strategy == .automatic, let dfa = compiled.fullMatchDFA, let count = Self.dfaCount(dfa, value, limit: 1) { return count == 1 }
        try checkLength(value)
        switch engine {
        case .builtin(_, let program):
            return Self.run(program, on: value, limit: 1, strategy: strategy, countOnly: true) == 1
        case .icu(let regex): return try regex.matchesWhole(value)
        }
    }

    /// Whether every byte is ASCII, eight at a time.
    /// The DFA's match count for an ASCII value within the length limit, or `nil` for any other
    /// value (which then takes the general path, including its length error).
    @inline(__always)
    private static func dfaCount(_ dfa: RegexDFA, _ value: String, limit: Int) -> Int? {
        let result = value.utf8.withContiguousStorageIfAvailable { bytes -> Int? in
            guard bytes.count <= maximumInputLength, ASCIIScan.isASCII(bytes) else { return nil }
            return dfa.countMatches(bytes, limit: limit)
        }
        return result ?? nil
    }


    /// Visits the built-in engine's matches as UTF-8 offset pairs (tests only).
    func enumerateMatches(in value: String, _ body: (Int, Int) -> Void) throws(CSEError) {
        try checkLength(value)
        guard case .builtin(let program, _) = engine else { return }
        _ = Self.run(program, on: value, limit: .max, strategy: .automatic, onMatch: body)
    }

    private func checkLength(_ value: String) throws(CSEError) {
        switch engine {
        case .builtin:
            let length = value.utf8.count
            guard length <= Self.maximumInputLength else {
                throw CSEError(
                    .regexInputTooLong, "the value is too long for the regular expression engine",
                    context: ["length": String(length), "limit": String(Self.maximumInputLength)])
            }
        case .icu:
            let length = value.utf16.count
            guard length <= Self.maximumFallbackInputLength else {
                throw CSEError(
                    .regexInputTooLong, "the value is too long for the ICU fallback engine",
                    context: ["length": String(length), "limit": String(Self.maximumFallbackInputLength)])
            }
        }
    }

    private static func run(
        _ machine: RegexMachine, on value: String, limit: Int, strategy: Strategy,
        countOnly: Bool = false, onMatch: (Int, Int) -> Void = { _, _ in }
    ) -> Int {
        if let count = value.utf8.withContiguousStorageIfAvailable({ bytes in
            run(machine, bytes: bytes, limit: limit, strategy: strategy, countOnly: countOnly, onMatch: onMatch)
        }) {
            return count
        }
        var value = value
        return value.withUTF8 { bytes in
            run(machine, bytes: bytes, limit: limit, strategy: strategy, countOnly: countOnly, onMatch: onMatch)
        }
    }

    @inline(__always)
    private static func run(
        _ machine: RegexMachine, bytes: UnsafeBufferPointer<UInt8>, limit: Int, strategy: Strategy,
        countOnly: Bool, onMatch: (Int, Int) -> Void
    ) -> Int {
        if countOnly, strategy == .automatic, let dfa = machine.dfa, ASCIIScan.isASCII(bytes) {
            return dfa.countMatches(bytes, limit: limit)
        }
        let input = RegexInput(bytes: bytes)
        let bits = (bytes.count + 1) * machine.program.instructions.count
        let useBacktracker = strategy == .backtracker || (strategy == .automatic && bits <= backtrackerBudgetBits)
        guard useBacktracker else {
            var vm = RegexPikeVM(program: machine.program, input: input)
            return RegexProgram.countMatches(&vm, input: input, limit: limit, onMatch: onMatch)
        }
        return withUnsafeTemporaryAllocation(of: UInt64.self, capacity: machine.visitedWords(inputCount: bytes.count)) { visited in
            withUnsafeTemporaryAllocation(of: RegexMachine.Job.self, capacity: machine.jobCapacity(inputCount: bytes.count)) { jobs in
                machine.countMatches(input, limit: limit, visited: visited, jobs: jobs.baseAddress!, onMatch: onMatch)
            }
        }
    }
}
