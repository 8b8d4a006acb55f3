public import CSECore
public import CSEValidation

/// The issues behind a ``CSEError/Code/paymentsInvalidRequest``, as the error's typed detail.
struct ValidationIssues: Sendable {
    let issues: [FieldIssue]

    init(_ issues: [FieldIssue]) { self.issues = issues }
}

extension CSEError {
    /// What ``PaymentRequest/validate(in:)`` reported for a request ``PaymentRequestSealer``
    /// refused to seal (a ``CSEError/Code/paymentsInvalidRequest`` error); empty for any other
    /// error. Field ids and codes only, never a value.
    public var validationIssues: [FieldIssue] { detail(as: ValidationIssues.self)?.issues ?? [] }
}
