import CSECore
import CSEValidation

/// The regular expressions of one product: sized and counted from their syntax before any is
/// compiled, then compiled once per distinct pattern (compared by bytes, so canonically
/// equivalent but different patterns stay apart), within the product's compile budget.
struct ProductPatterns {
    private let productID: String
    private var compiled: [[UInt8]: RegexPattern] = [:]

    /// Checks the product's patterns, one per field that has a `regularExpression` rule (field
    /// order), against `ValidationPlan/maximumFallbackPatternFields` and the compile budget
    /// (`ValidationPlan/maximumRegexInstructions`, `ValidationPlan/maximumRegexBytes`) by
    /// parsing them only: a refused product costs no compilation.
    /// - Throws: ``CSEError/Code/productTooManyFallbackPatterns`` or
    ///   ``CSEError/Code/productRegexBudgetExceeded``.
    init(productID: String, fieldPatterns: [String]) throws(CSEError) {
        self.productID = productID
        var fallbackFields = 0, instructions = 0, bytes = 0
        var seen = Set<[UInt8]>()
        for pattern in fieldPatterns {
            // A pattern too long to plan is refused when it is compiled.
            guard let plan = RegexPattern.plan(pattern) else { continue }
            if !plan.usesBuiltinEngine { fallbackFields += 1 }
            guard seen.insert(Array(pattern.utf8)).inserted else { continue }
            instructions += plan.cost.instructions
            bytes += plan.cost.bytes
        }
        guard fallbackFields <= ValidationPlan.maximumFallbackPatternFields else {
            throw CSEError(
                .productTooManyFallbackPatterns,
                "more fields than the limit have a regular expression that needs the ICU fallback engine",
                context: [
                    "product": productID, "count": String(fallbackFields),
                    "limit": String(ValidationPlan.maximumFallbackPatternFields),
                ])
        }
        guard instructions <= ValidationPlan.maximumRegexInstructions, bytes <= ValidationPlan.maximumRegexBytes else {
            throw CSEError(
                .productRegexBudgetExceeded,
                "the product's regular expressions would compile to more than its budget",
                context: [
                    "product": productID, "instructions": String(instructions), "bytes": String(bytes),
                    "instructionLimit": String(ValidationPlan.maximumRegexInstructions),
                    "byteLimit": String(ValidationPlan.maximumRegexBytes),
                ])
        }
    }

    /// The compiled `pattern`, shared with every other field of the product that has it.
    /// - Throws: the `regex.*` error of `RegexPattern.init`.
    mutating func compile(_ pattern: String) throws(CSEError) -> RegexPattern {
        let key = Array(pattern.utf8)
        if let known = compiled[key] { return known }
        let regex = try RegexPattern(pattern)
        compiled[key] = regex
        return regex
    }

    /// The most steps validating one value of a field with `pattern` can take: one search
    /// visits each (instruction, offset) state at most once, and a `limit: 2` count runs at
    /// most two searches; never more than `RegexPattern.maximumBuiltinStepsPerSearch`, or on
    /// the ICU fallback `RegexPattern.maximumFallbackProgressReports` × 10,000.
    static func worstCaseSteps(_ pattern: RegexPattern) -> Int {
        guard pattern.usesBuiltinEngine else {
            return RegexPattern.maximumFallbackProgressReports * RegexPattern.stepsPerProgressReport
        }
        let states = (pattern.compileCost.instructions + 1) * (RegexPattern.maximumInputLength + 1)
        return min(2 * states, RegexPattern.maximumBuiltinStepsPerSearch)
    }
}
