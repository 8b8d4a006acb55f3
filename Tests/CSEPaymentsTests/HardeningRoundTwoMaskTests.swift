import CSECore
import CSEPayments
import CSEValidation
import Testing

/// Issue #13 F09: the mask cut input after its last placeholder before validation, so a 25-digit
/// "card number" validated and was sealed as its first 19 digits, and expiry `12/299999` was
/// sealed as `1229`. Input that does not fit the mask now fails validation with `length`.
@Suite("Hardening round two: input longer than the field's mask fails with length, never sealed cut (F09)")
struct HardeningRoundTwoMaskTests {
    static let doesNotFit = ["maxLength": ValidationParameter.int(19), "reason": .string("doesNotFitMask")]

    @Test("a 25-digit card number is a length error (reason doesNotFitMask), not its first 19 digits")
    func longCardNumber() throws {
        var request = PaymentRequest(product: try product(Fixtures.worldlineCard))
        // The first 19 digits pass Luhn, so before the fix the request was valid.
        let first19 = "4111111111111111110"
        try request.setValue(first19 + "999999", forField: "cardNumber")
        try request.setValue("12/30", forField: "expiryDate")
        let errors = request.validate(in: fixedContext())
        let cardErrors = errors.filter { $0.fieldId == "cardNumber" }
        #expect(cardErrors.map(\.code) == [.length])
        #expect(cardErrors.first?.parameters["reason"] == .string("doesNotFitMask"))
        #expect(cardErrors.first?.parameters["maxLength"] == .int(19))
        // Sealing refuses it.
        #expect(throws: CSEError(.paymentsInvalidRequest, "")) {
            try demoSealer().seal(request, clientSessionId: "session")
        }
    }

    @Test("expiry 12/299999 is a length error, not 1229")
    func longExpiry() throws {
        var request = PaymentRequest(product: try product(Fixtures.worldlineCard))
        try request.setValue("4111 1111 1111 1111", forField: "cardNumber")
        try request.setValue("12/299999", forField: "expiryDate")
        let errors = request.validate(in: fixedContext()).filter { $0.fieldId == "expiryDate" }
        #expect(errors.map(\.code) == [.length])
        #expect(errors.first?.parameters["reason"] == .string("doesNotFitMask"))
        #expect(errors.first?.parameters["maxLength"] == .int(4))
        #expect(throws: CSEError(.paymentsInvalidRequest, "")) {
            try demoSealer().seal(request, clientSessionId: "session")
        }
    }

    @Test("input that fits is unchanged: masked, raw, partial groups, a trailing separator")
    func fittingInput() throws {
        var request = PaymentRequest(product: try product(Fixtures.worldlineCard))
        for value in ["4111 1111 1111 1111", "4111111111111111", "4111 1111 1111 1111 ", "4111111111111111110"] {
            try request.setValue(value, forField: "cardNumber")
            try request.setValue("1230", forField: "expiryDate")
            #expect(request.validate(in: fixedContext()).filter { $0.fieldId == "cardNumber" }.isEmpty, "\(value.count) chars")
        }
        // Setting a fitting value after an overflowing one clears the mark.
        try request.setValue("4111111111111111999999", forField: "cardNumber")
        #expect(!request.validate(in: fixedContext()).isEmpty)
        try request.setValue("4111111111111111", forField: "cardNumber")
        #expect(request.validate(in: fixedContext()).isEmpty)
    }

    @Test("Mask.unformatChecked reports what unformat cuts off", arguments: [
        ("{{99}}/{{99}}", "12/29", "1229", true),
        ("{{99}}/{{99}}", "12/299999", "1229", false),
        ("{{99}}/{{99}}", "12/2", "122", true),
        ("{{9999}} {{9999}}", "1234 5678", "12345678", true),
        ("{{9999}} {{9999}}", "1234 56789", "12345678", false),
        ("{{9999}} {{9999}}", "１２３４", "", true),
        ("{{9999}}", "12é34", "1234", true),
        ("{{9999}}", "12é345", "1234", false),
    ])
    func unformatChecked(mask: String, input: String, raw: String, fits: Bool) throws {
        let parsed = try Mask(mask)
        let result = parsed.unformatChecked(input)
        #expect(result.value == raw)
        #expect(result.value == parsed.unformat(input))
        #expect(result.fits == fits)
    }
}
