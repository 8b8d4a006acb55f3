internal import Foundation
import CSECore

/// The ICU engine behind `NSRegularExpression`, used for patterns outside the built-in subset and
/// to decide whether any pattern is valid at all.
///
/// `NSRegularExpression` is immutable and documented as safe to share between threads, so the
/// box is `@unchecked Sendable`.
final class RegexFoundationEngine: @unchecked Sendable {
    private let searchRegex: NSRegularExpression
    private let fullMatchRegex: NSRegularExpression

    /// Compiles `pattern` with no options, and `\A(?:pattern)\z` for full matches.
    /// - Throws: ``CSEError/Code/regexInvalidPattern`` when ICU rejects the pattern.
    init(pattern: String) throws(CSEError) {
        do {
            searchRegex = try Self.compile(pattern)
        } catch {
            let code = (error as NSError).code
            throw CSEError(.regexInvalidPattern, "ICU rejects the regular expression",
                           context: ["pattern": pattern, "icuError": String(code)])
        }
        do {
            fullMatchRegex = try Self.compile("\\A(?:" + pattern + ")\\z")
        } catch {
            throw CSEError(.regexInvalidPattern, "the regular expression cannot be anchored for a full match",
                           context: ["pattern": pattern])
        }
    }

    /// Only validates `pattern` with ICU.
    static func validate(_ pattern: String) throws(CSEError) {
        do {
            _ = try compile(pattern)
        } catch {
            let code = (error as NSError).code
            throw CSEError(.regexInvalidPattern, "ICU rejects the regular expression",
                           context: ["pattern": pattern, "icuError": String(code)])
        }
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
        var count = 0
        try Self.enumerate(searchRegex, in: value) { _ in
            count += 1
            return count < limit
        }
        return count
    }

    /// The first match as UTF-16 offsets.
    /// - Throws: ``CSEError/Code/regexStepLimitExceeded`` when ICU backtracks too long.
    func firstMatch(in value: String) throws(CSEError) -> Range<Int>? {
        var found: Range<Int>?
        try Self.enumerate(searchRegex, in: value) { range in
            found = range.location..<(range.location + range.length)
            return false
        }
        return found
    }

    /// Whether the whole value matches (ICU `matches()` semantics).
    /// - Throws: ``CSEError/Code/regexStepLimitExceeded`` when ICU backtracks too long.
    func matchesWhole(_ value: String) throws(CSEError) -> Bool {
        var matched = false
        try Self.enumerate(fullMatchRegex, in: value) { _ in
            matched = true
            return false
        }
        return matched
    }

    /// Runs `regex` over all of `value` with ICU progress reports on, calling `onMatch` for each
    /// match until it returns `false`.
    ///
    /// ICU reports progress once per start position of the search and once every 10,000
    /// backtracking steps of a match attempt (`uregex_setMatchCallback`, through
    /// `NSRegularExpression`'s `.reportProgress`). Beyond one report per start position, at most
    /// ``RegexPattern/maximumFallbackProgressReports`` are allowed; then the search stops and
    /// throws. This bounds ICU's otherwise exponential backtracking by a deterministic step
    /// count (not a clock), so a verdict does not depend on machine load.
    private static func enumerate(_ regex: NSRegularExpression, in value: String,
                                  _ onMatch: (NSRange) -> Bool) throws(CSEError) {
        let length = value.utf16.count
        let budget = length + 1 + RegexPattern.maximumFallbackProgressReports
        var reports = 0
        var exceeded = false
        withoutActuallyEscaping(onMatch) { onMatch in
            regex.enumerateMatches(in: value, options: [.reportProgress], range: NSRange(location: 0, length: length)) { match, _, stop in
                if let match {
                    if !onMatch(match.range) { stop.pointee = true }
                    return
                }
                reports += 1
                if reports > budget {
                    exceeded = true
                    stop.pointee = true
                }
            }
        }
        if exceeded {
            throw CSEError(.regexStepLimitExceeded, "the regular expression backtracks too long on this value",
                           context: ["limit": String(RegexPattern.maximumFallbackProgressReports)])
        }
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
