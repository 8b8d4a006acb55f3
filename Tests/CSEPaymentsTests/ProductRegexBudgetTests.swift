import CSECore
@testable import CSEPayments
import CSEValidation
import Testing

/// A product's regular expressions are counted and sized from their syntax before any is
/// compiled, compiled once per distinct pattern, and a request's searches share one step budget.
@Suite("Product regexes: counted before compiling, compiled once, within a compile and a step budget")
struct ProductRegexBudgetTests {
    /// A product with one text field per pattern, ids `f0`, `f1`, ….
    static func product(_ patterns: [String]) -> String {
        let fields = patterns.enumerated().map { i, pattern in
            #"{"id":"f\#(i)","type":"string","dataRestrictions":{"isRequired":false,"validators":{"regularExpression":{"regularExpression":"\#(pattern)"}}},"displayHints":{"displayOrder":\#(i),"formElement":{"type":"text"}}}"#
        }
        return #"{"id":"9999","paymentMethod":"card","fields":[\#(fields.joined(separator: ","))]}"#
    }

    /// About 19,000 instructions, distinct per `index` (its last alternative's class).
    static func heavy(_ index: Int) -> String {
        let letters = Array("bcdefghijklmnopqrstuvwxy")
        var alternatives = (0..<18).map { "[a\(letters[$0])]{999}" }
        alternatives.append("[a\(letters[18 + index % 6])]{\(999 - index / 6)}")
        return "(?:" + alternatives.joined(separator: "|") + ")z"
    }

    static func regex(_ plan: ValidationPlan, _ field: String) -> RegexPattern? {
        plan.field(field)?.validators.lazy.compactMap { $0 as? RegularExpressionValidator }.first?.pattern
    }

    @Test("fallback fields are counted before anything compiles: an invalid pattern among 17 is not compiled first")
    func countedBeforeCompiling() throws {
        // `(?<=a` is outside the built-in subset and ICU rejects it. Compiling field by field
        // reported it as product.invalidRegex; counting first refuses the product for its count.
        let patterns = ["(?<=a"] + Array(repeating: "^(?=a)[a-z]+$", count: ValidationPlan.maximumFallbackPatternFields)
        do {
            _ = try PaymentProduct(json: Self.product(patterns))
            Issue.record("the product loaded")
        } catch {
            #expect(error.code == .productTooManyFallbackPatterns)
            #expect(error.context["count"] == "17")
        }
        // Within the limit the invalid pattern is still reported.
        #expect(throws: CSEError(.productInvalidRegex, "")) { try PaymentProduct(json: Self.product(["(?<=a", "a(?=b)"])) }
    }

    @Test("identical patterns compile once per product: 300 fields share one compiled pattern")
    func identicalPatternsShared() throws {
        let product = try PaymentProduct(json: Self.product(Array(repeating: Self.heavy(0), count: 300)))
        let first = try #require(Self.regex(product.validationPlan, "f0"))
        let last = try #require(Self.regex(product.validationPlan, "f299"))
        #expect(first.compiledByteCount == 0 && last.compiledByteCount == 0)
        var request = PaymentRequest(product: product)
        try request.setValue("az", forField: "f0")
        _ = request.validate(in: fixedContext())
        #expect(last.compiledByteCount > 0)
        #expect(last.compiledByteCount < 300_000)
    }

    @Test("a product whose distinct patterns pass 200,000 instructions is refused at load, before compiling")
    func instructionBudget() throws {
        // Ten distinct 19,000-instruction patterns fit; eleven do not.
        _ = try PaymentProduct(json: Self.product((0..<10).map(Self.heavy)))
        do {
            _ = try PaymentProduct(json: Self.product((0..<11).map(Self.heavy)))
            Issue.record("the product loaded")
        } catch {
            #expect(error.code == .productRegexBudgetExceeded)
            #expect(error.context["instructionLimit"] == String(ValidationPlan.maximumRegexInstructions))
            #expect(Int(error.context["instructions"] ?? "") ?? 0 > ValidationPlan.maximumRegexInstructions)
        }
    }

    @Test("a product whose distinct patterns could hold more than 8 MiB compiled is refused at load")
    func byteBudget() throws {
        // Small anchored patterns each may build two DFAs of up to 16 KiB: 300 distinct ones
        // pass the byte budget long before the instruction budget.
        let patterns = (0..<300).map { "^[0-9]{\($0 + 1)}$" }
        do {
            _ = try PaymentProduct(json: Self.product(patterns))
            Issue.record("the product loaded")
        } catch {
            #expect(error.code == .productRegexBudgetExceeded)
            #expect(Int(error.context["bytes"] ?? "") ?? 0 > ValidationPlan.maximumRegexBytes)
        }
        _ = try PaymentProduct(json: Self.product(Array(patterns.prefix(100))))
    }

    @Test("one request's regexes share 25 M steps: of 15 heavy fields, the later ones stop at once")
    func requestStepBudget() throws {
        let product = try PaymentProduct(json: Self.product(Array(repeating: "(?:[ab]{999}|[ac]{999}|[ad]{999})z", count: 15)))
        #expect(product.validationPlan.needsRegexStepBudget)
        var request = PaymentRequest(product: product)
        for i in 0..<15 { try request.setValue(String(repeating: "a", count: 4_096), forField: "f\(i)") }
        let errors = request.validate(in: fixedContext())
        #expect(errors.count == 15)
        #expect(errors.allSatisfy { $0.code == .regularExpression && $0.parameters[ValidationReason.parameterName] == .reason(.stepLimit) })
    }

    @Test("products whose patterns cannot reach the request budget validate without one")
    func noBudgetWhenBounded() throws {
        #expect(!BuiltinProducts.card.validationPlan.needsRegexStepBudget)
        #expect(!(try PaymentProduct(json: Self.product(Array(repeating: "^(?=a)[a-z]+$", count: 10)))).validationPlan.needsRegexStepBudget)
        #expect((try PaymentProduct(json: Self.product(Array(repeating: "^(?=a)[a-z]+$", count: 11)))).validationPlan.needsRegexStepBudget)
    }
}
