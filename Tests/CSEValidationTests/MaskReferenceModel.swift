// An independent model of the Worldline Swift SDK's StringFormatter, written from the algorithm
// description in ../shared/reference/worldline-client-sdk-behaviour.md §3, used as a test oracle.
// It is deliberately naive (arrays of Characters, one index) and shares no code with Mask.

/// The reference's mask parts: "{{", "}}", or a maximal run of other text (single braces allowed).
func referenceParts(_ mask: String) -> [[Character]] {
    let characters = Array(mask)
    var parts: [[Character]] = []
    var run: [Character] = []
    var i = 0
    while i < characters.count {
        let pair =
            i + 1 < characters.count && characters[i] == characters[i + 1]
            && (characters[i] == "{" || characters[i] == "}")
        if pair {
            if !run.isEmpty { parts.append(run); run = [] }
            parts.append([characters[i], characters[i]])
            i += 2
        } else {
            run.append(characters[i])
            i += 1
        }
    }
    if !run.isEmpty { parts.append(run) }
    return parts
}

private func referenceFits(_ placeholder: Character, _ c: Character) -> Bool {
    let scalars = Array(c.unicodeScalars)
    let lone = scalars.count == 1 ? scalars[0].value : 0
    switch placeholder {
    case "9": return (0x30...0x39).contains(lone)
    case "a": return (0x61...0x7A).contains(lone)
    case "A": return (0x41...0x5A).contains(lone)
    case "*": return true
    default: return false
    }
}

/// formatString(string, mask, cursor) as described in §3, including its cursor arithmetic.
func referenceFormat(_ string: String, mask: String, cursor: Int = 0) -> (text: String, cursor: Int) {
    let (characters, cursor) = referenceFormatCharacters(string, mask: mask, cursor: cursor)
    return (String(characters), cursor)
}

/// The formatter's output as the `Character`s it appended, before they are joined into a
/// `String` (where a combining mark placed after a literal merges with it).
func referenceFormatCharacters(_ string: String, mask: String, cursor: Int = 0) -> (characters: [Character], cursor: Int) {
    let input = Array(string)
    var cursor = cursor
    var stringIndex = 0
    var copyFromMask = true
    var appendRestOfMask = true
    var result: [Character] = []
    for part in referenceParts(mask) {
        if part == ["{", "{"] { copyFromMask = false; continue }
        if part == ["}", "}"] { copyFromMask = true; continue }
        var maskIndex = 0
        while stringIndex < input.count && maskIndex < part.count {
            if copyFromMask {
                result.append(part[maskIndex])
                if input[stringIndex] == part[maskIndex] {
                    stringIndex += 1
                } else if cursor >= stringIndex {
                    cursor += 1
                }
                maskIndex += 1
            } else {
                if referenceFits(part[maskIndex], input[stringIndex]) {
                    result.append(input[stringIndex])
                    maskIndex += 1
                }
                stringIndex += 1
            }
        }
        if appendRestOfMask && maskIndex < part.count {
            if copyFromMask {
                result.append(contentsOf: part[maskIndex...])
                if cursor >= stringIndex { cursor += part.count - maskIndex }
            }
            appendRestOfMask = false
        }
    }
    return (result, cursor)
}

/// unformatString: format, then keep the characters at placeholder positions. Like the
/// reference, this re-reads the formatted `String`: when a combining mark (or another extending
/// scalar) filled a placeholder right after a literal, it has merged with that literal and every
/// later position is off by one. ``referenceUnformatUnmerged`` is the same algorithm on the
/// appended `Character`s, which is what `Mask.unformat` returns (docs/COMPATIBILITY.md, Masks).
func referenceUnformat(_ string: String, mask: String) -> String {
    referenceUnformat(formatted: Array(referenceFormat(string, mask: mask).text), mask: mask)
}

/// ``referenceUnformat(_:mask:)`` without the grapheme merge of the formatted text.
func referenceUnformatUnmerged(_ string: String, mask: String) -> String {
    referenceUnformat(formatted: referenceFormatCharacters(string, mask: mask).characters, mask: mask)
}

/// Whether formatting `string` appends a `Character` that merges with the one before it, the one
/// case where `Mask.unformat` and the reference's `unformatString` differ.
func referenceFormatMerges(_ string: String, mask: String) -> Bool {
    let characters = referenceFormatCharacters(string, mask: mask).characters
    return String(characters).count != characters.count
}

private func referenceUnformat(formatted: [Character], mask: String) -> String {
    var result: [Character] = []
    var inGroup = false
    var index = 0
    for part in referenceParts(mask) {
        if part == ["{", "{"] { inGroup = true; continue }
        if part == ["}", "}"] { inGroup = false; continue }
        let length = min(formatted.count - index, part.count)
        if inGroup { result.append(contentsOf: formatted[index..<(index + length)]) }
        index += length
    }
    return String(result)
}
