import CSECore
import CSEPayments
import CSEValidation
import Foundation
import TestSupport
import Testing

@Suite("built-in products", .tags(.concurrency))
struct BuiltinProductsTests {
    @Test(
        "the embedded JSON equals the Vectors/products file byte for byte",
        arguments: [
            ("products/card.json", BuiltinProducts.card.id),
            ("products/sepa-direct-debit.json", BuiltinProducts.sepaDirectDebit.id),
        ])
    func embeddedEqualsVectors(path: String, id: String) throws {
        let file = try TestPaths.projectFile(path)
        let product = try PaymentProduct(json: Array(file))
        #expect(product.id == id, "case \(path)")
        #expect(BuiltinProducts.embeddedJSON(id: id).map { Array($0.utf8) } == Array(file), "case \(path)")
    }

    @Test("every regular expression of a built-in product is in the ICU-accepted set, so sealing with it never loads ICU")
    func patternsSkipICU() throws {
        func patterns(in value: Any) -> [String] {
            if let object = value as? [String: Any] {
                return object.flatMap { key, member in
                    key == "regularExpression" && member is String ? [member as! String] : patterns(in: member)
                }
            }
            if let array = value as? [Any] { return array.flatMap { patterns(in: $0) } }
            return []
        }
        var found: [String] = []
        for product in BuiltinProducts.all {
            let json = try #require(BuiltinProducts.embeddedJSON(id: product.id))
            found += patterns(in: try JSONSerialization.jsonObject(with: Data(json.utf8)))
        }
        #expect(found.count >= 2, "the card product has two patterns")
        for pattern in found {
            #expect(RegexPattern.icuAcceptedPatterns.contains(pattern), "not listed: \(pattern)")
            #expect(try RegexPattern(pattern).usesBuiltinEngine, "not on the built-in engine: \(pattern)")
        }
    }

    @Test("the card product: fields, masks and rules as documented")
    func card() {
        let card = BuiltinProducts.card
        #expect(card.fields.map(\.id) == ["cardNumber", "expiryDate", "cvv", "cardholderName"])
        #expect(card.fields.map(\.displayHints.mask) == ["{{9999}} {{9999}} {{9999}} {{9999}} {{999}}", "{{99}}/{{99}}", "{{9999}}", nil])
        #expect(card.fields.allSatisfy { $0.dataRestrictions.isRequired })
        #expect(
            card.validationPlan.fields.map { $0.validators.map(\.code.rawValue) } == [
                ["luhn", "length"], ["expirationDate", "length", "regularExpression"], ["length", "regularExpression"], ["length"],
            ])
        #expect(card.unknownValidators.isEmpty)
    }

    @Test("a complete card request is valid; an empty one names every field as required")
    func cardRequest() throws {
        var request = PaymentRequest(product: BuiltinProducts.card)
        #expect(
            codes(request.validate(in: fixedContext())) == [
                "cardNumber:required", "expiryDate:required", "cvv:required", "cardholderName:required",
            ])
        try request.setValue("5555 5555 5555 4444", forField: "cardNumber")
        try request.setValue("0831", forField: "expiryDate")
        try request.setValue("737", forField: "cvv")
        try request.setValue("Zoë Ørsted", forField: "cardholderName")
        #expect(request.validate(in: fixedContext()).isEmpty)
        #expect(request.effectiveCardBrand == .mastercard)
    }

    @Test("the SEPA product validates the IBAN against the registry")
    func sepa() throws {
        var request = PaymentRequest(product: BuiltinProducts.sepaDirectDebit)
        try request.setValue("DE89 3704 0044 0532 0130 00", forField: "iban")
        try request.setValue("Erika Mustermann", forField: "accountHolderName")
        #expect(request.validate(in: fixedContext()).isEmpty)
        try request.setValue("DE89370400440532013001", forField: "iban")
        #expect(codes(request.validate(in: fixedContext())) == ["iban:iban"])
        #expect(request.validate(in: fixedContext()).first?.parameters["reason"] == .string("checksum"))
    }

    @Test("one compiled plan serves many requests on many threads")
    func sharedPlan() async {
        let results = await withTaskGroup(of: Int.self) { group in
            for worker in 0..<4 {
                group.addTask {
                    var invalid = 0
                    for i in 0..<500 {
                        var request = PaymentRequest(product: BuiltinProducts.card)
                        try? request.setValue(i % 2 == 0 ? "4111111111111111" : "4111111111111112", forField: "cardNumber")
                        try? request.setValue("12/30", forField: "expiryDate")
                        try? request.setValue("123", forField: "cvv")
                        try? request.setValue("Worker \(worker)", forField: "cardholderName")
                        if !request.isValid(in: fixedContext()) { invalid += 1 }
                    }
                    return invalid
                }
            }
            return await group.reduce(into: [Int]()) { $0.append($1) }
        }
        #expect(results == [250, 250, 250, 250])
    }
}
