/// The parsed form of a pattern in the subset the built-in engine runs.
///
/// Capturing and non-capturing groups are the same node: the validator needs match boundaries
/// only, never captures.
indirect enum RegexNode: Sendable {
    /// Matches the empty string.
    case empty
    /// One Unicode scalar.
    case scalar(UInt32)
    /// One scalar from a character class (index into the program's class table once compiled).
    case set(RegexCharSet)
    /// `.` without DOTALL: any scalar except an ICU line terminator.
    case any
    /// A zero-width assertion.
    case assertion(RegexAssertion)
    /// A sequence.
    case concat([RegexNode])
    /// An ordered choice; earlier alternatives have priority (leftmost-first, as in ICU and Perl).
    case alternate([RegexNode])
    /// `body{min,max}`; `max == nil` is unbounded. `greedy == false` is the lazy form (`*?`).
    case repetition(RegexNode, min: Int, max: Int?, greedy: Bool)

    /// Whether the node can match the empty string.
    var isNullable: Bool {
        switch self {
        case .empty, .assertion: return true
        case .scalar, .set, .any: return false
        case .concat(let items): return items.allSatisfy(\.isNullable)
        case .alternate(let items): return items.contains(where: \.isNullable)
        case .repetition(let body, let min, _, _): return min == 0 || body.isNullable
        }
    }

    /// Whether every match must start at the beginning of the input (`^…` or `\A…`).
    var isStartAnchored: Bool {
        switch self {
        case .assertion(let a): return a == .start
        case .concat(let items):
            for item in items {
                if item.isStartAnchored { return true }
                // Zero-width items before the anchor keep the anchor effective.
                guard case .assertion = item else { return false }
            }
            return false
        case .alternate(let items): return !items.isEmpty && items.allSatisfy(\.isStartAnchored)
        case .repetition(let body, let min, _, _): return min > 0 && body.isStartAnchored
        default: return false
        }
    }
}

/// A zero-width assertion of ICU's default (non-multiline) mode.
enum RegexAssertion: Sendable, Equatable {
    /// `^` and `\A`: the start of the input.
    case start
    /// `\z`: the end of the input.
    case end
    /// `$` and `\Z`: the end of the input, or before a final line terminator (`\r\n` counts as one).
    case endBeforeFinalLineTerminator
    /// `\b`: an ICU word boundary (combining marks and format characters are skipped).
    case wordBoundary
    /// `\B`: not a word boundary.
    case notWordBoundary
}
