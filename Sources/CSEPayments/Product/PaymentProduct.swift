public import CSECore
import CSEValidation

/// Display hints of a payment product (`displayHintsList[]` or the legacy `displayHints`).
public struct PaymentItemDisplayHints: Hashable, Sendable {
    /// The position of the product in a list; default 0.
    public let displayOrder: Int
    /// The product's name to show.
    public let label: String?
    /// The partial URL of the logo.
    public let logo: String?

    /// Creates hints.
    package init(displayOrder: Int = 0, label: String? = nil, logo: String? = nil) {
        self.displayOrder = displayOrder
        self.label = label
        self.logo = logo
    }
}

/// A payment product definition from the Worldline Client API (`GET /products/{id}`, reference
/// §5), decoded strictly and compiled into a `ValidationPlan` at load time.
///
/// Loading applies the Worldline post-processing (`fixProductParametersIfRequired`, reference
/// §1.5): a field `expiryDate` shown as a `list` becomes `text`, and without a mask gets
/// `{{99}}/{{99}}`; a field `cardNumber` without a mask gets `{{9999}} {{999999}} {{99999}}` for
/// product `2` (American Express) and `{{9999}} {{9999}} {{9999}} {{9999}}` otherwise.
///
/// Errors never contain customer data; they name the product, field and JSON member.
public struct PaymentProduct: Sendable, Identifiable {
    /// The product id (an integer or a string in JSON), for example `1`.
    public let id: String
    /// The payment method, for example `card`.
    public let paymentMethod: String?
    /// The product group, for example `cards`.
    public let paymentProductGroup: String?
    /// Whether the payment redirects the customer to a third party.
    public let usesRedirectionTo3rdParty: Bool
    /// Whether the product can be tokenized.
    public let allowsTokenization: Bool
    /// Whether the product supports recurring payments.
    public let allowsRecurring: Bool
    /// `displayHintsList`, or the legacy `displayHints` object as a one-element list.
    public let displayHints: [PaymentItemDisplayHints]
    /// The input fields in product order (ascending display order, ties in JSON order).
    public let fields: [PaymentProductField]
    /// The stored accounts of this product.
    public let accountsOnFile: [AccountOnFile]
    /// The compiled validation plan.
    package let validationPlan: ValidationPlan

    /// The rules kept but not enforced, as `(fieldId, key)` pairs in product order. Integrators
    /// should log these at load time.
    public var unknownValidators: [(fieldID: String, key: String)] {
        fields.flatMap { field in field.unknownValidators.map { (field.id, $0) } }
    }

    /// The field with this id.
    public func field(_ id: String) -> PaymentProductField? { fields.first { $0.id.isByteEqual(to: id) } }

    /// The account on file with this id.
    public func accountOnFile(_ id: String) -> AccountOnFile? { accountsOnFile.first { $0.id.isByteEqual(to: id) } }

    /// Loads a product from its JSON text.
    /// - Parameter json: The UTF-8 JSON of one product.
    /// - Throws: `json.*` for text that is not JSON, ``CSEError/Code/productMalformed``,
    ///   ``CSEError/Code/productInvalidMask`` or ``CSEError/Code/productInvalidRegex``.
    public init(json: some Collection<UInt8>) throws(CSEError) {
        try self.init(jsonValue: try JSONValue.parse(json))
    }

    /// Loads a product from its JSON text.
    public init(json: String) throws(CSEError) {
        try self.init(json: Array(json.utf8))
    }

    /// Loads a product from parsed JSON.
    /// - Throws: As ``init(json:)-(Collection<UInt8>)``.
    package init(jsonValue: JSONValue) throws(CSEError) {
        var reader = ProductJSONReader()
        let object = try reader.object(jsonValue, member: "product")
        guard let id = try reader.identifier(object, "id") else { throw reader.malformed("the product has no id", member: "id") }
        reader.product = id
        self.id = id
        paymentMethod = try reader.optionalString(object, "paymentMethod")
        paymentProductGroup = try reader.optionalString(object, "paymentProductGroup")
        usesRedirectionTo3rdParty = try reader.bool(object, "usesRedirectionTo3rdParty", default: false)
        allowsTokenization = try reader.bool(object, "allowsTokenization", default: false)
        allowsRecurring = try reader.bool(object, "allowsRecurring", default: false)
        displayHints = try Self.decodeDisplayHints(object, reader)

        var decoded: [PaymentProductField] = []
        for element in try reader.optionalArray(object, "fields") ?? [] {
            let field = Self.fixed(try PaymentProductField.decode(element, reader), productID: id)
            if decoded.contains(where: { $0.id.isByteEqual(to: field.id) }) {
                var fieldReader = reader
                fieldReader.field = field.id
                throw fieldReader.malformed("the field id appears twice", member: "fields.id")
            }
            decoded.append(field)
        }
        // Stable sort by display order.
        fields = decoded.enumerated()
            .sorted { ($0.element.displayHints.displayOrder, $0.offset) < ($1.element.displayHints.displayOrder, $1.offset) }
            .map(\.element)

        var accounts: [AccountOnFile] = []
        for element in try reader.optionalArray(object, "accountsOnFile") ?? [] {
            accounts.append(try AccountOnFile.decode(element, reader))
        }
        accountsOnFile = accounts
        validationPlan = try ValidationPlan(productID: id, fields: fields)
    }

    private static func decodeDisplayHints(_ object: JSONObject, _ reader: ProductJSONReader) throws(CSEError) -> [PaymentItemDisplayHints]
    {
        var elements: [JSONObject] = []
        if let list = try reader.optionalArray(object, "displayHintsList") {
            for element in list { elements.append(try reader.object(element, member: "displayHintsList")) }
        } else if let legacy = try reader.optionalObject(object, "displayHints") {
            elements.append(legacy)
        }
        var hints: [PaymentItemDisplayHints] = []
        for element in elements {
            hints.append(
                PaymentItemDisplayHints(
                    displayOrder: try reader.int(element, "displayOrder", default: 0),
                    label: try reader.optionalString(element, "label"),
                    logo: try reader.optionalString(element, "logo")))
        }
        return hints
    }

    /// The default masks of the Worldline post-processing.
    static let expiryDateMask = "{{99}}/{{99}}"
    static let cardNumberMask = "{{9999}} {{9999}} {{9999}} {{9999}}"
    static let amexCardNumberMask = "{{9999}} {{999999}} {{99999}}"

    /// Applies `fixProductParametersIfRequired` (reference §1.5) to one field.
    static func fixed(_ field: PaymentProductField, productID: String) -> PaymentProductField {
        let hints = field.displayHints
        var mask = hints.mask
        var formElement = hints.formElementType
        switch field.id {
        case "expiryDate":
            if formElement == .list { formElement = .text }
            if mask == nil { mask = expiryDateMask }
        case "cardNumber":
            if mask == nil { mask = productID == "2" ? amexCardNumberMask : cardNumberMask }
        default:
            return field
        }
        guard mask != hints.mask || formElement != hints.formElementType else { return field }
        return PaymentProductField(
            id: field.id, type: field.type, displayHints: hints.replacing(mask: mask, formElementType: formElement),
            dataRestrictions: field.dataRestrictions)
    }
}
