import CSECore

/// One input field of a payment product (`fields[]`, reference §5).
public struct PaymentProductField: Hashable, Sendable, Identifiable {
    /// The field id, for example `cardNumber`; the `key` of the value in the encrypted payload.
    public let id: String
    /// The declared value type (`string`, `numericstring`, `expirydate`, `integer`, `boolean`,
    /// `date`); default `string`. Informational: validation uses the rules only, as in the SDKs.
    public let type: String
    /// Presentation hints, including the mask.
    public let displayHints: FieldDisplayHints
    /// Requiredness and validation rules.
    public let dataRestrictions: DataRestrictions

    /// Creates a field.
    package init(
        id: String, type: String = "string", displayHints: FieldDisplayHints = FieldDisplayHints(),
        dataRestrictions: DataRestrictions = DataRestrictions()
    ) {
        self.id = id
        self.type = type
        self.displayHints = displayHints
        self.dataRestrictions = dataRestrictions
    }

    /// The keys of the rules CSEKit does not know; they are kept but not enforced.
    public var unknownValidators: [String] { dataRestrictions.unknownValidators }

    /// Decodes one element of `fields`.
    static func decode(_ value: JSONValue, _ productReader: ProductJSONReader) throws(CSEError) -> PaymentProductField {
        let object = try productReader.object(value, member: "fields")
        let id = try productReader.string(object, "id")
        guard !id.isEmpty else { throw productReader.malformed("a field id is empty", member: "fields.id") }
        var reader = productReader
        reader.field = id
        let hints = try reader.optionalObject(object, "displayHints")
        let restrictions = try reader.optionalObject(object, "dataRestrictions")
        return PaymentProductField(
            id: id,
            type: try reader.optionalString(object, "type") ?? "string",
            displayHints: try hints.map { (h) throws(CSEError) in try FieldDisplayHints.decode(h, reader) } ?? FieldDisplayHints(),
            dataRestrictions: try restrictions.map { (r) throws(CSEError) in try DataRestrictions.decode(r, reader) }
                ?? DataRestrictions())
    }
}
