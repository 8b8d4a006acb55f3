import CSECore
public import CSEValidation

extension PaymentRequest {
    /// Validates every field in product order and returns all errors (empty when valid).
    ///
    /// Rules per field, fixing the Worldline bugs of reference §6:
    /// - an account-on-file attribute `READ_ONLY` → the field is skipped;
    ///   `MUST_WRITE` without a value → `required`; `CAN_WRITE` → validated only when set;
    /// - otherwise a missing or empty value is a `required` error **only** for `isRequired`
    ///   fields (an optional empty field is fine, unless it has a rule that decides about empty
    ///   values such as `boletoBancarioRequiredness`);
    /// - a value is checked by every compiled rule in the fixed run order;
    /// - when the card brand is known, the card number and CVV are also checked against the
    ///   brand's PAN and CVC lengths (see ``PaymentRequest/cardBrand``).
    ///
    /// - Parameter context: The clock for expiry checks. Its `fieldValues` are overridden by the
    ///   request's own values.
    /// - Returns: The errors, each naming the field, never the value.
    public func validate(in context: ValidationContext = ValidationContext()) -> [FieldValidationError] {
        var context = context
        for (fieldId, value) in unmaskedFieldValues { context.fieldValues[fieldId] = value }
        let brand = effectiveCardBrand
        var errors: [FieldValidationError] = []
        for field in product.validationPlan.fields {
            let value = unmaskedValue(forField: field.id) ?? ""
            if let attribute = accountOnFile?.attribute(forKey: field.id) {
                switch attribute.status {
                case .readOnly:
                    continue
                case .mustWrite where value.isEmpty:
                    errors.append(FieldValidationError(fieldId: field.id, code: .required))
                    continue
                default:
                    if value.isEmpty { continue }
                }
            }
            if value.isEmpty {
                if field.isRequired {
                    errors.append(FieldValidationError(fieldId: field.id, code: .required))
                    continue
                }
                guard field.runsOnEmptyValue else { continue }
            }
            var failures: [ValidationFailure] = []
            for validator in field.validators {
                failures.append(contentsOf: validator.validate(value, in: context).failures)
            }
            if let brand, !value.isEmpty {
                for failure in Self.brandFailures(field: field, value: value, brand: brand)
                where !failures.contains(where: { $0.code == failure.code }) {
                    failures.append(failure)
                }
            }
            errors.append(contentsOf: failures.map { FieldValidationError(fieldId: field.id, failure: $0) })
        }
        return errors
    }

    /// Whether ``validate(in:)`` finds no error.
    public func isValid(in context: ValidationContext = ValidationContext()) -> Bool {
        validate(in: context).isEmpty
    }
}
