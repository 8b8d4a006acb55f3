import CSECore

/// Reads Client API response members with ``CSEError/Code/clientAPIMalformedResponse`` errors
/// that name the endpoint and the member, never a value.
///
/// Lenient exactly where the platform is inconsistent (ids and error codes as numbers or
/// strings), strict everywhere else: a member of the wrong JSON type is an error, `null` counts
/// as absent, unknown members are ignored.
struct ResponseReader: JSONMemberReader {
    /// The endpoint, for example `products`.
    let endpoint: String

    /// The limits every response body is parsed with: the default JSON limits (1 MiB, depth 64).
    static let limits = JSONLimits.default

    func malformed(_ reason: String, member: String) -> CSEError {
        CSEError(.clientAPIMalformedResponse, reason, context: ["endpoint": endpoint, "member": member])
    }

    /// Parses a body.
    func parse(_ body: some Collection<UInt8>) throws(CSEError) -> JSONValue {
        do {
            return try JSONValue.parse(body, limits: Self.limits)
        } catch {
            var context = ["endpoint": endpoint]
            if let offset = error.context["offset"] { context["offset"] = offset }
            throw CSEError(
                .clientAPIMalformedResponse, "the response body is not valid JSON", context: context, underlying: error)
        }
    }

    /// A number kept as its exact decimal text (rates such as `1.57` or `3.3`), so no binary
    /// floating-point rounding is introduced.
    func optionalDecimal(_ object: JSONObject, _ key: String) throws(CSEError) -> String? {
        guard let value = object[key], !value.isNull else { return nil }
        guard case .number(let text) = value else { throw malformed("\(key) is not a number", member: key) }
        return text
    }

    /// A required id or code the platform writes as an integer or a string.
    func requiredIdentifier(_ object: JSONObject, _ key: String) throws(CSEError) -> String {
        guard let id = try identifier(object, key) else { throw malformed("\(key) is missing", member: key) }
        return id
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
