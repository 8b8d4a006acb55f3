import CSECore

/// Reads product JSON members with typed errors that say where the problem is (product id,
/// field id, account on file, member) and never quote a value.
package struct ProductJSONReader {
    /// The product id, or `?` while it is not known yet.
    var product: String
    /// The field being read, if any.
    var field: String?
    /// The account on file being read, if any.
    var accountOnFile: String?

    package init(product: String = "?", field: String? = nil, accountOnFile: String? = nil) {
        self.product = product
        self.field = field
        self.accountOnFile = accountOnFile
    }

    /// The error context: where, never what.
    func context(member: String? = nil) -> [String: String] {
        var context = ["product": product]
        if let field { context["field"] = field }
        if let accountOnFile { context["accountOnFile"] = accountOnFile }
        if let member { context["member"] = member }
        return context
    }

    func malformed(_ reason: String, member: String) -> CSEError {
        CSEError(.productMalformed, reason, context: context(member: member))
    }

    func object(_ value: JSONValue, member: String) throws(CSEError) -> JSONObject {
        guard let object = value.objectValue else { throw malformed("\(member) is not a JSON object", member: member) }
        return object
    }

    func array(_ value: JSONValue, member: String) throws(CSEError) -> [JSONValue] {
        guard let array = value.arrayValue else { throw malformed("\(member) is not a JSON array", member: member) }
        return array
    }

    /// An optional member that must be an object when present (`null` counts as absent).
    func optionalObject(_ object: JSONObject, _ key: String) throws(CSEError) -> JSONObject? {
        guard let value = object[key], !value.isNull else { return nil }
        return try self.object(value, member: key)
    }

    /// An optional member that must be an array when present (`null` counts as absent).
    func optionalArray(_ object: JSONObject, _ key: String) throws(CSEError) -> [JSONValue]? {
        guard let value = object[key], !value.isNull else { return nil }
        return try array(value, member: key)
    }

    /// An optional string member (`null` counts as absent).
    func optionalString(_ object: JSONObject, _ key: String) throws(CSEError) -> String? {
        guard let value = object[key], !value.isNull else { return nil }
        guard let string = value.stringValue else { throw malformed("\(key) is not a string", member: key) }
        return string
    }

    /// A required string member.
    func string(_ object: JSONObject, _ key: String) throws(CSEError) -> String {
        guard let string = try optionalString(object, key) else { throw malformed("\(key) is missing", member: key) }
        return string
    }

    /// An optional Boolean member with a default (`null` counts as absent).
    func bool(_ object: JSONObject, _ key: String, default defaultValue: Bool) throws(CSEError) -> Bool {
        guard let value = object[key], !value.isNull else { return defaultValue }
        guard let bool = value.boolValue else { throw malformed("\(key) is not a Boolean", member: key) }
        return bool
    }

    /// An optional integer member with a default (`null` counts as absent). Integers written as
    /// `10.0` or beyond `Int` are rejected.
    func int(_ object: JSONObject, _ key: String, default defaultValue: Int) throws(CSEError) -> Int {
        guard let value = object[key], !value.isNull else { return defaultValue }
        guard let int = value.intValue else { throw malformed("\(key) is not an integer", member: key) }
        return int
    }

    /// An identifier that the Client API writes as an integer or a string (product and account
    /// on file ids); stored as a string. Integers keep their decimal text.
    func identifier(_ object: JSONObject, _ key: String) throws(CSEError) -> String? {
        guard let value = object[key], !value.isNull else { return nil }
        if let string = value.stringValue, !string.isEmpty { return string }
        if let int = value.intValue { return String(int) }
        throw malformed("\(key) is neither a non-empty string nor an integer", member: key)
    }

    /// An array of strings.
    func strings(_ object: JSONObject, _ key: String) throws(CSEError) -> [String]? {
        guard let array = try optionalArray(object, key) else { return nil }
        var strings: [String] = []
        strings.reserveCapacity(array.count)
        for element in array {
            guard let string = element.stringValue else { throw malformed("\(key) holds a non-string", member: key) }
            strings.append(string)
        }
        return strings
    }
}
