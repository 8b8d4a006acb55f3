import CSECore

/// Standard input that must be one JSON object (field values, a card, a wallet token,
/// `cse wallet decrypt`'s output): parsed strictly, and `cli.notAnObject` with the command's own
/// message for any other JSON value.
enum JSONObjectInput {
    /// Parses `bytes`.
    /// - Throws: a `json.*` error for text that is not JSON; `cli.notAnObject` with `message` for
    ///   a value that is not an object.
    static func parse(_ bytes: some Collection<UInt8>, orElse message: String) throws(CSEError) -> JSONObject {
        try object(try JSONValue.parse(bytes), orElse: message)
    }

    /// The object `value` holds.
    /// - Throws: `cli.notAnObject` with `message` when it holds another JSON value.
    static func object(_ value: JSONValue, orElse message: String) throws(CSEError) -> JSONObject {
        guard case .object(let object) = value else { throw CSEError(.cliNotAnObject, message) }
        return object
    }
}
