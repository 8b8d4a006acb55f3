public import CSEValidation

/// One reason a payment request is invalid: the field, the stable code and its parameters.
///
/// - Important: It never carries the field's value, so it can be logged and shown even for a
///   card number or CVV.
public struct FieldValidationError: Hashable, Sendable, CustomStringConvertible {
    /// The field id, for example `cardNumber`.
    public let fieldID: String
    /// The stable code, for example `luhn` or `required`.
    public let code: ValidationCode
    /// The parameters, for example `minLength` and `maxLength`.
    public let parameters: [String: ValidationParameter]

    /// Creates an error.
    public init(fieldID: String, code: ValidationCode, parameters: [String: ValidationParameter] = [:]) {
        self.fieldID = fieldID
        self.code = code
        self.parameters = parameters
    }

    /// Creates an error from a validator failure.
    init(fieldID: String, failure: ValidationFailure) {
        self.init(fieldID: fieldID, code: failure.code, parameters: failure.parameters)
    }

    /// `fieldId: code(key=value, …)`.
    public var description: String {
        "\(fieldID): \(ValidationFailure(code, parameters).description)"
    }
}
