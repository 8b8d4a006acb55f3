import CSECore

/// One placeholder of a mask group.
enum MaskPlaceholder: UInt8, Hashable, Sendable {
    /// `9`: one ASCII digit.
    case digit
    /// `a`: one ASCII lowercase letter.
    case lowercase
    /// `A`: one ASCII uppercase letter.
    case uppercase
    /// `*`: any one character.
    case any

    init?(_ character: Character) {
        switch character {
        case "9": self = .digit
        case "a": self = .lowercase
        case "A": self = .uppercase
        case "*": self = .any
        default: return nil
        }
    }

    /// The pattern character.
    var character: Character {
        switch self {
        case .digit: "9"
        case .lowercase: "a"
        case .uppercase: "A"
        case .any: "*"
        }
    }

    /// Whether `input` may fill this placeholder.
    @inline(__always)
    func accepts(_ input: Character) -> Bool {
        switch self {
        case .digit: input.isPlainASCIIDigit
        case .lowercase: input.isPlainASCIILowercase
        case .uppercase: input.isPlainASCIIUppercase
        case .any: true
        }
    }
}

/// A part of a parsed mask, in the order of the Worldline SDK's mask parts.
enum MaskSegment: Hashable, Sendable {
    /// Text outside braces, emitted as is.
    case literal([Character])
    /// The placeholders of one `{{…}}` group (never empty).
    case group([MaskPlaceholder])
}

/// Strict, single-pass mask parsing.
enum MaskParser {
    /// Splits `pattern` into segments.
    ///
    /// `{{` opens a group and `}}` closes it, scanning left to right. Outside a group every
    /// other character, including a single `{` or `}`, is literal (as in the reference's part
    /// regex). Inside a group only `9`, `a`, `A` and `*` are allowed, and at least one of them:
    /// an empty `{{}}` would split a literal in two and make formatting non-idempotent.
    static func parse(_ pattern: String) throws(CSEError) -> [MaskSegment] {
        var segments: [MaskSegment] = []
        var literal: [Character] = []
        var group: [MaskPlaceholder] = []
        var inGroup = false
        var offset = 0
        var iterator = pattern.makeIterator()
        var pending = iterator.next()

        while let character = pending {
            let next = iterator.next()
            if (character == "{" || character == "}") && next == character {
                if character == "{" {
                    guard !inGroup else { throw braces("'{{' inside a mask group", offset) }
                    if !literal.isEmpty { segments.append(.literal(literal)); literal = [] }
                    inGroup = true
                } else {
                    guard inGroup else { throw braces("'}}' outside a mask group", offset) }
                    guard !group.isEmpty else { throw braces("an empty mask group '{{}}'", offset) }
                    segments.append(.group(group))
                    group = []
                    inGroup = false
                }
                pending = iterator.next()
                offset += 2
                continue
            }
            if inGroup {
                guard let placeholder = MaskPlaceholder(character) else {
                    throw CSEError(
                        .maskInvalidPlaceholder,
                        "mask placeholders are 9, a, A and *",
                        context: ["offset": String(offset), "character": String(character)])
                }
                group.append(placeholder)
            } else {
                literal.append(character)
            }
            pending = next
            offset += 1
        }
        guard !inGroup else { throw braces("a mask group is not closed with '}}'", offset) }
        if !literal.isEmpty { segments.append(.literal(literal)) }
        return segments
    }

    private static func braces(_ reason: String, _ offset: Int) -> CSEError {
        CSEError(.maskInvalidBraces, reason, context: ["offset": String(offset)])
    }
}
