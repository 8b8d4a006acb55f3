/// The `iban` field rule: the value must be a valid IBAN for its country (length, BBAN
/// structure and ISO 7064 MOD 97-10 check digits).
///
/// This is stricter than the Worldline SDKs, which only apply a generic pattern and MOD 97
/// (reference §2). On failure the result carries one `iban`
/// failure with a `reason` parameter: `unknownCountry`, `length`, `structure` or `checksum`
/// (see ``IBANFailureReason``).
public struct IBANValidator: FieldValidator {
    /// Always ``ValidationCode/iban``.
    public let code: ValidationCode = .iban
    /// Whether formats outside the SWIFT registry (experimental national formats) are accepted.
    public let acceptsExperimentalCountries: Bool

    /// Creates the rule.
    /// - Parameter acceptsExperimentalCountries: Whether formats outside the SWIFT registry are
    ///   accepted; defaults to `true`.
    public init(acceptsExperimentalCountries: Bool = true) {
        self.acceptsExperimentalCountries = acceptsExperimentalCountries
    }

    /// Checks `value` as an IBAN in print or electronic format.
    /// - Parameters:
    ///   - value: The unmasked value.
    ///   - context: Unused.
    /// - Returns: Valid, or one `iban` failure with a `reason` parameter.
    public func validate(_ value: String, in context: ValidationContext) -> ValidationResult {
        let result = IBAN.check(value, acceptsExperimentalCountries: acceptsExperimentalCountries)
        guard let failure = result.failure else { return .valid }
        return .invalid(.iban, [ValidationReason.parameterName: .string(failure.rawValue)])
    }
}
