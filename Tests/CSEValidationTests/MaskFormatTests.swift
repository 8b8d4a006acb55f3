import CSECore
import CSEValidation
import Testing

@Suite("Mask: Worldline StringFormatter output (reference §3)")
struct MaskFormatTests {
    static let pairs = "{{99}} {{99}} {{99}} {{99}} {{99}}"
    static let card5 = "{{9999}} {{9999}} {{9999}} {{9999}} {{999}}"
    static let card4 = "{{9999}} {{9999}} {{9999}} {{9999}}"

    @Test(
        "format: WL tests, README and the derived table",
        arguments: [
            ("WL numbers", pairs, "1234567890", "12 34 56 78 90"),
            ("WL trailing space", pairs, "12345678", "12 34 56 78 "),
            ("WL wildcards", "{{**}} {{**}} {{**}} {{**}} {{**}}", "!!!!!!!!!!", "!! !! !! !! !!"),
            ("WL alpha", "{{aa}} {{aa}} {{aa}} {{aa}} {{aa}}", "abcdefghij", "ab cd ef gh ij"),
            ("README card", card4, "1234567890123456", "1234 5678 9012 3456"),
            ("expiry empty", "{{99}}/{{99}}", "", ""),
            ("expiry 1", "{{99}}/{{99}}", "1", "1"),
            ("expiry 12", "{{99}}/{{99}}", "12", "12/"),
            ("expiry 123", "{{99}}/{{99}}", "123", "12/3"),
            ("expiry 12345 truncated", "{{99}}/{{99}}", "12345", "12/34"),
            ("expiry 12-34 foreign separator", "{{99}}/{{99}}", "12-34", "12/34"),
            ("expiry already formatted", "{{99}}/{{99}}", "12/34", "12/34"),
            ("card 1234", card5, "1234", "1234 "),
            ("card 16 digits", card5, "4242424242424242", "4242 4242 4242 4242 "),
            ("card 20 digits", card5, "12345678901234567890", "1234 5678 9012 3456 789"),
            ("card letters dropped", card5, "4242a4242b4242c4", "4242 4242 4242 4"),
            ("AAaa", "{{AAaa}}", "abCD", "CD"),
            ("no braces, empty input", "123451", "", "123451"),
            ("no braces, any input", "123451", "999", "123451"),
            ("leading literal, empty input", "+{{99}}", "", "+"),
            ("Arabic-Indic digits dropped", "{{9999}}", "٤١١١", ""),
            ("fullwidth digits dropped", "{{9999}}", "４1１1", "11"),
            ("digit with combining mark dropped", "{{99}}", "1\u{301}23", "23"),
            ("wildcard takes a whole grapheme", "{{**}}-{{*}}", "👍🏽e\u{301}🇳🇱", "👍🏽e\u{301}-🇳🇱"),
        ])
    func format(id: String, mask: String, input: String, expected: String) throws {
        let parsed = try Mask(mask)
        #expect(parsed.format(input) == expected, "case \(id)")
        #expect(referenceFormat(input, mask: mask).text == expected, "oracle agrees, case \(id)")
    }

    @Test(
        "unformat: WL tests, PaymentRequest facts and derived values",
        arguments: [
            ("WL unformat", pairs, "12 34 56 78 90", "1234567890"),
            ("request card", card5, "4242 4242 4242 4242", "4242424242424242"),
            ("request raw card", card5, "4242424242424242", "4242424242424242"),
            ("request expiry", "{{99}}/{{99}}", "12/35", "1235"),
            ("request raw expiry", "{{99}}/{{99}}", "1235", "1235"),
            ("no placeholders", "12345", "12345", ""),
            ("derived letters", card5, "4242a4242b4242c4", "4242424242424"),
            ("derived overflow", card5, "1234 5678 9012 3456 7890", "1234567890123456789"),
            ("ING-JS remove", "{{99}}-{{99}}", "12-345", "1234"),
            ("empty", card5, "", ""),
        ])
    func unformat(id: String, mask: String, input: String, expected: String) throws {
        #expect(try Mask(mask).unformat(input) == expected, "case \(id)")
        #expect(referenceUnformat(input, mask: mask) == expected, "oracle agrees, case \(id)")
    }

    @Test(
        "formatForDisplay: no trailing separator (ING-JS apply table)",
        arguments: [
            ("{{99}}-{{99}}", "1", "1"), ("{{99}}-{{99}}", "12", "12"), ("{{99}}-{{99}}", "123", "12-3"),
            ("{{99}}-{{99}}", "1234", "12-34"), ("{{99}}-{{99}}", "12345", "12-34"),
            (card5, "1234", "1234"), (card5, "12345", "1234 5"),
            (card5, "12345678901234567890", "1234 5678 9012 3456 789"),
            (card5, "4242424242424242", "4242 4242 4242 4242"),
            ("{{99}}/{{99}}", "12/", "12/"),
            ("+{{99}}", "", ""),
        ])
    func display(mask: String, input: String, expected: String) throws {
        #expect(try Mask(mask).formatForDisplay(input) == expected, "case \(mask) / \(input)")
    }

    @Test("relaxed: WL relaxMask test and account-on-file labels")
    func relaxed() throws {
        let relaxed = try Mask("{{9999}}/{{aaaa}}+{{****}}").relaxed
        #expect(relaxed.pattern == "{{****}}/{{****}}+{{****}}")
        #expect(relaxed == (try Mask("{{****}}/{{****}}+{{****}}")))
        #expect(try Mask(Self.card4).relaxed.format("4012XXXXXXXX0026") == "4012 XXXX XXXX 0026")
        #expect(try Mask(Self.card4).relaxed.format("************7412") == "**** **** **** 7412")
        // With the five-group card mask, labels want the display form (no trailing space).
        #expect(try Mask(Self.card5).relaxed.formatForDisplay("************7412") == "**** **** **** 7412")
        #expect(try Mask(Self.card5).relaxed.format("************7412") == "**** **** **** 7412 ")
        // Without relaxing, the obfuscation characters are dropped by the 9 placeholders.
        #expect(try Mask(Self.card4).format("4012XXXXXXXX0026") == "4012 0026 ")
        #expect(referenceFormat("4012XXXXXXXX0026", mask: Self.card4).text == "4012 0026 ")
        #expect(try Mask("a{ }b{{9}}").relaxed.pattern == "a{ }b{{*}}")
    }

    @Test("capacity counts placeholders")
    func capacity() throws {
        #expect(try Mask(Self.card5).capacity == 19)
        #expect(try Mask("{{99}}/{{99}}").capacity == 4)
        #expect(try Mask("123451").capacity == 0)
        #expect(try Mask("").capacity == 0)
        #expect(try Mask("").format("123") == "")
    }
}

@Suite("Mask parsing is strict")
struct MaskParseTests {
    @Test(
        "unknown placeholders are rejected with their offset",
        arguments: [
            ("X inside braces", "{{99X9}}", 4), ("question mark", "{{?}}", 2), ("space", "{{99 99}}", 4),
            ("lone brace inside", "{{9{9}}", 3), ("lone closing brace inside", "{{9}9}}", 3),
            ("Arabic-Indic nine", "{{٩}}", 2), ("fullwidth nine", "{{９}}", 2), ("nine with combining mark", "{{9\u{301}}}", 2),
        ])
    func invalidPlaceholder(id: String, mask: String, offset: Int) {
        #expect(throws: CSEError(.maskInvalidPlaceholder, "")) { try Mask(mask) }
        do {
            _ = try Mask(mask)
        } catch {
            #expect(error.context["offset"] == String(offset), "case \(id)")
        }
    }

    @Test(
        "unbalanced or empty braces are rejected",
        arguments: [
            ("unclosed", "{{99"), ("unclosed after a group", "{{9}} {{9"), ("nested", "{{9{{9}}}}"),
            ("closing outside", "99}}"), ("double close", "{{9}}}}"), ("empty group", "a{{}}b"),
            ("only opening", "{{"),
        ])
    func invalidBraces(id: String, mask: String) {
        #expect(throws: CSEError(.maskInvalidBraces, ""), "case \(id)") { try Mask(mask) }
    }

    @Test(
        "single braces outside groups are literals, as in the reference",
        arguments: [
            ("a{b{{9}}", "1", "a{b1"), ("{{9}}}", "1", "1}"), ("}{{9}}", "1", "}1"), ("{ {{9}} }", "1", "{ 1 }"),
        ])
    func singleBraces(mask: String, input: String, expected: String) throws {
        #expect(try Mask(mask).format(input) == expected, "case \(mask)")
        #expect(referenceFormat(input, mask: mask).text == expected, "oracle agrees, case \(mask)")
    }

    @Test("a 10 kB pattern parses and formats 10 kB of input")
    func long() throws {
        let mask = try Mask("{{" + String(repeating: "9", count: 10_000) + "}}")
        #expect(mask.capacity == 10_000)
        #expect(mask.format(Long.digits) == Long.digits)
        #expect(mask.unformat(Long.letters) == "")
        let wild = try Mask("{{" + String(repeating: "*", count: 10_000) + "}}")
        #expect(wild.format(Long.emoji) == Long.emoji)
        #expect(throws: CSEError(.maskInvalidPlaceholder, "")) {
            try Mask("{{" + String(repeating: "9", count: 10_000) + "x}}")
        }
    }
}
