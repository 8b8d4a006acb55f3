import CSECore
import CSEPayments
import CSEValidation
import Testing

/// Issue #13 F07 (per request) and F14 (field, account and product ids).
@Suite("a cap on ICU-fallback fields per product (F07); ids matched by bytes (F14)")
struct ProductFallbackCapTests {
    /// A product with `count` text fields whose pattern needs the ICU fallback (a lookahead).
    static func fallbackProduct(fallbackFields count: Int, pattern: String = "^(?=a)[a-z]+$") -> String {
        let fields = (0..<count).map { i in
            #"{"id":"f\#(i)","type":"string","dataRestrictions":{"isRequired":false,"validators":{"regularExpression":{"regularExpression":"\#(pattern)"}}},"displayHints":{"displayOrder":\#(i),"formElement":{"type":"text"}}}"#
        }
        return #"{"id":"9999","paymentMethod":"card","fields":[\#(fields.joined(separator: ","))]}"#
    }

    @Test("a product with 400 ICU-fallback regex fields is refused at load with product.tooManyFallbackPatterns")
    func fourHundredFallbackFields() throws {
        do {
            _ = try PaymentProduct(json: Self.fallbackProduct(fallbackFields: 400))
            Issue.record("a 400-fallback-field product loaded")
        } catch {
            #expect(error.code == .productTooManyFallbackPatterns)
            #expect(error.context["count"] == "400")
            #expect(error.context["limit"] == "16")
        }
    }

    @Test("16 fallback fields load and validate; 17 do not; built-in patterns do not count")
    func limitBoundary() throws {
        let loaded = try PaymentProduct(json: Self.fallbackProduct(fallbackFields: ValidationPlan.maximumFallbackPatternFields))
        var request = PaymentRequest(product: loaded)
        try request.setValue("abc", forField: "f0")
        try request.setValue("1bc", forField: "f1")
        #expect(request.validate(in: fixedContext()).map(\.field) == ["f1"])
        #expect(throws: CSEError(.productTooManyFallbackPatterns, "")) {
            try PaymentProduct(json: Self.fallbackProduct(fallbackFields: ValidationPlan.maximumFallbackPatternFields + 1))
        }
        _ = try PaymentProduct(json: Self.fallbackProduct(fallbackFields: 400, pattern: "^[a-z]+$"))
    }

    @Test("field ids match by bytes: a KELVIN SIGN id is not the field K1")
    func fieldIDsByBytes() throws {
        let json =
            #"{"id":"1","paymentMethod":"card","fields":[{"id":"K1","type":"string","dataRestrictions":{"isRequired":false,"validators":{}},"displayHints":{"displayOrder":1,"formElement":{"type":"text"}}}]}"#
        let loaded = try PaymentProduct(json: json)
        #expect(loaded.field("\u{212A}1") == nil)
        #expect(loaded.validationPlan.field("\u{212A}1") == nil)
        var request = PaymentRequest(product: loaded)
        #expect(throws: CSEError(.paymentsUnknownField, "")) { try request.setValue("x", forField: "\u{212A}1") }
        try request.setValue("x", forField: "K1")
        #expect(request.unmaskedValue(forField: "K1") == "x")
        #expect(request.unmaskedValue(forField: "\u{212A}1") == nil)
    }

    @Test("an unknown field named like a card number is echoed safely in the error")
    func unknownFieldEchoedSafely() throws {
        var request = PaymentRequest(product: try product(Fixtures.worldlineCard))
        do {
            try request.setValue("x", forField: "4111111111111111")
            Issue.record("an unknown field was accepted")
        } catch {
            #expect(error.code == .paymentsUnknownField)
            #expect(error.context["field"] == "<redacted 16 chars>")
        }
    }
}
