internal import CICURegex
import CSECore

/// The ICU engine behind the fallback, used for patterns outside the built-in subset and to decide
/// whether any pattern is valid at all.
///
/// It calls ICU's C API (`uregex_*`) the way swift-corelibs-foundation's `NSRegularExpression`
/// does (CFRegularExpression.c: no flags; `enumerateMatches` with `.reportProgress`,
/// `.withTransparentBounds` and `.withoutAnchoringBounds` is `uregex_setText` over the whole
/// value, `uregex_setRegion64` from the start offset, both progress callbacks, transparent and
/// non-anchoring bounds, then `uregex_findNext`), but on Debian's libicu opened on first use
/// (`CICURegex`), so that a program that never compiles such a pattern never loads ICU, and one
/// that does not need Foundation does not link it (issue #16). The differential tests compare it
/// with `NSRegularExpression` itself.
///
/// ## The step budget
/// ICU reports progress in two ways that look the same to the caller: once every 10,000
/// backtracking steps of a match attempt, and once per start position a search moves on to. To
/// count only the first kind (the work), a search does not let ICU move the start position: it
/// runs the stepwise form `\G(?:[\s\S]*?(?=(?:pattern)())|[\s\S]*+())`, which tries every start
/// position inside one match attempt at the search's start (lazily, so leftmost first, as ICU's
/// own search) and records where the pattern's match starts (the end of the whole match) and ends
/// (the empty group after it, numbered after all of the pattern's groups, so back-references keep
/// their numbers); the second alternative always matches, so ICU never advances the start
/// position itself. Then every progress report is 10,000 steps, and one search stops after
/// `RegexPattern.maximumFallbackProgressReports` of them (≈ 2.5 M steps), as documented. Each
/// further ICU call of the same search (one per match after the first) is charged one report,
/// since ICU starts counting afresh on each call. Full matches (`\A(?:pattern)\z`) have a single
/// start position and are counted directly. A pattern that uses `\G` itself keeps ICU's own
/// search, with every report (steps or start positions) counted against the same budget, so it
/// fails closed on long values.
///
/// A search holds a compiled expression through an atomic flag, or works on a `uregex_clone` of
/// it when another search holds it (as CFRegularExpression does), so the engine is `Sendable`.
final class RegexICUEngine: Sendable {
    /// The stepwise search form (see above), or the pattern itself when it uses `\G`.
    private let searchRegex: ICURegex
    private let fullMatchRegex: ICURegex
    /// Whether ``searchRegex`` is the stepwise form.
    private let isStepwise: Bool
    /// The number of capture groups of the pattern itself.
    private let groupCount: Int

    /// Compiles `pattern` with no options, its stepwise search form and `\A(?:pattern)\z`.
    /// - Throws: ``CSEError/Code/regexInvalidPattern`` when ICU rejects the pattern;
    ///   ``CSEError/Code/regexEngineUnavailable`` when the ICU library cannot be loaded.
    init(pattern: String) throws(CSEError) {
        let plain = try ICURegex(pattern)
        groupCount = plain.groupCount
        do {
            fullMatchRegex = try ICURegex("\\A(?:" + pattern + ")\\z")
            if Self.usesBackslashG(pattern) {
                searchRegex = plain
                isStepwise = false
            } else {
                searchRegex = try ICURegex("\\G(?:[\\s\\S]*?(?=(?:" + pattern + ")())|[\\s\\S]*+())")
                isStepwise = true
            }
        } catch {
            throw CSEError(
                .regexInvalidPattern, "the regular expression cannot be anchored for a full match",
                context: ["pattern": pattern])
        }
    }

    /// Only validates `pattern` with ICU.
    /// - Throws: ``CSEError/Code/regexInvalidPattern`` when ICU rejects the pattern;
    ///   ``CSEError/Code/regexEngineUnavailable`` when the ICU library cannot be loaded.
    static func validate(_ pattern: String) throws(CSEError) {
        _ = try ICURegex(pattern)
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

    /// The number of non-overlapping matches over the whole value (all UTF-16 units), at most `limit`.
    /// - Parameter request: The request's step budget, charged 10,000 steps per progress report.
    /// - Throws: ``CSEError/Code/regexStepLimitExceeded`` when ICU backtracks too long.
    func numberOfMatches(in value: String, limit: Int, request: RegexStepBudget? = nil) throws(CSEError) -> Int {
        guard limit > 0 else { return 0 }
        return try search(value, limit: limit, request: request) { _ in }
    }

    /// The first match as UTF-16 offsets.
    /// - Parameter request: The request's step budget, charged 10,000 steps per progress report.
    /// - Throws: ``CSEError/Code/regexStepLimitExceeded`` when ICU backtracks too long.
    func firstMatch(in value: String, request: RegexStepBudget? = nil) throws(CSEError) -> Range<Int>? {
        var found: Range<Int>?
        _ = try search(value, limit: 1, request: request) { found = $0 }
        return found
    }

    /// Whether the whole value matches (ICU `matches()` semantics).
    /// - Parameter request: The request's step budget, charged 10,000 steps per progress report.
    /// - Throws: ``CSEError/Code/regexStepLimitExceeded`` when ICU backtracks too long.
    func matchesWhole(_ value: String, request: RegexStepBudget? = nil) throws(CSEError) -> Bool {
        let units = Array(value.utf16)
        var budget = StepBudget(request: request)
        defer { budget.settle() }
        let match = try Self.firstMatch(fullMatchRegex, in: units, from: 0, groups: [], budget: &budget)
        try budget.check()
        return match != nil
    }

    /// ICU's sequence of non-overlapping matches (after an empty match the next search starts
    /// one code point later), at most `limit`, each passed to `onMatch` as UTF-16 offsets.
    private func search(
        _ value: String, limit: Int, request: RegexStepBudget?, _ onMatch: (Range<Int>) -> Void
    ) throws(CSEError) -> Int {
        let units = Array(value.utf16)
        var budget = StepBudget(request: request)
        defer { budget.settle() }
        guard isStepwise else {
            var count = 0
            try Self.enumerate(searchRegex, in: units, from: 0, groups: [], budget: &budget) { match in
                count += 1
                onMatch(match[0])
                return count < limit
            }
            try budget.check()
            return count
        }
        let length = units.count
        let groups = [groupCount + 1, groupCount + 2]
        var position = 0
        var count = 0
        while count < limit && position <= length {
            if count > 0 { budget.chargeCall() }
            let match = try Self.firstMatch(searchRegex, in: units, from: position, groups: groups, budget: &budget)
            try budget.check()
            // Group n + 2 takes part only when the always-matching second alternative did: no
            // match of the pattern from `position` on.
            guard let match, match[2].lowerBound < 0 else { break }
            let start = match[0].upperBound
            let end = match[1].lowerBound
            count += 1
            onMatch(start..<end)
            guard start == end else {
                position = end
                continue
            }
            guard end < length else { break }
            let pair = end + 1 < length && UTF16.isLeadSurrogate(units[end]) && UTF16.isTrailSurrogate(units[end + 1])
            position = end + (pair ? 2 : 1)
        }
        return count
    }

    /// The progress reports one search may still take (see the type's discussion): at most
    /// `RegexPattern.maximumFallbackProgressReports`, and no more than the request's budget
    /// has steps left for (10,000 a report), which is charged with the reports taken.
    private struct StepBudget {
        var remaining: Int
        var exceeded = false
        let limit: Int
        let request: RegexStepBudget?
        /// Whether the request's budget, not the search's, set the limit.
        let limitedByRequest: Bool

        init(request: RegexStepBudget?) {
            let own = RegexPattern.maximumFallbackProgressReports
            let left = request.map { $0.remainingSteps / RegexPattern.stepsPerProgressReport } ?? own
            limit = min(own, left)
            remaining = limit
            limitedByRequest = left < own
            self.request = request
        }

        /// One ICU progress report: 10,000 steps.
        mutating func report() -> Bool {
            remaining -= 1
            if remaining < 0 { exceeded = true }
            return !exceeded
        }

        /// A further ICU call: up to 9,999 steps that ICU does not report.
        mutating func chargeCall() { _ = report() }

        /// Charges the request with the reports taken.
        func settle() {
            guard let request else { return }
            request.charge((limit - max(remaining, -1)) * RegexPattern.stepsPerProgressReport)
            if exceeded { request.exhaust() }
        }

        func check() throws(CSEError) {
            guard exceeded else { return }
            throw RegexPattern.stepLimitError(
                steps: limit * RegexPattern.stepsPerProgressReport, limitedByRequest: limitedByRequest)
        }
    }

    /// The first match of `regex` in `units` from offset `from` on, seeing the whole value
    /// (transparent, non-anchoring bounds: lookbehind, `^` and `\b` behave as in a search from 0):
    /// the whole match's range, then those of `groups` (lower bound -1 for a group that did not
    /// take part).
    private static func firstMatch(
        _ regex: ICURegex, in units: [UInt16], from: Int, groups: [Int], budget: inout StepBudget
    ) throws(CSEError) -> [Range<Int>]? {
        var found: [Range<Int>]?
        try enumerate(regex, in: units, from: from, groups: groups, budget: &budget) { match in
            found = match
            return false
        }
        return found
    }

    /// Runs `regex` over `units` from `from` (on `regex` itself, or on a clone when another search
    /// holds it), with ICU's progress reports
    /// charged to `budget`, calling `onMatch` with the ranges of the match and of `groups` until it
    /// returns `false`; the search stops when the budget is spent. The bound is a deterministic
    /// step count (not a clock), so a verdict does not depend on machine load.
    private static func enumerate(
        _ regex: ICURegex, in units: [UInt16], from: Int, groups: [Int], budget: inout StepBudget,
        _ onMatch: ([Range<Int>]) -> Bool
    ) throws(CSEError) {
        if budget.exceeded { return }
        let search = try regex.acquire()
        defer { regex.release(search) }
        try units.withUnsafeBufferPointer { (text) throws(CSEError) in
            try withUnsafeMutablePointer(to: &budget) { (budget) throws(CSEError) in
                let progress: CICURegex_progress = { context in
                    context!.assumingMemoryBound(to: StepBudget.self).pointee.report() ? 1 : 0
                }
                var status = CICURegex_prepare(
                    search, text.baseAddress, Int32(text.count), Int32(from), progress, UnsafeMutableRawPointer(budget))
                guard status <= 0 else { throw ICURegex.failure(status) }
                /// The current match's range of `group` (0: the whole match), -1 ..< -1 when the
                /// group did not take part.
                func range(of group: Int) throws(CSEError) -> Range<Int> {
                    var status: Int32 = 0
                    let start = CICURegex_start(search, Int32(group), &status)
                    let end = CICURegex_end(search, Int32(group), &status)
                    guard status <= 0 else { throw ICURegex.failure(status) }
                    return start >= 0 && end >= start ? Int(start)..<Int(end) : -1 ..< -1
                }
                while CICURegex_find_next(search, &status) != 0 {
                    var ranges = [Range<Int>]()
                    ranges.reserveCapacity(groups.count + 1)
                    ranges.append(try range(of: 0))
                    for group in groups { ranges.append(try range(of: group)) }
                    if !onMatch(ranges) { return }
                }
                // A search stopped by the budget ends with U_REGEX_STOPPED_BY_CALLER; the caller's
                // budget check reports it. Any other failure is ICU's.
                guard status <= 0 || budget.pointee.exceeded else { throw ICURegex.failure(status) }
            }
        }
    }
}

/// One compiled ICU expression (`uregex_open`, no flags), the owner of its C handle.
final class ICURegex: @unchecked Sendable {
    // @unchecked: a search runs on the handle only while it holds the handle's atomic flag
    // (`acquire`), and on a clone otherwise; cloning only reads the compiled pattern, which ICU
    // allows from any thread while the original matches elsewhere.
    private let handle: OpaquePointer
    /// The number of capture groups.
    let groupCount: Int

    /// Compiles `pattern`.
    /// - Throws: ``CSEError/Code/regexInvalidPattern`` when ICU rejects it;
    ///   ``CSEError/Code/regexEngineUnavailable`` when the ICU library cannot be loaded.
    init(_ pattern: String) throws(CSEError) {
        guard CICURegex_load() != 0 else {
            let reason = CICURegex_load_error().map { String(cString: $0) } ?? "unknown"
            throw CSEError(
                .regexEngineUnavailable, "the ICU library for regular expressions outside the built-in subset cannot be loaded",
                context: ["library": String(cString: CICURegex_library_name()), "reason": reason])
        }
        let units = Array(pattern.utf16)
        var status: Int32 = 0
        let opened = units.withUnsafeBufferPointer { CICURegex_open($0.baseAddress, Int32($0.count), &status) }
        guard let opened, status <= 0 else {
            CICURegex_close(opened)
            throw CSEError(
                .regexInvalidPattern, "ICU rejects the regular expression",
                context: ["pattern": pattern, "icuError": String(cString: CICURegex_error_name(status))])
        }
        handle = opened
        let count = CICURegex_group_count(opened, &status)
        groupCount = status <= 0 ? Int(count) : 0
    }

    deinit { CICURegex_close(handle) }

    /// The expression one search runs on: the handle itself when no other search holds it, else
    /// a clone (as `NSRegularExpression` checks out its expression). Give it back with ``release(_:)``.
    func acquire() throws(CSEError) -> OpaquePointer {
        var status: Int32 = 0
        guard let held = CICURegex_acquire(handle, &status), status <= 0 else { throw Self.failure(status) }
        return held
    }

    /// Ends a search begun with ``acquire()``.
    func release(_ held: OpaquePointer) { CICURegex_release(handle, held) }

    /// An ICU failure during a search: ICU's backtracking stack limit is the same verdict as the
    /// step budget; anything else (memory) is the engine's.
    static func failure(_ status: Int32) -> CSEError {
        if CICURegex_is_stack_overflow(status) != 0 {
            return CSEError(
                .regexStepLimitExceeded, "the regular expression backtracks too deep on this value",
                context: ["icuError": String(cString: CICURegex_error_name(status))])
        }
        return CSEError(
            .regexEngineUnavailable, "ICU failed while matching",
            context: ["icuError": String(cString: CICURegex_error_name(status))])
    }
}
