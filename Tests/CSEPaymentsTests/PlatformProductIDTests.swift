import CSECore
import CSEPayments
import CSEValidation
import Foundation
import TestSupport
import Testing

@Suite("built-in card product: the platform product id of the detected brand")
struct PlatformProductIDTests {
    /// One Luhn-valid number per brand with a platform id, and the id the platform gives it.
    static let cards: [(pan: String, productID: String)] = [
        ("4111111111111111", "1"), ("378282246310005", "2"), ("5555555555554444", "3"),
        ("3530111333300000", "125"), ("6011111111111117", "128"), ("30569309025904", "132"),
    ]

    @Test("a detected brand seals its platform id as a JSON number", arguments: PlatformProductIDTests.cards)
    func sealsBrandID(card: (pan: String, productID: String)) throws {
        var request = PaymentRequest(product: BuiltinProducts.card)
        try request.setValue(card.pan, forField: "cardNumber")
        let sealed = try demoSealer(allowInvalid: true).seal(request, clientSessionID: "s")
        let payload = try JSONValue.parse(try openSealed(sealed.encryptedCustomerInput))
        #expect(payload["paymentProductId"] == .number(card.productID))
    }

    @Test("the table holds exactly the ids of the platform's own product lists")
    func table() {
        #expect(
            PlatformProductIDs.byBrandID == [
                "visa": "1", "american-express": "2", "mastercard": "3", "maestro": "117", "jcb": "125",
                "discover": "128", "diners-club": "132", "unionpay": "430",
            ])
        #expect(PlatformProductIDs.productID(for: .troy) == nil)
    }

    @Test("a brand without a platform id, or no brand at all, is a clear error and nothing is sealed")
    func unknownBrand() throws {
        var troy = PaymentRequest(product: BuiltinProducts.card)
        troy.cardBrand = .troy
        try troy.setValue("9792000000000001", forField: "cardNumber")
        do {
            _ = try demoSealer(allowInvalid: true).seal(troy, clientSessionID: "s")
            Issue.record("sealed")
        } catch {
            #expect(error.code == .paymentsUnknownCardBrand)
            #expect(error.context["brand"] == "troy")
            #expect(!error.description.contains("9792000000000001"))
        }
        var none = PaymentRequest(product: BuiltinProducts.card)
        try none.setValue("0000000000000000", forField: "cardNumber")
        #expect(throws: CSEError(.paymentsUnknownCardBrand, "")) { try demoSealer(allowInvalid: true).seal(none, clientSessionID: "s") }
    }

    @Test("other products keep their own id")
    func otherProducts() throws {
        var request = PaymentRequest(product: BuiltinProducts.sepaDirectDebit)
        try request.setValue("DE89370400440532013000", forField: "iban")
        try request.setValue("Ada", forField: "accountHolderName")
        let sealed = try demoSealer().seal(request, clientSessionID: "s")
        #expect(try JSONValue.parse(try openSealed(sealed.encryptedCustomerInput))["paymentProductId"] == .string("sepa-direct-debit"))
    }
}
