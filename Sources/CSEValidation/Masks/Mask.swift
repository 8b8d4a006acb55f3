public import CSECore

/// A display mask such as `{{9999}} {{9999}} {{9999}} {{9999}}` or `{{99}}/{{99}}`, parsed once.
///
/// Syntax, as in the Worldline Client SDKs: text inside `{{…}}` is a run of placeholders,
/// text outside is literal.
///
/// | Placeholder | Accepts |
/// |---|---|
/// | `9` | one ASCII digit `0`–`9` (not Arabic-Indic or fullwidth digits: see ``DigitNormalizer``) |
/// | `a` | one ASCII lowercase letter `a`–`z` |
/// | `A` | one ASCII uppercase letter `A`–`Z` |
/// | `*` | any one character |
///
/// Parsing is strict: any other character inside braces, a `{{` inside a group, a `}}` outside
/// one, an empty group `{{}}` or an unclosed group throws (the reference silently swallowed the
/// rest of the input).
///
/// All operations work on Swift `Character`s (extended grapheme clusters), as the reference did:
/// `*` takes `é` or `👍🏽` whole, and cursor positions count `Character`s. Each operation is a
/// single linear pass, and stops reading input once the mask is full.
public struct Mask: Hashable, Sendable, CustomStringConvertible {
    /// The mask as written, for example `{{99}}/{{99}}`.
    public let pattern: String
    /// The parsed parts, in order.
    let segments: [MaskSegment]
    /// The number of placeholders: the longest unformatted value the mask can hold.
    public let capacity: Int
    /// The byte-level form of `segments` for ASCII values.
    let asciiPlan: MaskASCIIPlan

    /// The longest accepted mask, in Unicode scalars. Real masks are under 60 scalars; every
    /// operation is linear in the mask and the input, and this bound caps what one product
    /// definition can make each format call cost.
    package static let maximumPatternLength = 65_536

    /// Parses a mask.
    /// - Parameter pattern: The mask text, for example `{{9999}} {{9999}}`.
    /// - Throws: ``CSEError`` with code ``CSEError/Code/maskTooLong`` beyond
    ///   `maximumPatternLength` scalars, ``CSEError/Code/maskInvalidPlaceholder`` or
    ///   ``CSEError/Code/maskInvalidBraces``, with the character `offset` in its context.
    public init(_ pattern: String) throws(CSEError) {
        let length = pattern.unicodeScalars.count
        guard length <= Self.maximumPatternLength else {
            throw CSEError(
                .maskTooLong, "the mask is too long",
                context: ["length": String(length), "limit": String(Self.maximumPatternLength)])
        }
        let segments = try MaskParser.parse(pattern)
        self.init(pattern: pattern, segments: segments)
    }

    private init(pattern: String, segments: [MaskSegment]) {
        self.pattern = pattern
        self.segments = segments
        self.asciiPlan = MaskASCIIPlan(segments)
        self.capacity = segments.reduce(0) { total, segment in
            if case .group(let placeholders) = segment { return total + placeholders.count }
            return total
        }
    }

    /// Applies the mask while the user types, as the Worldline SDKs' `formatString` does.
    ///
    /// Literals are inserted where the input lacks them, characters that do not fit a
    /// placeholder are dropped, input beyond the mask is cut off, and after a completed group
    /// the next literal part is appended once, so the caret lands after the separator:
    /// `"1234"` with `{{9999}} {{9999}}` gives `"1234 "`. Use ``formatForDisplay(_:)`` to
    /// leave that trailing separator out.
    /// - Parameter value: Raw or already formatted input.
    /// - Returns: The formatted text.
    public func format(_ value: String) -> String {
        run(value, appendTrailingLiteral: true, collectRaw: false).text
    }

    /// Applies the mask like ``format(_:)`` and moves a caret along.
    ///
    /// Rule: the new caret sits right after the output produced by the input characters that
    /// were before the old caret, plus any literals the mask inserted immediately after them
    /// (including the trailing separator). Characters dropped before the caret move it back;
    /// literals the user typed where the mask has them are not counted twice. Positions are
    /// `Character` offsets; a negative caret counts as 0 and a caret past the end of the input,
    /// or inside input the mask cut off, lands at the end of the output. The result is always
    /// within `0...text.count`.
    ///
    /// Examples with `{{9999}} {{9999}} {{9999}} {{9999}}`: typing the fourth digit (`"1234"`,
    /// caret 4) gives `"1234 "`, caret 5; typing `9` after `12` in `"1234 5678"`
    /// (`"12934 5678"`, caret 3) gives `"1293 4567 8"`, caret 3; typing `x` there instead gives
    /// `"1234 5678 "`, caret 2; pasting `"1234-5678"` (caret 9) gives `"1234 5678 "`, caret 10.
    /// - Parameters:
    ///   - value: The text after the user's edit.
    ///   - cursor: The caret in `value`, as a count of `Character`s before it.
    /// - Returns: The formatted text and the caret in it.
    public func format(_ value: String, cursor: Int) -> (text: String, cursor: Int) {
        let outcome = MaskFormatter(segments: segments)
            .run(value, cursor: cursor, appendTrailingLiteral: true, collectRaw: false)
        return (outcome.text, outcome.cursor ?? outcome.text.count)
    }

    /// Applies the mask for display: like ``format(_:)`` but without the trailing separator
    /// appended after a completed group (`"1234"` with `{{9999}} {{9999}}` stays `"1234"`).
    /// This matches the Ingenico JavaScript SDK's output for complete groups.
    /// - Parameter value: Raw or already formatted input.
    /// - Returns: The formatted text.
    public func formatForDisplay(_ value: String) -> String {
        run(value, appendTrailingLiteral: false, collectRaw: false).text
    }

    /// Removes the mask: formats `value` and keeps only the characters that filled
    /// placeholders, as the Worldline SDKs' `unformatString` does. `"12/35"` with
    /// `{{99}}/{{99}}` gives `"1235"`; a mask without placeholders unformats everything to `""`.
    /// - Parameter value: Formatted or raw input.
    /// - Returns: The unmasked value, at most ``capacity`` characters.
    public func unformat(_ value: String) -> String {
        run(value, appendTrailingLiteral: false, collectRaw: true).raw
    }

    /// Removes the mask like ``unformat(_:)`` and says whether the whole input fit: `fits` is
    /// `false` when input was left over once every placeholder and literal was used, input that
    /// ``unformat(_:)`` silently cuts off (a 25-digit number in a 19-digit card mask, `12/299999`
    /// in `{{99}}/{{99}}`). Characters a placeholder does not accept are still dropped, as in the
    /// Worldline SDKs, which only ever see text typed into a masked field.
    /// - Parameter value: Formatted or raw input.
    /// - Returns: The unmasked value and whether nothing was cut off.
    package func unformatChecked(_ value: String) -> (value: String, fits: Bool) {
        let outcome = run(value, appendTrailingLiteral: false, collectRaw: true)
        return (outcome.raw, !outcome.truncated)
    }

    /// One formatting pass without a caret: the ASCII plan when the value qualifies, else the
    /// `Character` formatter. Both give the same result (`MaskFastPathTests`).
    private func run(_ value: String, appendTrailingLiteral: Bool, collectRaw: Bool) -> MaskFormatter.Outcome {
        asciiPlan.run(value, appendTrailingLiteral: appendTrailingLiteral, collectRaw: collectRaw)
            ?? MaskFormatter(segments: segments).run(
                value, cursor: nil, appendTrailingLiteral: appendTrailingLiteral, collectRaw: collectRaw)
    }

    /// The same mask with every placeholder replaced by `*`, literals unchanged, as the
    /// Worldline SDKs' `relaxMask`: `{{9999}}/{{aaaa}}` becomes `{{****}}/{{****}}`. Used to
    /// lay out obfuscated values such as `************7412` or `4012XXXXXXXX0026`.
    public var relaxed: Mask {
        var relaxedPattern = ""
        var relaxedSegments: [MaskSegment] = []
        relaxedSegments.reserveCapacity(segments.count)
        for segment in segments {
            switch segment {
            case .literal(let characters):
                relaxedPattern.append(contentsOf: characters)
                relaxedSegments.append(segment)
            case .group(let placeholders):
                relaxedPattern += "{{" + String(repeating: "*", count: placeholders.count) + "}}"
                relaxedSegments.append(.group(Array(repeating: .any, count: placeholders.count)))
            }
        }
        return Mask(pattern: relaxedPattern, segments: relaxedSegments)
    }

    /// The pattern.
    public var description: String { pattern }
}
