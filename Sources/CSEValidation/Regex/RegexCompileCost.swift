/// What compiling a built-in pattern costs, known from its syntax tree before anything is
/// compiled: the instructions of its search program and an upper bound on the bytes its compiled
/// form can hold (both programs, their class tables and both DFAs). A product sums these over its
/// distinct patterns against its compile budget (`ValidationPlan`).
package struct RegexCompileCost: Sendable, Equatable {
    /// The instructions of the search program (the full-match program has one more).
    package var instructions: Int
    /// An upper bound on the bytes the compiled pattern holds once both programs are built.
    package var bytes: Int

    /// Nothing to compile (an ICU-fallback pattern: ICU holds its own compiled form).
    package static let zero = Self(instructions: 0, bytes: 0)

    private init(instructions: Int, bytes: Int) {
        self.instructions = instructions
        self.bytes = bytes
    }

    /// The bytes one DFA can hold: `RegexDFA.maximumStates` rows of 128 two-byte transitions
    /// and a flag byte per state.
    static let dfaBytes = RegexDFA.maximumStates * (128 * 2 + 1)
    /// Per class: the class itself, its ASCII bitmap and the headers of its two arrays.
    static let classBytes = MemoryLayout<RegexCharSet>.stride + 16 + 2 * 32
    /// Per pattern: the objects and headers around the programs.
    static let fixedBytes = 1_024

    /// The cost of `node`, parsed from a pattern of `scalars` Unicode scalars.
    init(_ node: RegexNode, scalars: Int) {
        instructions = node.instructionCount(fullMatch: false)
        let classes = node.classCount
        // Each program: its instructions, at most one class per class node (identical classes
        // are shared), and the classes' ranges and properties (at most one 8-byte entry per
        // pattern scalar). The search program may have a DFA; the full-match program always may.
        let program = instructions * MemoryLayout<RegexInstruction>.stride + classes * Self.classBytes + scalars * 8
        let dfas = node.isStartAnchored || node.matchLengths.map { $0.lowerBound > 0 } == true ? 2 : 1
        bytes = 2 * (program + MemoryLayout<RegexInstruction>.stride) + dfas * Self.dfaBytes + Self.fixedBytes
    }
}

extension RegexNode {
    /// The instructions `RegexProgram(self, fullMatch:)` emits, saturating just past
    /// `RegexProgram.maximumInstructions` (a larger program runs on ICU).
    func instructionCount(fullMatch: Bool) -> Int {
        let cap = RegexProgram.maximumInstructions + 1
        return Swift.min(emittedCount(cap: cap) + (fullMatch ? 2 : 1), cap)
    }

    /// The instructions `RegexProgram.emit` writes for this node, at most `cap`.
    private func emittedCount(cap: Int) -> Int {
        func add(_ a: Int, _ b: Int) -> Int { Swift.min(a + b, cap) }
        func times(_ a: Int, _ n: Int) -> Int { n == 0 || a == 0 ? 0 : (a > cap / n ? cap : Swift.min(a * n, cap)) }
        switch self {
        case .empty: return 0
        case .scalar, .set, .any, .assertion: return 1
        case .concat(let items):
            return items.reduce(0) { add($0, $1.emittedCount(cap: cap)) }
        case .alternate(let items):
            // A split and a jump around every alternative but the last.
            let bodies = items.reduce(0) { add($0, $1.emittedCount(cap: cap)) }
            return add(bodies, times(2, Swift.max(items.count - 1, 0)))
        case .repetition(let body, let min, let max, _):
            let one = body.emittedCount(cap: cap)
            guard let max else {
                // `body*`: split, body, jump; `body{n,}`: n bodies and a split.
                return min == 0 ? add(one, 2) : add(times(one, min), 1)
            }
            // n bodies, then a split and a body per optional repetition.
            return add(times(one, min), times(add(one, 1), max - min))
        }
    }

    /// The character-class nodes of the tree (each compiles to at most one shared class).
    var classCount: Int {
        switch self {
        case .set: return 1
        case .empty, .scalar, .any, .assertion: return 0
        case .concat(let items), .alternate(let items): return items.reduce(0) { $0 + $1.classCount }
        case .repetition(let body, _, _, _): return body.classCount
        }
    }
}
