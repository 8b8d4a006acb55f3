import CSEValidation
import Testing

/// One edit in a text field: the value after the edit, the caret after the edit, and the
/// expected formatted value and caret.
struct CaretCase: Sendable, CustomStringConvertible {
    let id: String
    let mask: String
    let edited: String
    let caret: Int
    let text: String
    let expectedCaret: Int
    var description: String { id }
}

@Suite("Mask: caret-aware formatting")
struct MaskCursorTests {
    static let card = "{{9999}} {{9999}} {{9999}} {{9999}}"
    static let pairs = "{{99}} {{99}} {{99}} {{99}} {{99}}"

    // Cases where the caret rule and the reference's arithmetic agree (checked against the model).
    static let agreeing: [CaretCase] = [
        .init(
            id: "WL cursor test: abcdefghij at 10", mask: "{{aa}} {{aa}} {{aa}} {{aa}} {{aa}}",
            edited: "abcdefghij", caret: 10, text: "ab cd ef gh ij", expectedCaret: 14),
        .init(
            id: "type the 4th digit: caret jumps the separator", mask: card,
            edited: "1234", caret: 4, text: "1234 ", expectedCaret: 5),
        .init(id: "type the 3rd digit", mask: card, edited: "123", caret: 3, text: "123", expectedCaret: 3),
        .init(id: "type after a typed separator", mask: card, edited: "1234 5", caret: 6, text: "1234 5", expectedCaret: 6),
        .init(id: "expiry: 12 becomes 12/", mask: "{{99}}/{{99}}", edited: "12", caret: 2, text: "12/", expectedCaret: 3),
        .init(id: "expiry: 12/3", mask: "{{99}}/{{99}}", edited: "12/3", caret: 4, text: "12/3", expectedCaret: 4),
        .init(
            id: "insert 9 after 12", mask: card, edited: "12934 5678", caret: 3,
            text: "1293 4567 8", expectedCaret: 3),
        .init(
            id: "insert 9 before the separator", mask: card, edited: "12349 5678", caret: 5,
            text: "1234 9567 8", expectedCaret: 6),
        .init(
            id: "insert 9 after the separator", mask: card, edited: "1234 95678", caret: 6,
            text: "1234 9567 8", expectedCaret: 6),
        .init(id: "delete the 3", mask: card, edited: "124 5678", caret: 2, text: "1245 678", expectedCaret: 2),
        .init(
            id: "delete the 5 after the separator", mask: card, edited: "1234 678", caret: 5,
            text: "1234 678", expectedCaret: 5),
        .init(
            id: "backspace over the separator restores it", mask: card, edited: "12345678", caret: 4,
            text: "1234 5678 ", expectedCaret: 5),
        .init(
            id: "delete in the first of five pairs", mask: pairs, edited: "12 4 56 78", caret: 3,
            text: "12 45 67 8", expectedCaret: 3),
        .init(
            id: "paste digits at the end", mask: card, edited: "12345678", caret: 8,
            text: "1234 5678 ", expectedCaret: 10),
        .init(
            id: "paste a group in the middle", mask: card, edited: "1234 56789999", caret: 9,
            text: "1234 5678 9999 ", expectedCaret: 10),
        .init(
            id: "paste a formatted number", mask: "{{9999}} {{9999}} {{9999}} {{9999}} {{999}}",
            edited: "4242 4242 4242 4242", caret: 19, text: "4242 4242 4242 4242 ", expectedCaret: 20),
        .init(id: "caret 0 before a leading literal", mask: "+{{99}}", edited: "12", caret: 0, text: "+12", expectedCaret: 1),
        .init(id: "caret on a typed literal", mask: "{{99}}/{{99}}", edited: "12/34", caret: 2, text: "12/34", expectedCaret: 2),
        .init(
            id: "graphemes count once", mask: "{{**}}-{{**}}", edited: "👍🏽a👍🏽b", caret: 2,
            text: "👍🏽a-👍🏽b", expectedCaret: 3),
    ]

    // Cases where the reference's arithmetic is wrong; our rule and the reference's value.
    static let differing: [(CaretCase, referenceCaret: Int)] = [
        (
            .init(
                id: "invalid character typed in the middle stays put", mask: card, edited: "12x34 5678", caret: 3,
                text: "1234 5678 ", expectedCaret: 2), 3
        ),
        (
            .init(
                id: "paste with foreign separator: caret stays inside the text", mask: card, edited: "1234-5678",
                caret: 9, text: "1234 5678 ", expectedCaret: 10), 11
        ),
        (
            .init(
                id: "third separator: caret stays after the 5", mask: pairs, edited: "12345678", caret: 5,
                text: "12 34 56 78 ", expectedCaret: 7), 9
        ),
        (
            .init(
                id: "caret mid-value is not pushed by the trailing separator", mask: pairs, edited: "123456",
                caret: 3, text: "12 34 56 ", expectedCaret: 4), 5
        ),
        (
            .init(
                id: "caret past the truncated input lands at the end", mask: "{{99}}/{{99}}",
                edited: "1234567890123", caret: 13, text: "12/34", expectedCaret: 5), 14
        ),
        (
            .init(
                id: "trailing letters dropped before the caret", mask: "{{9999}}", edited: "12ab", caret: 4,
                text: "12", expectedCaret: 2), 4
        ),
    ]

    @Test("insert, delete and paste: caret positions that match the reference", arguments: agreeing)
    func agreesWithReference(edit: CaretCase) throws {
        let (text, caret) = try Mask(edit.mask).format(edit.edited, cursor: edit.caret)
        #expect(text == edit.text, "case \(edit.id)")
        #expect(caret == edit.expectedCaret, "case \(edit.id)")
        let reference = referenceFormat(edit.edited, mask: edit.mask, cursor: edit.caret)
        #expect(reference.text == edit.text && reference.cursor == edit.expectedCaret, "oracle agrees, case \(edit.id)")
    }

    @Test("where the reference's caret is off, ours follows the rule (documented)", arguments: differing.map(\.0))
    func fixesReference(edit: CaretCase) throws {
        let (text, caret) = try Mask(edit.mask).format(edit.edited, cursor: edit.caret)
        #expect(text == edit.text, "case \(edit.id)")
        #expect(caret == edit.expectedCaret, "case \(edit.id)")
        let referenceCaret = Self.differing.first { $0.0.id == edit.id }?.referenceCaret
        let reference = referenceFormat(edit.edited, mask: edit.mask, cursor: edit.caret)
        #expect(reference.text == edit.text, "oracle text agrees, case \(edit.id)")
        #expect(reference.cursor == referenceCaret, "the reference's caret differs as documented, case \(edit.id)")
    }

    @Test("out-of-range carets are clamped into the text")
    func clamping() throws {
        let mask = try Mask("{{99}}/{{99}}")
        #expect(mask.format("1234", cursor: -3) == ("12/34", 0) as (String, Int))
        #expect(mask.format("1234", cursor: .min).cursor == 0)
        #expect(mask.format("1234", cursor: .max).cursor == 5)
        #expect(mask.format("", cursor: 0) == ("", 0) as (String, Int))
        #expect(mask.format("", cursor: 7) == ("", 0) as (String, Int))
        #expect(try Mask("+{{99}}").format("", cursor: 0) == ("+", 1) as (String, Int))
    }

    @Test("a caret inside a grapheme merged from a literal and the input stays within the text")
    func mergedGraphemes() throws {
        // A regional-indicator literal followed by a regional-indicator input forms one flag.
        let mask = try Mask("🇺{{*}}")
        let (text, caret) = mask.format("🇸", cursor: 1)
        #expect(text == "🇺🇸")
        #expect(text.count == 1)
        #expect(caret == 1)
    }

    @Test("10 kB edits: the caret is found in one pass")
    func long() throws {
        let mask = try Mask("{{" + String(repeating: "9", count: 10_000) + "}}")
        #expect(mask.format(Long.digits, cursor: 5_000) == (Long.digits, 5_000) as (String, Int))
        let card = try Mask(Self.card)
        #expect(card.format(Long.digits, cursor: 9_999) == ("4444 4444 4444 4444", 19) as (String, Int))
        #expect(card.format(Long.emoji, cursor: 10) == ("", 0) as (String, Int))
    }
}
