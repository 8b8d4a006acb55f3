import CSEValidation
import Testing

@Suite("fixedList, termsAndConditions, required, boletoBancarioRequiredness")
struct ValidatorSimpleRulesTests {
    @Test(
        "fixedList: WL ValidatorFixedListTestCase vectors",
        arguments: [
            ("visa", "visa", true), ("mastercard", "mastercard", true), ("amex", "amex", true),
            ("discover", "discover", false), ("jcb", "jcb", false),
            ("case differs", "VISA", false), ("trailing space", "visa ", false), ("empty", "", false),
        ])
    func fixedList(id: String, value: String, valid: Bool) {
        let allowed = ["visa", "mastercard", "amex"]
        let result = FixedListValidator(allowedValues: allowed).validate(value, in: context())
        #expect(result.isValid == valid, "case \(id)")
        if !valid { #expect(result == .invalid(.fixedList, ["allowedValues": .strings(allowed)]), "case \(id)") }
    }

    @Test("fixedList: an empty list accepts nothing; matching is exact on scalars")
    func fixedListEdges() {
        #expect(!FixedListValidator(allowedValues: []).validate("anything", in: context()).isValid)
        let composed = FixedListValidator(allowedValues: ["caf\u{E9}"])
        #expect(composed.validate("caf\u{E9}", in: context()).isValid)
        #expect(!composed.validate("cafe\u{301}", in: context()).isValid)
        #expect(FixedListValidator(allowedValues: [""]).validate("", in: context()).isValid)
        #expect(!FixedListValidator(allowedValues: ["1"]).validate("١", in: context()).isValid)
    }

    @Test(
        "termsAndConditions: only exactly \"true\"",
        arguments: [
            ("true", true), ("false", false), ("yes", false), ("1", false), ("", false),
            ("TRUE", false), ("True", false), (" true", false), ("true ", false), ("true\u{301}", false),
        ])
    func terms(value: String, valid: Bool) {
        #expect(TermsAndConditionsValidator().validate(value, in: context()).isValid == valid, "case \(value)")
    }

    @Test("required: only the empty string is missing")
    func required() {
        let validator = RequiredValidator()
        #expect(validator.validate("", in: context()) == .invalid(.required))
        #expect(validator.validate(" ", in: context()).isValid)
        #expect(validator.validate("x", in: context()).isValid)
        #expect(validator.validate(Long.emoji, in: context()).isValid)
    }

    // ING-JS boleto tests: fiscalNumberLength 3 with "123"; 10 with missing/""/"1234567890"; and
    // the ING Android tests (3 with "123"/"1" and a company name).
    @Test("boletoBancarioRequiredness: a 10 kB fiscal number is measured without trapping")
    func boletoLong() {
        let rule = BoletoBancarioRequirednessValidator(fiscalNumberLength: 11)
        #expect(rule.validate("", in: context(fields: ["fiscalNumber": Long.digits])).isValid)
        let exact = BoletoBancarioRequirednessValidator(fiscalNumberLength: 10_000)
        #expect(!exact.validate("", in: context(fields: ["fiscalNumber": Long.emoji])).isValid)
    }

    @Test(
        "boletoBancarioRequiredness: ING-JS and ING-Android vectors",
        arguments: [
            ("len 3, fiscal 123, value missing", 3, "123" as String?, "", false),
            ("len 3, fiscal 123, value set", 3, "123", "Ingenico ePayments", true),
            ("len 3, fiscal 1, value set", 3, "1", "Ingenico ePayments", true),
            ("len 3, fiscal 1, value empty", 3, "1", "", true),
            ("len 10, fiscal missing, value empty", 10, nil, "", true),
            ("len 10, fiscal empty, value empty", 10, "", "", true),
            ("len 10, fiscal 1234567890, value empty", 10, "1234567890", "", false),
            ("len 10, fiscal 1234567890, value set", 10, "1234567890", "x", true),
            ("len 0, fiscal missing counts as empty", 0, nil, "", false),
        ])
    func boleto(id: String, length: Int, fiscal: String?, value: String, valid: Bool) {
        let fields = fiscal.map { ["fiscalNumber": $0] } ?? [:]
        let result = BoletoBancarioRequirednessValidator(fiscalNumberLength: length)
            .validate(value, in: context(fields: fields))
        #expect(result.isValid == valid, "case \(id)")
        if !valid {
            #expect(result == .invalid(.boletoBancarioRequiredness, ["fiscalNumberLength": .int(length)]), "case \(id)")
        }
    }
}
