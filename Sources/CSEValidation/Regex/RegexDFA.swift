/// A deterministic automaton over ASCII bytes, built ahead of time by subset construction, for
/// the shapes where a match count can be read off without a thread list:
///
/// - **Start-anchored** programs (`^…`, and every full-match program): every match starts at 0,
///   so ICU finds at most one, and it exists iff some prefix is accepted. The scan stops at the
///   first accepting offset.
/// - **Fixed-length, assertion-free** programs (`\d{3}`, `(?:0[1-9]|1[0-2])[0-9]{2}`): every match
///   has the same length L, so the leftmost-first match is the leftmost offset where any path
///   accepts after L bytes, and the next search starts L further on.
/// - **Bounded-length, assertion-free** programs (`[0-9]{13,19}`, `\d{3}\s?\d{3}`; every match is
///   1 to ``maximumBoundedLength`` scalars long): the states are *ordered* sets, the program's
///   threads in ICU/Perl priority order, cut after the first thread that matches (RE2's
///   leftmost-first DFA). From each start offset the scan runs until no thread is left, and the
///   last accepting offset is the end of the leftmost-first match there: a later accept can only
///   come from a thread of higher priority than the earlier one, because the lower ones were cut.
///   A scan reads at most that many bytes from each start, so a count costs at most
///   `maximumBoundedLength + 1` table reads a byte (issue #24, point 1: a payment pattern never
///   reaches the Pike VM).
///
/// Anything else, or a value with a non-ASCII byte, runs on the backtracker instead. The DFA never
/// reports boundaries, only counts, so `firstMatch` always uses the backtracker.
final class RegexDFA: @unchecked Sendable {
    /// The most states built before giving up on a DFA for a pattern (16 KiB of transitions).
    static let maximumStates = 64
    /// The longest match, in scalars, of a bounded-length program that gets a DFA.
    static let maximumBoundedLength = 64

    private enum Shape { case anchored, fixedLength(Int), bounded }
    private struct Key: Hashable {
        var pcs: [Int32]
        var flags: UInt8
    }
    private static let acceptNow: UInt8 = 1
    /// Accepts at the end, or before a final line terminator (`$`, `\Z`).
    private static let acceptBeforeFinalTerminator: UInt8 = 2
    /// Accepts at the very end (`\z`).
    private static let acceptAtEnd: UInt8 = 4

    private let shape: Shape
    private let stateCount: Int
    /// `transitions[state << 7 | byte]`; state 0 is dead.
    private let transitions: UnsafeMutablePointer<UInt16>
    private let flags: UnsafeMutablePointer<UInt8>
    private let initial: Int

    /// Builds the DFA, or returns `nil` when the program's shape or size does not qualify.
    /// - Parameter matchLengths: The shortest and longest match of the program in scalars, when
    ///   both are bounded and the program has no assertions (``RegexNode/matchLengths``).
    init?(_ program: RegexProgram, matchLengths: ClosedRange<Int>?) {
        if program.isStartAnchored {
            shape = .anchored
        } else if let lengths = matchLengths, lengths.lowerBound > 0 {
            if lengths.lowerBound == lengths.upperBound {
                shape = .fixedLength(lengths.lowerBound)
            } else if lengths.upperBound <= Self.maximumBoundedLength {
                shape = .bounded
            } else {
                return nil
            }
        } else {
            return nil
        }
        let ordered: Bool
        if case .bounded = shape { ordered = true } else { ordered = false }
        let instructions = program.instructions
        var keys: [Key] = [Key(pcs: [], flags: 0)]
        var index: [Key: Int] = [keys[0]: 0]
        var scratch = ClosureScratch(count: instructions.count)
        guard let start = Self.closure(instructions, seeds: [0], atStart: true, ordered: ordered, scratch: &scratch)
        else { return nil }
        if case .anchored = shape {} else if start.flags & ~Self.acceptNow != 0 { return nil }
        var table: [UInt16] = Array(repeating: 0, count: 128)
        func intern(_ key: Key) -> Int? {
            if let i = index[key] { return i }
            guard keys.count < Self.maximumStates else { return nil }
            keys.append(key)
            index[key] = keys.count - 1
            table.append(contentsOf: repeatElement(0, count: 128))
            return keys.count - 1
        }
        guard let initialState = intern(start) else { return nil }
        // One closure per byte class and state, not per byte: `(.*a){52}` has three classes, so
        // building its 64 states takes 192 closures instead of 8,192 (fuzz target `regex`).
        let classes = Self.byteClasses(instructions, program)
        var work = 1
        while work < keys.count {
            let key = keys[work]
            for members in classes {
                let b = members[0]
                var seeds: [Int] = []
                for pc in key.pcs where Self.consumes(instructions[Int(pc)], b, program) { seeds.append(Int(pc) + 1) }
                guard !seeds.isEmpty else { continue }
                guard let next = Self.closure(instructions, seeds: seeds, atStart: false, ordered: ordered, scratch: &scratch)
                else { return nil }
                if next.pcs.isEmpty && next.flags == 0 { continue }
                guard let target = intern(next) else { return nil }
                for member in members { table[work << 7 | Int(member)] = UInt16(target) }
            }
            work += 1
        }
        initial = initialState
        stateCount = keys.count
        transitions = .allocate(capacity: table.count)
        transitions.initialize(from: table, count: table.count)
        flags = .allocate(capacity: keys.count)
        for (i, key) in keys.enumerated() { (flags + i).initialize(to: key.flags) }
    }

    deinit {
        transitions.deallocate()
        flags.deallocate()
    }

    /// The bytes of the transition table and the flags.
    var byteCount: Int { stateCount * (128 * 2 + 1) }

    /// The ICU match count (at most `limit`) of an all-ASCII input.
    func countMatches(_ bytes: UnsafeBufferPointer<UInt8>, limit: Int) -> Int {
        guard limit > 0, let base = bytes.baseAddress else {
            return limit > 0 ? countEmpty(limit) : 0
        }
        let n = bytes.count
        switch shape {
        case .anchored:
            var state = initial, p = 0
            while true {
                let f = flags[state]
                // End-type flags can only hold in the last two offsets.
                if f != 0 && (f & Self.acceptNow != 0 || p &+ 2 >= n) && Self.accepts(f, at: p, base, n) { return 1 }
                if p == n { return 0 }
                state = Int(transitions[state &<< 7 | Int(base[p])])
                if state == 0 { return 0 }
                p &+= 1
            }
        case .fixedLength(let length):
            var count = 0, s = 0
            while s &+ length <= n && count < limit {
                var state = initial, p = s
                let end = s &+ length
                while p < end {
                    state = Int(transitions[state &<< 7 | Int(base[p])])
                    if state == 0 { break }
                    p &+= 1
                }
                if state != 0 && flags[state] & Self.acceptNow != 0 {
                    count &+= 1
                    s = end
                } else {
                    s &+= 1
                }
            }
            return count
        case .bounded:
            var count = 0, s = 0
            while s < n && count < limit {
                var state = initial, p = s, end = -1
                while p < n {
                    state = Int(transitions[state &<< 7 | Int(base[p])])
                    if state == 0 { break }
                    p &+= 1
                    if flags[state] & Self.acceptNow != 0 { end = p }
                }
                if end >= 0 {
                    count &+= 1
                    s = end
                } else {
                    s &+= 1
                }
            }
            return count
        }
    }

    /// The count on an empty input (no buffer).
    private func countEmpty(_ limit: Int) -> Int {
        guard case .anchored = shape else { return 0 }
        return flags[initial] != 0 ? 1 : 0
    }

    @inline(__always)
    private static func accepts(_ f: UInt8, at p: Int, _ base: UnsafePointer<UInt8>, _ n: Int) -> Bool {
        if f & acceptNow != 0 || p == n { return true }
        guard f & acceptBeforeFinalTerminator != 0 else { return false }
        // ASCII input: the only line terminators are \n \v \f \r; a final \r\n counts as one.
        if p == n &- 1 {
            let c = base[p]
            return c >= 0x0A && c <= 0x0D && !(c == 0x0A && p > 0 && base[p &- 1] == 0x0D)
        }
        return p == n &- 2 && base[p] == 0x0D && base[p &+ 1] == 0x0A
    }

    /// The ASCII bytes grouped so that every consuming instruction of the program either accepts
    /// all bytes of a group or none: the DFA's transitions are equal within a group.
    private static func byteClasses(_ instructions: [RegexInstruction], _ program: RegexProgram) -> [[UInt8]] {
        // Repeated sub-patterns repeat the same tests: keep one instruction per (op, operand).
        var distinct = Set<Int64>()
        let consuming = instructions.filter {
            [.scalar, .set, .any].contains($0.op) && distinct.insert(Int64($0.op.rawValue) << 32 | Int64($0.x)).inserted
        }
        var groups: [[UInt64]: Int] = [:]
        var classes: [[UInt8]] = []
        let words = (consuming.count + 63) / 64
        for b in 0..<128 {
            var signature = [UInt64](repeating: 0, count: words)
            for (i, inst) in consuming.enumerated() where consumes(inst, UInt8(b), program) {
                signature[i >> 6] |= 1 << UInt64(i & 63)
            }
            if let group = groups[signature] {
                classes[group].append(UInt8(b))
            } else {
                groups[signature] = classes.count
                classes.append([UInt8(b)])
            }
        }
        return classes
    }

    private static func consumes(_ inst: RegexInstruction, _ b: UInt8, _ program: RegexProgram) -> Bool {
        switch inst.op {
        case .scalar: return inst.x == Int32(b)
        case .set: return program.sets[Int(inst.x)].matches(UInt32(b))
        case .any: return !isICULineTerminator(UInt32(b))
        default: return false
        }
    }

    /// Reusable buffers for ``closure(_:seeds:atStart:scratch:)``: a generation-stamped visited
    /// mark per instruction, so a closure costs its own size rather than the program's.
    private struct ClosureScratch {
        var visited: [UInt32]
        var generation: UInt32 = 0
        var stack: [Int] = []
        init(count: Int) { visited = Array(repeating: 0, count: count) }
    }

    /// The consuming instructions and accept flags reachable from `seeds` without input, or `nil`
    /// when a construct the DFA does not model (`\b`, an end assertion followed by more pattern)
    /// is reachable.
    ///
    /// `ordered`: the instructions stay in priority order (depth first, a split's `x` before its
    /// `y`, earlier seeds first, as the Pike VM adds threads), and the first `match` reached cuts
    /// every thread of lower priority. Otherwise they are sorted, as a set.
    private static func closure(
        _ instructions: [RegexInstruction], seeds: [Int], atStart: Bool, ordered: Bool,
        scratch: inout ClosureScratch
    ) -> Key? {
        scratch.generation &+= 1
        let generation = scratch.generation
        var pcs: [Int32] = [], flags: UInt8 = 0
        scratch.stack.removeAll(keepingCapacity: true)
        scratch.stack.append(contentsOf: seeds.reversed())
        while let pc = scratch.stack.popLast() {
            guard scratch.visited[pc] != generation else { continue }
            scratch.visited[pc] = generation
            let inst = instructions[pc]
            switch inst.op {
            case .scalar, .set, .any: pcs.append(Int32(pc))
            case .match:
                flags |= acceptNow
                if ordered { scratch.stack.removeAll(keepingCapacity: true) }
            case .jump: scratch.stack.append(Int(inst.x))
            case .split:
                scratch.stack.append(Int(inst.y))
                scratch.stack.append(Int(inst.x))
            case .assert:
                switch inst.x {
                case RegexProgram.code(.start): if atStart { scratch.stack.append(pc + 1) }
                case RegexProgram.code(.end), RegexProgram.code(.endBeforeFinalLineTerminator):
                    guard let kind = endChain(instructions, from: pc) else { return nil }
                    flags |= kind
                default: return nil
                }
            }
        }
        if !ordered { pcs.sort() }
        return Key(pcs: pcs, flags: flags)
    }

    /// Where a chain of end assertions starting at `pc` leads only to `match`: the accept flag
    /// it needs (`$` alone is weaker than `\z`), or `nil` if more pattern follows.
    private static func endChain(_ instructions: [RegexInstruction], from pc: Int) -> UInt8? {
        var result: UInt8 = 0
        var seen = Set<Int>()
        var stack: [(pc: Int, strict: Bool)] = [(pc, false)]
        while let (pc, strict) = stack.popLast() {
            guard seen.insert(pc << 1 | (strict ? 1 : 0)).inserted else { continue }
            let inst = instructions[pc]
            switch inst.op {
            case .match: result |= strict ? acceptAtEnd : acceptBeforeFinalTerminator
            case .jump: stack.append((Int(inst.x), strict))
            case .split:
                stack.append((Int(inst.x), strict))
                stack.append((Int(inst.y), strict))
            case .assert where inst.x == RegexProgram.code(.end):
                stack.append((pc + 1, true))
            case .assert where inst.x == RegexProgram.code(.endBeforeFinalLineTerminator):
                stack.append((pc + 1, strict))
            default: return nil
            }
        }
        // A weaker path makes the stronger flag redundant.
        return result & acceptBeforeFinalTerminator != 0 ? acceptBeforeFinalTerminator : result
    }
}

extension RegexNode {
    /// The shortest and longest match in scalars, when the node has no assertions and no
    /// unbounded repetition; `nil` otherwise. Lengths saturate at `Int32.max`.
    var matchLengths: ClosedRange<Int>? {
        let cap = Int(Int32.max)
        func sum(_ a: Int, _ b: Int) -> Int { Swift.min(a + b, cap) }
        func product(_ a: Int, _ b: Int) -> Int {
            let (p, overflow) = a.multipliedReportingOverflow(by: b)
            return overflow ? cap : Swift.min(p, cap)
        }
        switch self {
        case .empty: return 0...0
        case .scalar, .set, .any: return 1...1
        case .assertion: return nil
        case .concat(let items):
            var low = 0, high = 0
            for item in items {
                guard let r = item.matchLengths else { return nil }
                low = sum(low, r.lowerBound)
                high = sum(high, r.upperBound)
            }
            return low...high
        case .alternate(let items):
            var result: ClosedRange<Int>?
            for item in items {
                guard let r = item.matchLengths else { return nil }
                result = result.map { Swift.min($0.lowerBound, r.lowerBound)...Swift.max($0.upperBound, r.upperBound) } ?? r
            }
            return result
        case .repetition(let body, let min, let max, _):
            guard let max, let r = body.matchLengths else { return nil }
            return product(r.lowerBound, min)...product(r.upperBound, max)
        }
    }
}
