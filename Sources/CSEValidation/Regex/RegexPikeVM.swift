/// A Pike VM (Thompson NFA simulation with thread priority, as in RE2's NFA): all threads advance
/// in lock-step over the input, in priority order, and a match cuts every lower-priority thread.
/// It gives the same leftmost-first match as `RegexBacktracker` in O(instructions × n) time and
/// O(instructions) memory, so it serves inputs too long for the backtracker's visited set.
struct RegexPikeVM: RegexSearcher {
    private struct ThreadList {
        var pcs: [Int32]
        var starts: [Int]
        var count = 0
        init(capacity: Int) {
            pcs = Array(repeating: 0, count: capacity)
            starts = Array(repeating: 0, count: capacity)
        }
    }

    private let program: RegexProgram
    private let instructions: UnsafeBufferPointer<RegexInstruction>
    private let input: RegexInput
    private var current: ThreadList
    private var nextList: ThreadList
    /// `marks[pc] == generation` when `pc` was already added for the list being built.
    private var marks: [Int]
    private var generation = 0
    private var stack: [Int32] = []
    /// The steps taken (one per instruction added to a thread list) and the limit; a search
    /// that passes it returns `nil` with `steps.exceeded` set.
    private(set) var steps: RegexSteps

    /// Runs `machine`'s program (whose instruction buffer it must not outlive) over `input`.
    init(machine: RegexMachine, input: RegexInput, stepLimit: Int = .max) {
        steps = RegexSteps(limit: stepLimit)
        program = machine.program
        instructions = machine.instructionBuffer
        self.input = input
        let width = machine.width
        current = ThreadList(capacity: width)
        nextList = ThreadList(capacity: width)
        marks = Array(repeating: -1, count: width)
        stack.reserveCapacity(width)
    }

    mutating func search(from: Int) -> (start: Int, end: Int)? {
        let n = input.count
        var matched: (start: Int, end: Int)? = nil
        generation += 1
        var currentGeneration = generation
        var pos = from
        let program = self.program
        let input = self.input
        let stepLimit = steps.limit
        var taken = steps.taken
        defer { steps.taken = taken }
        // Move the buffers out of `self` so mutating them does not copy (they return in `defer`).
        var current = self.current, nextList = self.nextList, marks = self.marks, stack = self.stack
        self.current = ThreadList(capacity: 0)
        self.nextList = ThreadList(capacity: 0)
        self.marks = []
        self.stack = []
        current.count = 0
        defer { self.current = current; self.nextList = nextList; self.marks = marks; self.stack = stack }
        let instructions = self.instructions
        do {
            program.sets.withUnsafeBufferPointer { sets in
                while true {
                    if matched == nil && (!program.isStartAnchored || pos == 0) && program.mayStart(input, at: pos) {
                        Self.add(
                            &current, pc: 0, pos: pos, start: pos, generation: currentGeneration, instructions, input,
                            &marks, &stack, &taken)
                    }
                    if current.count == 0 && (matched != nil || program.isStartAnchored) { break }
                    generation += 1
                    let nextGeneration = generation
                    nextList.count = 0
                    var i = 0
                    while i < current.count {
                        let pc = Int(current.pcs[i])
                        let inst = instructions[pc]
                        if inst.op == .match {
                            matched = (current.starts[i], pos)
                            break  // lower-priority threads are cut
                        }
                        let after = RegexProgram.consume(inst, input, pos, sets)
                        if after >= 0 {
                            Self.add(
                                &nextList, pc: pc + 1, pos: after, start: current.starts[i],
                                generation: nextGeneration, instructions, input, &marks, &stack, &taken)
                        }
                        i += 1
                    }
                    swap(&current, &nextList)
                    currentGeneration = nextGeneration
                    // Checked once per offset: a search passes its limit by at most one offset's
                    // work (one step per instruction).
                    if taken > stepLimit {
                        matched = nil
                        break
                    }
                    if pos >= n { break }
                    pos += input.length(at: pos)
                }
            }
        }
        return matched
    }

    /// Adds the thread at `pc` and everything reachable through jumps, splits and assertions
    /// holding at `pos`, in priority order.
    private static func add(
        _ list: inout ThreadList, pc: Int, pos: Int, start: Int, generation: Int,
        _ instructions: UnsafeBufferPointer<RegexInstruction>, _ input: RegexInput,
        _ marks: inout [Int], _ stack: inout [Int32], _ taken: inout Int
    ) {
        stack.removeAll(keepingCapacity: true)
        stack.append(Int32(pc))
        while let top = stack.popLast() {
            let pc = Int(top)
            if marks[pc] == generation { continue }
            marks[pc] = generation
            taken &+= 1
            let inst = instructions[pc]
            switch inst.op {
            case .jump: stack.append(inst.x)
            case .split:
                stack.append(inst.y)
                stack.append(inst.x)
            case .assert:
                if input.check(inst.x, at: pos) { stack.append(Int32(pc + 1)) }
            default:
                list.pcs[list.count] = Int32(pc)
                list.starts[list.count] = start
                list.count += 1
            }
        }
    }
}
