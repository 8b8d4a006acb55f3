import CSECore
import CSEPayments
import CSEValidation
import Testing

/// WL PaymentRequestTestCase (reference §6) through the whole request: set the value (masked or
/// not), store it unmasked, validate with the product's compiled rules. Clock: May 2026.
@Suite("PaymentRequest: reference §6 facts with a fixed clock")
struct PaymentRequestReferenceTests {
    static let product = try! PaymentProduct(json: Fixtures.worldlineRequestTest)

    func errors(_ field: String, _ value: String) throws -> [String] {
        var request = PaymentRequest(product: Self.product)
        try request.setValue(value, forField: field)
        return codes(request.validate(in: fixedContext())).filter { $0.hasPrefix(field + ":") }
    }

    @Test("valid card numbers, masked and unmasked", arguments: ["4242 4242 4242 4242", "4242424242424242"])
    func validCards(value: String) throws {
        #expect(try errors("creditCard", value) == [], "case \(value)")
    }

    @Test("valid expiry dates, masked and unmasked", arguments: ["12/35", "1235"])
    func validExpiry(value: String) throws {
        #expect(try errors("expiryDate", value) == [], "case \(value)")
    }

    @Test(
        "invalid card numbers",
        arguments: [
            ("4242a4242b4242c4", ["creditCard:luhn"]),
            ("4242.24#424242'2", ["creditCard:luhn"]),
            ("4242 4242 4242", ["creditCard:length"]),
            // 20 digits in a 19-digit mask: does not fit (issue #13 F09), and its first 19 fail Luhn.
            ("1234 5678 9012 3456 7890", ["creditCard:length", "creditCard:luhn"]),
            ("1234567890123456", ["creditCard:luhn"]),
        ])
    func invalidCards(value: String, expected: [String]) throws {
        #expect(try errors("creditCard", value) == expected, "case \(value)")
    }

    @Test(
        "invalid expiry dates",
        arguments: [
            ("01/20", ["expiryDate:expirationDate"]),
            ("13/25", ["expiryDate:expirationDate"]),
            ("0r/28", ["expiryDate:expirationDate", "expiryDate:length"]),
            ("06/.8", ["expiryDate:expirationDate", "expiryDate:length"]),
            // One digit more than `{{99}}/{{99}}` holds (issue #13 F09); its first four are past.
            ("06/028", ["expiryDate:length", "expiryDate:expirationDate"]),
            ("6/28", ["expiryDate:expirationDate", "expiryDate:length"]),
        ])
    func invalidExpiry(value: String, expected: [String]) throws {
        #expect(try errors("expiryDate", value) == expected, "case \(value)")
    }

    @Test("values are stored unmasked and shown masked")
    func storage() throws {
        var request = PaymentRequest(product: Self.product)
        try request.setValue("4242 4242 4242 4242", forField: "creditCard")
        try request.setValue("1235", forField: "expiryDate")
        #expect(request.unmaskedValue(forField: "creditCard") == "4242424242424242")
        #expect(request.maskedValue(forField: "creditCard") == "4242 4242 4242 4242 ")
        #expect(request.unmaskedValue(forField: "expiryDate") == "1235")
        #expect(request.maskedValue(forField: "expiryDate") == "12/35")
        #expect(request.unmaskedFieldValues.map(\.fieldID) == ["creditCard", "expiryDate"])
        #expect(request.validate(in: fixedContext()).isEmpty)
        request.removeValue(forField: "creditCard")
        #expect(codes(request.validate(in: fixedContext())) == ["creditCard:required"])
    }

    @Test("the expiry verdict follows the injected clock, not the system clock")
    func clock() throws {
        var request = PaymentRequest(product: Self.product)
        try request.setValue("4242424242424242", forField: "creditCard")
        try request.setValue("05/26", forField: "expiryDate")
        #expect(request.isValid(in: fixedContext(2026, 5)))
        #expect(codes(request.validate(in: fixedContext(2026, 6))) == ["expiryDate:expirationDate"])
    }
}

@Suite("PaymentRequest: required, accounts on file, errors")
struct PaymentRequestRuleTests {
    static let fields =
        #"{"id": "req", "displayHints": {"displayOrder": 1}, "dataRestrictions": {"isRequired": true, "validators": {"length": {"minLength": 2, "maxLength": 4}}}},"#
        + #"{"id": "opt", "displayHints": {"displayOrder": 2}, "dataRestrictions": {"isRequired": false, "validators": {"length": {"minLength": 2, "maxLength": 4}}}}"#

    @Test("required only for isRequired fields; an optional empty field is fine (fixes reference §6 bug 2)")
    func requiredOnlyWhenRequired() throws {
        var request = PaymentRequest(product: try product(Fixtures.product(fields: Self.fields)))
        #expect(codes(request.validate(in: fixedContext())) == ["req:required"])
        try request.setValue("", forField: "req")
        #expect(codes(request.validate(in: fixedContext())) == ["req:required"])
        try request.setValue("x", forField: "opt")
        #expect(codes(request.validate(in: fixedContext())) == ["req:required", "opt:length"])
        let error = try #require(request.validate(in: fixedContext()).last)
        #expect(error == FieldIssue(field: "opt", code: .length, parameters: ["minLength": .int(2), "maxLength": .int(4)]))
        #expect(error.description == "opt: length(maxLength=4, minLength=2)")
    }

    @Test("boletoBancarioRequiredness runs on an empty optional field and reads the other fields")
    func variableRequiredness() throws {
        let fields =
            #"{"id": "fiscalNumber"}, {"id": "companyName", "dataRestrictions": {"validators": {"boletoBancarioRequiredness": {"fiscalNumberLength": 14}}}}"#
        var request = PaymentRequest(product: try product(Fixtures.product(fields: fields)))
        #expect(request.validate(in: fixedContext()).isEmpty)
        try request.setValue("12345678901234", forField: "fiscalNumber")
        #expect(codes(request.validate(in: fixedContext())) == ["companyName:boletoBancarioRequiredness"])
        try request.setValue("ACME", forField: "companyName")
        #expect(request.validate(in: fixedContext()).isEmpty)
    }

    static let aofFields =
        #"{"id": "ro", "displayHints": {"displayOrder": 1}, "dataRestrictions": {"isRequired": true, "validators": {"luhn": {}}}},"#
        + #"{"id": "mw", "displayHints": {"displayOrder": 2}, "dataRestrictions": {"isRequired": false, "validators": {"length": {"minLength": 3, "maxLength": 4}}}},"#
        + #"{"id": "cw", "displayHints": {"displayOrder": 3}, "dataRestrictions": {"isRequired": true, "validators": {"length": {"minLength": 2, "maxLength": 2}}}}"#
    static let aof =
        #"[{"id": 9, "paymentProductId": "p1", "attributes": [{"key": "ro", "value": "************7988", "status": "READ_ONLY"},"#
        + #"{"key": "mw", "status": "MUST_WRITE"}, {"key": "cw", "value": "12", "status": "CAN_WRITE"}]}]"#

    func aofRequest() throws -> PaymentRequest {
        let p = try product(Fixtures.product(fields: Self.aofFields, accountsOnFile: Self.aof))
        return try PaymentRequest(product: p, accountOnFile: try #require(p.accountOnFile("9")))
    }

    @Test("READ_ONLY is skipped, MUST_WRITE without a value is required, CAN_WRITE is validated only when set")
    func accountOnFileSemantics() throws {
        var request = try aofRequest()
        #expect(codes(request.validate(in: fixedContext())) == ["mw:required"])
        try request.setValue("12345", forField: "mw")
        #expect(codes(request.validate(in: fixedContext())) == ["mw:length"])
        try request.setValue("123", forField: "mw")
        #expect(request.validate(in: fixedContext()).isEmpty)
        try request.setValue("123", forField: "cw")
        #expect(codes(request.validate(in: fixedContext())) == ["cw:length"])
        try request.setValue("34", forField: "cw")
        #expect(request.validate(in: fixedContext()).isEmpty)
        #expect(request.unmaskedFieldValues.map(\.fieldID) == ["mw", "cw"])
    }

    @Test("setting a READ_ONLY attribute is a typed error naming the field; unknown fields too")
    func readOnly() throws {
        var request = try aofRequest()
        let error = caught { () throws(CSEError) in try request.setValue("4242424242424242", forField: "ro") }
        #expect(error?.code == .paymentsReadOnlyField)
        #expect(error?.context["field"] == "ro" && error?.context["accountOnFile"] == "9")
        #expect(request.isReadOnly("ro") && !request.isReadOnly("mw"))
        #expect(caught { () throws(CSEError) in try request.setValue("1", forField: "nope") }?.code == .paymentsUnknownField)
    }

    @Test("selecting an account drops values of its READ_ONLY attributes; another product's account is refused")
    func selectAccount() throws {
        let p = try product(Fixtures.product(fields: Self.aofFields, accountsOnFile: Self.aof))
        var request = PaymentRequest(product: p)
        try request.setValue("4242424242424242", forField: "ro")
        try request.setValue("77", forField: "cw")
        try request.setAccountOnFile(p.accountOnFile("9"))
        #expect(request.unmaskedValue(forField: "ro") == nil)
        #expect(request.unmaskedValue(forField: "cw") == "77")
        try request.setAccountOnFile(nil)
        #expect(codes(request.validate(in: fixedContext())) == ["ro:required"])
        let foreign = AccountOnFile(id: "x", paymentProductID: "other", attributes: [])
        #expect(caught { () throws(CSEError) in try request.setAccountOnFile(foreign) }?.code == .paymentsAccountOnFileMismatch)
    }

    @Test("the WL fixture's account: MUST_WRITE cardholderName is required, read-only card data skipped")
    func worldlineAccount() throws {
        let p = try product(Fixtures.worldlineCard)
        var request = try PaymentRequest(product: p, accountOnFile: p.accountsOnFile[0])
        // cardholderName is not a product field, so the MUST_WRITE attribute has nothing to check;
        // cardNumber and expiryDate are READ_ONLY; cvv is optional.
        #expect(request.validate(in: fixedContext()).isEmpty)
        try request.setValue("12", forField: "cvv")
        #expect(codes(request.validate(in: fixedContext())) == ["cvv:length", "cvv:regularExpression"])
    }
}

@Suite("PaymentRequest: brand-aware card checks")
struct PaymentRequestBrandTests {
    func cardRequest(_ number: String, cvv: String) throws -> PaymentRequest {
        var request = PaymentRequest(product: BuiltinProducts.card)
        try request.setValue(number, forField: "cardNumber")
        try request.setValue("12/30", forField: "expiryDate")
        try request.setValue(cvv, forField: "cvv")
        try request.setValue("J. Doe", forField: "cardholderName")
        return request
    }

    @Test("the detected brand's CVC length applies: 4 digits for American Express, 3 for Visa")
    func securityCodeLength() throws {
        #expect(try cardRequest("3782 822463 10005", cvv: "1234").validate(in: fixedContext()).isEmpty)
        let amex = try cardRequest("378282246310005", cvv: "123").validate(in: fixedContext())
        #expect(
            amex == [
                FieldIssue(
                    field: "cvv", code: .length,
                    parameters: ["minLength": .int(4), "maxLength": .int(4), "name": .string("CID")])
            ])
        #expect(try cardRequest("4111 1111 1111 1111", cvv: "123").validate(in: fixedContext()).isEmpty)
        #expect(codes(try cardRequest("4111111111111111", cvv: "1234").validate(in: fixedContext())) == ["cvv:length"])
    }

    @Test("the brand's PAN lengths apply on top of the product's 12–19: Visa allows 16, 18 and 19 digits")
    func panLength() throws {
        // 17 digits, Luhn-valid, Visa IIN: the product accepts it, the brand does not.
        let errors = try cardRequest("41111111111111113", cvv: "123").validate(in: fixedContext())
        #expect(codes(errors) == ["cardNumber:length"])
        #expect(errors.first?.parameters["brand"] == .string("visa"))
        #expect(errors.first?.parameters["allowedLengths"] == .strings(["16", "18", "19"]))
        // A Luhn failure is reported once, by the product rule, not again by the brand check.
        #expect(codes(try cardRequest("4111111111111112", cvv: "123").validate(in: fixedContext())) == ["cardNumber:luhn"])
    }

    @Test("an explicit brand overrides detection")
    func explicitBrand() throws {
        var request = try cardRequest("4111111111111111", cvv: "1234")
        request.cardBrand = .americanExpress
        #expect(codes(request.validate(in: fixedContext())) == ["cardNumber:length"])
        #expect(request.effectiveCardBrand == .americanExpress)
    }

    @Test("no brand claims the number: only the product's rules apply")
    func unknownBrand() throws {
        let request = try cardRequest("0000 0000 0000 0000", cvv: "12")
        #expect(request.effectiveCardBrand == nil)
        #expect(codes(request.validate(in: fixedContext())) == ["cvv:length", "cvv:regularExpression"])
    }
}
