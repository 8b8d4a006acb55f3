public import CSECore
public import CSECrypto
import CSEGateways
@_spi(CustomTransport) import CSEHTTP

/// The Paysafe single-use-token API key: base64 of `username:password` (HTTP Basic, RFC 7617),
/// checked as the Paysafe SDK's setup checks it. The key stays in a wiping buffer.
public struct PaysafeCredentials: Sendable, CustomStringConvertible {
    let apiKey: SecureBytes

    /// Creates credentials.
    /// - Throws: ``CSEError/Code/paysafeAPIKey`` with the Paysafe code 9167 (empty) or 9013 (not
    ///   base64 of `username:password`).
    public init(apiKey: SecureBytes) throws(CSEError) {
        if let failure = PaysafeValidation.checkAPIKey(apiKey, correlationID: "-") {
            throw CSEError(.paysafeAPIKey, failure.detailedMessage, context: ["paysafeCode": String(failure.code)])
        }
        self.apiKey = apiKey
    }

    /// Reads `{"apiKey"}`.
    package init(document: CredentialsDocument) throws(CSEError) {
        try self.init(apiKey: try document.secret("apiKey"))
    }

    func basicAuthorization() -> String {
        "Basic " + apiKey.withUnsafeBytes { String(decoding: $0, as: UTF8.self) }
    }

    /// Never the key.
    public var description: String { "PaysafeCredentials(apiKey: <redacted>)" }
}

/// What both Paysafe clients send through: the key, the origin and the transport, with HTTP Basic
/// authentication on every request and the key redacted from any platform text.
struct PaysafeConnection: Sendable {
    let credentials: PaysafeCredentials
    let environment: ServerEnvironment
    let http: HTTPClient

    /// A connection over a client made from the caller's configuration and transport: the one
    /// construction of both public initializers.
    init(
        credentials: PaysafeCredentials, environment: ServerEnvironment, configuration: HTTPClientConfiguration,
        transport: (any HTTPTransport)?
    ) throws(CSEError) {
        self.init(
            credentials: credentials, environment: environment, http: try HTTPClient(configuration: configuration, transport: transport))
    }

    init(credentials: PaysafeCredentials, environment: ServerEnvironment, http: HTTPClient) {
        self.credentials = credentials
        self.environment = environment
        self.http = http
    }

    /// The platform's origin.
    var origin: HTTPURL { environment.origin }

    /// Redacts platform text, with the key by value.
    var redactor: SafeText { SafeText(secrets: [credentials.apiKey]) }

    /// Sends `method` to `path` under the origin, with `query` and `body`.
    func send(
        _ method: HTTPMethod, path: [String], query: [(name: String, value: String)] = [], body: JSONValue?,
        retry: HTTPRetryPolicy? = nil
    ) async throws(CSEError) -> HTTPResponse {
        var url = try origin.appending(pathSegments: path)
        if !query.isEmpty { url = url.settingQuery(query) }
        return try await ServerRequest.send(
            http, method, url: url, headers: ["Authorization": credentials.basicAuthorization()], body: body, retry: retry)
    }

    /// POSTs a call that moves money (never repeated by the transport): its answer, or, when the
    /// request may have left and no answer was read, `server.outcomeUnknown` naming `keys`
    /// (`lost` says what may have happened) as the failure to return as an unknown outcome.
    /// - Throws: Only when the request provably never left (`CSEError.provesRequestNotSent`).
    func postMovingMoney(
        path: [String], body: JSONValue, keys: PaymentReconciliation, lost: String
    ) async throws(CSEError) -> Result<HTTPResponse, CSEError> {
        do {
            return .success(try await send(.post, path: path, body: body))
        } catch {
            if error.provesRequestNotSent { throw error }
            return .failure(outcomeUnknownError("no answer was read; \(lost)", keys, cause: error))
        }
    }
}
