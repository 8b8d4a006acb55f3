import CSEValidation
import Testing

@Suite("digit policy: only ASCII 0-9 are digits; DigitNormalizer is the explicit opt-in")
struct DigitPolicyTests {
    @Test(
        "every Nd script maps to ASCII",
        arguments: [
            ("Arabic-Indic U+0660", "٠١٢٣٤٥٦٧٨٩"),
            ("Extended Arabic-Indic U+06F0", "۰۱۲۳۴۵۶۷۸۹"),
            ("Devanagari U+0966", "०१२३४५६७८९"),
            ("Bengali U+09E6", "০১২৩৪৫৬৭৮৯"),
            ("Thai U+0E50", "๐๑๒๓๔๕๖๗๘๙"),
            ("fullwidth U+FF10", "０１２３４５６７８９"),
            ("mathematical bold U+1D7CE", "𝟎𝟏𝟐𝟑𝟒𝟓𝟔𝟕𝟖𝟗"),
            ("ASCII stays ASCII", "0123456789"),
        ])
    func scripts(id: String, digits: String) {
        #expect(DigitNormalizer.asciiDigits(digits) == "0123456789", "case \(id)")
    }

    @Test(
        "non-digits are left alone, including other numeric characters",
        arguments: [
            ("letters and separators", "Ab /-.", "Ab /-."),
            ("superscript two (No, not Nd)", "x²", "x²"),
            ("circled one (No)", "①", "①"),
            ("vulgar fraction (No)", "½", "½"),
            ("CJK numeral three (Lo)", "三", "三"),
            ("Roman numeral (Nl)", "Ⅻ", "Ⅻ"),
            ("mixed card number", "٤١١١ ١١١١-1111 ۱۱۱۱", "4111 1111-1111 1111"),
            ("combining mark kept on a converted digit", "٤\u{301}", "4\u{301}"),
            ("emoji", "👍🏽٣", "👍🏽3"),
            ("empty", "", ""),
        ])
    func others(id: String, input: String, expected: String) {
        #expect(DigitNormalizer.asciiDigits(input) == expected, "case \(id)")
    }

    @Test("Arabic-Indic ٤١١١ is invalid everywhere until normalised on purpose")
    func arabicIndicIsNotADigit() throws {
        let typed = "٤١١١"
        let ctx = context()
        #expect(!LuhnValidator().validate(typed, in: ctx).isValid)
        #expect(!RangeValidator(minValue: 0, maxValue: 9_999).validate(typed, in: ctx).isValid)
        #expect(!ExpirationDateValidator().validate("١٢٣٠", in: ctx).isValid)
        #expect(try Mask("{{9999}}").format(typed) == "")
        // Length counts characters, whatever they are: four of them.
        #expect(LengthValidator(minLength: 4, maxLength: 4).validate(typed, in: ctx).isValid)

        let normalised = DigitNormalizer.asciiDigits(typed)
        #expect(normalised == "4111")
        #expect(RangeValidator(minValue: 0, maxValue: 9_999).validate(normalised, in: ctx).isValid)
        #expect(try Mask("{{9999}}").format(normalised) == "4111")
        #expect(ExpirationDateValidator().validate(DigitNormalizer.asciiDigits("١٢٣٠"), in: ctx).isValid)
    }

    @Test("10 kB inputs convert in one pass; ASCII input is returned unchanged")
    func long() {
        #expect(DigitNormalizer.asciiDigits(Long.arabicIndic) == String(repeating: "4", count: 10_000))
        #expect(DigitNormalizer.asciiDigits(Long.digits) == Long.digits)
        #expect(DigitNormalizer.asciiDigits(Long.emoji) == Long.emoji)
        #expect(DigitNormalizer.asciiDigits(Long.combining) == Long.combining)
    }
}
