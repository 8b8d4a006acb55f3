/// A leftmost-first search strategy over one input.
protocol RegexSearcher {
    /// The leftmost-first (ICU/Perl priority) match starting at offset `from` or later, or `nil`
    /// (also when the step limit stopped the search: see ``steps``).
    mutating func search(from: Int) -> (start: Int, end: Int)?
    /// The steps taken so far, against the limit.
    var steps: RegexSteps { get }
}

extension RegexProgram {
    /// Whether a match may start at byte offset `s` (first-byte prefilter; never a false "no").
    @inline(__always)
    func mayStart(_ input: RegexInput, at s: Int) -> Bool {
        if canMatchEmpty { return true }
        if s >= input.count { return false }
        let b = input.bytes[s]
        if b >= 0x80 { return firstNonASCII }
        return b < 64 ? (firstLow >> UInt64(b)) & 1 != 0 : (firstHigh >> UInt64(b &- 64)) & 1 != 0
    }

    /// The offset after consuming `inst` at `pos`, or -1 when it does not match there.
    @inline(__always)
    static func consume(
        _ inst: RegexInstruction, _ input: RegexInput, _ pos: Int,
        _ sets: UnsafeBufferPointer<RegexCharSet>
    ) -> Int {
        guard pos < input.count else { return -1 }
        let b = input.bytes[pos]
        if b < 0x80 {
            switch inst.op {
            case .scalar: return inst.x == Int32(b) ? pos &+ 1 : -1
            case .set:
                let set = sets[Int(inst.x)]
                return set.asciiMember(b) != set.isNegated ? pos &+ 1 : -1
            default: return (b >= 0x0A && b <= 0x0D) ? -1 : pos &+ 1
            }
        }
        let (c, len) = input.scalar(at: pos)
        switch inst.op {
        case .scalar: return UInt32(bitPattern: inst.x) == c ? pos &+ len : -1
        case .set: return sets[Int(inst.x)].matches(c) ? pos &+ len : -1
        default: return isICULineTerminator(c) ? -1 : pos &+ len
        }
    }

    /// Visits the non-overlapping matches the way ICU `findNext` does: the next search starts at
    /// the previous match's end, or one scalar further when that match was empty.
    /// - Returns: The number of matches visited, at most `limit`, or `nil` when the searcher's
    ///   step limit stopped it.
    static func countMatches(
        _ searcher: inout some RegexSearcher, input: RegexInput, limit: Int,
        onMatch: (Int, Int) -> Void = { _, _ in }
    ) -> Int? {
        var count = 0, start = 0
        while count < limit, start <= input.count {
            let found = searcher.search(from: start)
            if searcher.steps.exceeded { return nil }
            guard let m = found else { break }
            count += 1
            onMatch(m.start, m.end)
            if m.end == m.start {
                if m.end >= input.count { break }
                start = m.end + input.length(at: m.end)
            } else {
                start = m.end
            }
        }
        return count
    }
}

/// The steps one count or full match of the built-in engine has taken, against its limit (see
/// `RegexPattern.maximumBuiltinStepsPerSearch`): a step is one (instruction, offset) state visited by
/// the backtracker, or one instruction added to a thread list by the Pike VM.
struct RegexSteps {
    /// Steps taken so far.
    var taken = 0
    /// The most steps allowed.
    let limit: Int

    /// Whether the limit was passed; the search stopped without a verdict.
    var exceeded: Bool { taken > limit }
}
