public import CSECore
import Synchronization

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
///   short inputs or a Pike VM for long ones. Start-anchored patterns, and unanchored ones whose
///   matches are 1 to 64 scalars long (every payment field pattern), also get an ASCII DFA (at
///   most 64 states) that answers match counts of ASCII values without a thread list. All follow
///   ICU/Perl leftmost-first priority, so
///   match boundaries, and hence match counts, equal ICU's. Time is O(program × input) by
///   construction: catastrophic backtracking (`(a+)+$`, `(a|aa)*b`, `(.*a){12}`) cannot happen;
///   and a search stops after `maximumBuiltinStepsPerSearch` steps, so a large program on a
///   long value cannot cost billions of steps either. Programs of more than
///   `eagerInstructionLimit` (512) instructions compile on first use.
///   The subset: literals; escapes `\d \D \w \W \s \S \n \r \t \f \a \e \uhhhh \Uhhhhhhhh \xhh
///   \x{h…}` and any escaped ASCII punctuation; classes `[…]`/`[^…]` with ranges and those
///   escapes; `.`; anchors `^ $ \A \z \Z \b \B`; groups `(…)` and `(?:…)`; alternation `|`;
///   greedy and lazy quantifiers `* + ? {n} {n,} {n,m}` (bounds ≤ 1,000).
/// - **ICU fallback** (`usesBuiltinEngine` is `false`): anything else (lookaround,
///   backreferences, named groups, `\p{…}`, nested sets, inline flags, possessive quantifiers,
///   repeated sub-patterns that can match empty…) runs on ICU's regex engine, called as
///   `NSRegularExpression` calls it (`RegexICUEngine`). ICU backtracks,
///   so this engine only accepts values up to `maximumFallbackInputLength` UTF-16 units; with
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
    package static let maximumPatternLength = 1_000
    /// The longest value the built-in engine matches, in UTF-8 bytes.
    package static let maximumInputLength = 65_536
    /// The longest value the ICU fallback matches, in UTF-16 code units.
    package static let maximumFallbackInputLength = 1_024

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
    /// The built-in engine's budget is counted in steps too: `maximumBuiltinStepsPerSearch`.
    package static let maximumFallbackProgressReports = 250

    /// The steps ICU does between two progress reports.
    package static let stepsPerProgressReport = 10_000

    /// The most steps one search, count or full match may take on the built-in engine before it
    /// stops with ``CSEError/Code/regexStepLimitExceeded``: 5 million. A step is one
    /// (instruction, offset) state visited by the backtracker or one instruction added to a
    /// thread list by the Pike VM (checked once per offset, so the Pike VM may pass the limit by
    /// one offset's work, at most one step per instruction); the ASCII DFA takes none (it reads
    /// each byte once). It is twice the ICU fallback's budget (`maximumFallbackProgressReports`
    /// × 10,000 = 2.5 million ICU steps) because its steps are finer: every instruction counts,
    /// jumps and splits included, where ICU counts only its backtracking steps; so the linear
    /// `(.*a){12}` on a maximum-length value (about 3.2 million steps) still gets its verdict.
    /// Payment patterns stay far below it (`[0-9]{13,19}` on a 64 KiB value: a few hundred
    /// steps); a program of 19,000 instructions on a 64 KiB value would need 1.2 billion.
    package static let maximumBuiltinStepsPerSearch = 5_000_000

    /// The most steps all the regular expressions of one request may take together, on both
    /// engines: 25 million (five built-in searches at `maximumBuiltinStepsPerSearch`, or ten ICU
    /// searches at their 2.5 million; ICU's steps are charged 10,000 a progress report). A search gets the lesser of
    /// its own limit and what the request has left; once the request's budget is spent, every
    /// further search of the request stops with ``CSEError/Code/regexStepLimitExceeded``
    /// (validator: invalid, `reason: stepLimit`). `PaymentRequest.validate` applies it whenever
    /// its product's patterns could together pass it.
    package static let maximumStepsPerRequest = 25_000_000

    /// The pattern as written.
    public var pattern: String { compiled.pattern }

    private enum Engine: Sendable {
        case builtin(search: LazyRegexMachine, fullMatch: LazyRegexMachine)
        case icu(RegexICUEngine)
    }
    /// Everything compiled, behind one reference: copying a pattern (or a validator holding one)
    /// costs one retain. Programs of more than ``eagerInstructionLimit`` instructions compile
    /// on first use (a product loads its patterns, but a request checks only the fields it has);
    /// smaller ones (every payment pattern) compile here, where they cost microseconds, and
    /// their ASCII DFAs sit outside the enum so the common case (an ASCII value, a DFA pattern)
    /// reads a stored property, with no atomic load and no extra retain (cse-bench
    /// regex-validate: about 19 ns a match, 44 ns through the lazy path).
    private final class Compiled: Sendable {
        let pattern: String
        let engine: Engine
        let search: LazyRegexMachine?
        let searchDFA: RegexDFA?
        let fullMatchDFA: RegexDFA?
        let cost: RegexCompileCost

        init(pattern: String, engine: Engine, cost: RegexCompileCost) {
            self.pattern = pattern
            self.engine = engine
            if case .builtin(let search, let full) = engine {
                self.search = search
                searchDFA = search.ifCompiled?.dfa
                fullMatchDFA = full.ifCompiled?.dfa
            } else {
                search = nil
                searchDFA = nil
                fullMatchDFA = nil
            }
            self.cost = cost
        }
    }

    /// The largest program compiled when the pattern is made rather than on first use.
    static let eagerInstructionLimit = 512

    private let compiled: Compiled
    private var engine: Engine { compiled.engine }

    /// Compiles `pattern`.
    /// - Parameter pattern: An ICU regular expression.
    /// - Throws: ``CSEError/Code/regexPatternTooLong`` beyond `maximumPatternLength` scalars;
    ///   ``CSEError/Code/regexInvalidPattern`` when ICU rejects the pattern;
    ///   ``CSEError/Code/regexEngineUnavailable`` when the pattern needs ICU and ICU's library
    ///   cannot be loaded.
    public init(_ pattern: String) throws(CSEError) {
        let length = try Self.checkedLength(pattern)
        guard let node = Self.builtinNode(pattern) else {
            compiled = Compiled(pattern: pattern, engine: .icu(try RegexICUEngine(pattern: pattern)), cost: .zero)
            return
        }
        if !Self.icuAcceptedPatterns.contains(pattern) { try RegexICUEngine.validate(pattern) }
        let cost = RegexCompileCost(node, scalars: length)
        let eager = cost.instructions <= Self.eagerInstructionLimit ? node : nil
        compiled = Compiled(
            pattern: pattern,
            engine: .builtin(
                search: LazyRegexMachine(pattern: pattern, fullMatch: false, compiling: eager),
                fullMatch: LazyRegexMachine(pattern: pattern, fullMatch: true, compiling: eager)),
            cost: cost)
    }

    /// The length of `pattern` in scalars, within `maximumPatternLength`.
    private static func checkedLength(_ pattern: String) throws(CSEError) -> Int {
        let length = pattern.unicodeScalars.count
        guard length <= maximumPatternLength else {
            throw CSEError(
                .regexPatternTooLong, "the regular expression is too long",
                context: ["length": String(length), "limit": String(maximumPatternLength)])
        }
        return length
    }

    /// The syntax tree of `pattern` when the built-in engine runs it (in its subset, and its
    /// program within `RegexProgram.maximumInstructions`), else `nil`. Nothing is compiled.
    private static func builtinNode(_ pattern: String) -> RegexNode? {
        guard let node = try? RegexParser.parse(pattern) else { return nil }
        guard node.instructionCount(fullMatch: true) <= RegexProgram.maximumInstructions else { return nil }
        return node
    }

    /// Which engine `pattern` would run on, and what compiling it would cost, decided by parsing
    /// alone: nothing is compiled and ICU is not asked (so an invalid pattern may be reported
    /// as either; compiling it says which). `nil` beyond `maximumPatternLength`.
    package static func plan(_ pattern: String) -> (usesBuiltinEngine: Bool, cost: RegexCompileCost)? {
        guard let length = try? checkedLength(pattern) else { return nil }
        guard let node = builtinNode(pattern) else { return (false, .zero) }
        return (true, RegexCompileCost(node, scalars: length))
    }

    /// Whether the pattern runs on the built-in linear-time engine rather than ICU.
    package var usesBuiltinEngine: Bool {
        if case .builtin = engine { return true }
        return false
    }

    /// What compiling the pattern costs on the built-in engine (``RegexCompileCost/zero`` on ICU).
    package var compileCost: RegexCompileCost { compiled.cost }

    /// The bytes the built-in engine's compiled programs hold now (0 before first use and on ICU).
    package var compiledByteCount: Int {
        guard case .builtin(let search, let full) = engine else { return 0 }
        return (search.ifCompiled?.byteCount ?? 0) + (full.ifCompiled?.byteCount ?? 0)
    }

    /// The number of non-overlapping matches in `value`, counted as ICU `findNext` does, stopping
    /// at `limit`.
    /// - Parameters:
    ///   - value: The text to search.
    ///   - limit: Stop counting here; the Worldline rule needs only `limit: 2`.
    ///   - budget: The request's step budget, if any, charged with the steps taken.
    /// - Returns: A count in `0...limit`.
    /// - Throws: ``CSEError/Code/regexInputTooLong`` beyond the engine's input limit;
    ///   ``CSEError/Code/regexStepLimitExceeded`` past `maximumBuiltinStepsPerSearch` or the budget.
    package func numberOfMatches(in value: String, limit: Int = .max, budget: RegexStepBudget? = nil) throws(CSEError) -> Int {
        try numberOfMatches(in: value, limit: limit, strategy: .automatic, budget: budget)
    }

    /// The first (leftmost-first) match in `value`, or `nil`.
    /// - Parameters:
    ///   - value: The text to search.
    ///   - budget: The request's step budget, if any, charged with the steps taken.
    /// - Returns: The matched range of `value`.
    /// - Throws: ``CSEError/Code/regexInputTooLong`` beyond the engine's input limit;
    ///   ``CSEError/Code/regexStepLimitExceeded`` past `maximumBuiltinStepsPerSearch` or the budget.
    package func firstMatch(in value: String, budget: RegexStepBudget? = nil) throws(CSEError) -> Range<String.Index>? {
        try checkLength(value)
        switch engine {
        case .builtin(let search, _):
            var found: Range<Int>? = nil
            _ = try Self.run(try search.machine(), on: value, limit: 1, strategy: .automatic, budget: budget) { found = $0..<$1 }
            guard let found else { return nil }
            let utf8 = value.utf8
            let lower = utf8.index(utf8.startIndex, offsetBy: found.lowerBound)
            let upper = utf8.index(lower, offsetBy: found.count)
            return lower..<upper
        case .icu(let regex):
            guard let found = try regex.firstMatch(in: value, request: budget) else { return nil }
            let utf16 = value.utf16
            let lower = utf16.index(utf16.startIndex, offsetBy: found.lowerBound)
            let upper = utf16.index(lower, offsetBy: found.count)
            return lower..<upper
        }
    }

    /// Whether the entire value matches (ICU `matches()`: the pattern must consume everything,
    /// backtracking into other alternatives if needed, so `a|ab` matches all of `"ab"`).
    /// - Parameters:
    ///   - value: The text to test.
    ///   - budget: The request's step budget, if any, charged with the steps taken.
    /// - Throws: ``CSEError/Code/regexInputTooLong`` beyond the engine's input limit;
    ///   ``CSEError/Code/regexStepLimitExceeded`` past `maximumBuiltinStepsPerSearch` or the budget.
    package func matchesWhole(_ value: String, budget: RegexStepBudget? = nil) throws(CSEError) -> Bool {
        try matchesWhole(value, strategy: .automatic, budget: budget)
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
    /// `package` so that the fuzz target `regex` can check the DFA against the backtracker.
    package enum Strategy { case automatic, backtracker, pikeVM }

    /// Whether counts may use the DFA (tests only).
    var hasDFA: Bool {
        guard case .builtin(let search, let full) = engine,
            let searchMachine = try? search.machine(), let fullMachine = try? full.machine()
        else { return false }
        return searchMachine.dfa != nil && fullMachine.dfa != nil
    }

    /// The largest visited set (instructions × (bytes + 1)) the backtracker uses: 32 KiB.
    static let backtrackerBudgetBits = 1 << 18

    package func numberOfMatches(
        in value: String, limit: Int, strategy: Strategy, budget: RegexStepBudget? = nil
    ) throws(CSEError) -> Int {
        if strategy == .automatic, let dfa = compiled.searchDFA, let count = Self.dfaCount(dfa, value, limit: limit) {
            return count
        }
        if let search = compiled.search {
            let machine = try search.machine()
            if strategy == .automatic, let dfa = machine.dfa, let count = Self.dfaCount(dfa, value, limit: limit) { return count }
            try checkLength(value)
            return try Self.run(machine, on: value, limit: limit, strategy: strategy, countOnly: true, budget: budget)
        }
        try checkLength(value)
        guard case .icu(let regex) = engine else { return 0 }
        return try regex.numberOfMatches(in: value, limit: limit, request: budget)
    }

    package func matchesWhole(_ value: String, strategy: Strategy, budget: RegexStepBudget? = nil) throws(CSEError) -> Bool {
        if strategy == .automatic, let dfa = compiled.fullMatchDFA, let count = Self.dfaCount(dfa, value, limit: 1) {
            return count == 1
        }
        switch engine {
        case .builtin(_, let full):
            let machine = try full.machine()
            if strategy == .automatic, let dfa = machine.dfa, let count = Self.dfaCount(dfa, value, limit: 1) { return count == 1 }
            try checkLength(value)
            return try Self.run(machine, on: value, limit: 1, strategy: strategy, countOnly: true, budget: budget) == 1
        case .icu(let regex):
            try checkLength(value)
            return try regex.matchesWhole(value, request: budget)
        }
    }

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
        guard case .builtin(let search, _) = engine else { return }
        _ = try Self.run(try search.machine(), on: value, limit: .max, strategy: .automatic, budget: nil, onMatch: body)
    }

    /// The error of a search stopped by its step limit: `steps` is the limit it had, and
    /// `limitedByRequest` whether the request's budget (rather than the search's own) set it.
    static func stepLimitError(steps: Int, limitedByRequest: Bool, context: [String: String] = [:]) -> CSEError {
        var context = context
        context["steps"] = String(steps)
        context["budget"] = limitedByRequest ? "request" : "search"
        return CSEError(.regexStepLimitExceeded, "the regular expression takes too many steps on this value", context: context)
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

    /// Runs the built-in engine with the lesser of `maximumBuiltinStepsPerSearch` and what `budget`
    /// has left, charging `budget` with the steps taken.
    private static func run(
        _ machine: RegexMachine, on value: String, limit: Int, strategy: Strategy,
        countOnly: Bool = false, budget: RegexStepBudget?, onMatch: (Int, Int) -> Void = { _, _ in }
    ) throws(CSEError) -> Int {
        let left = budget?.remainingSteps ?? maximumBuiltinStepsPerSearch
        var steps = RegexSteps(limit: min(maximumBuiltinStepsPerSearch, left))
        let count: Int?
        if let result = value.utf8.withContiguousStorageIfAvailable({ bytes in
            run(machine, bytes: bytes, limit: limit, strategy: strategy, countOnly: countOnly, steps: &steps, onMatch: onMatch)
        }) {
            count = result
        } else {
            var value = value
            count = value.withUTF8 { bytes in
                run(machine, bytes: bytes, limit: limit, strategy: strategy, countOnly: countOnly, steps: &steps, onMatch: onMatch)
            }
        }
        budget?.charge(steps.taken)
        guard let count else {
            budget?.exhaust()
            throw stepLimitError(steps: steps.limit, limitedByRequest: left < maximumBuiltinStepsPerSearch)
        }
        return count
    }

    @inline(__always)
    private static func run(
        _ machine: RegexMachine, bytes: UnsafeBufferPointer<UInt8>, limit: Int, strategy: Strategy,
        countOnly: Bool, steps: inout RegexSteps, onMatch: (Int, Int) -> Void
    ) -> Int? {
        if countOnly, strategy == .automatic, let dfa = machine.dfa, ASCIIScan.isASCII(bytes) {
            return dfa.countMatches(bytes, limit: limit)
        }
        let input = RegexInput(bytes: bytes)
        let bits = (bytes.count + 1) * machine.width
        let useBacktracker = strategy == .backtracker || (strategy == .automatic && bits <= backtrackerBudgetBits)
        guard useBacktracker else {
            var vm = RegexPikeVM(machine: machine, input: input, stepLimit: steps.limit)
            defer { steps = vm.steps }
            return RegexProgram.countMatches(&vm, input: input, limit: limit, onMatch: onMatch)
        }
        return withUnsafeTemporaryAllocation(of: UInt64.self, capacity: machine.visitedWords(inputCount: bytes.count)) { visited in
            withUnsafeTemporaryAllocation(of: RegexMachine.Job.self, capacity: machine.jobCapacity(inputCount: bytes.count)) { jobs in
                machine.countMatches(input, limit: limit, visited: visited, jobs: jobs.baseAddress!, steps: &steps, onMatch: onMatch)
            }
        }
    }
}

/// A built-in program compiled the first time it is used, then shared by every thread: the
/// first readers may each compile it, one of them publishes it, the others drop theirs.
final class LazyRegexMachine: Sendable {
    private let pattern: String
    private let fullMatch: Bool
    private let stored = Atomic<Unmanaged<RegexMachine>?>(nil)

    /// A machine for `pattern`, which `RegexPattern` has parsed and sized already; compiled now
    /// from `node` when one is given, else on first use.
    init(pattern: String, fullMatch: Bool, compiling node: RegexNode? = nil) {
        self.pattern = pattern
        self.fullMatch = fullMatch
        if let node, let program = try? RegexProgram(node, fullMatch: fullMatch) {
            let machine = RegexMachine(program, matchLengths: fullMatch ? nil : node.matchLengths)
            stored.store(Unmanaged.passRetained(machine), ordering: .releasing)
        }
    }

    deinit {
        stored.load(ordering: .acquiring)?.release()
    }

    /// The machine, compiled on the first call.
    /// - Throws: ``CSEError/Code/regexInvalidPattern`` if the pattern no longer compiles (it
    ///   parsed when the `RegexPattern` was made, and parsing is deterministic, so never in practice).
    @inline(__always)
    func machine() throws(CSEError) -> RegexMachine {
        if let machine = stored.load(ordering: .acquiring) { return machine.takeUnretainedValue() }
        return try compile()
    }

    /// The machine if it has been compiled.
    var ifCompiled: RegexMachine? { stored.load(ordering: .acquiring)?.takeUnretainedValue() }

    @inline(never)
    private func compile() throws(CSEError) -> RegexMachine {
        let built: RegexMachine
        do {
            let node = try RegexParser.parse(pattern)
            let program = try RegexProgram(node, fullMatch: fullMatch)
            built = RegexMachine(program, matchLengths: fullMatch ? nil : node.matchLengths)
        } catch {
            throw CSEError(.regexInvalidPattern, "the regular expression cannot be compiled", context: ["pattern": pattern])
        }
        let retained = Unmanaged.passRetained(built)
        let (exchanged, current) = stored.compareExchange(expected: nil, desired: retained, ordering: .acquiringAndReleasing)
        if exchanged { return built }
        // Another thread published its machine first: use that one, drop ours.
        retained.release()
        return current?.takeUnretainedValue() ?? built
    }
}

extension LazyRegexMachine: CustomReflectable {
    /// Whether the machine is compiled, not the atomic's raw bits: a pointer dumped as a decimal
    /// integer is noise in a log, and can look like a value (the canary tests scan dumps).
    var customMirror: Mirror { Mirror(self, children: ["compiled": ifCompiled != nil]) }
}
