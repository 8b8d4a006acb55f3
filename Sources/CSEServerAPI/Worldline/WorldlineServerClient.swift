public import CSECore
@_spi(CustomTransport) public import CSEHTTP
import CSECrypto
import CSEWallets

/// The Worldline (Online Payments, Direct) server API calls a merchant server makes around
/// client-side encryption: CreateSession, CreatePayment and GetPayment, signed with `v1HMAC`.
///
///     let client = try WorldlineServerClient(credentials: credentials, environment: .worldlinePreproduction)
///     let session = try await client.createSession()
///     // … the device (or `cse seal --session`) encrypts the card data for the session …
///     let key = try IdempotenceKey()  // store it with the order first
///     switch try await client.createPayment(try WorldlinePaymentRequest(
///         encryptedCustomerInput: jwe, amount: 2345, currencyCode: "EUR", merchantReference: "order-1"), idempotenceKey: key) {
///     case .succeeded(let payment, _): …         // payment.id, payment.status
///     case .refused(let payment, let error): …   // declined; payment?.id when one was created
///     case .unknown(let keys, let error): …      // call again with the same key, or getPayment(id:)
///     }
public struct WorldlineServerClient: Sendable {
    /// The credentials.
    public let credentials: WorldlineServerCredentials
    /// Where the calls go; `/v2/{merchantId}/…` is appended.
    public let environment: ServerEnvironment
    let http: HTTPClient

    /// Creates a client.
    /// - Parameters:
    ///   - credentials: The merchant id, API key id and secret API key.
    ///   - environment: ``ServerEnvironment/worldlinePreproduction``,
    ///     ``ServerEnvironment/worldlineProduction`` or a test server.
    ///   - configuration: Deadlines, retries, size limit and TLS trust.
    ///   - transport: A transport of your own (tests, a proxy); libcurl when `nil`.
    /// - Throws: ``CSEError/Code/httpInvalidConfiguration`` for a configuration out of range.
    public init(
        credentials: WorldlineServerCredentials, environment: ServerEnvironment,
        configuration: HTTPClientConfiguration = HTTPClientConfiguration(), transport: (any HTTPTransport)? = nil
    ) throws(CSEError) {
        self.init(
            credentials: credentials, environment: environment, http: try HTTPClient(configuration: configuration, transport: transport))
    }

    /// Creates a client over an existing `HTTPClient`.
    package init(credentials: WorldlineServerCredentials, environment: ServerEnvironment, http: HTTPClient) {
        self.credentials = credentials
        self.environment = environment
        self.http = http
    }

    /// CreateSession: `POST /v2/{merchantId}/sessions` with `{"tokens":[…]}` when tokens are given.
    ///
    /// The request carries an `X-GCS-Idempotence-Key` (signed with the other `X-GCS-*` headers),
    /// and the transport may repeat it after a connection failure or a 502, 503 or 504 with the
    /// same key; the platform answers a repeat with the first session.
    /// - Parameters:
    ///   - tokens: Stored card tokens to offer as accounts on file.
    ///   - idempotenceKey: The key that makes repeats of this request one request (pass the key of
    ///     an earlier attempt to repeat it); a new random key when `nil`.
    /// - Returns: The session for the Client API (``SessionData``, with the refused tokens).
    /// - Throws: ``CSEError/Code/serverAPIInvalidArgument`` for an empty token; a transport error;
    ///   ``CSEError/Code/worldlineRequestInProgress`` for a 409 while the first request with the
    ///   key still runs (send it again later with the same key);
    ///   ``CSEError/Code/serverAPIAuthenticationFailed``, ``CSEError/Code/worldlineAPIError`` or
    ///   ``CSEError/Code/serverAPIUnexpectedStatus`` for an error status;
    ///   ``CSEError/Code/clientAPIInvalidSession`` naming the member when the body is not usable session data.
    public func createSession(tokens: [String] = [], idempotenceKey: IdempotenceKey? = nil) async throws(CSEError) -> SessionData {
        for token in tokens where token.isEmpty || token.utf8.count > 512 || token.unicodeScalars.contains(where: { $0.value < 0x20 }) {
            throw CSEError(.serverAPIInvalidArgument, "a token is 1 to 512 printable characters", context: ["argument": "tokens"])
        }
        let body: JSONValue =
            tokens.isEmpty
            ? .object(JSONObject())
            : .object(JSONObject([("tokens", .array(tokens.map(JSONValue.string)))]))
        let key = try IdempotenceKey(orNew: idempotenceKey)
        let response = try await send(.post, path: ["sessions"], body: body, idempotenceKey: key, retry: .idempotent)
        guard response.isSuccess else {
            let (error, errorBody) = Self.failure(of: response, redactor: SafeText(secrets: [credentials.secretAPIKey]))
            if response.status == 409, errorBody?.isRequestInProgress == true {
                throw CSEError(
                    .worldlineRequestInProgress, "the first request with this idempotence key is still running; send it again later",
                    underlying: error)
            }
            throw error
        }
        return try SessionData(json: response.body)
    }

    /// CreatePayment: `POST /v2/{merchantId}/payments` with the encrypted customer input, the
    /// order amount and currency and the merchant reference, and an `X-GCS-Idempotence-Key`
    /// (signed with the other `X-GCS-*` headers) on every attempt.
    ///
    /// The outcome is one of three (research notes §1.6):
    /// - ``PaymentOutcome/succeeded(_:_:)``: a 2xx answer with a payment that is not unsuccessful;
    /// - ``PaymentOutcome/refused(_:_:)``: the platform refused the payment, decided from the
    ///   payment's status category, not from the HTTP status: a 402 with a `paymentResult`, or a
    ///   2xx whose payment is ``WorldlinePayment/isUnsuccessful`` (`REJECTED`, `CANCELLED`, …);
    /// - ``PaymentOutcome/unknown(_:_:)``: the request may have been processed but no answer was
    ///   read: a timeout or a connection lost after sending, a 2xx that is not a readable payment,
    ///   a 5xx unless every error in it is `retriable` (then nothing was processed), or a 409
    ///   `DUPLICATE_REQUEST_IN_PROGRESS` (the first attempt with this key still runs), or a 409 whose
    ///   body names no other conflict (not JSON, empty, no error id or code, or a member of the
    ///   wrong type: it cannot say the first attempt is not running). Call again
    ///   with the same key: the platform replays a finished first attempt (keys are kept at least
    ///   24 hours), so nothing is charged twice.
    ///
    /// The transport may repeat the request itself after a connection failure or a 502, 503 or
    /// 504, always with the same key and signature.
    /// - Parameters:
    ///   - request: The payment.
    ///   - idempotenceKey: The key of this payment; `nil` makes a new one (it is in the
    ///     reconciliation of an unknown outcome). To retry a payment whose outcome is unknown,
    ///     pass the key it was first sent with.
    /// - Throws: Only when the payment is known not to have been processed: an invalid argument,
    ///   a transport error before anything was sent (the URL or a header refused, the host
    ///   unresolved, the connection refused, TLS failed), or an
    ///   error answer that processes nothing (400 validation, 401/403 credentials, 404, a 409
    ///   naming another conflict such as `DUPLICATE_REFERENCE`, a 5xx whose errors are all
    ///   `retriable`).
    public func createPayment(
        _ request: WorldlinePaymentRequest, idempotenceKey: IdempotenceKey? = nil
    ) async throws(CSEError) -> PaymentOutcome<WorldlinePayment> {
        try await createPayment(
            body: request.json,
            expected: ExpectedAnswer(
                amount: request.amount, currencyCode: request.currencyCode, merchantReference: request.merchantReference),
            idempotenceKey: idempotenceKey, values: [])
    }

    /// CreatePayment for a wallet token the merchant decrypted: `mobilePaymentMethodSpecificInput`
    /// with product 302 or 320 and `decryptedPaymentData` (research notes §1.5). Outcomes, the
    /// idempotence key and the errors as in ``createPayment(_:idempotenceKey:)-(WorldlinePaymentRequest,_)``.
    /// Platform text in errors is redacted of the request's DPAN, cryptogram and cardholder name
    /// by value, whatever their shape.
    public func createPayment(
        _ request: WorldlineWalletPaymentRequest, idempotenceKey: IdempotenceKey? = nil
    ) async throws(CSEError) -> PaymentOutcome<WorldlinePayment> {
        try await createPayment(
            body: request.json,
            expected: ExpectedAnswer(
                amount: request.amount, currencyCode: request.currencyCode, merchantReference: request.merchantReference),
            idempotenceKey: idempotenceKey, values: request.card.secrets)
    }

    /// - Parameters:
    ///   - expected: What the request asked for: an answer naming another payment is refused.
    ///   - values: Card data the body carries, redacted by value from platform text.
    func createPayment(
        body: JSONValue, expected: ExpectedAnswer, idempotenceKey: IdempotenceKey?, values: [String]
    ) async throws(CSEError) -> PaymentOutcome<WorldlinePayment> {
        let key = try IdempotenceKey(orNew: idempotenceKey)
        let reconciliation = PaymentReconciliation(idempotenceKey: key, merchantReference: expected.merchantReference)
        let intent = JournalIntent(
            platform: "worldline", operation: "createPayment", amount: expected.amount, currency: expected.currencyCode,
            merchantReference: expected.merchantReference, idempotenceKey: key.text)
        return try await journaled(http, intent, ids: { ["paymentId": $0.id] }) {
            () async throws(CSEError) -> PaymentOutcome<WorldlinePayment> in
            let response: HTTPResponse
            do throws(CSEError) {
                response = try await send(.post, path: ["payments"], body: body, idempotenceKey: key)
            } catch {
                if error.provesRequestNotSent { throw error }
                return .unknown(
                    reconciliation,
                    outcomeUnknownError("no answer was read; the payment may have been created", reconciliation, cause: error))
            }
            let secrets = [credentials.secretAPIKey] + values.map { SecureBytes($0.utf8) }
            return try Self.outcome(of: response, reconciliation: reconciliation, redactor: SafeText(secrets: secrets), expected: expected)
        }
    }

    /// The outcome of a CreatePayment answer (see ``createPayment(_:idempotenceKey:)-(WorldlinePaymentRequest,_)``).
    /// - Parameter expected: What the request asked for, when known: a payment in the answer
    ///   with another amount, currency or merchant reference is `server.referenceInUse`.
    static func outcome(
        of response: HTTPResponse, reconciliation: PaymentReconciliation, redactor: SafeText, expected: ExpectedAnswer? = nil
    ) throws(CSEError) -> PaymentOutcome<WorldlinePayment> {
        /// Throws when `payment` is another payment than the one asked for.
        func check(_ payment: WorldlinePayment) throws(CSEError) {
            guard let expected,
                let member = expected.mismatch(
                    amount: payment.amount, currencyCode: payment.currencyCode, merchantReference: payment.merchantReference)
            else { return }
            throw expected.referenceInUseError(member: member, platform: "worldline", keys: reconciliation)
        }
        if response.isSuccess {
            let payment: WorldlinePayment
            do {
                payment = try WorldlinePayment(response: try ServerResponse.object(response, platform: "worldline"))
            } catch {
                return .unknown(
                    reconciliation, outcomeUnknownError("the platform's 2xx answer is not a readable payment", reconciliation, cause: error)
                )
            }
            try check(payment)
            if payment.isUnsuccessful { return .refused(payment, refusal(payment, status: response.status)) }
            guard payment.isDetermined else {
                var keys = reconciliation
                keys.paymentID = payment.id
                return .unknown(
                    keys,
                    outcomeUnknownError(
                        "the payment was created but its result is not determined (status category, status or status code "
                            + "the platform documents as unknown); poll GetPayment with its id", keys,
                        cause: CSEError(
                            .worldlinePaymentUndetermined, "the platform does not know the payment's result yet",
                            context: payment.statusContext)))
            }
            return classify(payment, reconciliation)
        }
        let (error, body) = Self.failure(of: response, redactor: redactor)
        if error.code == .worldlinePaymentRejected, let payment = body?.paymentResult {
            try check(payment)
            return .refused(payment, error)
        }
        if response.status == 409 {
            // Only an error body that names another conflict (an error id or code other than
            // DUPLICATE_REQUEST_IN_PROGRESS) shows this request processed nothing. A body that is
            // not JSON (a proxy's page), empty, of the wrong shape or naming no error cannot say
            // that the first attempt with this key is not running.
            let namesAnotherConflict =
                body?.isRequestInProgress == false && body?.errors?.contains(where: { $0.id != nil || $0.code != nil }) == true
            guard !namesAnotherConflict else {
                return try notProcessed(error, after: response, reconciliation, provesNothingProcessed: Self.isRetriableServerError)
            }
            return .unknown(
                reconciliation,
                outcomeUnknownError("the first attempt with this idempotence key is still running", reconciliation, cause: error))
        }
        if response.status >= 500 {
            // "retriable: a technical error happened and the same request can safely be sent again
            // with a new idempotence key": only then was nothing processed.
            if body?.isRetriable == true {
                return try notProcessed(error, after: response, reconciliation, provesNothingProcessed: Self.isRetriableServerError)
            }
            return .unknown(
                reconciliation,
                outcomeUnknownError("the platform answered a server error; the payment may have been created", reconciliation, cause: error)
            )
        }
        // A saved card the platform does not know (deleted, or never made): nothing was charged.
        let refusal = body?.errors?.first?.id == "UNKNOWN_TOKEN" ? Self.unknownTokenError(cause: error, id: "UNKNOWN_TOKEN") : error
        return try notProcessed(refusal, after: response, reconciliation, provesNothingProcessed: Self.isRetriableServerError)
    }

    /// The outcome of a payment the platform reported as determined and not unsuccessful (issue #34,
    /// section 1): pending when it waits for the payer or for a decision
    /// (``WorldlinePayment/isPending``: status category `PENDING_PAYMENT` such as `REDIRECTED`,
    /// or `PENDING_APPROVAL`, `PENDING_FRAUD_APPROVAL`), with the payer's action and the payment
    /// id in the keys; succeeded otherwise (`PENDING_CAPTURE` is an authorisation,
    /// `CAPTURE_REQUESTED` completes in the normal course).
    static func classify(_ payment: WorldlinePayment, _ reconciliation: PaymentReconciliation) -> PaymentOutcome<WorldlinePayment> {
        guard payment.isPending else { return .succeeded(payment, reconciliation) }
        var keys = reconciliation
        keys.paymentID = payment.id
        return .pending(payment, payment.action, keys)
    }

    /// Whether an answer is a 5xx whose errors are all `retriable`: "a technical error happened
    /// and the same request can safely be sent again", so that attempt processed nothing.
    static func isRetriableServerError(_ response: HTTPResponse) -> Bool {
        response.status >= 500 && failure(of: response, redactor: SafeText(secrets: [])).body?.isRetriable == true
    }

    /// GetPayment: `GET /v2/{merchantId}/payments/{paymentId}`, the payment as it stands now
    /// (reconciliation after an unknown outcome, or polling a pending one).
    /// - Parameter id: The payment id, for example `3066019730_0`.
    /// - Returns: The payment, whatever its status (a refused payment is returned, not thrown).
    /// - Throws: ``CSEError/Code/serverAPIInvalidArgument`` for an id a path cannot carry; the
    ///   errors of ``createSession(tokens:idempotenceKey:)`` (404 `UNKNOWN_PAYMENT_ID` is `worldline.apiError`).
    public func getPayment(id: String) async throws(CSEError) -> WorldlinePayment {
        guard !id.isEmpty, id.utf8.count <= 64, id.utf8.allSatisfy({ ServerIdentifier.isIdentifierByte($0) }) else {
            throw CSEError(
                .serverAPIInvalidArgument, "a payment id is 1 to 64 letters, digits, '-', '_' or '.'", context: ["argument": "paymentId"])
        }
        let response = try await send(.get, path: ["payments", id], body: nil, retry: .idempotent)
        guard response.isSuccess else { throw Self.error(of: response, redactor: SafeText(secrets: [credentials.secretAPIKey])) }
        let object = try ServerResponse.object(response, platform: "worldline")
        // GetPayment answers a PaymentResponse; CreatePayment wraps it in {"payment": …}.
        return try WorldlinePayment(response: JSONObject([("payment", .object(object))]))
    }

    /// GetPayment as an outcome (issue #34): how a payment is resumed after the payer's 3-D Secure
    /// challenge (check the `RETURNMAC` first with ``checkReturnMAC(received:expected:)``, and read
    /// the payment by the id stored before the redirect, never one from the return's query) or
    /// followed while pending.
    /// - Parameter id: The payment id the merchant stored.
    /// - Returns: ``PaymentOutcome/succeeded(_:_:)`` (authorised or captured),
    ///   ``PaymentOutcome/refused(_:_:)`` (`worldline.paymentRejected`: for example, the payer
    ///   failed the challenge), ``PaymentOutcome/pending(_:_:_:)`` (still `REDIRECTED`, or awaiting
    ///   approval; no action: GetPayment does not repeat the redirect), or
    ///   ``PaymentOutcome/unknown(_:_:)`` (`worldline.paymentUndetermined`: read it again later),
    ///   each with the payment id in the keys.
    /// - Throws: The errors of ``getPayment(id:)``.
    public func paymentOutcome(id: String) async throws(CSEError) -> PaymentOutcome<WorldlinePayment> {
        let payment = try await getPayment(id: id)
        let keys = PaymentReconciliation(paymentID: payment.id)
        if payment.isUnsuccessful { return .refused(payment, Self.refusal(payment, status: 200)) }
        guard payment.isDetermined else {
            return .unknown(
                keys,
                outcomeUnknownError(
                    "the platform does not know the payment's result yet; read it again later", keys,
                    cause: CSEError(
                        .worldlinePaymentUndetermined, "the platform does not know the payment's result yet", context: payment.statusContext
                    )))
        }
        return Self.classify(payment, keys)
    }

    /// `worldline.paymentRejected` for a payment the platform refused, whatever the HTTP status.
    static func refusal(_ payment: WorldlinePayment, status: Int) -> CSEError {
        var context = payment.statusContext
        context["status"] = String(status)
        return CSEError(.worldlinePaymentRejected, "the platform refused the payment", context: context)
    }

    /// Signs and sends a request to `/v2/{merchantId}/<path>`, with `X-GCS-Idempotence-Key` when
    /// a key is given (signed like every `X-GCS-*` header, research notes §1.3).
    func send(
        _ method: HTTPMethod, path: [String], body: JSONValue?, idempotenceKey: IdempotenceKey? = nil,
        retry: HTTPRetryPolicy? = nil
    ) async throws(CSEError) -> HTTPResponse {
        let url = try environment.origin.appending(pathSegments: ["v2", credentials.merchantID] + path)
        // The signed headers come first: Content-Type (with a body), Date and X-GCS-*.
        var headers = HTTPHeaders()
        if body != nil { headers.add(name: "Content-Type", value: "application/json") }
        headers.add(name: "Date", value: HTTPDate.now())
        headers.add(name: "X-GCS-ServerMetaInfo", value: Self.serverMetaInfo)
        if let idempotenceKey { headers.add(name: "X-GCS-Idempotence-Key", value: idempotenceKey.text) }
        let text = WorldlineSignature.stringToSign(method: method.rawValue, headers: headers, path: url.path, query: url.query)
        let signature = try WorldlineSignature.signature(of: text, secret: credentials.secretAPIKey)
        headers.add(name: "Authorization", value: WorldlineSignature.authorization(apiKeyID: credentials.apiKeyID, signature: signature))
        // A request with an idempotence key is the same request on every attempt: the transport
        // may repeat it.
        let policy = retry ?? (idempotenceKey != nil ? .idempotent : nil)
        return try await ServerRequest.send(http, method, url: url, headers: headers, body: body, retry: policy)
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
        failure(of: response, redactor: redactor).error
    }

    /// The typed error of a non-2xx response, and its body when it is Worldline's error shape.
    /// A JSON body with a member of the wrong type is not that shape: the error is then
    /// ``CSEError/Code/serverAPIUnexpectedStatus`` (or ``CSEError/Code/serverAPIAuthenticationFailed``
    /// for 401/403) with the status, caused by ``CSEError/Code/serverAPIInvalidResponse`` naming the member.
    /// - Parameter redactor: Redacts the platform's text, with the caller's secrets by value.
    static func failure(of response: HTTPResponse, redactor: SafeText) -> (error: CSEError, body: WorldlineErrorBody?) {
        guard let object = ServerResponse.errorObject(response) else {
            return (ServerResponse.statusError(response, platform: "worldline"), nil)
        }
        let body: WorldlineErrorBody
        do { body = try WorldlineErrorBody(object) } catch {
            return (ServerResponse.statusError(response, platform: "worldline", cause: error), nil)
        }
        var context: [String: String] = ["status": String(response.status)]
        if let errorID = body.errorID { context["errorId"] = redactor.of(errorID, limit: 64) }
        if let first = body.errors?.first {
            if let id = first.id { context["id"] = redactor.of(id, limit: 64) }
            if let code = first.code { context["code"] = redactor.of(code, limit: 16) }
            if let property = first.propertyName { context["propertyName"] = redactor.of(property, limit: 64) }
            if let message = first.message { context["message"] = redactor.of(message) }
        }
        if let payment = body.paymentResult {
            context["paymentId"] = SafeText.identifier(payment.id)
            context["paymentStatus"] = redactor.of(payment.status, limit: 64)
            return (CSEError(.worldlinePaymentRejected, "the platform refused the payment", context: context), body)
        }
        if response.status == 401 || response.status == 403 {
            return (ServerResponse.statusError(response, platform: "worldline", details: context), body)
        }
        guard body.errors != nil || body.errorID != nil else {
            return (ServerResponse.statusError(response, platform: "worldline"), body)
        }
        return (CSEError(.worldlineAPIError, "the platform returned an error", context: context), body)
    }
}
