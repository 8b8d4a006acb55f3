import CSECore
import CSEPayments
import CSEValidation
import Testing

/// Issue #13 F09: the mask cut input after its last placeholder before validation, so a 25-digit
/// "card number" validated and was sealed as its first 19 digits, and expiry `12/299999` was
/// sealed as `1229`. Input that does not fit the mask now fails validation with `length`.
@Suite("input longer than the field's mask fails with length, never sealed cut (F09)")
struct MaskOverflowTests {
    /// Sets the card number and expiry, then expects `field` to fail with exactly one `length`
    /// error (`reason: doesNotFitMask`, `maxLength`) and the request to be refused by `seal`.
    static func expectDoesNotFit(cardNumber: String, expiry: String, field: String, maxLength: Int) throws {
        var request = PaymentRequest(product: try product(Fixtures.worldlineCard))
        try request.setValue(cardNumber, forField: "cardNumber")
        try request.setValue(expiry, forField: "expiryDate")
        let errors = request.validate(in: fixedContext()).filter { $0.field == field }
        #expect(errors.map(\.code) == [.length])
        #expect(errors.first?.parameters["reason"] == .string("doesNotFitMask"))
        #expect(errors.first?.parameters["maxLength"] == .int(maxLength))
        #expect(throws: CSEError(.paymentsInvalidRequest, "")) {
            try demoSealer().seal(request, clientSessionID: "session")
        }
    }

    @Test("a 25-digit card number is a length error (reason doesNotFitMask), not its first 19 digits")
    func longCardNumber() throws {
        // The first 19 digits pass Luhn, so before the fix the request was valid and sealed them.
        try Self.expectDoesNotFit(cardNumber: "4111111111111111110" + "999999", expiry: "12/30", field: "cardNumber", maxLength: 19)
    }

    @Test("expiry 12/299999 is a length error, not 1229")
    func longExpiry() throws {
        try Self.expectDoesNotFit(cardNumber: "4111 1111 1111 1111", expiry: "12/299999", field: "expiryDate", maxLength: 4)
    }

    @Test("input that fits is unchanged: masked, raw, partial groups, a trailing separator")
    func fittingInput() throws {
        var request = PaymentRequest(product: try product(Fixtures.worldlineCard))
        for value in ["4111 1111 1111 1111", "4111111111111111", "4111 1111 1111 1111 ", "4111111111111111110"] {
            try request.setValue(value, forField: "cardNumber")
            try request.setValue("1230", forField: "expiryDate")
            #expect(request.validate(in: fixedContext()).filter { $0.field == "cardNumber" }.isEmpty, "\(value.count) chars")
        }
        // Setting a fitting value after an overflowing one clears the mark.
        try request.setValue("4111111111111111999999", forField: "cardNumber")
        #expect(!request.validate(in: fixedContext()).isEmpty)
        try request.setValue("4111111111111111", forField: "cardNumber")
        #expect(request.validate(in: fixedContext()).isEmpty)
    }

    @Test(
        "Mask.unformatChecked reports what unformat cuts off",
        arguments: [
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
