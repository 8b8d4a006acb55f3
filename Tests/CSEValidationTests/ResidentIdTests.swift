import CSEValidation
import Testing

@Suite("residentIdNumber (ISO 7064 MOD 11-2)")
struct ResidentIDTests {
    let validator = ResidentIDNumberValidator()

    @Test(
        "ING-JS valid vectors",
        arguments: [
            "123456789012345", "110101202002042275", "110101202002049979", "11010120200211585X",
            "11010120200211585x", "11010120200325451X", "11010120200325451x",
        ])
    func jsValid(value: String) {
        #expect(validator.validate(value, in: context()).isValid, "case \(value)")
    }

    @Test(
        "ING-JS invalid vectors",
        arguments: [
            "1234567890", "12345678901234X", "12345678901234x", "12345678901234a", "110101202002042274",
            "1101012020020227a4", "b10101202002049979", "15242719920303047X", "15242719920303047x",
            "15242719920303047a",
        ])
    func jsInvalid(value: String) {
        #expect(validator.validate(value, in: context()) == .invalid(.residentIDNumber), "case \(value)")
    }

    @Test("ING-Swift valid vectors", arguments: ["123456789101112", "110101202009235416", "11010120200922993X"])
    func swiftValid(value: String) {
        #expect(validator.validate(value, in: context()).isValid, "case \(value)")
    }

    @Test(
        "ING-Swift invalid vectors",
        arguments: [
            ("test16CharacterId", "1234567890123451"),
            ("test17CharacterId", "1234567890123451X"),
            ("testValidateTooShortId", "1"),
            ("testValidateTooLongId", "110101202009224733110101202009224733"),
            ("testValidateInvalidChecksum", "110101202009224734"),
        ])
    func swiftInvalid(id: String, value: String) {
        #expect(!validator.validate(value, in: context()).isValid, "case \(id)")
    }

    @Test(
        "decisions: no signs, no non-digits counted as 0, no non-ASCII digits",
        arguments: [
            ("15 with plus sign (ING-Swift Int() accepted it)", "+12345678901234"),
            ("15 with minus sign", "-12345678901234"),
            ("18 with a letter among the first 17 (ING-Swift counted it as 0)", "1101012020092a5416"),
            ("Arabic-Indic 15", "١٢٣٤٥٦٧٨٩٠١٢٣٤٥"),
            ("empty", ""),
            ("18 with combining mark", "11010120200922993X\u{301}"),
        ])
    func decisions(id: String, value: String) {
        #expect(!validator.validate(value, in: context()).isValid, "case \(id)")
    }

    @Test("10 kB values are rejected without reading past 19 bytes")
    func long() {
        #expect(!ResidentIDNumberValidator.isValid(Long.digits))
        #expect(!ResidentIDNumberValidator.isValid(Long.emoji))
    }

    @Test("the X check character stands for 10, and only for 10")
    func checkCharacter() {
        // 11010120200922993X is valid, so its check value is 10: no digit may replace the X.
        for digit in 0...9 {
            #expect(!ResidentIDNumberValidator.isValid("11010120200922993\(digit)"), "case digit \(digit)")
        }
        // 110101202009235416 is valid, so its check value is 6: X may not replace the 6.
        #expect(!ResidentIDNumberValidator.isValid("11010120200923541X"))
    }
}
