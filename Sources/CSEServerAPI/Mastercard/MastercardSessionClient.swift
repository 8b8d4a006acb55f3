public import CSECore
import CSECrypto
public import CSEGateways
@_spi(CustomTransport) public import CSEHTTP
import CSEValidation

/// A Mastercard Gateway region: the host prefix of `https://{region}.gateway.mastercard.com`.
public struct MastercardRegion: Hashable, Sendable, CustomStringConvertible {
    /// The prefix, for example `eu`.
    public let name: String
    private init(_ name: String) { self.name = name }

    /// Asia Pacific.
    public static let asiaPacific = MastercardRegion("ap")
    /// Europe.
    public static let europe = MastercardRegion("eu")
    /// North America.
    public static let northAmerica = MastercardRegion("na")
    /// India.
    public static let india = MastercardRegion("in")
    /// China.
    public static let china = MastercardRegion("cn")
    /// The test environment (MTF).
    public static let mtf = MastercardRegion("mtf")
    /// Saudi Arabia.
    public static let saudiArabia = MastercardRegion("ksa")
    /// Every region of the mobile SDKs.
    public static let all: [MastercardRegion] = [.asiaPacific, .europe, .northAmerica, .india, .china, .mtf, .saudiArabia]

    /// Reads a prefix: `ap`, `eu`, `na`, `in`, `cn`, `mtf` or `ksa`.
    /// - Throws: ``CSEError/Code/serverAPIInvalidArgument``.
    public init(name: String) throws(CSEError) {
        guard let region = Self.all.first(where: { $0.name == name.lowercased() }) else {
            throw CSEError(.serverAPIInvalidArgument, "the region is one of ap, eu, na, in, cn, mtf, ksa", context: ["argument": "region"])
        }
        self = region
    }

    /// The prefix.
    public var description: String { name }
}

/// A session as the gateway returns it.
public struct MastercardSession: Hashable, Sendable, CustomStringConvertible {
    /// `session.id`.
    public let id: String
    /// `session.updateStatus` (`NO_UPDATE`, `SUCCESS`, `FAILURE`), if present.
    public let updateStatus: String?
    /// `session.version`, if present.
    public let version: String?
    /// `session.authenticationLimit`, if present.
    public let authenticationLimit: Int?
    /// The whole response body, as received. It may echo card data from an update: show it through
    /// `maskedValue`.
    package let json: JSONValue

    /// Decodes a response.
    /// - Throws: ``CSEError/Code/serverAPIInvalidResponse`` naming the member when `session.id`
    ///   is missing or empty, or a member read has the wrong JSON type (`session.updateStatus` and
    ///   `session.version` are strings, `session.authenticationLimit` an integer).
    package init(response: JSONObject) throws(CSEError) {
        let reader = ServerResponseReader(platform: "mastercard")
        guard let session = try reader.optionalObject(response, "session") else {
            throw reader.malformed("session.id is missing", member: "session.id")
        }
        let members = reader.under("session")
        id = try members.nonEmptyString(session, "id")
        updateStatus = try members.optionalString(session, "updateStatus")
        version = try members.optionalString(session, "version")
        authenticationLimit = try members.optionalInt(session, "authenticationLimit")
        json = .object(response)
    }

    /// The body with every card number masked (first 6 and last 4 digits) and every security code
    /// removed, found by path and by value (issue #24, point 10):
    /// - by path, with member names compared case-insensitively and a dotted name
    ///   (`"sourceOfFunds.provided.card.number"`) read as its path: a `number` under `card`, and
    ///   any `deviceSpecificNumber` (a wallet's device PAN) is masked; any `securityCode`, `cvv`
    ///   or `cvc` is removed;
    /// - by value: any other string or number that is a card number, 12 to 19 digits (single
    ///   separators between them allowed) passing the Luhn check, is masked whatever its name.
    ///
    /// The bytes are compact UTF-8 JSON text.
    public var maskedJSON: [UInt8] { maskedValue.serializedBytes }

    /// ``maskedJSON`` as a value (the CLI writes it into its own lines).
    package var maskedValue: JSONValue { Self.mask(json, path: []) }

    /// Member names (lowercased, last path component) that are removed.
    private static let removedNames: Set<String> = ["securitycode", "cvv", "cvc"]

    static func mask(_ value: JSONValue, path: [String]) -> JSONValue {
        switch value {
        case .object(let object):
            var members: [(String, JSONValue)] = []
            for (key, member) in object {
                let components = path + key.split(separator: ".", omittingEmptySubsequences: false).map { $0.lowercased() }
                let name = components.last ?? ""
                if removedNames.contains(name) { continue }
                let isCardNumber = name == "devicespecificnumber" || (name == "number" && components.dropLast().last == "card")
                if isCardNumber, let text = member.scalarText {
                    members.append((key, .string(maskedCardNumber(text))))
                } else {
                    members.append((key, mask(member, path: components)))
                }
            }
            return .object(JSONObject(members))
        case .array(let elements):
            return .array(elements.map { mask($0, path: path) })
        case .string(let text) where looksLikeCardNumber(text):
            return .string(maskedCardNumber(text))
        case .number(let text) where looksLikeCardNumber(text):
            return .string(maskedCardNumber(text))
        default:
            return value
        }
    }

    /// The digits of `text` masked to the first 6 and last 4 (``SecretMasking/maskPAN(_:)``).
    private static func maskedCardNumber(_ text: String) -> String {
        SecretMasking.maskPAN(String(text.unicodeScalars.filter { $0.value >= 0x30 && $0.value <= 0x39 }.map(Character.init)))
    }

    /// Whether `text` is 12 to 19 ASCII digits, with single non-alphanumeric separators between
    /// digits, that pass the Luhn check.
    static func looksLikeCardNumber(_ text: String) -> Bool {
        var digits = ""
        var previousWasDigit = false
        for scalar in text.unicodeScalars {
            if scalar.value >= 0x30 && scalar.value <= 0x39 {
                digits.unicodeScalars.append(scalar)
                previousWasDigit = true
            } else if previousWasDigit && SecretMasking.isSeparator(scalar) {
                previousWasDigit = false
            } else {
                return false
            }
        }
        return previousWasDigit && (12...19).contains(digits.count) && LuhnValidator.hasValidCheckDigit(digits)
    }

    /// Id and update status.
    public var description: String { "MastercardSession(id: \(id), updateStatus: \(updateStatus ?? "-"))" }
}

/// The Mastercard Gateway session calls of a merchant server: create, update and retrieve, on
/// `https://{region}.gateway.mastercard.com/api/rest/version/{v}/merchant/{merchantId}/session`
/// with password authentication.
public struct MastercardSessionClient: Sendable {
    /// The lowest API version the mobile SDKs support.
    public static let minimumAPIVersion = 39
    /// The API version used when none is given.
    public static let defaultAPIVersion = 100

    /// The credentials.
    public let credentials: MastercardCredentials
    /// The API version of every path.
    public let apiVersion: Int
    /// Where the calls go; `/api/rest/version/{v}/merchant/{merchantId}/…` is appended.
    public let environment: ServerEnvironment
    /// `{origin}/api/rest/version/{v}/merchant/{merchantId}`.
    let baseURL: HTTPURL
    let http: HTTPClient

    /// Creates a client.
    /// - Parameters:
    ///   - credentials: Merchant id and API password.
    ///   - environment: ``ServerEnvironment/mastercard(_:)`` of a region (``MastercardRegion/mtf``
    ///     for tests) or a test server.
    ///   - apiVersion: 39 or later.
    ///   - configuration: Deadlines, retries, size limit and TLS trust.
    ///   - transport: A transport of your own (tests, a proxy); libcurl when `nil`.
    /// - Throws: ``CSEError/Code/serverAPIInvalidArgument`` for an API version below 39 or above
    ///   999; ``CSEError/Code/httpInvalidConfiguration`` for a configuration out of range.
    public init(
        credentials: MastercardCredentials, environment: ServerEnvironment, apiVersion: Int = defaultAPIVersion,
        configuration: HTTPClientConfiguration = HTTPClientConfiguration(), transport: (any HTTPTransport)? = nil
    ) throws(CSEError) {
        try self.init(
            credentials: credentials, environment: environment, apiVersion: apiVersion,
            http: HTTPClient(configuration: configuration, transport: transport))
    }

    /// Creates a client over an existing `HTTPClient`.
    package init(
        credentials: MastercardCredentials, environment: ServerEnvironment, apiVersion: Int = defaultAPIVersion, http: HTTPClient
    ) throws(CSEError) {
        guard (Self.minimumAPIVersion...999).contains(apiVersion) else {
            throw CSEError(.serverAPIInvalidArgument, "the API version is 39 or later", context: ["argument": "apiVersion"])
        }
        self.credentials = credentials
        self.apiVersion = apiVersion
        self.environment = environment
        self.baseURL = try environment.origin.appending(pathSegments: [
            "api", "rest", "version", String(apiVersion), "merchant", credentials.merchantID,
        ])
        self.http = http
    }

    /// Create Session: `POST …/session`.
    /// - Parameters:
    ///   - authenticationLimit: How many operations may use the session id as a password (1–25).
    ///   - correlationID: An optional id (at most 100 characters) echoed by the gateway.
    public func createSession(authenticationLimit: Int? = nil, correlationID: String? = nil) async throws(CSEError) -> MastercardSession {
        var members: [(String, JSONValue)] = []
        if let correlationID {
            guard !correlationID.isEmpty, correlationID.utf8.count <= 100, correlationID.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) else {
                throw CSEError(
                    .serverAPIInvalidArgument, "the correlation id is 1 to 100 printable ASCII characters",
                    context: ["argument": "correlationId"])
            }
            members.append(("correlationId", .string(correlationID)))
        }
        if let authenticationLimit {
            guard (1...25).contains(authenticationLimit) else {
                throw CSEError(
                    .serverAPIInvalidArgument, "the authentication limit is 1 to 25", context: ["argument": "authenticationLimit"])
            }
            members.append(("session", .object(JSONObject([("authenticationLimit", .number(String(authenticationLimit)))]))))
        }
        return try await call(.post, path: ["session"], body: .object(JSONObject(members)))
    }

    /// Update Session: `PUT …/session/{id}` with a body that passes the `GatewayMap` checks of
    /// `mastercard-update-session.json` (for the client's API version).
    /// - Throws: ``CSEError/Code/mastercardInvalidUpdate`` naming the failing paths, and the
    ///   errors of ``createSession(authenticationLimit:correlationID:)``.
    public func updateSession(id: String, with update: GatewayMap) async throws(CSEError) -> MastercardSession {
        try Self.checkSessionID(id)
        var checked = update
        checked.removeValue(at: "apiVersion")
        var withVersion = checked
        try withVersion.set(.string(String(apiVersion)), at: "apiVersion")
        let result = try MastercardValidation.validateUpdateSession(withVersion)
        // The API version is this client's (checked at init); the table's rows for the body apply.
        let failing = result.errors.filter { $0.field != "apiVersion" }
        guard failing.isEmpty else {
            let fields = failing.map(\.field).reduce(into: [String]()) { if !$0.contains($1) { $0.append($1) } }
            throw CSEError(
                .mastercardInvalidUpdate, "the update fails the Mastercard update-session checks",
                context: ["fields": fields.joined(separator: ",")])
        }
        return try await call(.put, path: ["session", id], body: checked.json, retry: .idempotent)
    }

    /// Retrieve Session: `GET …/session/{id}`.
    public func retrieveSession(id: String) async throws(CSEError) -> MastercardSession {
        try Self.checkSessionID(id)
        return try await call(.get, path: ["session", id], body: nil)
    }

    static func checkSessionID(_ id: String) throws(CSEError) {
        guard !HTTPURL.isUnsafePathSegment(id), id.utf8.count <= 64, id.utf8.allSatisfy({ ServerIdentifier.isIdentifierByte($0) })
        else {
            throw CSEError(
                .serverAPIInvalidArgument, "a session id is 1 to 64 letters, digits, '-', '_' or '.', and not '.' or '..'",
                context: ["argument": "sessionId"])
        }
    }

    func call(
        _ method: HTTPMethod, path: [String], body: JSONValue?, retry: HTTPRetryPolicy? = nil
    ) async throws(CSEError) -> MastercardSession {
        let response = try await ServerRequest.send(
            http, method, url: try baseURL.appending(pathSegments: path), headers: ["Authorization": credentials.basicAuthorization()],
            body: body, retry: retry)
        guard response.isSuccess else { throw Self.error(of: response, redactor: SafeText(secrets: [credentials.apiPassword])) }
        let object = try ServerResponse.object(response, platform: "mastercard")
        if try Self.isError(object) { throw Self.error(of: response, redactor: SafeText(secrets: [credentials.apiPassword])) }
        return try MastercardSession(response: object)
    }

    /// Whether a body is `result` `ERROR`.
    /// - Throws: ``CSEError/Code/serverAPIInvalidResponse`` when `result` is not a string.
    static func isError(_ object: JSONObject) throws(CSEError) -> Bool {
        try ServerResponseReader(platform: "mastercard").optionalString(object, "result") == "ERROR"
    }

    /// The typed error of a `result: ERROR` body or a non-2xx status. An `error` member of the
    /// wrong shape (a member of the wrong JSON type) is ``CSEError/Code/serverAPIInvalidResponse``
    /// naming the member for a 2xx answer; for an error status, ``CSEError/Code/serverAPIUnexpectedStatus``
    /// (or ``CSEError/Code/serverAPIAuthenticationFailed`` for 401/403) with the status, caused by it.
    /// - Parameter redactor: Redacts the platform's text, with the caller's secrets by value.
    static func error(of response: HTTPResponse, redactor: SafeText = .shapesOnly) -> CSEError {
        guard let body = ServerResponse.errorObject(response) else {
            return ServerResponse.statusError(response, platform: "mastercard")
        }
        let detail: MastercardErrorDetail
        do {
            guard let read = try MastercardErrorDetail(body) else { return ServerResponse.statusError(response, platform: "mastercard") }
            detail = read
        } catch {
            return response.isSuccess ? error : ServerResponse.statusError(response, platform: "mastercard", cause: error)
        }
        var context: [String: String] = ["status": String(response.status)]
        let cause = detail.cause
        if let cause { context["cause"] = redactor.of(cause, limit: 40) }
        if let explanation = detail.explanation { context["explanation"] = redactor.of(explanation) }
        if let field = detail.field { context["field"] = redactor.of(field, limit: 100) }
        if let type = detail.validationType { context["validationType"] = redactor.of(type, limit: 40) }
        if response.status == 401 || response.status == 403 {
            return ServerResponse.statusError(response, platform: "mastercard", details: context)
        }
        let code: CSEError.Code =
            switch cause {
            case "INVALID_REQUEST": .mastercardInvalidRequest
            case "REQUEST_REJECTED": .mastercardRequestRejected
            case "SERVER_BUSY": .mastercardServerBusy
            case "SERVER_FAILED": .mastercardServerFailed
            default: .mastercardError
            }
        return CSEError(code, "the gateway returned result ERROR", context: context)
    }
}
