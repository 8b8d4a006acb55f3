import CSECore
import CSEPayments
import Testing

/// Drip-feed truncation of product definitions: every proper prefix of each builtin product's
/// JSON fails with `json.syntax` (an unterminated document), never loads as a smaller product.
@Suite("Drip-feed: every truncation of a product definition fails with json.syntax")
struct DripFeedProductTests {
    @Test("every proper prefix of the builtin product JSON", arguments: ["card", "sepa-direct-debit"])
    func builtin(id: String) throws {
        let text = try #require(BuiltinProducts.embeddedJSON(id: id))
        var bytes = Array(text.utf8)
        // A prefix that only lacks trailing whitespace is the whole document.
        while let last = bytes.last, [0x20, 0x0A, 0x0D, 0x09].contains(last) { bytes.removeLast() }
        #expect(try PaymentProduct(json: bytes).id == id)
        var wrong: [String] = []
        for length in 0..<bytes.count {
            do throws(CSEError) {
                let product = try PaymentProduct(json: bytes[..<length])
                wrong.append("\(length): loaded \(product.id) with \(product.fields.count) fields")
            } catch {
                if error.code != .jsonSyntax { wrong.append("\(length): \(error.code)") }
            }
        }
        #expect(wrong.isEmpty, "\(id): \(wrong.count) of \(bytes.count) prefixes, first \(wrong.prefix(5))")
    }
}
