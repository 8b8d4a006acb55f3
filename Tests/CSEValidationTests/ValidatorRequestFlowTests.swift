import CSEValidation
import Testing

/// WL PaymentRequestTestCase (reference §6): each value is unmasked with the field's mask and
/// then checked by the field's validators, in the Worldline decode order. The fixture's
/// `regularExpression` `^[0-9]*$` belongs to the regex module; an unmasked card number made by a
/// `9` mask is digits only, so it cannot change any verdict here.
@Suite("request flow: mask, unmask, validate (reference §6 facts, clock 2026-05)")
struct ValidatorRequestFlowTests {
    struct Field {
        let mask: Mask
        let rules: [any FieldValidator]

        func failures(_ value: String) -> [String] {
            let unmasked = mask.unformat(value)
            return rules.flatMap { codes($0.validate(unmasked, in: context(2026, 5))) }
        }
    }

    static let creditCard = try! Field(
        mask: Mask("{{9999}} {{9999}} {{9999}} {{9999}} {{999}}"),
        rules: [LuhnValidator(), LengthValidator(minLength: 13, maxLength: 19)])
    static let expiryDate = try! Field(
        mask: Mask("{{99}}/{{99}}"),
        rules: [ExpirationDateValidator(), LengthValidator(minLength: 4, maxLength: 4)])

    @Test("valid values", arguments: ["4242 4242 4242 4242", "4242424242424242"])
    func validCards(value: String) {
        #expect(Self.creditCard.failures(value).isEmpty, "case \(value)")
    }

    @Test("valid expiry dates", arguments: ["12/35", "1235"])
    func validExpiry(value: String) {
        #expect(Self.expiryDate.failures(value).isEmpty, "case \(value)")
    }

    // The failing rule is derived: the mask drops or cuts characters before the rules run.
    @Test(
        "invalid card numbers and the rules that catch them",
        arguments: [
            ("4242a4242b4242c4 → 4242424242424 (13 digits)", "4242a4242b4242c4", ["luhn"]),
            ("4242.24#424242'2 → 4242244242422", "4242.24#424242'2", ["luhn"]),
            ("4242 4242 4242 → 12 digits", "4242 4242 4242", ["length"]),
            ("1234 5678 9012 3456 7890 → cut to 19 digits", "1234 5678 9012 3456 7890", ["luhn"]),
            ("1234567890123456", "1234567890123456", ["luhn"]),
        ])
    func invalidCards(id: String, value: String, expected: [String]) {
        #expect(Self.creditCard.failures(value) == expected, "case \(id)")
    }

    @Test(
        "invalid expiry dates and the rules that catch them",
        arguments: [
            ("01/20 is in the past", "01/20", ["expirationDate"]),
            ("13/25 has month 13", "13/25", ["expirationDate"]),
            ("0r/28 → 028", "0r/28", ["expirationDate", "length"]),
            ("06/.8 → 068", "06/.8", ["expirationDate", "length"]),
            ("06/028 → cut to 0602 (June 2002)", "06/028", ["expirationDate"]),
            ("6/28 → 628", "6/28", ["expirationDate", "length"]),
        ])
    func invalidExpiry(id: String, value: String, expected: [String]) {
        #expect(Self.expiryDate.failures(value) == expected, "case \(id)")
    }

    // WL PaymentProductFieldTestCase: length 4…6 plus range 50…60.
    @Test("PaymentProductField: 0055 passes both rules, 0 fails both")
    func lengthAndRange() {
        let rules: [any FieldValidator] = [
            LengthValidator(minLength: 4, maxLength: 6),
            RangeValidator(minValue: 50, maxValue: 60),
        ]
        #expect(rules.flatMap { codes($0.validate("0055", in: context())) }.isEmpty)
        #expect(rules.flatMap { codes($0.validate("0", in: context())) } == ["length", "range"])
    }
}
