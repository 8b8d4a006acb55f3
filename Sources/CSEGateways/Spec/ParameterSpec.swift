import CSECore

package import CSEValidation

/// The rules for one gateway parameter, as one row of a spec table in `Vectors/gateways/`.
///
/// A parameter is checked in this order, and each failure becomes a ``FieldIssue``:
/// presence (``isRequired``), JSON type (``valueType``), length, characters, allowed values and
/// format. Optional parameters that are absent, or present as an empty string, are not checked
/// further (see docs/GATEWAYS.md, "Empty values").
package struct ParameterSpec: Hashable, Sendable {
    /// The JSON types a parameter value may have.
    package struct ValueType: StableStringValue {
        /// The table spelling.
        package let rawValue: String
        /// Creates a value type from its table spelling.
        package init(rawValue: String) { self.rawValue = rawValue }

        /// A JSON string, or a JSON number read as its source text (APS accepts `"amount": 10000`).
        package static let text = ValueType(rawValue: "text")
        /// A JSON string only.
        package static let string = ValueType(rawValue: "string")
        /// A JSON number only.
        package static let number = ValueType(rawValue: "number")
        /// `true` or `false` only.
        package static let boolean = ValueType(rawValue: "boolean")

    }

    /// What kind of secret a value is, so that no error, limit or description carries it.
    package struct Sensitivity: StableStringValue {
        /// The table spelling.
        package let rawValue: String
        /// Creates a sensitivity from its table spelling.
        package init(rawValue: String) { self.rawValue = rawValue }

        /// Not secret.
        package static let none = Sensitivity(rawValue: "none")
        /// A primary account number (card number).
        package static let pan = Sensitivity(rawValue: "pan")
        /// A card security code (CVV, CVC, CID).
        package static let securityCode = Sensitivity(rawValue: "securityCode")
        /// A credential such as an API key.
        package static let credential = Sensitivity(rawValue: "credential")

    }

    /// The parameter name; a dotted path (`billingDetails.zip`) for nested JSON.
    package let name: String
    /// The allowed characters.
    package let characters: CharacterClass
    /// The expected JSON type.
    package let valueType: ValueType
    /// Whether the parameter must be present and non-empty.
    package let isRequired: Bool
    /// The smallest length in Unicode scalars, if any.
    package let minLength: Int?
    /// The largest length in Unicode scalars, if any.
    package let maxLength: Int?
    /// The only values allowed, if the table lists them (compared exactly, case-sensitive).
    package let allowedValues: [String]?
    /// A format the value must have, if any.
    package let format: ParameterFormat?
    /// Whether the value is a secret.
    package let sensitivity: Sensitivity
    /// Gateway-specific numeric error codes by failure code (for example Paysafe's `9054` for
    /// `range` on `amount`); `"*"` applies to every failure without its own entry.
    package let gatewayCodes: [String: Int]
    /// Where the row comes from: document and section (or `decision`, see docs/GATEWAYS.md).
    package let source: String

    /// Creates a parameter spec.
    package init(
        name: String, characters: CharacterClass = CharacterClass(.any), valueType: ValueType = .text,
        isRequired: Bool = false, minLength: Int? = nil, maxLength: Int? = nil, allowedValues: [String]? = nil,
        format: ParameterFormat? = nil, sensitivity: Sensitivity = .none, gatewayCodes: [String: Int] = [:],
        source: String = ""
    ) {
        self.name = name
        self.characters = characters
        self.valueType = valueType
        self.isRequired = isRequired
        self.minLength = minLength
        self.maxLength = maxLength
        self.allowedValues = allowedValues
        self.format = format
        self.sensitivity = sensitivity
        self.gatewayCodes = gatewayCodes
        self.source = source
    }

    /// The gateway's numeric code for a failure code, if the table gives one.
    package func gatewayCode(for code: ValidationCode) -> Int? {
        gatewayCodes[code.rawValue] ?? gatewayCodes["*"]
    }
}
