import CSECore
import CSEPayments
import CSEValidation

/// Turns the JSON object `cse seal` and `cse validate` read into a ``PaymentRequest``:
/// `{"cardNumber":"4111 1111 1111 1111","expiryDate":"12/35",…}`. Values may be masked or
/// unmasked strings; `null` means "not set". A `cardBrand` member (a built-in brand id such as
/// `visa`) is the payer's choice of brand for a co-badged card (``PaymentRequest/cardBrand``),
/// unless the product has a field of that name. Errors name fields (redacted unless they look like
/// identifiers, see ``SafeEcho``), never values.
struct FieldValuesInput {
    /// The request holding the values.
    var request: PaymentRequest
    /// The input's own `clientSessionId`, when ``sessionIDMember`` was allowed and present.
    var clientSessionID: String?

    /// The member that `seal --lines` reads as the line's session id instead of a field value,
    /// unless the product has a field with that id.
    static let sessionIDMember = "clientSessionId"

    /// The member read as the payer's brand choice (a ``CardBrand/id`` of
    /// ``CardBrandTable/embedded``), unless the product has a field with that id.
    static let cardBrandMember = "cardBrand"

    /// Parses `bytes` as a JSON object of field values for `product`.
    /// - Parameters:
    ///   - bytes: The JSON text.
    ///   - product: The product whose fields the members name.
    ///   - acceptsSessionId: Whether a `clientSessionId` member is read as the session id.
    /// - Throws: `json.*` for malformed JSON, `cli.notAnObject`, `cli.fieldNotString`,
    ///   `payments.unknownField`, `payments.unknownCardBrand` for a `cardBrand` that names no
    ///   built-in brand.
    init(json bytes: some Collection<UInt8>, product: PaymentProduct, acceptsSessionID: Bool) throws(CSEError) {
        let object = try JSONObjectInput.parse(
            bytes, orElse: "the input must be a JSON object of field values, such as {\"cardNumber\":\"…\"}")
        request = PaymentRequest(product: product)
        let sessionMemberIsField = product.field(Self.sessionIDMember) != nil
        let brandMemberIsField = product.field(Self.cardBrandMember) != nil
        for (key, value) in object {
            if acceptsSessionID && key.isByteEqual(to: Self.sessionIDMember) && !sessionMemberIsField {
                guard let id = value.stringValue else {
                    throw CSEError(.cliFieldNotString, "clientSessionId must be a JSON string", context: ["field": SafeEcho.name(key)])
                }
                clientSessionID = id
                continue
            }
            if key.isByteEqual(to: Self.cardBrandMember) && !brandMemberIsField {
                if value.isNull { continue }
                guard let id = value.stringValue else {
                    throw CSEError(.cliFieldNotString, "cardBrand must be a JSON string", context: ["field": SafeEcho.name(key)])
                }
                guard let brand = CardBrandTable.embedded.brand(withID: id) else {
                    throw CSEError(
                        .paymentsUnknownCardBrand, "cardBrand names no built-in card brand (visa, mastercard, american-express, …)",
                        context: ["brand": SafeEcho.name(id)])
                }
                request.cardBrand = brand
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
