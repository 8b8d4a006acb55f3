internal import Foundation
import CSECore

/// The ICU engine behind `NSRegularExpression`, used for patterns outside the built-in subset and
/// to decide whether any pattern is valid at all.
///
/// ## The step budget
/// ICU reports progress to `enumerateMatches(…, options: .reportProgress)` in two ways that look
/// the same to the caller: once every 10,000 backtracking steps of a match attempt, and once per
/// start position a search moves on to. To count only the first kind (the work), a search does
/// not let ICU move the start position: it runs the stepwise form
/// `\G(?:[\s\S]*?(?=(?:pattern)())|[\s\S]*+())`, which tries every start position inside one
/// match attempt at the search's start (lazily, so leftmost first, as ICU's own search) and records
/// where the pattern's match starts (the end of the whole match) and ends (the empty group after
/// it, numbered after all of the pattern's groups, so back-references keep their numbers); the
/// second alternative always matches, so ICU never advances the start position itself. Then
/// every progress report is 10,000 steps, and one search stops after
/// ``RegexPattern/maximumFallbackProgressReports`` of them (≈ 2.5 M steps), as documented. Each
/// further ICU call of the same search (one per match after the first) is charged one report,
/// since ICU starts counting afresh on each call. Full matches (`\A(?:pattern)\z`) have a single
/// start position and are counted directly. A pattern that uses `\G` itself keeps ICU's own
/// search, with every report (steps or start positions) counted against the same budget, so it
/// fails closed on long values.
///
/// `NSRegularExpression` is immutable and documented as safe to share between threads, so the
/// box is `@unchecked Sendable`.
final class RegexFoundationEngine: @unchecked Sendable {
    /// The stepwise search form (see above), or the pattern itself when it uses `\G`.
    private let searchRegex: NSRegularExpression
    private let fullMatchRegex: NSRegularExpression
    /// Whether ``searchRegex`` is the stepwise form.
    private let isStepwise: Bool
    /// The number of capture groups of the pattern itself.
    private let groupCount: Int

    /// Compiles `pattern` with no options, its stepwise search form and `\A(?:pattern)\z`.
    /// - Throws: ``CSEError/Code/regexInvalidPattern`` when ICU rejects the pattern.
    init(pattern: String) throws(CSEError) {
        let plain: NSRegularExpression
        do {
            plain = try Self.compile(pattern)
        } catch {
            let code = (error as NSError).code
            throw CSEError(
                .regexInvalidPattern, "ICU rejects the regular expression",
                context: ["pattern": pattern, "icuError": String(code)])
        }
        groupCount = plain.numberOfCaptureGroups
        do {
            fullMatchRegex = try Self.compile("\\A(?:" + pattern + ")\\z")
            if Self.usesBackslashG(pattern) {
                searchRegex = plain
                isStepwise = false
            } else {
                searchRegex = try Self.compile("\\G(?:[\\s\\S]*?(?=(?:" + pattern + ")())|[\\s\\S]*+())")
                isStepwise = true
            }
        } catch {
            throw CSEError(
                .regexInvalidPattern, "the regular expression cannot be anchored for a full match",
                context: ["pattern": pattern])
        }
    }

    /// Only validates `pattern` with ICU.
    static func validate(_ pattern: String) throws(CSEError) {
        do {
            _ = try compile(pattern)
        } catch {
            let code = (error as NSError).code
            throw CSEError(
                .regexInvalidPattern, "ICU rejects the regular expression",
                context: ["pattern": pattern, "icuError": String(code)])
        }
    }

    /// Whether `pattern` contains the `\G` escape (an even number of backslashes before it
    /// would make it a literal `\` and `G`; this errs towards `true`, the stricter budget).
    static func usesBackslashG(_ pattern: String) -> Bool {
        var escaped = false
        for unit in pattern.utf16 {
            if escaped {
                if unit == UInt16(UInt8(ascii: "G")) { return true }
                escaped = false
            } else if unit == UInt16(UInt8(ascii: "\\")) {
                escaped = true
            }
        }
        return false
    }

    /// Compiles `pattern` with no options.
    ///
    /// swift-corelibs-foundation's `_CFRegularExpressionCreate` copies a pattern longer than 256
    /// UTF-16 units into a heap buffer that it frees only when compilation fails, so every
    /// successful `NSRegularExpression(pattern:)` of a long pattern leaks two bytes per unit
    /// (found by the fuzz targets under LeakSanitizer). Long patterns are therefore compiled once
    /// per process and shared (`NSRegularExpression` is immutable and thread-safe), so loading
    /// the same product definitions again does not grow memory. At most
    /// ``CompiledPatternCache/capacity`` long patterns are kept; beyond that they are compiled
    /// each time, as without the cache.
    static func compile(_ pattern: String) throws -> NSRegularExpression {
        guard pattern.utf16.count > CompiledPatternCache.leakThreshold else {
            return try NSRegularExpression(pattern: pattern, options: [])
        }
        return try CompiledPatternCache.shared.regex(for: pattern)
    }

    /// The number of non-overlapping matches over the whole value (all UTF-16 units), at most `limit`.
    /// - Throws: ``CSEError/Code/regexStepLimitExceeded`` when ICU backtracks too long.
    func numberOfMatches(in value: String, limit: Int) throws(CSEError) -> Int {
        guard limit > 0 else { return 0 }
        return try search(value, limit: limit) { _ in }
    }

    /// The first match as UTF-16 offsets.
    /// - Throws: ``CSEError/Code/regexStepLimitExceeded`` when ICU backtracks too long.
    func firstMatch(in value: String) throws(CSEError) -> Range<Int>? {
        var found: Range<Int>?
        _ = try search(value, limit: 1) { found = $0 }
        return found
    }

    /// Whether the whole value matches (ICU `matches()` semantics).
    /// - Throws: ``CSEError/Code/regexStepLimitExceeded`` when ICU backtracks too long.
    func matchesWhole(_ value: String) throws(CSEError) -> Bool {
        var budget = StepBudget()
        let match = Self.firstMatch(fullMatchRegex, in: value, from: 0, budget: &budget)
        try budget.check()
        return match != nil
    }

    /// ICU's sequence of non-overlapping matches (after an empty match the next search starts
    /// one code point later), at most `limit`, each passed to `onMatch` as UTF-16 offsets.
    private func search(_ value: String, limit: Int, _ onMatch: (Range<Int>) -> Void) throws(CSEError) -> Int {
        var budget = StepBudget()
        guard isStepwise else {
            var count = 0
            Self.enumerate(searchRegex, in: value, from: 0, budget: &budget) { match in
                count += 1
                onMatch(match.range.location..<(match.range.location + match.range.length))
                return count < limit
            }
            try budget.check()
            return count
        }
        let length = value.utf16.count
        var position = 0
        var count = 0
        var units: [UInt16]?
        while count < limit && position <= length {
            if count > 0 { budget.chargeCall() }
            let match = Self.firstMatch(searchRegex, in: value, from: position, budget: &budget)
            try budget.check()
            guard let match, match.range(at: groupCount + 2).location == NSNotFound else { break }
            let start = match.range.location + match.range.length
            let end = match.range(at: groupCount + 1).location
            count += 1
            onMatch(start..<end)
            guard start == end else {
                position = end
                continue
            }
            guard end < length else { break }
            if units == nil { units = Array(value.utf16) }
            let pair = end + 1 < length && UTF16.isLeadSurrogate(units![end]) && UTF16.isTrailSurrogate(units![end + 1])
            position = end + (pair ? 2 : 1)
        }
        return count
    }

    /// The progress reports one search may still take (see the type's discussion).
    private struct StepBudget {
        var remaining = RegexPattern.maximumFallbackProgressReports
        var exceeded = false

        /// One ICU progress report: 10,000 steps.
        mutating func report() -> Bool {
            remaining -= 1
            if remaining < 0 { exceeded = true }
            return !exceeded
        }

        /// A further ICU call: up to 9,999 steps that ICU does not report.
        mutating func chargeCall() { _ = report() }

        func check() throws(CSEError) {
            guard exceeded else { return }
            throw CSEError(
                .regexStepLimitExceeded, "the regular expression backtracks too long on this value",
                context: ["limit": String(RegexPattern.maximumFallbackProgressReports)])
        }
    }

    /// The first match of `regex` in `value` from UTF-16 offset `from` on, seeing the whole value
    /// (transparent, non-anchoring bounds: lookbehind, `^` and `\b` behave as in a search from 0).
    private static func firstMatch(
        _ regex: NSRegularExpression, in value: String, from: Int,
        budget: inout StepBudget
    ) -> NSTextCheckingResult? {
        var found: NSTextCheckingResult?
        enumerate(regex, in: value, from: from, budget: &budget) { match in
            found = match
            return false
        }
        return found
    }

    /// Runs `regex` over `value` from `from` with ICU progress reports on, calling `onMatch` for
    /// each match until it returns `false`; every progress report is charged to `budget`, and the
    /// search stops when the budget is spent. The bound is a deterministic step count (not a
    /// clock), so a verdict does not depend on machine load.
    private static func enumerate(
        _ regex: NSRegularExpression, in value: String, from: Int, budget: inout StepBudget,
        _ onMatch: (NSTextCheckingResult) -> Bool
    ) {
        if budget.exceeded { return }
        let length = value.utf16.count
        var local = budget
        withoutActuallyEscaping(onMatch) { onMatch in
            regex.enumerateMatches(
                in: value, options: [.reportProgress, .withTransparentBounds, .withoutAnchoringBounds],
                range: NSRange(location: from, length: length - from)
            ) { match, _, stop in
                if let match {
                    if !onMatch(match) { stop.pointee = true }
                    return
                }
                if !local.report() { stop.pointee = true }
            }
        }
        budget = local
    }
}

/// The process-wide store of compiled long patterns (see ``RegexFoundationEngine/compile(_:)``).
final class CompiledPatternCache: @unchecked Sendable {
    /// Patterns longer than this many UTF-16 units leak when compiled (CFRegularExpression's
    /// `STACK_BUFFER_SIZE`).
    static let leakThreshold = 256
    /// The most patterns kept.
    static let capacity = 256
    static let shared = CompiledPatternCache()

    private let lock = NSLock()
    private var compiled: [String: NSRegularExpression] = [:]

    /// The compiled pattern, from the store when present.
    func regex(for pattern: String) throws -> NSRegularExpression {
        lock.lock()
        let known = compiled[pattern]
        lock.unlock()
        if let known { return known }
        let regex = try NSRegularExpression(pattern: pattern, options: [])
        lock.lock()
        defer { lock.unlock() }
        if let raced = compiled[pattern] { return raced }
        if compiled.count < Self.capacity { compiled[pattern] = regex }
        return regex
    }

    /// Whether `pattern` is stored (tests only).
    func contains(_ pattern: String) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        return compiled[pattern] != nil
    }
}
