public import CSECore

extension CSEError.Code {
    /// The session data (the CreateSession response) is not usable: not JSON, a missing or empty
    /// `clientSessionId`, `customerId`, `clientApiUrl` or `assetUrl`, a member of the wrong type,
    /// or a `clientApiUrl` whose path is anything but empty or `/client`. The context names the
    /// `member`; never the session id.
    public static let clientAPIInvalidSession = Self("clientAPI.invalidSession")
}

/// The four strings (and the invalid tokens) a merchant server hands to the client after
/// CreateSession (`POST /v2/{merchantId}/sessions`, WL-Java `SessionResponse`; research note §1.1).
///
/// Parsed strictly, as the Worldline JS SDK does (`SessionDataNormalizer`): `clientSessionId`,
/// `customerId`, `clientApiUrl` and `assetUrl` are required non-empty strings; `invalidTokens` is
/// an optional array of strings. `clientApiUrl` is an absolute `https` (or `http`) URL whose path
/// is empty or `/client` (one trailing slash allowed): anything else is refused rather than
/// extended blindly, as the Swift and Android SDKs do. ``clientAPIURL`` is kept normalised to end
/// in `/client`, the base every Client API path is appended to.
///
/// - Important: ``description`` and errors show the session id only masked (its first four
///   characters and its length).
///
/// It lives in CSEHTTP, below both platform clients, so that the Client API session
/// (CSEClientAPI) reads it and the merchant server's CreateSession (CSEServerAPI) returns it
/// without the server product depending on the client-side sealing stack (issue #31, point 2).
public struct SessionData: Hashable, Sendable, CustomStringConvertible, CustomDebugStringConvertible,
    CustomReflectable
{
    /// The client session id, sent as `Authorization: GCS v1Client:<id>` and written into every
    /// encrypted payload.
    public let clientSessionID: String
    /// The customer id, the first path segment after the API version.
    public let customerID: String
    /// The Client API base URL, normalised to `<scheme>://<authority>/client`.
    public let clientAPIURL: String
    /// The asset base URL (logos), as given.
    public let assetURL: String
    /// Tokens the platform refused when the session was created; empty when none.
    public let invalidTokens: [String]

    /// Creates session data from its parts, with the same checks as ``init(json:)``.
    /// - Throws: ``CSEError/Code/clientAPIInvalidSession`` naming the bad member.
    public init(
        clientSessionID: String, customerID: String, clientAPIURL: String, assetURL: String,
        invalidTokens: [String] = []
    ) throws(CSEError) {
        try Self.checkIdentifier(clientSessionID, member: "clientSessionId")
        try Self.checkIdentifier(customerID, member: "customerId")
        // The customer id is the path segment after the API version (RFC 3986 §5.2.4).
        guard !HTTPURL.isUnsafePathSegment(customerID) else {
            throw CSEError(
                .clientAPIInvalidSession, "customerId cannot be '.' or '..' (it is a URL path segment)", context: ["member": "customerId"])
        }
        self.clientSessionID = clientSessionID
        self.customerID = customerID
        self.clientAPIURL = try Self.normalisedClientAPIURL(clientAPIURL)
        try Self.checkAbsoluteURL(assetURL, member: "assetUrl")
        self.assetURL = assetURL
        self.invalidTokens = invalidTokens
    }

    /// Parses a CreateSession response body (at most 64 KiB, depth 8). Unknown members are ignored.
    /// - Throws: ``CSEError/Code/clientAPIInvalidSession`` (the context's `json` names a JSON
    ///   syntax error's code, `member` the missing or bad member).
    public init(json: some Collection<UInt8>) throws(CSEError) {
        let value: JSONValue
        do {
            value = try JSONValue.parse(json, limits: JSONLimits(maxBytes: 64 * 1024, maxDepth: 8))
        } catch {
            throw CSEError(.clientAPIInvalidSession, "the session data is not valid JSON", underlying: error)
        }
        try self.init(jsonValue: value)
    }

    /// Reads session data from a parsed CreateSession response.
    /// - Throws: ``CSEError/Code/clientAPIInvalidSession``.
    package init(jsonValue: JSONValue) throws(CSEError) {
        guard let object = jsonValue.objectValue else {
            throw CSEError(.clientAPIInvalidSession, "the session data is not a JSON object")
        }
        func string(_ member: String) throws(CSEError) -> String {
            guard let value = object[member], !value.isNull else {
                throw CSEError(.clientAPIInvalidSession, "the session data has no \(member)", context: ["member": member])
            }
            guard let string = value.stringValue else {
                throw CSEError(.clientAPIInvalidSession, "\(member) is not a string", context: ["member": member])
            }
            return string
        }
        var tokens: [String] = []
        if let value = object["invalidTokens"], !value.isNull {
            guard let array = value.arrayValue else {
                throw CSEError(.clientAPIInvalidSession, "invalidTokens is not an array", context: ["member": "invalidTokens"])
            }
            for element in array {
                guard let token = element.stringValue else {
                    throw CSEError(.clientAPIInvalidSession, "invalidTokens holds a non-string", context: ["member": "invalidTokens"])
                }
                tokens.append(token)
            }
        }
        try self.init(
            clientSessionID: try string("clientSessionId"), customerID: try string("customerId"),
            clientAPIURL: try string("clientApiUrl"), assetURL: try string("assetUrl"), invalidTokens: tokens)
    }

    /// The CreateSession JSON with the platform's member names, as compact UTF-8 JSON text, in the order
    /// `clientSessionId`, `customerId`, `clientApiUrl`, `assetUrl`, `invalidTokens`.
    ///
    /// - Warning: It contains the session id in full: write it only where the session itself
    ///   may go (the client that uses it), never to a log.
    public var json: [UInt8] { jsonValue.serializedBytes }

    /// ``json`` as a value (the CLI writes it into its own lines).
    package var jsonValue: JSONValue {
        .object(
            JSONObject([
                ("clientSessionId", .string(clientSessionID)), ("customerId", .string(customerID)),
                ("clientApiUrl", .string(clientAPIURL)), ("assetUrl", .string(assetURL)),
                ("invalidTokens", .array(invalidTokens.map(JSONValue.string))),
            ]))
    }

    /// The session id masked for humans: its first four characters, then `…` and its length
    /// (`"3e1f…(32 chars)"`); an id of 8 characters or fewer shows none of them.
    public var maskedClientSessionID: String { Self.mask(clientSessionID) }

    /// Masks a session id (see ``maskedClientSessionID``).
    package static func mask(_ id: String) -> String {
        let scalars = id.unicodeScalars
        guard scalars.count > 8 else { return SecretMasking.redact(id) }
        return SecretMasking.echoName(String(String.UnicodeScalarView(scalars.prefix(4))), limit: 4)
            + "…(\(scalars.count) chars)"
    }

    /// `SessionData(clientSessionId: 3e1f…(32 chars), customerId: …, clientApiUrl: …)`.
    public var description: String {
        "SessionData(clientSessionId: \(maskedClientSessionID), customerId: \(SecretMasking.echoName(customerID, limit: 64)), "
            + "clientApiUrl: \(SecretMasking.echoName(clientAPIURL, limit: 200)), invalidTokens: \(invalidTokens.count))"
    }

    /// Same as ``description``.
    public var debugDescription: String { description }

    /// A mirror with the masked session id.
    public var customMirror: Mirror {
        Mirror(
            self,
            children: [
                "clientSessionID": maskedClientSessionID, "customerID": customerID,
                "clientAPIURL": clientAPIURL, "assetURL": assetURL, "invalidTokens": invalidTokens.count,
            ],
            displayStyle: .struct)
    }

    // MARK: - Checks

    /// Non-empty, no control characters, no spaces (it travels in a header and a URL path).
    private static func checkIdentifier(_ value: String, member: String) throws(CSEError) {
        guard !value.isEmpty else {
            throw CSEError(.clientAPIInvalidSession, "\(member) is empty", context: ["member": member])
        }
        guard !value.unicodeScalars.contains(where: { $0.value <= 0x20 || $0.value == 0x7F }) else {
            throw CSEError(.clientAPIInvalidSession, "\(member) holds a control character or a space", context: ["member": member])
        }
    }

    /// The parts of an absolute `http(s)` URL: scheme (lower-cased), authority and the rest.
    private static func split(_ text: String, member: String) throws(CSEError) -> (scheme: String, authority: String, path: String) {
        func bad(_ reason: String) -> CSEError {
            CSEError(.clientAPIInvalidSession, "\(member) \(reason)", context: ["member": member])
        }
        guard !text.isEmpty else { throw bad("is empty") }
        guard !text.unicodeScalars.contains(where: { $0.value <= 0x20 || $0.value >= 0x7F }) else {
            throw bad("holds a space, a control or a non-ASCII character")
        }
        let scalars = Array(text.unicodeScalars)
        var separator: Int?
        for index in 0..<max(0, scalars.count - 2) where scalars[index] == ":" && scalars[index + 1] == "/" && scalars[index + 2] == "/" {
            separator = index
            break
        }
        guard let separator else { throw bad("is not an absolute URL") }
        let scheme = String(String.UnicodeScalarView(scalars[..<separator])).lowercased()
        guard scheme == "https" || scheme == "http" else { throw bad("is not an http or https URL") }
        let rest = scalars[(separator + 3)...]
        let authorityEnd: Int = rest.firstIndex { (c: Unicode.Scalar) -> Bool in c == "/" || c == "?" || c == "#" } ?? rest.endIndex
        let authority = String(String.UnicodeScalarView(rest[..<authorityEnd]))
        guard !authority.isEmpty, !authority.hasPrefix(":") else { throw bad("has no host") }
        guard !authority.contains("@") else { throw bad("carries user information") }
        return (scheme, authority, String(String.UnicodeScalarView(rest[authorityEnd...])))
    }

    private static func checkAbsoluteURL(_ text: String, member: String) throws(CSEError) {
        _ = try split(text, member: member)
    }

    /// `clientApiUrl` with an empty path, `/`, `/client` or `/client/` (the JS SDK's rule), as
    /// `<scheme>://<authority>/client`.
    private static func normalisedClientAPIURL(_ text: String) throws(CSEError) -> String {
        let (scheme, authority, path) = try split(text, member: "clientApiUrl")
        guard !path.contains("?"), !path.contains("#") else {
            throw CSEError(.clientAPIInvalidSession, "clientApiUrl carries a query or a fragment", context: ["member": "clientApiUrl"])
        }
        guard ["", "/", "/client", "/client/"].contains(path) else {
            throw CSEError(.clientAPIInvalidSession, "clientApiUrl has a path other than /client", context: ["member": "clientApiUrl"])
        }
        return "\(scheme)://\(authority)/client"
    }
}
