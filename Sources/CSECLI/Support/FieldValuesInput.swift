import CSECore
import CSEPayments

/// Turns the JSON object `cse seal` and `cse validate` read into a ``PaymentRequest``:
/// `{"cardNumber":"4111 1111 1111 1111","expiryDate":"12/35",…}`. Values may be masked or
/// unmasked strings; `null` means "not set". Errors name fields (redacted unless they look like
/// identifiers, see ``SafeEcho``), never values.
struct FieldValuesInput {
    /// The request holding the values.
    var request: PaymentRequest
    /// The input's own `clientSessionId`, when ``sessionIDMember`` was allowed and present.
    var clientSessionID: String?

    /// The member that `seal --lines` reads as the line's session id instead of a field value,
    /// unless the product has a field with that id.
    static let sessionIDMember = "clientSessionId"

    /// Parses `bytes` as a JSON object of field values for `product`.
    /// - Parameters:
    ///   - bytes: The JSON text.
    ///   - product: The product whose fields the members name.
    ///   - acceptsSessionId: Whether a `clientSessionId` member is read as the session id.
    /// - Throws: `json.*` for malformed JSON, `cli.notAnObject`, `cli.fieldNotString`,
    ///   `payments.unknownField`.
    init(json bytes: some Collection<UInt8>, product: PaymentProduct, acceptsSessionID: Bool) throws(CSEError) {
        guard let object = try JSONValue.parse(bytes).objectValue else {
            throw CSEError(.cliNotAnObject, "the input must be a JSON object of field values, such as {\"cardNumber\":\"…\"}")
        }
        request = PaymentRequest(product: product)
        let sessionMemberIsField = product.field(Self.sessionIDMember) != nil
        for (key, value) in object {
            if acceptsSessionID && key.isByteEqual(to: Self.sessionIDMember) && !sessionMemberIsField {
                guard let id = value.stringValue else {
                    throw CSEError(.cliFieldNotString, "clientSessionId must be a JSON string", context: ["field": SafeEcho.name(key)])
                }
                clientSessionID = id
                continue
            }
            guard product.field(key) != nil else {
                throw CSEError(
                    .paymentsUnknownField, "the product has no such field",
                    context: ["product": SafeEcho.text(product.id, limit: 64), "field": SafeEcho.name(key)])
            }
            if value.isNull { continue }
            guard let text = value.stringValue else {
                throw CSEError(.cliFieldNotString, "field values must be JSON strings", context: ["field": SafeEcho.name(key)])
            }
            try request.setValue(text, forField: key)
        }
    }
}
