import CSECore

/// Reads Client API response members with ``CSEError/Code/clientAPIMalformedResponse`` errors
/// that name the endpoint and the member, never a value.
///
/// Lenient exactly where the platform is inconsistent (ids and error codes as numbers or
/// strings), strict everywhere else: a member of the wrong JSON type is an error, `null` counts
/// as absent, unknown members are ignored.
struct ResponseReader {
    /// The endpoint, for example `products`.
    let endpoint: String

    /// The limits every response body is parsed with: the default JSON limits (1 MiB, depth 64).
    static let limits = JSONLimits.default

    func malformed(_ reason: String, member: String? = nil) -> CSEError {
        var context = ["endpoint": endpoint]
        if let member { context["member"] = member }
        return CSEError(.clientAPIMalformedResponse, reason, context: context)
    }

    /// Parses a body.
    func parse(_ body: some Collection<UInt8>) throws(CSEError) -> JSONValue {
        do {
            return try JSONValue.parse(body, limits: Self.limits)
        } catch {
            var context = ["endpoint": endpoint, "json": error.code.rawValue]
            if let offset = error.context["offset"] { context["offset"] = offset }
            throw CSEError(.clientAPIMalformedResponse, "the response body is not valid JSON", context: context)
        }
    }

    func object(_ value: JSONValue, member: String) throws(CSEError) -> JSONObject {
        guard let object = value.objectValue else { throw malformed("\(member) is not a JSON object", member: member) }
        return object
    }

    func optionalObject(_ object: JSONObject, _ key: String) throws(CSEError) -> JSONObject? {
        guard let value = object[key], !value.isNull else { return nil }
        return try self.object(value, member: key)
    }

    func optionalArray(_ object: JSONObject, _ key: String) throws(CSEError) -> [JSONValue]? {
        guard let value = object[key], !value.isNull else { return nil }
        guard let array = value.arrayValue else { throw malformed("\(key) is not a JSON array", member: key) }
        return array
    }

    func optionalString(_ object: JSONObject, _ key: String) throws(CSEError) -> String? {
        guard let value = object[key], !value.isNull else { return nil }
        guard let string = value.stringValue else { throw malformed("\(key) is not a string", member: key) }
        return string
    }

    func string(_ object: JSONObject, _ key: String) throws(CSEError) -> String {
        guard let string = try optionalString(object, key) else { throw malformed("\(key) is missing", member: key) }
        return string
    }

    func optionalBool(_ object: JSONObject, _ key: String) throws(CSEError) -> Bool? {
        guard let value = object[key], !value.isNull else { return nil }
        guard let bool = value.boolValue else { throw malformed("\(key) is not a Boolean", member: key) }
        return bool
    }

    func bool(_ object: JSONObject, _ key: String, default defaultValue: Bool) throws(CSEError) -> Bool {
        try optionalBool(object, key) ?? defaultValue
    }

    func optionalInt(_ object: JSONObject, _ key: String) throws(CSEError) -> Int? {
        guard let value = object[key], !value.isNull else { return nil }
        guard let int = value.intValue else { throw malformed("\(key) is not an integer", member: key) }
        return int
    }

    /// A number kept as its exact decimal text (rates such as `1.57` or `3.3`), so no binary
    /// floating-point rounding is introduced.
    func optionalDecimal(_ object: JSONObject, _ key: String) throws(CSEError) -> String? {
        guard let value = object[key], !value.isNull else { return nil }
        guard case .number(let text) = value else { throw malformed("\(key) is not a number", member: key) }
        return text
    }

    /// An id or code the platform writes as an integer or a string; kept as a string.
    func optionalIdentifier(_ object: JSONObject, _ key: String) throws(CSEError) -> String? {
        guard let value = object[key], !value.isNull else { return nil }
        if let string = value.stringValue, !string.isEmpty { return string }
        if let int = value.intValue { return String(int) }
        throw malformed("\(key) is neither a non-empty string nor an integer", member: key)
    }

    func identifier(_ object: JSONObject, _ key: String) throws(CSEError) -> String {
        guard let id = try optionalIdentifier(object, key) else { throw malformed("\(key) is missing", member: key) }
        return id
    }

    func strings(_ object: JSONObject, _ key: String) throws(CSEError) -> [String]? {
        guard let array = try optionalArray(object, key) else { return nil }
        var strings: [String] = []
        for element in array {
            guard let string = element.stringValue else { throw malformed("\(key) holds a non-string", member: key) }
            strings.append(string)
        }
        return strings
    }

    /// `{"amount":…,"currencyCode":…}` as returned by the platform (amount an integer).
    func amount(_ object: JSONObject, _ key: String) throws(CSEError) -> AmountOfMoney? {
        guard let inner = try optionalObject(object, key) else { return nil }
        guard let amount = try optionalInt(inner, "amount") else { throw malformed("\(key).amount is missing", member: "\(key).amount") }
        let currency = try string(inner, "currencyCode")
        do {
            return try AmountOfMoney(amount: Int64(amount), currencyCode: currency)
        } catch {
            throw malformed("\(key) is out of range", member: key)
        }
    }
}
