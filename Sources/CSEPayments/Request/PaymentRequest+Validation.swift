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
    /// - a value longer than the field's mask is a `length` error (`reason: doesNotFitMask`,
    ///   `maxLength` = the mask's capacity), never checked or sealed cut short;
    /// - a value is checked by every compiled rule in the fixed run order;
    /// - when the card brand is known, the card number and CVV are also checked against the
    ///   brand's PAN and CVC lengths (see ``PaymentRequest/cardBrand``).
    ///
    /// - the regular expressions of one request take at most
    ///   `RegexPattern.maximumStepsPerRequest` steps together; past it a field's
    ///   `regularExpression` rule fails with `reason: stepLimit`.
    ///
    /// - Parameter context: The clock for expiry checks. Its `fieldValues` are overridden by the
    ///   request's own values.
    /// - Returns: The errors, each naming the field, never the value.
    public func validate(in context: ValidationContext = ValidationContext()) -> [FieldIssue] {
        var context = context
        // Only the boletoBancarioRequiredness rule (the one rule that runs on empty values) reads
        // the other fields; without it, skip building the dictionary (≈ 0.5 µs of hashing and
        // allocation per card request in cse-bench).
        if product.validationPlan.fields.contains(where: \.runsOnEmptyValue) {
            for (fieldID, value) in unmaskedFieldValues { context.fieldValues[fieldID] = value }
        }
        if product.validationPlan.needsRegexStepBudget, context.regexStepBudget == nil {
            context.regexStepBudget = RegexStepBudget()
        }
        let brand = effectiveCardBrand
        var errors: [FieldIssue] = []
        // Fields are read in place by index: copying a `Field` value retains its id, mask and
        // validator array on every iteration (cse-bench: retain/release was a fifth of the time).
        let fields = product.validationPlan.fields
        for index in fields.indices {
            let fieldID = fields[index].id
            let value = unmaskedValue(at: index) ?? ""
            if let attribute = accountOnFile?.attribute(forKey: fieldID) {
                switch attribute.status {
                case .readOnly:
                    continue
                case .mustWrite where value.isEmpty:
                    errors.append(FieldIssue(field: fieldID, code: .required))
                    continue
                default:
                    if value.isEmpty { continue }
                }
            }
            if value.isEmpty {
                if fields[index].isRequired {
                    errors.append(FieldIssue(field: fieldID, code: .required))
                    continue
                }
                guard fields[index].runsOnEmptyValue else { continue }
            }
            var failures: [ValidationFailure] = []
            // Called in place through the buffer: iterating the array would copy (and retain)
            // every existential validator.
            fields[index].validators.withUnsafeBufferPointer { validators in
                for position in validators.indices {
                    let result = validators[position].validate(value, in: context)
                    if !result.isValid { failures.append(contentsOf: result.failures) }
                }
            }
            if valueOverflowsMask(at: index), let mask = fields[index].mask {
                // The value was cut to the mask, so the rules saw only its first part: one
                // `length` error says so, in place of any other `length` error.
                failures.removeAll { $0.code == .length }
                failures.insert(
                    ValidationFailure(
                        .length,
                        [
                            "maxLength": .int(mask.capacity),
                            ValidationReason.parameterName: .reason(.doesNotFitMask),
                        ]), at: 0)
            }
            if let brand, !value.isEmpty {
                for failure in Self.brandFailures(role: fields[index].cardRole, value: value, brand: brand)
                where !failures.contains(where: { $0.code == failure.code }) {
                    failures.append(failure)
                }
            }
            if !failures.isEmpty {
                errors.append(contentsOf: failures.map { FieldIssue(field: fieldID, failure: $0) })
            }
        }
        return errors
    }

    /// Whether ``validate(in:)`` finds no error.
    public func isValid(in context: ValidationContext = ValidationContext()) -> Bool {
        validate(in: context).isEmpty
    }
}
