/// A compiled program laid out for the hot path: instructions and ASCII class bitmaps in raw
/// buffers owned by this immutable object (freed in `deinit`), so matching does no reference
/// counting, bounds checks or copies of class tables.
///
/// Matching uses RE2's "BitState": depth-first backtracking in priority order that records every
/// visited (instruction, offset) pair and never revisits one. Without captures or backreferences
/// the outcome of a state does not depend on how it was reached, so the first path to reach
/// `match` is the path a Perl/ICU backtracker would take, in at most instructions × (n + 1) steps.
final class RegexMachine: @unchecked Sendable {
    /// One pending alternative: continue at `pc` from offset `pos`.
    struct Job { var pc: Int32; var pos: Int32 }

    /// The program's facts and classes; its instructions live only in ``instructionBuffer`` (one
    /// copy, not two).
    let program: RegexProgram
    /// The count-only automaton, when the program's shape allows one.
    let dfa: RegexDFA?
    /// The number of instructions.
    let width: Int
    private let instructions: UnsafeMutablePointer<RegexInstruction>
    /// Per class: the ASCII membership bitmap with negation already applied.
    private let asciiMaps: UnsafeMutablePointer<SIMD2<UInt64>>

    /// Lays out `program`; `matchLengths` bounds the pattern's matches when it can (see
    /// ``RegexNode/matchLengths``).
    init(_ program: RegexProgram, matchLengths: ClosedRange<Int>?) {
        dfa = RegexDFA(program, matchLengths: matchLengths)
        width = program.instructions.count
        instructions = .allocate(capacity: width)
        instructions.initialize(from: program.instructions, count: width)
        var facts = program
        facts.instructions = []
        self.program = facts
        asciiMaps = .allocate(capacity: max(program.sets.count, 1))
        for (i, set) in program.sets.enumerated() {
            var map = SIMD2<UInt64>(0, 0)
            for b in UInt8(0)..<0x80 where set.matches(UInt32(b)) {
                if b < 64 { map[0] |= 1 << UInt64(b) } else { map[1] |= 1 << UInt64(b - 64) }
            }
            (asciiMaps + i).initialize(to: map)
        }
    }

    deinit {
        instructions.deallocate()
        asciiMaps.deallocate()
    }

    /// The instructions, for the Pike VM.
    var instructionBuffer: UnsafeBufferPointer<RegexInstruction> { UnsafeBufferPointer(start: instructions, count: width) }

    /// The bytes this machine holds: instructions, classes and their bitmaps, and the DFA.
    var byteCount: Int {
        width * MemoryLayout<RegexInstruction>.stride + program.sets.count * (MemoryLayout<RegexCharSet>.stride + 16)
            + (dfa?.byteCount ?? 0)
    }

    /// The number of 64-bit words of the visited set for an input of `n` bytes.
    func visitedWords(inputCount n: Int) -> Int { ((n + 1) * width + 63) / 64 }

    /// The job-stack capacity for an input of `n` bytes: one job per (split, offset) state.
    func jobCapacity(inputCount n: Int) -> Int { program.splitCount * (n + 1) + 1 }

    /// Counts non-overlapping matches like ICU `findNext`, up to `limit`, reporting each, or
    /// returns `nil` once more than `steps.limit` states have been visited.
    func countMatches(
        _ input: RegexInput, limit: Int, visited: UnsafeMutableBufferPointer<UInt64>,
        jobs: UnsafeMutablePointer<Job>, steps: inout RegexSteps, onMatch: (Int, Int) -> Void
    ) -> Int? {
        var count = 0, start = 0
        let n = input.count
        while count < limit, start <= n {
            let found = search(input, from: start, visited: visited, jobs: jobs, steps: &steps)
            if steps.exceeded { return nil }
            guard let m = found else { break }
            count += 1
            onMatch(m.start, m.end)
            if m.end == m.start {
                if m.end >= n { break }
                start = m.end + input.length(at: m.end)
            } else {
                start = m.end
            }
        }
        return count
    }

    /// The leftmost-first match starting at `from` or later.
    @inline(__always)
    private func search(
        _ input: RegexInput, from: Int, visited: UnsafeMutableBufferPointer<UInt64>,
        jobs: UnsafeMutablePointer<Job>, steps: inout RegexSteps
    ) -> (start: Int, end: Int)? {
        if program.isStartAnchored && from > 0 { return nil }
        // States visited by an earlier search may lie on its successful path; start afresh.
        visited.update(repeating: 0)
        var s = from
        let n = input.count
        while s <= n {
            if program.mayStart(input, at: s) {
                if let end = run(input, at: s, visited: visited, jobs: jobs, steps: &steps) { return (s, end) }
                if steps.exceeded { return nil }
            }
            if program.isStartAnchored || s == n { return nil }
            s += input.length(at: s)
        }
        return nil
    }

    /// Tries a match starting at `start`; failed states stay marked for later starts. Every
    /// state visited is a step; past `steps.limit` the attempt stops with `steps.exceeded`.
    private func run(
        _ input: RegexInput, at start: Int, visited: UnsafeMutableBufferPointer<UInt64>,
        jobs: UnsafeMutablePointer<Job>, steps: inout RegexSteps
    ) -> Int? {
        let width = self.width
        var taken = steps.taken
        let stepLimit = steps.limit
        defer { steps.taken = taken }
        let bytes = input.bytes.baseAddress
        let n = input.count
        jobs[0] = Job(pc: 0, pos: Int32(start))
        var top = 1
        while top > 0 {
            top &-= 1
            var pc = Int(jobs[top].pc)
            var pos = Int(jobs[top].pos)
            thread: while true {
                let bit = pos &* width &+ pc
                let word = bit &>> 6, mask = UInt64(1) &<< UInt64(bit & 63)
                if visited[word] & mask != 0 { break thread }
                visited[word] |= mask
                taken &+= 1
                if taken > stepLimit { return nil }
                let inst = instructions[pc]
                switch inst.op {
                case .scalar:
                    guard pos < n else { break thread }
                    let b = bytes.unsafelyUnwrapped[pos]
                    if b < 0x80 {
                        guard Int32(b) == inst.x else { break thread }
                        pos &+= 1
                    } else {
                        let (c, len) = input.scalar(at: pos)
                        guard c == UInt32(bitPattern: inst.x) else { break thread }
                        pos &+= len
                    }
                    pc &+= 1
                case .set:
                    guard pos < n else { break thread }
                    let b = bytes.unsafelyUnwrapped[pos]
                    if b < 0x80 {
                        let map = asciiMaps[Int(inst.x)]
                        let bits = b < 64 ? map[0] &>> UInt64(b) : map[1] &>> UInt64(b &- 64)
                        guard bits & 1 != 0 else { break thread }
                        pos &+= 1
                    } else {
                        let (c, len) = input.scalar(at: pos)
                        guard program.sets[Int(inst.x)].matches(c) else { break thread }
                        pos &+= len
                    }
                    pc &+= 1
                case .any:
                    guard pos < n else { break thread }
                    let (c, len) = input.scalar(at: pos)
                    guard !isICULineTerminator(c) else { break thread }
                    pos &+= len
                    pc &+= 1
                case .split:
                    jobs[top] = Job(pc: inst.y, pos: Int32(truncatingIfNeeded: pos))
                    top &+= 1
                    pc = Int(inst.x)
                case .jump:
                    pc = Int(inst.x)
                case .assert:
                    guard input.check(inst.x, at: pos) else { break thread }
                    pc &+= 1
                case .match:
                    return pos
                }
            }
        }
        return nil
    }
}
