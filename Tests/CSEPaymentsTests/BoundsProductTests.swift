import CSECore
import CSEPayments
import CSEValidation
import Testing

/// The bounds a product definition inherits (docs/SECURITY.md, "Limits"), reached through
/// `PaymentProduct(json:)`: each broken limit is a typed error naming the cause.
@Suite("Bounds: product definitions over the JSON, mask and pattern limits")
struct BoundsProductTests {
    @Test("a definition over 1 MiB is json.tooLarge; nested deeper than 64 is json.tooDeep")
    func jsonBounds() {
        let padding = String(repeating: " ", count: JSONLimits.default.maxBytes)
        #expect(throws: CSEError(.jsonTooLarge, "")) { try PaymentProduct(json: #"{"id": "p"}"# + padding) }
        let deep = #"{"id": "p", "x": "# + String(repeating: "[", count: 64) + String(repeating: "]", count: 64) + "}"
        #expect(throws: CSEError(.jsonTooDeep, "")) { try PaymentProduct(json: deep) }
    }

    @Test("a field mask over Mask.maximumPatternLength is product.invalidMask caused by mask.tooLong")
    func maskBound() throws {
        let mask = "{{" + String(repeating: "9", count: Mask.maximumPatternLength) + "}}"
        let error = #expect(throws: CSEError.self) {
            try PaymentProduct(json: Fixtures.product(fields: #"{"id": "f", "displayHints": {"mask": "\#(mask)"}}"#))
        }
        #expect(error?.code == .productInvalidMask)
        #expect(error?.underlying?.code == .maskTooLong)
    }

    @Test("a pattern over RegexPattern.maximumPatternLength is product.invalidRegex")
    func patternBound() throws {
        let pattern = String(repeating: "a", count: RegexPattern.maximumPatternLength + 1)
        let error = #expect(throws: CSEError.self) {
            try PaymentProduct(
                json: Fixtures.product(
                    fields: #"""
                        {"id": "f", "dataRestrictions": {"validators": {"regularExpression": {"regularExpression": "\#(pattern)"}}}}
                        """#))
        }
        #expect(error?.code == .productInvalidRegex)
        #expect(error?.underlying?.code == .regexPatternTooLong)
        #expect(error.map { !$0.description.contains(pattern) } == true, "the error does not echo the pattern in full")
    }
}
