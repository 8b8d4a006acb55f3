import CSEValidation
import Testing

@Suite("Luhn (ISO/IEC 7812-1 Annex B)")
struct LuhnValidatorTests {
    let validator = LuhnValidator()

    @Test(
        "reference vectors: WL 4242…, 1111; ING-JS 4567350000427977/8",
        arguments: [
            ("WL valid", "4242424242424242", true),
            ("WL invalid", "1111", false),
            ("ING-JS valid card", "4567350000427977", true),
            ("ING-JS Luhn-invalid card", "4567350000427978", false),
            ("WL request invalid 1234567890123456", "1234567890123456", false),
            ("single zero", "0", true),
            ("Wikipedia example 79927398713", "79927398713", true),
            ("Wikipedia example, last digit off", "79927398710", false),
        ])
    func vectors(id: String, value: String, valid: Bool) {
        #expect(validator.validate(value, in: context()).isValid == valid, "case \(id)")
        #expect(LuhnValidator.hasValidCheckDigit(value) == valid, "case \(id)")
    }

    @Test("\"0000\" is valid, as in the Worldline Swift SDK (ING-JS rejects a zero sum)")
    func allZeros() {
        #expect(validator.validate("0000", in: context()).isValid)
    }

    @Test("the empty string is invalid and does not trap (the reference traps)")
    func empty() {
        #expect(validator.validate("", in: context()) == .invalid(.luhn))
    }

    @Test(
        "any non-ASCII-digit makes the value invalid",
        arguments: [
            ("spaces (masked value)", "4242 4242 4242 4242"),
            ("letter", "4242a4242424242"),
            ("Arabic-Indic digits", "٤٢٤٢٤٢٤٢٤٢٤٢٤٢٤٢"),
            ("fullwidth digits", "４２４２４２４２４２４２４２４２"),
            ("digit with combining mark", "424242424242424\u{0301}2"),
            ("sign", "-4242424242424242"),
            ("emoji", "4242👍4242"),
        ])
    func nonDigits(id: String, value: String) {
        #expect(validator.validate(value, in: context()) == .invalid(.luhn), "case \(id)")
    }

    @Test("Arabic-Indic digits pass once normalised on purpose")
    func normalisedArabicIndic() {
        let typed = "٤٢٤٢٤٢٤٢٤٢٤٢٤٢٤٢"
        #expect(validator.validate(DigitNormalizer.asciiDigits(typed), in: context()).isValid)
    }

    @Test("10 kB inputs are handled in linear time")
    func long() {
        #expect(validator.validate(Long.zeros, in: context()).isValid)
        #expect(!validator.validate(Long.zeros.dropLast() + "1", in: context()).isValid)
        // 10 000 fours: 5 000 undoubled 4s (20 000) + 5 000 doubled 8s (40 000) = 60 000.
        #expect(validator.validate(Long.digits, in: context()).isValid)
        #expect(!validator.validate(Long.letters, in: context()).isValid)
        #expect(!validator.validate(Long.emoji, in: context()).isValid)
    }
}
