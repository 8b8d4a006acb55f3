/// Typed reads of JSON object members for the strict decoders of product definitions
/// (CSEPayments), Client API responses (CSEClientAPI) and merchant-server responses
/// (CSEServerAPI): `null` counts as absent, a member of
/// the wrong JSON type is the conformer's ``malformed(_:member:)`` error, which names the member
/// and never quotes a value.
package protocol JSONMemberReader {
    /// The error for a member that is missing or of the wrong type.
    func malformed(_ reason: String, member: String) -> CSEError
}

extension JSONMemberReader {
    /// `value` as an object.
    package func object(_ value: JSONValue, member: String) throws(CSEError) -> JSONObject {
        guard let object = value.objectValue else { throw malformed("\(member) is not a JSON object", member: member) }
        return object
    }

    /// `value` as an array.
    package func array(_ value: JSONValue, member: String) throws(CSEError) -> [JSONValue] {
        guard let array = value.arrayValue else { throw malformed("\(member) is not a JSON array", member: member) }
        return array
    }

    /// An optional member that must be an object when present.
    package func optionalObject(_ object: JSONObject, _ key: String) throws(CSEError) -> JSONObject? {
        guard let value = object[key], !value.isNull else { return nil }
        return try self.object(value, member: key)
    }

    /// An optional member that must be an array when present.
    package func optionalArray(_ object: JSONObject, _ key: String) throws(CSEError) -> [JSONValue]? {
        guard let value = object[key], !value.isNull else { return nil }
        return try array(value, member: key)
    }

    /// An optional string member.
    package func optionalString(_ object: JSONObject, _ key: String) throws(CSEError) -> String? {
        guard let value = object[key], !value.isNull else { return nil }
        guard let string = value.stringValue else { throw malformed("\(key) is not a string", member: key) }
        return string
    }

    /// A required string member.
    package func string(_ object: JSONObject, _ key: String) throws(CSEError) -> String {
        guard let string = try optionalString(object, key) else { throw malformed("\(key) is missing", member: key) }
        return string
    }

    /// An optional Boolean member.
    package func optionalBool(_ object: JSONObject, _ key: String) throws(CSEError) -> Bool? {
        guard let value = object[key], !value.isNull else { return nil }
        guard let bool = value.boolValue else { throw malformed("\(key) is not a Boolean", member: key) }
        return bool
    }

    /// An optional Boolean member with a default.
    package func bool(_ object: JSONObject, _ key: String, default defaultValue: Bool) throws(CSEError) -> Bool {
        try optionalBool(object, key) ?? defaultValue
    }

    /// An optional integer member; integers written as `10.0` or beyond `Int` are rejected.
    package func optionalInt(_ object: JSONObject, _ key: String) throws(CSEError) -> Int? {
        guard let value = object[key], !value.isNull else { return nil }
        guard let int = value.intValue else { throw malformed("\(key) is not an integer", member: key) }
        return int
    }

    /// A required string member that is not empty (a payment id, a status, a token).
    package func nonEmptyString(_ object: JSONObject, _ key: String) throws(CSEError) -> String {
        let string = try self.string(object, key)
        guard !string.isEmpty else { throw malformed("\(key) is empty", member: key) }
        return string
    }

    /// An optional integer member that fits `Int64` (an amount in minor units); integers written
    /// as `10.0` or beyond `Int64` are rejected.
    package func optionalInt64(_ object: JSONObject, _ key: String) throws(CSEError) -> Int64? {
        guard let value = object[key], !value.isNull else { return nil }
        guard case .number(let text) = value, let int = Int64(text) else { throw malformed("\(key) is not an integer", member: key) }
        return int
    }

    /// An optional member a platform writes as a string or a number (APS parameters, which are
    /// signed as their text; card digits), as a string verbatim or a number's exact JSON text.
    /// A Boolean, an array or an object is the wrong type.
    package func optionalScalarText(_ object: JSONObject, _ key: String) throws(CSEError) -> String? {
        guard let value = object[key], !value.isNull else { return nil }
        switch value {
        case .string(let text), .number(let text): return text
        default: throw malformed("\(key) is neither a string nor a number", member: key)
        }
    }

    /// An optional integer member with a default.
    package func int(_ object: JSONObject, _ key: String, default defaultValue: Int) throws(CSEError) -> Int {
        try optionalInt(object, key) ?? defaultValue
    }

    /// An id the Worldline platform writes as an integer or a string (product, account on file,
    /// error code); stored as a string, integers keeping their decimal text.
    package func identifier(_ object: JSONObject, _ key: String) throws(CSEError) -> String? {
        guard let value = object[key], !value.isNull else { return nil }
        if let string = value.stringValue, !string.isEmpty { return string }
        if let int = value.intValue { return String(int) }
        throw malformed("\(key) is neither a non-empty string nor an integer", member: key)
    }

    /// An optional array of strings.
    package func strings(_ object: JSONObject, _ key: String) throws(CSEError) -> [String]? {
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
