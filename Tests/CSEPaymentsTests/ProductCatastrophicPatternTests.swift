import CSECore
import CSEPayments
import CSEValidation
import Foundation
import Testing

/// A product definition comes from the network: a hostile or careless one may carry a
/// catastrophic regular expression. Loading it and validating a long value must end with a
/// verdict. `(a+)+$` runs on the linear built-in engine; `(a+)+(?=b)c` needs the ICU fallback,
/// which stops after ``RegexPattern/maximumFallbackProgressReports`` progress reports.
@Suite("a product carrying a catastrophic pattern cannot hang validation")
struct ProductCatastrophicPatternTests {
    static func product(pattern: String) throws -> PaymentProduct {
        let escaped = pattern.replacingOccurrences(of: "\\", with: "\\\\")
        return try PaymentProduct(
            json: Fixtures.product(
                fields: #"""
                    {"id": "code", "dataRestrictions": {"isRequired": true,
                      "validators": {"regularExpression": {"regularExpression": "\#(escaped)"}}}}
                    """#))
    }

    @Test("(a+)+$ against 65,535 a's and a '!' gives the invalid verdict (built-in engine)")
    func builtinEngine() throws {
        let product = try Self.product(pattern: "(a+)+$")
        var request = PaymentRequest(product: product)
        try request.setValue(String(repeating: "a", count: RegexPattern.maximumInputLength - 1) + "!", forField: "code")
        #expect(codes(request.validate(in: fixedContext())) == ["code:regularExpression"])
        try request.setValue(String(repeating: "a", count: 10_000), forField: "code")
        #expect(request.validate(in: fixedContext()).isEmpty)
    }

    @Test("(a+)+(?=b)c against 1,024 a's gives the invalid verdict with reason stepLimit (ICU fallback)")
    func fallbackEngine() throws {
        let product = try Self.product(pattern: "(a+)+(?=b)c")
        var request = PaymentRequest(product: product)
        try request.setValue(String(repeating: "a", count: RegexPattern.maximumFallbackInputLength), forField: "code")
        let errors = request.validate(in: fixedContext())
        #expect(codes(errors) == ["code:regularExpression"])
        #expect(errors.first?.parameters["reason"] == .string("stepLimit"))
        #expect(!request.isValid(in: fixedContext()))
    }

    @Test("the same product still accepts a value that matches")
    func fallbackStillMatches() throws {
        let product = try Self.product(pattern: "(a+)+(?=b)")
        var request = PaymentRequest(product: product)
        try request.setValue("aaab", forField: "code")
        #expect(request.validate(in: fixedContext()).isEmpty)
    }
}
