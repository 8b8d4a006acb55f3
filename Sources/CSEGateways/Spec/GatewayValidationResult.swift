import CSECore
public import CSEValidation

/// The outcome of validating a request against a spec: every issue, in table order (parameters
/// first, then unknown parameters, then cross-field rules), each (field, code) pair at most once.
/// Each issue's ``FieldIssue/origin`` is ``FieldIssue/Origin/gateway(code:)``.
public struct GatewayValidationResult: Hashable, Sendable, CustomStringConvertible {
    /// Every issue; empty when valid.
    public let errors: [FieldIssue]
    /// The correlation id of Paysafe's error objects: set by ``GatewayValidator`` on an invalid
    /// Paysafe result (a fresh id per validation, as the SDK makes one per session), else `nil`.
    public let correlationID: String?

    /// Creates a result.
    /// - Parameters:
    ///   - errors: The issues.
    ///   - correlationID: The Paysafe correlation id, if any.
    package init(errors: [FieldIssue], correlationID: String? = nil) {
        self.errors = errors
        self.correlationID = correlationID
    }

    /// `true` when there are no errors.
    public var isValid: Bool { errors.isEmpty }

    /// The issues about one parameter.
    public func errors(for field: String) -> [FieldIssue] { errors.filter { $0.field.isByteEqual(to: field) } }

    /// `valid`, or the issues joined by `; `.
    public var description: String {
        isValid ? "valid" : errors.map(\.description).joined(separator: "; ")
    }
}

extension FieldIssue {
    /// A gateway issue: the limits become string parameters, the gateway's numeric code the origin.
    init(gatewayField field: String, code: ValidationCode, limits: [String: String] = [:], gatewayCode: Int? = nil) {
        self.init(field: field, code: code, parameters: limits.mapValues { .string($0) }, origin: .gateway(code: gatewayCode))
    }
}
