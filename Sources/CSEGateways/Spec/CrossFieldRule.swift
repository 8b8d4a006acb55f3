/// A rule that ties parameters together, such as "MADA is only for PURCHASE": when every
/// ``conditions`` entry holds, ``requirement`` must hold too.
package struct CrossFieldRule: Hashable, Sendable {
    /// One condition of a rule.
    package enum Condition: Hashable, Sendable {
        /// The parameter is present (non-empty) and its value is one of the listed values.
        case valueIn(field: String, values: [String])
        /// The parameter is present and non-empty (`true`) or absent or empty (`false`).
        case present(field: String, Bool)
        /// A caller-supplied context value (``GatewayValidationContext/values``) is one of the listed
        /// values; `["true"]` tests a flag.
        case contextIn(key: String, values: [String])
    }

    /// What must hold when the conditions do.
    package enum Requirement: Hashable, Sendable {
        /// The parameter must be present and non-empty.
        case required(field: String)
        /// The parameter must be absent (or empty).
        case absent(field: String)
        /// The parameter's value must be one of `values`; when `allowAbsent`, absence is fine.
        case valueIn(field: String, values: [String], allowAbsent: Bool)
        /// The parameter's value (ASCII spaces removed) must have one of these lengths.
        case lengthIn(field: String, lengths: [Int])

        /// The parameter the requirement is about (the one an error names).
        package var field: String {
            switch self {
            case .required(let f), .absent(let f), .valueIn(let f, _, _), .lengthIn(let f, _): return f
            }
        }
    }

    /// A stable id, reported in the error's `rule` limit (for example `mada-meeza-purchase-only`).
    package let id: String
    /// The conditions, all of which must hold for the rule to apply.
    package let conditions: [Condition]
    /// What must then hold.
    package let requirement: Requirement
    /// A gateway-specific numeric code for a violation, if the document gives one.
    package let gatewayCode: Int?
    /// Where the rule comes from.
    package let source: String

    /// Creates a rule.
    package init(id: String, conditions: [Condition], requirement: Requirement, gatewayCode: Int? = nil, source: String = "") {
        self.id = id
        self.conditions = conditions
        self.requirement = requirement
        self.gatewayCode = gatewayCode
        self.source = source
    }
}
