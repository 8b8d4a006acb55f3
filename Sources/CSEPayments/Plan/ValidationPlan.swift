import CSECore
package import CSEValidation

/// A payment product compiled for validation: masks parsed, regular expressions compiled and
/// validators built once, fields in product order. Immutable and `Sendable`, so any number of
/// requests on any number of threads share one plan.
///
/// **Product field order** is ascending `displayHints.displayOrder`; fields with the same
/// display order keep their JSON order. It is the order a form shows the fields, and it is the
/// order of validation errors and of `paymentValues` in the encrypted payload.
package struct ValidationPlan: Sendable {
    /// One compiled field.
    package struct Field: Sendable, Identifiable {
        /// The field id.
        package let id: String
        /// The parsed mask, if the field has one. Values are stored unmasked with it.
        package let mask: Mask?
        /// Whether an empty value is a `required` error.
        package let isRequired: Bool
        /// The compiled rules in run order (`ProductRules.runOrder`).
        package let validators: [any FieldValidator]
        /// The rule keys that were kept but are not enforced, in JSON order.
        package let unknownValidators: [String]
        /// Whether the rules run on an empty value too (a `boletoBancarioRequiredness` rule
        /// decides about empty values: the Worldline "variable requiredness").
        package let runsOnEmptyValue: Bool
        /// The card role of the field, used for brand-aware checks.
        let cardRole: CardFieldRole?

        /// Unmasks `value` with the field's mask (or returns it unchanged without a mask).
        package func unmask(_ value: String) -> String {
            guard let mask else { return value }
            return mask.unformat(value)
        }
    }

    /// The most fields of one product whose `regularExpression` rule runs on the ICU fallback
    /// engine (lookaround, back-references…; see `RegexPattern`). Each such value may cost up to
    /// `RegexPattern.maximumFallbackProgressReports` × 10,000 backtracking steps, so this bounds
    /// the ICU work of validating one request at 16 × 2.5 M steps (issue #13 F07: a product with
    /// 400 such fields made one request cost about a minute of CPU). Worldline products use the
    /// built-in subset; none has more than a few fallback patterns.
    package static let maximumFallbackPatternFields = 16

    /// The most instructions the distinct built-in-engine patterns of one product may compile
    /// to (search programs; identical patterns count once): 200,000, ten patterns of the largest
    /// program (`RegexProgram` takes up to 20,000). Decided from the patterns' syntax at load,
    /// before anything is compiled (``CSEError/Code/productRegexBudgetExceeded``).
    package static let maximumRegexInstructions = 200_000

    /// The most bytes the distinct built-in-engine patterns of one product may compile to, as
    /// bounded from their syntax at load (both programs, their classes and both DFAs of each
    /// pattern; `RegexCompileCost`): 8 MiB. Patterns compile on first use, so a product
    /// holds at most this much, and usually far less, however many fields it has.
    package static let maximumRegexBytes = 8 << 20

    /// The product id.
    package let productID: String
    /// The fields in product order.
    package let fields: [Field]
    private let indexByID: [String: Int]
    /// Whether the product's `regularExpression` fields could together take more than
    /// `RegexPattern.maximumStepsPerRequest` steps on one request (each at most
    /// `ProductPatterns.worstCaseSteps`): only then does validation carry a step budget.
    package let needsRegexStepBudget: Bool

    /// The compiled field with this id (matched by UTF-8 bytes, not canonical equivalence).
    package func field(_ id: String) -> Field? {
        index(of: id).map { fields[$0] }
    }

    /// The position of the field with this id in ``fields``, or `nil`. The dictionary matches
    /// canonically equivalent ids, so the hit is checked byte for byte.
    func index(of id: String) -> Int? {
        guard let index = indexByID[id], fields[index].id.isByteEqual(to: id) else { return nil }
        return index
    }

    /// Compiles `fields` (already in product order) for product `productId`.
    /// - Throws: ``CSEError/Code/productInvalidMask`` or ``CSEError/Code/productInvalidRegex``
    ///   naming the product and field, ``CSEError/Code/productMalformed`` for a rule parameter
    ///   of the wrong type, ``CSEError/Code/productTooManyFallbackPatterns`` beyond
    ///   ``maximumFallbackPatternFields``, or ``CSEError/Code/productRegexBudgetExceeded`` beyond
    ///   the compile budget. Both limits are checked from the patterns' syntax first, before any
    ///   pattern is compiled.
    init(productID: String, fields productFields: [PaymentProductField]) throws(CSEError) {
        let fieldPatterns = productFields.compactMap { field in
            ValidatorFactory.regularExpressionPattern(
                in: field.dataRestrictions.validators, reader: ProductJSONReader(product: productID, field: field.id))
        }
        var patterns = try ProductPatterns(productID: productID, fieldPatterns: fieldPatterns)
        var fields: [Field] = []
        var index: [String: Int] = [:]
        var worstCaseSteps = 0
        fields.reserveCapacity(productFields.count)
        for productField in productFields {
            let reader = ProductJSONReader(product: productID, field: productField.id)
            var mask: Mask?
            if let pattern = productField.displayHints.mask {
                do {
                    mask = try Mask(pattern)
                } catch {
                    let context = reader.context(member: "displayHints.mask")
                    throw CSEError(.productInvalidMask, "the field mask does not parse", context: context, underlying: error)
                }
            }
            let definitions = productField.dataRestrictions.validators
            index[productField.id] = fields.count
            fields.append(
                Field(
                    id: productField.id, mask: mask, isRequired: productField.dataRestrictions.isRequired,
                    validators: try ValidatorFactory.validators(for: definitions, reader: reader, patterns: &patterns),
                    unknownValidators: productField.unknownValidators,
                    runsOnEmptyValue: definitions.contains { $0.key == "boletoBancarioRequiredness" },
                    cardRole: CardFieldRole(fieldID: productField.id)))
        }
        for field in fields {
            for validator in field.validators {
                if let regex = validator as? RegularExpressionValidator {
                    worstCaseSteps += ProductPatterns.worstCaseSteps(regex.pattern)
                }
            }
        }
        needsRegexStepBudget = worstCaseSteps > RegexPattern.maximumStepsPerRequest
        self.productID = productID
        self.fields = fields
        self.indexByID = index
    }
}

/// Fields that get brand-aware checks when the card brand is known (Worldline field ids).
enum CardFieldRole: Sendable {
    /// `cardNumber`: the PAN.
    case number
    /// `cvv`: the card security code.
    case securityCode

    init?(fieldID: String) {
        switch fieldID {
        case "cardNumber": self = .number
        case "cvv": self = .securityCode
        default: return nil
        }
    }
}
