// Fuzz target `product`: payment-product definitions (Client API JSON) from untrusted bytes.
// Parsing compiles masks and regular expressions; a product that loads is then used: every
// field gets hostile and ordinary values (including a long run of `a` for catastrophic
// patterns) and the request is validated. Must never crash or hang (libFuzzer -timeout).
// Every input is also a JSON differential: JSONValue.validate and JSONValue.parse must agree.
import CSECore
import CSEPayments
import CSEValidation

let productDomains: Set<Substring> = ["json", "product"]
let fixedMonth = CalendarMonth(year: 2026, month: 5)!
let fieldValues: [String] = [
    "", "4111 1111 1111 1111", "12/30", "123", "DE89 3704 0044 0532 0130 00", "a@b.example",
    String(repeating: "a", count: 900) + "!", "٤١١١١١١١١١١١١١١١", "e\u{301}👍🏽\u{0}\u{FFFF}",
]

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzProduct(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = Array(FuzzInput(data, size).bytes)
    // Differential: JSONValue.validate must give parse's verdict (code and offset) on every input.
    let parsed: String, validated: String
    do throws(CSEError) { _ = try JSONValue.parse(bytes); parsed = "ok" } catch {
        parsed = "\(error.code)@\(error.context["offset"] ?? "")"
    }
    do throws(CSEError) { try JSONValue.validate(bytes); validated = "ok" } catch {
        validated = "\(error.code)@\(error.context["offset"] ?? "")"
    }
    require(parsed == validated, "JSONValue.validate disagrees with parse: \(validated) vs \(parsed)")
    let product: PaymentProduct
    do throws(CSEError) {
        product = try PaymentProduct(json: bytes)
    } catch {
        let domain = error.code.rawValue.split(separator: ".").first ?? ""
        require(productDomains.contains(domain), "unexpected code \(error.code)")
        return 0
    }
    require(product.validationPlan.fields.count == product.fields.count, "plan and fields disagree")
    let context = ValidationContext(currentMonth: fixedMonth)
    // An issue names a field of the product as FieldIssue echoes it: verbatim for every real
    // field id, `<redacted N chars>` for an id shaped like a card number (the safe-echo rule; a
    // fuzzed product may have such ids).
    let echoedIDs = Set(product.fields.map { FieldIssue(field: $0.id, code: .required).field })
    for round in fieldValues.indices {
        var request = PaymentRequest(product: product)
        for (index, field) in product.fields.enumerated() {
            let chosen = fieldValues[(round + index) % fieldValues.count]
            do throws(CSEError) {
                try request.setValue(chosen, forField: field.id)
            } catch {
                require(error.code == .paymentsReadOnlyField, "setValue: \(error.code)")
            }
            _ = request.maskedValue(forField: field.id)
        }
        let errors = request.validate(in: context)
        for error in errors {
            require(echoedIDs.contains(error.field), "an error names an unknown field")
        }
    }
    return 0
}
