/// RE2's "BitState": depth-first backtracking in priority order that records every visited
/// (instruction, offset) pair and never revisits one. Without captures or backreferences the
/// outcome of a state does not depend on how it was reached, so the first path to reach `match`
/// is exactly the path a Perl/ICU backtracker would take, in at most instructions × (n + 1) steps.
struct RegexBacktracker: RegexSearcher {
    /// One pending alternative: continue at `pc` from offset `pos`.
    struct Job { var pc: Int32; var pos: Int32 }

    let program: RegexProgram
    let instructions: UnsafeBufferPointer<RegexInstruction>
    let sets: UnsafeBufferPointer<RegexCharSet>
    let input: RegexInput
    /// (n + 1) × instructions bits, offset-major.
    let visited: UnsafeMutableBufferPointer<UInt64>
    /// Room for one job per (split, offset) state, the most the stack can hold.
    let jobs: UnsafeMutablePointer<Job>

    /// The number of 64-bit words of the visited set for an input of `n` bytes.
    static func visitedWords(_ program: RegexProgram, inputCount n: Int) -> Int {
        ((n + 1) * program.instructions.count + 63) / 64
    }

    /// The job-stack capacity for an input of `n` bytes.
    static func jobCapacity(_ program: RegexProgram, inputCount n: Int) -> Int {
        program.splitCount * (n + 1) + 1
    }

    mutating func search(from: Int) -> (start: Int, end: Int)? {
        // States visited by an earlier search may have been on its successful path; start afresh.
        visited.update(repeating: 0)
        var s = from
        let n = input.count
        while s <= n {
            if program.mayStart(input, at: s), let end = run(at: s) { return (s, end) }
            if program.isStartAnchored || s == n { return nil }
            s += input.length(at: s)
        }
        return nil
    }

    /// Tries a match starting at `start`; failed states stay marked for later starts.
    private func run(at start: Int) -> Int? {
        let width = instructions.count
        var top = 0
        jobs[0] = Job(pc: 0, pos: Int32(start))
        top = 1
        while top > 0 {
            top -= 1
            var pc = Int(jobs[top].pc)
            var pos = Int(jobs[top].pos)
            thread: while true {
                let bit = pos &* width &+ pc
                let word = bit &>> 6, mask = UInt64(1) &<< UInt64(bit & 63)
                if visited[word] & mask != 0 { break thread }
                visited[word] |= mask
                let inst = instructions[pc]
                switch inst.op {
                case .scalar, .set, .any:
                    let next = RegexProgram.consume(inst, input, pos, sets)
                    if next < 0 { break thread }
                    pos = next
                    pc &+= 1
                case .split:
                    jobs[top] = Job(pc: inst.y, pos: Int32(pos))
                    top &+= 1
                    pc = Int(inst.x)
                case .jump:
                    pc = Int(inst.x)
                case .assert:
                    if !input.check(inst.x, at: pos) { break thread }
                    pc &+= 1
                case .match:
                    return pos
                }
            }
        }
        return nil
    }
}
