public import CSECore
public import CSEValidation

/// Whether a request may change an account-on-file attribute. An open set; the Client API
/// spellings are static members. Decoding maps an unknown status to ``readOnly``, as the
/// Worldline SDK does.
public struct AccountOnFileAttributeStatus: StableStringValue {
    /// The JSON spelling, for example `READ_ONLY`.
    public let rawValue: String
    /// Creates a status from its JSON spelling.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// The stored value is used; the request may not set one (validation skips the field).
    public static let readOnly = Self(rawValue: "READ_ONLY")
    /// The request may replace the stored value; a value that is set is validated.
    public static let canWrite = Self(rawValue: "CAN_WRITE")
    /// The request must supply a value (for example a new CVV); none is a `required` error.
    public static let mustWrite = Self(rawValue: "MUST_WRITE")

}

/// One stored attribute of an account on file, for example the obfuscated card number.
public struct AccountOnFileAttribute: Hashable, Sendable {
    /// The field id it stands for, for example `cardNumber`.
    public let key: String
    /// The stored (usually obfuscated) value, such as `************7988`.
    public let value: String?
    /// Whether a request may change it.
    public let status: AccountOnFileAttributeStatus

    /// Creates an attribute.
    package init(key: String, value: String?, status: AccountOnFileAttributeStatus) {
        self.key = key
        self.value = value
        self.status = status
    }
}

/// One element of an account on file's label template: which attribute to show, with which mask.
public struct LabelTemplateItem: Hashable, Sendable {
    /// The attribute key, for example `cardNumber`.
    public let attributeKey: String
    /// The mask to lay the value out with, parsed at load time.
    public let mask: Mask?

    /// Creates an item.
    package init(attributeKey: String, mask: Mask?) {
        self.attributeKey = attributeKey
        self.mask = mask
    }
}

/// A stored payment account (a card or mandate on file) that a request can refer to
/// (`accountsOnFile[]`, reference §5).
public struct AccountOnFile: Hashable, Sendable, Identifiable {
    /// The id (an integer or a string in JSON), sent as the string `accountOnFileId`.
    public let id: String
    /// The product the account belongs to, when stated.
    public let paymentProductID: String?
    /// The stored attributes.
    public let attributes: [AccountOnFileAttribute]
    /// The label template, from `displayHints` or `displayHintsList` (see `AccountOnFile.decode(_:_:)`).
    public let labelTemplate: [LabelTemplateItem]

    /// Creates an account on file.
    package init(
        id: String, paymentProductID: String?, attributes: [AccountOnFileAttribute],
        labelTemplate: [LabelTemplateItem] = []
    ) {
        self.id = id
        self.paymentProductID = paymentProductID
        self.attributes = attributes
        self.labelTemplate = labelTemplate
    }

    /// The attribute for field `key`, if the account has one.
    public func attribute(forKey key: String) -> AccountOnFileAttribute? {
        attributes.first { $0.key.isByteEqual(to: key) }
    }

    /// The label shown for the account: the value of the first label-template attribute laid
    /// out with the relaxed form of its mask (every placeholder accepts any character), without a
    /// trailing separator. `4012XXXXXXXX0026` with `{{9999}} {{9999}} {{9999}} {{9999}}` gives
    /// `4012 XXXX XXXX 0026`. Without a mask the value is shown as stored; `nil` when there is no
    /// template or the attribute has no value.
    public var label: String? {
        guard let item = labelTemplate.first, let value = attribute(forKey: item.attributeKey)?.value else { return nil }
        guard let mask = item.mask else { return value }
        return mask.relaxed.formatForDisplay(value)
    }

    /// Decodes one element of `accountsOnFile`.
    ///
    /// The label template is read from `displayHints.labelTemplate` (the Ingenico SDKs and the
    /// Worldline test fixture) **or**, when that is absent, from `displayHintsList` (an object, or
    /// an array whose first element with a template is used), where Worldline 4.x reads it
    /// (reference §5, bug §9.9).
    package static func decode(_ value: JSONValue, _ productReader: ProductJSONReader) throws(CSEError) -> AccountOnFile {
        let object = try productReader.object(value, member: "accountsOnFile")
        guard let id = try productReader.identifier(object, "id") else {
            throw productReader.malformed("an account on file has no id", member: "accountsOnFile.id")
        }
        var reader = productReader
        reader.accountOnFile = id
        var attributes: [AccountOnFileAttribute] = []
        for element in try reader.optionalArray(object, "attributes") ?? [] {
            let attribute = try reader.object(element, member: "attributes")
            let status = try reader.optionalString(attribute, "status").map(AccountOnFileAttributeStatus.init(rawValue:))
            let known: [AccountOnFileAttributeStatus] = [.readOnly, .canWrite, .mustWrite]
            attributes.append(
                AccountOnFileAttribute(
                    key: try reader.string(attribute, "key"),
                    value: try reader.optionalString(attribute, "value"),
                    status: status.flatMap { known.contains($0) ? $0 : nil } ?? .readOnly))
        }
        return AccountOnFile(
            id: id, paymentProductID: try reader.identifier(object, "paymentProductId"), attributes: attributes,
            labelTemplate: try labelTemplate(object, reader))
    }

    private static func labelTemplate(_ object: JSONObject, _ reader: ProductJSONReader) throws(CSEError) -> [LabelTemplateItem] {
        var hints: JSONObject?
        if let legacy = try reader.optionalObject(object, "displayHints"), legacy["labelTemplate"] != nil {
            hints = legacy
        } else if let list = object["displayHintsList"], !list.isNull {
            if let single = list.objectValue {
                hints = single
            } else {
                for element in try reader.array(list, member: "displayHintsList") {
                    let candidate = try reader.object(element, member: "displayHintsList")
                    if candidate["labelTemplate"] != nil { hints = candidate; break }
                }
            }
        }
        guard let hints else { return [] }
        var items: [LabelTemplateItem] = []
        for element in try reader.optionalArray(hints, "labelTemplate") ?? [] {
            let item = try reader.object(element, member: "labelTemplate")
            let key = try reader.string(item, "attributeKey")
            var mask: Mask?
            if let pattern = try reader.optionalString(item, "mask") {
                do {
                    mask = try Mask(pattern)
                } catch {
                    var context = reader.context(member: "labelTemplate.mask")
                    context["attribute"] = key
                    throw CSEError(
                        .productInvalidMask, "a label-template mask does not parse", context: context, underlying: error)
                }
            }
            items.append(LabelTemplateItem(attributeKey: key, mask: mask))
        }
        return items
    }
}
