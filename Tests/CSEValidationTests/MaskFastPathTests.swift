@testable import CSEValidation
import Testing
import TestSupport

/// `Mask`'s ASCII byte path must be invisible: for every mask and every ASCII value it gives what
/// the `Character` formatter and the reference model give, and values it cannot take (non-ASCII,
/// a `"\r\n"` pair, which is one `Character`) go to the `Character` formatter.
@Suite("Mask: the ASCII fast path equals the Character formatter")
struct MaskFastPathTests {
    static let asciiAlphabet: [Character] = [
        "0", "1", "5", "9", "a", "m", "z", "A", "M", "Z", "X", "x", " ", "/", "-", ".", "+", "\t", "\r", "\n", "~",
    ]

    static func asciiCases(count: Int, seed: UInt64) -> [MaskPropertyTests.Case] {
        var rng = SplitMix64(state: seed)
        return MaskPropertyTests.cases(count: count, seed: seed).map { c in
            var input = ""
            for _ in 0..<Int.random(in: 0...30, using: &rng) { input.append(asciiAlphabet.randomElement(using: &rng)!) }
            return MaskPropertyTests.Case(mask: c.mask, input: input)
        }
    }

    @Test("3,000 random masks (ASCII and non-ASCII literals) × ASCII values: format, formatForDisplay and unformat")
    func equalsCharacterFormatter() throws {
        for (n, c) in Self.asciiCases(count: 3_000, seed: 0xA5C1_1FA5).enumerated() {
            let mask = try Mask(c.mask)
            let slow = MaskFormatter(segments: mask.segments)
            let context = "case \(n): mask \(c.mask.debugDescription), input \(c.input.debugDescription)"
            #expect(
                mask.format(c.input) == slow.run(c.input, cursor: nil, appendTrailingLiteral: true, collectRaw: false).text, "\(context)")
            #expect(
                mask.formatForDisplay(c.input) == slow.run(c.input, cursor: nil, appendTrailingLiteral: false, collectRaw: false).text,
                "\(context)")
            #expect(
                mask.unformat(c.input) == slow.run(c.input, cursor: nil, appendTrailingLiteral: false, collectRaw: true).raw, "\(context)")
            #expect(mask.format(c.input) == referenceFormat(c.input, mask: c.mask).text, "\(context) vs reference")
            #expect(mask.unformat(c.input) == referenceUnformat(c.input, mask: c.mask), "\(context) vs reference")
        }
    }

    @Test(
        "values the byte path must not take",
        arguments: [
            ("{{9999}} {{9999}}", "1234\r\n5678"),  // "\r\n" is one Character
            ("{{****}}", "ab\r\ncd"),
            ("{{9999}} {{9999}}", "1234 ５６７８"),  // fullwidth digits are not placeholders' digits
            ("{{**}}/{{**}}", "é/👍🏽x"),
        ])
    func fallsBack(mask pattern: String, input: String) throws {
        let mask = try Mask(pattern)
        #expect(mask.asciiPlan.run(input, appendTrailingLiteral: true, collectRaw: false) == nil)
        #expect(mask.format(input) == referenceFormat(input, mask: pattern).text)
        #expect(mask.unformat(input) == referenceUnformat(input, mask: pattern))
    }

    @Test("the card mask on a plain card number, as the benchmark runs it")
    func cardMask() throws {
        let mask = try Mask("{{9999}} {{9999}} {{9999}} {{9999}} {{999}}")
        #expect(mask.asciiPlan.run("4567350000427977", appendTrailingLiteral: true, collectRaw: false)?.text == "4567 3500 0042 7977 ")
        #expect(mask.format("4567350000427977") == "4567 3500 0042 7977 ")
        #expect(mask.formatForDisplay("4567350000427977") == "4567 3500 0042 7977")
        #expect(mask.unformat("4567 3500 0042 7977") == "4567350000427977")
    }
}

/// The case the `mask` fuzz target found (CI smoke pass, 2026-12-01): a lone combining mark that
/// fills a placeholder right after a literal merges with that literal in the output `String`.
@Suite("Mask: a character that merges with the literal before it")
struct MaskMergingCharacterTests {
    @Test("format matches the reference; unformat keeps the mark the reference loses by re-reading its output")
    func loneCombiningMarkAfterLiteral() throws {
        let pattern = "ab{{****}}"
        let value = "\u{07ED}123"  // NKo combining mark, then three digits
        let mask = try Mask(pattern)
        #expect(mask.format(value) == referenceFormat(value, mask: pattern).text)
        #expect(mask.format(value) == "ab\u{07ED}123")
        #expect(referenceFormatMerges(value, mask: pattern))
        // The reference's unformatString re-splits "ab\u{07ED}123" into Characters, where
        // "b\u{07ED}" is one, so it returns "123"; the characters that filled the placeholders
        // are "\u{07ED}", "1", "2", "3".
        #expect(referenceUnformat(value, mask: pattern) == "123")
        #expect(mask.unformat(value) == "\u{07ED}123")
        #expect(mask.unformat(value) == referenceUnformatUnmerged(value, mask: pattern))
    }
}
