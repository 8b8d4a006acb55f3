import CSEValidation
import Testing

@Suite("length (user-perceived characters)")
struct ValidatorLengthTests {
    @Test(
        "WL ValidatorLengthTestCase vectors, 3…10 and 5…10",
        arguments: [
            ("within abc", 3, 10, "abc", true),
            ("within 12345", 3, 10, "12345", true),
            ("within 1234567890", 3, 10, "1234567890", true),
            ("too short ab", 3, 10, "ab", false),
            ("too short a", 3, 10, "a", false),
            ("too short empty", 3, 10, "", false),
            ("too long 11", 3, 10, "12345678901", false),
            ("too long 15", 3, 10, "123456789012345", false),
            ("exactly min", 5, 10, "12345", true),
            ("exactly max", 5, 10, "1234567890", true),
            ("empty with minLength 0 (ING-JS)", 0, 4, "", true),
        ])
    func vectors(id: String, min: Int, max: Int, value: String, valid: Bool) {
        let result = LengthValidator(minLength: min, maxLength: max).validate(value, in: context())
        #expect(result.isValid == valid, "case \(id)")
        if !valid {
            #expect(result == .invalid(.length, ["minLength": .int(min), "maxLength": .int(max)]), "case \(id)")
        }
    }

    @Test(
        "characters are grapheme clusters, not scalars or UTF-16 units",
        arguments: [
            ("e + combining acute", "e\u{301}"),
            ("flag", "🇳🇱"),
            ("family ZWJ sequence", "👩‍👩‍👧"),
            ("skin tone", "👍🏽"),
            ("Arabic-Indic digit", "٤"),
            ("CR LF", "\r\n"),
        ])
    func graphemes(id: String, value: String) {
        #expect(LengthValidator(minLength: 1, maxLength: 1).validate(value, in: context()).isValid, "case \(id)")
    }

    @Test("a maximum missing from JSON (0) rejects every non-empty value, as in the reference")
    func zeroMaximum() {
        let validator = LengthValidator(minLength: 0, maxLength: 0)
        #expect(validator.validate("", in: context()).isValid)
        #expect(!validator.validate("a", in: context()).isValid)
    }

    @Test("min > max accepts nothing; negative limits do not trap")
    func oddLimits() {
        #expect(!LengthValidator(minLength: 5, maxLength: 3).validate("1234", in: context()).isValid)
        #expect(LengthValidator(minLength: -3, maxLength: 2).validate("", in: context()).isValid)
        #expect(!LengthValidator(minLength: -3, maxLength: -1).validate("", in: context()).isValid)
        #expect(LengthValidator(minLength: 0, maxLength: .max).validate(Long.emoji, in: context()).isValid)
    }

    @Test("10 kB values are counted in characters and rejected past the maximum")
    func long() {
        let card = LengthValidator(minLength: 12, maxLength: 19)
        #expect(!card.validate(Long.digits, in: context()).isValid)
        #expect(LengthValidator(minLength: 10_000, maxLength: 10_000).validate(Long.combining, in: context()).isValid)
        #expect(LengthValidator(minLength: 10_000, maxLength: 10_000).validate(Long.emoji, in: context()).isValid)
    }
}

@Suite("range (locale-free integers)")
struct ValidatorRangeTests {
    @Test(
        "WL test facts: 40…50 and 1…100",
        arguments: [
            ("40", 40, 50, "40", true), ("45", 40, 50, "45", true), ("50", 40, 50, "50", true),
            ("aaa", 40, 50, "aaa", false), ("39", 40, 50, "39", false), ("51", 40, 50, "51", false),
            ("1", 1, 100, "1", true), ("50", 1, 100, "50", true), ("100", 1, 100, "100", true),
            ("0", 1, 100, "0", false), ("101", 1, 100, "101", false), ("-5", 1, 100, "-5", false),
            ("abc", 1, 100, "abc", false),
            ("PaymentProductField 0055 in 50…60", 50, 60, "0055", true),
            ("PaymentProductField 0 in 50…60", 50, 60, "0", false),
        ])
    func vectors(id: String, min: Int, max: Int, value: String, valid: Bool) {
        let result = RangeValidator(minValue: min, maxValue: max).validate(value, in: context())
        #expect(result.isValid == valid, "case \(id)")
        if !valid {
            #expect(result == .invalid(.range, ["minValue": .int(min), "maxValue": .int(max)]), "case \(id)")
        }
    }

    @Test(
        "parsing decisions: sign, leading zeros, whitespace, decimals, non-ASCII digits",
        arguments: [
            ("plus sign", "+45", true),
            ("minus zero", "-0", false),
            ("leading zeros", "00045", true),
            ("leading space", " 45", false),
            ("trailing space", "45 ", false),
            ("inner space", "4 5", false),
            ("trailing newline", "45\n", false),
            ("decimal point", "45.0", false),
            ("decimal comma", "45,0", false),
            ("grouping", "1,000", false),
            ("exponent", "4e1", false),
            ("empty", "", false),
            ("lone plus", "+", false),
            ("lone minus", "-", false),
            ("double sign", "+-45", false),
            ("Arabic-Indic 45", "٤٥", false),
            ("fullwidth 45", "４５", false),
            ("digit with combining mark", "45\u{301}", false),
            ("hex", "0x2D", false),
        ])
    func parsing(id: String, value: String, inFortyToFifty: Bool) {
        #expect(
            RangeValidator(minValue: 40, maxValue: 50).validate(value, in: context()).isValid == inFortyToFifty,
            "case \(id)")
    }

    @Test("negative ranges and zero")
    func negatives() {
        let validator = RangeValidator(minValue: -10, maxValue: 0)
        #expect(validator.validate("-0", in: context()).isValid)
        #expect(validator.validate("-10", in: context()).isValid)
        #expect(!validator.validate("-11", in: context()).isValid)
        #expect(validator.validate("0", in: context()).isValid)
    }

    @Test("the Int limits parse; one beyond them is out of every range")
    func overflow() {
        let all = RangeValidator(minValue: .min, maxValue: .max)
        #expect(all.validate("9223372036854775807", in: context()).isValid)
        #expect(all.validate("-9223372036854775808", in: context()).isValid)
        #expect(!all.validate("9223372036854775808", in: context()).isValid)
        #expect(!all.validate("-9223372036854775809", in: context()).isValid)
        #expect(!all.validate(Long.digits, in: context()).isValid)
        #expect(all.validate(Long.zeros + "45", in: context()).isValid)
        #expect(!all.validate(Long.arabicIndic, in: context()).isValid)
        #expect(!RangeValidator(minValue: 5, maxValue: 1).validate("3", in: context()).isValid)
    }
}
