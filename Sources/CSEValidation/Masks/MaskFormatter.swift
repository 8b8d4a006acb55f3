/// The formatting engine behind ``Mask``: one linear pass over the input `Character`s.
///
/// It reproduces the Worldline Swift SDK's `StringFormatter.formatString` output:
/// - a literal character is always emitted, and consumes the next input character when that
///   character equals it;
/// - a placeholder consumes input characters until one fits, emitting only fitting ones (others
///   are dropped);
/// - when the input runs out inside a literal part, the rest of that part is emitted once (the
///   trailing separator), unless `appendTrailingLiteral` is off; nothing else is emitted after
///   the input runs out;
/// - input left over when the mask is exhausted is ignored (truncation).
struct MaskFormatter {
    let segments: [MaskSegment]

    /// What a formatting pass produced.
    struct Outcome {
        /// The formatted text.
        var text = ""
        /// The characters that filled placeholders, in order (the unformatted value).
        var raw = ""
        /// The new caret position in `Character`s of `text`, when a caret was given.
        var cursor: Int?
        /// Whether input was left over when the mask was exhausted (and so cut off).
        var truncated = false
    }

    /// Formats `input`.
    /// - Parameters:
    ///   - input: The text to format.
    ///   - cursor: The caret as a count of input characters before it, or `nil`.
    ///   - appendTrailingLiteral: Whether to emit the rest of a literal part after the input ends.
    ///   - collectRaw: Whether to build ``Outcome/raw``.
    func run(_ input: String, cursor: Int?, appendTrailingLiteral: Bool, collectRaw: Bool) -> Outcome {
        var outcome = Outcome()
        var iterator = input.makeIterator()
        var current = iterator.next()
        var consumed = 0

        // Caret tracking (see Mask.format(_:cursor:)): `mark` is the UTF-8 length of the output
        // at the caret. It is live from the moment `target` input characters have been
        // consumed until the next one is, so literals inserted in between land before the caret.
        let target = cursor.map { max($0, 0) }
        var mark: Int?
        var markLive = target == 0
        if markLive { mark = 0 }

        func consume() {
            markLive = false
            current = iterator.next()
            consumed += 1
        }
        func afterConsumption() {
            if consumed == target {
                markLive = true
                mark = outcome.text.utf8.count
            }
        }
        func afterInsertion() {
            if markLive { mark = outcome.text.utf8.count }
        }

        segmentLoop: for segment in segments {
            switch segment {
            case .literal(let characters):
                var index = 0
                while index < characters.count, let character = current {
                    let literal = characters[index]
                    outcome.text.append(literal)
                    if character == literal {
                        consume()
                        afterConsumption()
                    } else {
                        afterInsertion()
                    }
                    index += 1
                }
                if index < characters.count {  // The input ran out inside this literal part.
                    if appendTrailingLiteral {
                        outcome.text.append(contentsOf: characters[index...])
                        afterInsertion()
                    }
                    break segmentLoop
                }
            case .group(let placeholders):
                var index = 0
                while index < placeholders.count, let character = current {
                    consume()
                    if placeholders[index].accepts(character) {
                        outcome.text.append(character)
                        if collectRaw { outcome.raw.append(character) }
                        index += 1
                    }
                    afterConsumption()
                }
                if index < placeholders.count { break segmentLoop }  // The input ran out.
            }
        }

        outcome.truncated = current != nil
        if target != nil {
            outcome.cursor = Self.characterOffset(ofUTF8Offset: mark ?? outcome.text.utf8.count, in: outcome.text)
        }
        return outcome
    }

    /// The number of `Character`s of `text` that start before `utf8Offset`. Appended characters
    /// can merge into one grapheme cluster with what precedes them (a combining mark, a second
    /// regional indicator), so the caret is measured on the finished text.
    static func characterOffset(ofUTF8Offset utf8Offset: Int, in text: String) -> Int {
        if utf8Offset >= text.utf8.count { return text.count }
        var count = 0
        var index = text.startIndex
        while index < text.endIndex, text.utf8.distance(from: text.startIndex, to: index) < utf8Offset {
            count += 1
            index = text.index(after: index)
        }
        return count
    }
}
