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
            searchRegex = try NSRegularExpression(pattern: pattern, options: [])
        } catch {
            let code = (error as NSError).code
            throw CSEError(.regexInvalidPattern, "ICU rejects the regular expression",
                           context: ["pattern": pattern, "icuError": String(code)])
        }
        do {
            fullMatchRegex = try NSRegularExpression(pattern: "\\A(?:" + pattern + ")\\z", options: [])
        } catch {
            throw CSEError(.regexInvalidPattern, "the regular expression cannot be anchored for a full match",
                           context: ["pattern": pattern])
        }
    }

    /// Only validates `pattern` with ICU.
    static func validate(_ pattern: String) throws(CSEError) {
        do {
            _ = try NSRegularExpression(pattern: pattern, options: [])
        } catch {
            let code = (error as NSError).code
            throw CSEError(.regexInvalidPattern, "ICU rejects the regular expression",
                           context: ["pattern": pattern, "icuError": String(code)])
        }
    }

    /// The number of non-overlapping matches over the whole value (all UTF-16 units), at most `limit`.
    func numberOfMatches(in value: String, limit: Int) -> Int {
        var count = 0
        guard limit > 0 else { return 0 }
        let range = NSRange(location: 0, length: value.utf16.count)
        searchRegex.enumerateMatches(in: value, options: [], range: range) { _, _, stop in
            count += 1
            if count >= limit { stop.pointee = true }
        }
        return count
    }

    /// The first match as UTF-16 offsets.
    func firstMatch(in value: String) -> Range<Int>? {
        let range = NSRange(location: 0, length: value.utf16.count)
        guard let m = searchRegex.firstMatch(in: value, options: [], range: range) else { return nil }
        return m.range.location..<(m.range.location + m.range.length)
    }

    /// Whether the whole value matches (ICU `matches()` semantics).
    func matchesWhole(_ value: String) -> Bool {
        let range = NSRange(location: 0, length: value.utf16.count)
        return fullMatchRegex.firstMatch(in: value, options: [], range: range) != nil
    }
}
