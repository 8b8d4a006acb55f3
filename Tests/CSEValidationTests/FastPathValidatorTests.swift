import CSEValidation
import Testing

/// The fast paths added for benchmarks must keep the reference semantics: Character counts for
/// lengths, the textbook Luhn sum, and MMYY/MMYYYY parsing.
@Suite("Validator fast paths keep their semantics")
struct FastPathValidatorTests {
    /// Luhn by the ISO/IEC 7812-1 Annex B definition, over Characters, for comparison.
    static func referenceLuhn(_ text: String) -> Bool {
        guard !text.isEmpty, text.allSatisfy({ $0.isASCII && $0.isNumber }) else { return false }
        var sum = 0
        for (position, character) in text.reversed().enumerated() {
            let digit = Int(String(character))!
            sum += position % 2 == 1 ? (digit * 2 > 9 ? digit * 2 - 9 : digit * 2) : digit
        }
        return sum % 10 == 0
    }

    @Test("Luhn agrees with the Annex B definition on 2,000 generated numbers, edits and non-digits")
    func luhnMatchesReference() {
        var state: UInt64 = 0x2545_F491_4F6C_DD1D
        func next() -> UInt64 { state ^= state << 13; state ^= state >> 7; state ^= state << 17; return state }
        var cases = [
            "", "0", "00", "0000", "4242424242424242", "4567350000427977", "4567350000427978", "1111",
            "٤٢٤٢", "4242 4242", "12a4", String(repeating: "9", count: 300),
        ]
        for _ in 0..<2_000 {
            let length = Int(next() % 24)
            cases.append(String((0..<length).map { _ in Character(String(next() % 10)) }))
        }
        for text in cases {
            #expect(LuhnValidator.hasValidCheckDigit(text) == Self.referenceLuhn(text), "\(text)")
        }
    }

    @Test(
        "length counts Characters: CR LF is one, combining marks join, ASCII is per byte",
        arguments: [
            ("abcd", 4), ("\r\n", 1), ("a\r\nb", 3), ("\n\r", 2), ("e\u{301}", 1), ("👍🏽", 1), ("12345678901234567890", 20), ("", 0),
            ("abcdefgh\r\nijklmno", 16), ("abcdefghij\nk", 12), ("abcdefghijklmnoé", 16), ("Jürgen Müller-Lüdenscheid", 25),
        ])
    func lengthCountsCharacters(text: String, characters: Int) {
        #expect(text.count == characters)
        let exact = LengthValidator(minLength: characters, maxLength: characters)
        #expect(exact.validate(text, in: ValidationContext()).isValid, "\(text.debugDescription)")
        if characters > 0 {
            let shorter = LengthValidator(minLength: 0, maxLength: characters - 1)
            #expect(!shorter.validate(text, in: ValidationContext()).isValid, "\(text.debugDescription)")
        }
    }

    @Test(
        "expiry parsing: MMYY and MMYYYY digits only, as before",
        arguments: [
            ("1230", 2030, 12), ("0199", 2099, 1), ("122031", 2031, 12), ("0526", 2026, 5),
        ])
    func expiryParses(value: String, year: Int, month: Int) {
        let now = CalendarMonth(year: 2026, month: 1)!
        #expect(ExpirationDateValidator.expiryMonth(of: value, relativeTo: now) == CalendarMonth(year: year, month: month))
    }

    @Test("expiry parsing rejects other shapes", arguments: ["", "1", "123", "12345", "1234567", "12/30", "12a0", "١٢٣٠"])
    func expiryRejects(value: String) {
        #expect(ExpirationDateValidator.expiryMonth(of: value, relativeTo: CalendarMonth(year: 2026, month: 1)!) == nil)
    }
}
