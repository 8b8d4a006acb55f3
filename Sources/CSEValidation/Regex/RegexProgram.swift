/// One instruction of a compiled pattern. `x` and `y` are jump targets, a scalar, a class index
/// or an assertion code, depending on `op`.
struct RegexInstruction: Sendable {
    /// The operation.
    enum Op: UInt8, Sendable {
        /// Consume the scalar `x`.
        case scalar
        /// Consume one scalar of class `sets[x]`.
        case set
        /// Consume one scalar that is not a line terminator (`.`).
        case any
        /// Continue at `x`, and if that fails at `y` (x has priority).
        case split
        /// Continue at `x`.
        case jump
        /// Zero-width assertion, code `x`.
        case assert
        /// Success.
        case match
    }
    var op: Op
    var x: Int32
    var y: Int32
}

/// A compiled pattern: a Thompson-style program run by a visited-state backtracker (small inputs)
/// or a Pike VM (large inputs), both in O(instructions × input) time.
struct RegexProgram: Sendable {
    /// The instructions; execution starts at index 0.
    var instructions: [RegexInstruction] = []
    /// The character classes referenced by `.set` instructions, each distinct class once
    /// (`[0-9]{999}` has one class, not 999).
    var sets: [RegexCharSet] = []
    /// Where each class of ``sets`` is, while compiling (emptied afterwards).
    private var setIndex: [RegexCharSet: Int32] = [:]
    /// Every match starts at offset 0.
    var isStartAnchored = false
    /// The pattern can match the empty string, so every offset (including the end) may start a match.
    var canMatchEmpty = true
    /// ASCII bytes that can start a match (bits 0…63 and 64…127); meaningful when `!canMatchEmpty`.
    var firstLow: UInt64 = 0
    var firstHigh: UInt64 = 0
    /// A non-ASCII scalar can start a match.
    var firstNonASCII = true
    /// The number of `.split` instructions (bounds the backtracker's job stack).
    var splitCount = 0

    /// The most instructions a program may have; larger patterns run on ICU.
    static let maximumInstructions = 20_000

    /// Assertion codes stored in `x` of `.assert`.
    static func code(_ a: RegexAssertion) -> Int32 {
        switch a {
        case .start: return 0
        case .end: return 1
        case .endBeforeFinalLineTerminator: return 2
        case .wordBoundary: return 3
        case .notWordBoundary: return 4
        }
    }

    /// Compiles `node`. With `fullMatch`, the program only matches the entire input (ICU `matches()`).
    init(_ node: RegexNode, fullMatch: Bool) throws(RegexUnsupported) {
        try emit(node)
        if fullMatch { append(.assert, Self.code(.end)) }
        append(.match)
        guard instructions.count <= Self.maximumInstructions else {
            throw RegexUnsupported(construct: "program too large")
        }
        isStartAnchored = fullMatch || node.isStartAnchored
        let first = Self.firstInfo(node)
        canMatchEmpty = first.nullable
        firstLow = first.low
        firstHigh = first.high
        firstNonASCII = first.nonASCII
        splitCount = instructions.reduce(0) { $0 + ($1.op == .split ? 1 : 0) }
        setIndex = [:]
    }

    @discardableResult
    private mutating func append(_ op: RegexInstruction.Op, _ x: Int32 = 0, _ y: Int32 = 0) -> Int {
        instructions.append(RegexInstruction(op: op, x: x, y: y))
        return instructions.count - 1
    }

    private var next: Int32 { Int32(instructions.count) }

    private mutating func emit(_ node: RegexNode) throws(RegexUnsupported) {
        guard instructions.count <= Self.maximumInstructions else {
            throw RegexUnsupported(construct: "program too large")
        }
        switch node {
        case .empty: break
        case .scalar(let c): append(.scalar, Int32(bitPattern: c))
        case .set(let set):
            if let known = setIndex[set] {
                append(.set, known)
            } else {
                sets.append(set)
                setIndex[set] = Int32(sets.count - 1)
                append(.set, Int32(sets.count - 1))
            }
        case .any: append(.any)
        case .assertion(let a): append(.assert, Self.code(a))
        case .concat(let items):
            for item in items { try emit(item) }
        case .alternate(let items):
            var exits: [Int] = []
            for (i, item) in items.enumerated() {
                if i < items.count - 1 {
                    let split = append(.split)
                    instructions[split].x = next
                    try emit(item)
                    exits.append(append(.jump))
                    instructions[split].y = next
                } else {
                    try emit(item)
                }
            }
            for j in exits { instructions[j].x = next }
        case .repetition(let body, let min, let max, let greedy):
            try emitRepetition(body, min: min, max: max, greedy: greedy)
        }
    }

    private mutating func emitRepetition(_ body: RegexNode, min: Int, max: Int?, greedy: Bool) throws(RegexUnsupported) {
        guard let max else {
            if min == 0 {
                // L: split(body, out); body; jump L; out:
                let loop = append(.split)
                try emit(body)
                append(.jump, Int32(loop))
                setSplit(loop, into: Int32(loop + 1), exit: next, greedy: greedy)
            } else {
                for _ in 0..<(min - 1) { try emit(body) }
                // L: body; split(L, out); out:
                let loop = next
                try emit(body)
                let split = append(.split)
                setSplit(split, into: loop, exit: next, greedy: greedy)
            }
            return
        }
        for _ in 0..<min { try emit(body) }
        var splits: [Int] = []
        for _ in 0..<(max - min) {
            splits.append(append(.split))
            try emit(body)
        }
        for s in splits { setSplit(s, into: Int32(s + 1), exit: next, greedy: greedy) }
    }

    private mutating func setSplit(_ at: Int, into: Int32, exit: Int32, greedy: Bool) {
        instructions[at].x = greedy ? into : exit
        instructions[at].y = greedy ? exit : into
    }

    /// First-byte facts of `node`, for skipping offsets that cannot start a match.
    private static func firstInfo(_ node: RegexNode) -> (low: UInt64, high: UInt64, nonASCII: Bool, nullable: Bool) {
        switch node {
        case .empty, .assertion: return (0, 0, false, true)
        case .scalar(let c):
            if c >= 0x80 { return (0, 0, true, false) }
            return c < 64 ? (1 << UInt64(c), 0, false, false) : (0, 1 << UInt64(c - 64), false, false)
        case .set(let set):
            var low: UInt64 = 0, high: UInt64 = 0
            for b in UInt8(0)..<0x80 where set.matches(UInt32(b)) {
                if b < 64 { low |= 1 << UInt64(b) } else { high |= 1 << UInt64(b - 64) }
            }
            return (low, high, set.mayMatchNonASCII, false)
        case .any:
            let terminators: UInt64 = 0b1111 << 10
            return (~terminators, ~0, true, false)
        case .concat(let items):
            var acc: (low: UInt64, high: UInt64, nonASCII: Bool, nullable: Bool) = (0, 0, false, true)
            for item in items {
                let f = firstInfo(item)
                acc = (acc.low | f.low, acc.high | f.high, acc.nonASCII || f.nonASCII, f.nullable)
                if !f.nullable { break }
            }
            return acc
        case .alternate(let items):
            var acc: (low: UInt64, high: UInt64, nonASCII: Bool, nullable: Bool) = (0, 0, false, false)
            for item in items {
                let f = firstInfo(item)
                acc = (acc.low | f.low, acc.high | f.high, acc.nonASCII || f.nonASCII, acc.nullable || f.nullable)
            }
            return acc
        case .repetition(let body, let min, _, _):
            let f = firstInfo(body)
            return (f.low, f.high, f.nonASCII, f.nullable || min == 0)
        }
    }
}
