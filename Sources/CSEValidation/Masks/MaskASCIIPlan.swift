import CSECore

/// The byte-level twin of ``MaskFormatter`` for the common case: an all-ASCII value without a
/// `"\r\n"` pair, where every byte is one `Character`. Same rules, same output, without
/// grapheme breaking or `Character` appends (cse-bench `mask-format/card16`: about 800 → 70 ns).
///
/// Built once per ``Mask``. Literal characters keep their UTF-8 bytes, so a mask with non-ASCII
/// literals still takes this path; such a literal never equals an ASCII input byte.
struct MaskASCIIPlan: Hashable, Sendable {
    private enum Step: Hashable, Sendable {
        /// Literal characters `first..<end` of the plan's literal tables.
        case literal(first: Int, end: Int)
        case group([MaskPlaceholder])
    }

    private let steps: [Step]
    /// Per literal character: the ASCII byte it equals, or -1.
    private let literalMatch: [Int16]
    /// Per literal character: where its UTF-8 bytes end in `literalBytes`.
    private let literalEnd: [Int]
    private let literalBytes: [UInt8]
    /// The most UTF-8 bytes one pass can write.
    private let maximumOutput: Int

    init(_ segments: [MaskSegment]) {
        var steps: [Step] = [], match: [Int16] = [], ends: [Int] = [], bytes: [UInt8] = []
        var output = 0
        for segment in segments {
            switch segment {
            case .literal(let characters):
                let first = match.count
                for character in characters {
                    let utf8 = Array(character.utf8)
                    match.append(utf8.count == 1 && utf8[0] < 0x80 ? Int16(utf8[0]) : -1)
                    bytes.append(contentsOf: utf8)
                    ends.append(bytes.count)
                    output += utf8.count
                }
                steps.append(.literal(first: first, end: match.count))
            case .group(let placeholders):
                steps.append(.group(placeholders))
                output += placeholders.count
            }
        }
        self.steps = steps
        literalMatch = match
        literalEnd = ends
        literalBytes = bytes
        maximumOutput = output
    }

    /// Formats `value` when it qualifies (ASCII, no CR LF pair); `nil` otherwise.
    func run(_ value: String, appendTrailingLiteral: Bool, collectRaw: Bool) -> MaskFormatter.Outcome? {
        var value = value
        return value.withUTF8 { input -> MaskFormatter.Outcome? in
            var previous: UInt8 = 0
            for byte in input {
                if byte >= 0x80 || (byte == 0x0A && previous == 0x0D) { return nil }
                previous = byte
            }
            var outcome = MaskFormatter.Outcome()
            var rawCount = 0
            var raw = collectRaw ? [UInt8](repeating: 0, count: min(input.count, maximumOutput)) : []
            outcome.text = String(unsafeUninitializedCapacity: maximumOutput) { out in
                var written = 0, position = 0
                func emitLiteral(_ index: Int) {
                    let start = index == 0 ? 0 : literalEnd[index - 1]
                    for k in start..<literalEnd[index] {
                        out[written] = literalBytes[k]
                        written += 1
                    }
                }
                stepLoop: for step in steps {
                    switch step {
                    case .literal(let first, let end):
                        var index = first
                        while index < end, position < input.count {
                            emitLiteral(index)
                            if literalMatch[index] == Int16(input[position]) { position += 1 }
                            index += 1
                        }
                        if index < end {  // The input ran out inside this literal part.
                            if appendTrailingLiteral {
                                for rest in index..<end { emitLiteral(rest) }
                            }
                            break stepLoop
                        }
                    case .group(let placeholders):
                        var index = 0
                        while index < placeholders.count, position < input.count {
                            let byte = input[position]
                            position += 1
                            if placeholders[index].accepts(ascii: byte) {
                                out[written] = byte
                                written += 1
                                if collectRaw {
                                    raw[rawCount] = byte
                                    rawCount += 1
                                }
                                index += 1
                            }
                        }
                        if index < placeholders.count { break stepLoop }  // The input ran out.
                    }
                }
                outcome.truncated = position < input.count
                return written
            }
            if collectRaw { outcome.raw = String(decoding: raw[..<rawCount], as: UTF8.self) }
            return outcome
        }
    }
}

extension MaskPlaceholder {
    /// ``accepts(_:)`` for a `Character` that is the single ASCII byte `byte`.
    @inline(__always)
    func accepts(ascii byte: UInt8) -> Bool {
        switch self {
        case .digit: byte.isASCIIDigit
        case .lowercase: byte &- 0x61 < 26
        case .uppercase: byte &- 0x41 < 26
        case .any: true
        }
    }
}
