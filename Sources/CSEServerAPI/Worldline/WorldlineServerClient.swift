public import CSECore
public import CSEHTTP
public import CSEClientAPI

/// The Worldline (Online Payments, Direct) server API calls a merchant server makes around
/// client-side encryption: CreateSession and CreatePayment, signed with `v1HMAC`.
///
///     let client = WorldlineServerClient(credentials: credentials, baseURL: try HTTPURL(WorldlineServerClient.preproductionURL),
///                                        http: try HTTPClient())
///     let session = try await client.createSession()
///     // … the device (or `cse seal --session`) encrypts the card data for the session …
///     let payment = try await client.createPayment(try WorldlinePaymentRequest(
///         encryptedCustomerInput: jwe, amount: 2345, currencyCode: "EUR", merchantReference: "order-1"))
public struct WorldlineServerClient: Sendable {
    /// The production endpoint.
    public static let productionURL = "https://payment.direct.worldline-solutions.com"
    /// The pre-production (test) endpoint used by the Worldline SDKs' test suites.
    public static let preproductionURL = "https://payment.preprod.direct.worldline-solutions.com"

    /// The credentials.
    public let credentials: WorldlineServerCredentials
    /// The endpoint; `/v2/{merchantId}/…` is appended to it.
    public let baseURL: HTTPURL
    let http: HTTPClient

    /// Creates a client.
    /// - Parameters:
    ///   - credentials: The merchant id, API key id and secret API key.
    ///   - baseURL: ``productionURL``, ``preproductionURL`` or a test endpoint.
    ///   - http: The transport, with its deadlines, limits and TLS trust.
    public init(credentials: WorldlineServerCredentials, baseURL: HTTPURL, http: HTTPClient) {
        self.credentials = credentials
        self.baseURL = baseURL
        self.http = http
    }

    /// CreateSession: `POST /v2/{merchantId}/sessions` with `{"tokens":[…]}` when tokens are given.
    /// - Parameter tokens: Stored card tokens to offer as accounts on file.
    /// - Returns: The session for the Client API (``SessionData``, with the refused tokens).
    /// - Throws: ``CSEError/Code/serverAPIInvalidArgument`` for an empty token; a transport error;
    ///   ``CSEError/Code/serverAPIAuthenticationFailed``, ``CSEError/Code/worldlineAPIError`` or
    ///   ``CSEError/Code/serverAPIUnexpectedStatus`` for an error status;
    ///   ``CSEError/Code/clientAPIInvalidSession`` naming the member when the body is not usable session data.
    public func createSession(tokens: [String] = []) async throws(CSEError) -> SessionData {
        for token in tokens where token.isEmpty || token.utf8.count > 512 || token.unicodeScalars.contains(where: { $0.value < 0x20 }) {
            throw CSEError(.serverAPIInvalidArgument, "a token is 1 to 512 printable characters", context: ["argument": "tokens"])
        }
        let body: JSONValue =
            tokens.isEmpty
            ? .object(JSONObject())
            : .object(JSONObject([("tokens", .array(tokens.map(JSONValue.string)))]))
        let response = try await send(.post, path: ["sessions"], body: body)
        guard response.isSuccess else { throw Self.error(of: response, redactor: SafeText(secrets: [credentials.secretAPIKey])) }
        return try SessionData(json: response.body)
    }

    /// CreatePayment: `POST /v2/{merchantId}/payments` with the encrypted customer input, the
    /// order amount and currency and the merchant reference.
    ///
    /// The outcome is decided from the payment's status category, not from the HTTP status: a
    /// 2xx answer whose payment is ``WorldlinePayment/isUnsuccessful`` (`statusCategory`
    /// `UNSUCCESSFUL`: `REJECTED`, `CANCELLED`, …) is a refusal, exactly like a 402.
    /// - Returns: The created payment (its id and status); never an unsuccessful one.
    /// - Throws: ``CSEError/Code/worldlinePaymentRejected`` when the platform refuses the payment
    ///   (the context gives the payment id, its status and category, and the HTTP status), and the
    ///   errors of ``createSession(tokens:)``.
    public func createPayment(_ request: WorldlinePaymentRequest) async throws(CSEError) -> WorldlinePayment {
        let response = try await send(.post, path: ["payments"], body: request.json)
        guard response.isSuccess else { throw Self.error(of: response, redactor: SafeText(secrets: [credentials.secretAPIKey])) }
        let payment = try WorldlinePayment(response: try ServerResponse.object(response, platform: "worldline"))
        guard !payment.isUnsuccessful else { throw Self.refusal(payment, status: response.status) }
        return payment
    }

    /// `worldline.paymentRejected` for a payment the platform refused, whatever the HTTP status.
    static func refusal(_ payment: WorldlinePayment, status: Int) -> CSEError {
        var context = [
            "status": String(status), "paymentId": SafeText.identifier(payment.id),
            "paymentStatus": SafeText.of(payment.status, limit: 64),
        ]
        if let category = payment.statusCategory { context["statusCategory"] = SafeText.of(category, limit: 64) }
        return CSEError(.worldlinePaymentRejected, "the platform refused the payment", context: context)
    }

    /// Signs and sends a request to `/v2/{merchantId}/<path>`.
    func send(_ method: HTTPMethod, path: [String], body: JSONValue?) async throws(CSEError) -> HTTPResponse {
        let url = try baseURL.appending(pathSegments: ["v2", credentials.merchantID] + path)
        // The signed headers come first: Content-Type (with a body), Date and X-GCS-*.
        var headers = HTTPHeaders()
        if body != nil { headers.add(name: "Content-Type", value: "application/json") }
        headers.add(name: "Date", value: HTTPDate.now())
        headers.add(name: "X-GCS-ServerMetaInfo", value: Self.serverMetaInfo)
        let text = WorldlineSignature.stringToSign(method: method.rawValue, headers: headers, path: url.path, query: url.query)
        let signature = try WorldlineSignature.signature(of: text, secret: credentials.secretAPIKey)
        headers.add(name: "Authorization", value: WorldlineSignature.authorization(apiKeyID: credentials.apiKeyID, signature: signature))
        return try await ServerRequest.send(http, method, url: url, headers: headers, body: body)
    }

    /// `X-GCS-ServerMetaInfo`: base64 of the JSON the Worldline server SDKs send
    /// (`platformIdentifier`, `sdkIdentifier`, `sdkCreator`).
    static let serverMetaInfo: String = {
        let info = JSONValue.object(
            JSONObject([
                ("platformIdentifier", .string("Linux")), ("sdkIdentifier", .string("CSEKit/v" + CSEKitVersion.current)),
                ("sdkCreator", .string("CSEKit")),
            ]))
        return Base64.encode(info.serializedBytes)
    }()

    /// The typed error of a non-2xx response.
    /// - Parameter redactor: Redacts the platform's text, with the caller's secrets by value.
    static func error(of response: HTTPResponse, redactor: SafeText = .shapesOnly) -> CSEError {
        guard let body = ServerResponse.errorObject(response) else {
            return ServerResponse.statusError(response, platform: "worldline")
        }
        var context: [String: String] = ["status": String(response.status)]
        if let errorID = body["errorId"]?.stringValue { context["errorId"] = redactor.of(errorID, limit: 64) }
        if let first = body["errors"]?.arrayValue?.first?.objectValue {
            if let id = first["id"]?.stringValue { context["id"] = redactor.of(id, limit: 64) }
            if let code = first["errorCode"] ?? first["code"] {
                context["code"] = redactor.of(code.stringValue ?? (code.intValue.map(String.init) ?? ""), limit: 16)
            }
            if let property = first["propertyName"]?.stringValue { context["propertyName"] = redactor.of(property, limit: 64) }
            if let message = first["message"]?.stringValue { context["message"] = redactor.of(message) }
        }
        if let result = body["paymentResult"]?.objectValue, let payment = try? WorldlinePayment(response: result) {
            context["paymentId"] = SafeText.identifier(payment.id)
            context["paymentStatus"] = redactor.of(payment.status, limit: 64)
            return CSEError(.worldlinePaymentRejected, "the platform refused the payment", context: context)
        }
        if response.status == 401 || response.status == 403 {
            return ServerResponse.statusError(response, platform: "worldline", details: context)
        }
        guard body["errors"] != nil || body["errorId"] != nil else {
            return ServerResponse.statusError(response, platform: "worldline")
        }
        return CSEError(.worldlineAPIError, "the platform returned an error", context: context)
    }
}
