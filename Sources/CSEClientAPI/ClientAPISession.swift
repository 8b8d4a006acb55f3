public import CSECore
import CSECrypto
@_spi(CustomTransport) public import CSEHTTP
public import CSEPayments
public import CSEValidation

/// A Client API session: the calls the Worldline client SDKs make (`OnlinePaymentsSdk`), from
/// Swift on Linux. Create one per CreateSession response and share it: it is `Sendable`, its
/// methods are `async` because they do I/O, and it caches what the SDKs cache.
///
///     let session = try ClientAPISession(sessionData: SessionData(json: body))
///     let context = try PaymentContext(amount: 1000, currencyCode: "EUR", countryCode: "NL")
///     let products = try await session.basicPaymentProducts(for: context)
///     var request = PaymentRequest(product: try await session.paymentProduct(id: "1", for: context))
///     try request.setValue("4111 1111 1111 1111", forField: "cardNumber")
///     …
///     let sealed = try await session.encrypt(request)   // encryptedCustomerInput, encodedClientMetaInfo
///
/// Every request goes to `{clientApiUrl}/{version}/{customerId}/…` with
/// `Authorization: GCS v1Client:<clientSessionId>` and `X-GCS-ClientMetaInfo` (research note
/// §1.2, §1.3). Non-2xx answers throw ``CSEError/Code/clientAPIHTTPStatus`` (or
/// ``CSEError/Code/clientAPIUnauthorized`` for 401/403) with the decoded `ApiError` in the
/// context; transport failures throw CSEHTTP's `http.*` codes. See docs/CLIENT-API.md.
///
/// - Important: The session id never appears in full in an error, a `description` or a
///   diagnostics event; card numbers and CVVs never appear at all.
public final class ClientAPISession: Sendable, CustomStringConvertible {
    /// The session this object calls the platform for.
    public let sessionData: SessionData
    /// The configuration.
    public let configuration: ClientAPIConfiguration

    private let client: HTTPClient
    private let baseURL: HTTPURL
    private let headers: HTTPHeaders

    /// The public key and the sealer built from it, once fetched. A class, so that reading it
    /// under the lock copies one reference rather than the key's and the sealer's fields.
    private final class KeyState: Sendable {
        let response: PublicKeyResponse
        let sealer: PaymentRequestSealer

        init(response: PublicKeyResponse, sealer: PaymentRequestSealer) {
            self.response = response
            self.sealer = sealer
        }
    }

    private struct ProductKey: Hashable, Sendable {
        let id: String
        let context: PaymentContext
    }

    private struct IINKey: Hashable, Sendable {
        let bin: String
        let context: PaymentContext?
    }

    /// A fetched product and the wallet facts the rules need. A class, so that a cache hit
    /// copies one reference out of the cache rather than both models' fields.
    private final class CachedProduct: Sendable {
        let product: PaymentProduct
        let wallet: WalletProduct?

        init(product: PaymentProduct, wallet: WalletProduct?) {
            self.product = product
            self.wallet = wallet
        }
    }

    /// The key, fetched once; concurrent first calls share one request.
    private let key = SharedFetch<KeyState>()
    private let productLists: ResponseCache<PaymentContext, BasicPaymentProducts>
    private let products: ResponseCache<ProductKey, CachedProduct>
    private let networks: ResponseCache<ProductKey, PaymentProductNetworks>
    private let iin: ResponseCache<IINKey, IINDetails>

    /// Creates a session.
    /// - Parameters:
    ///   - sessionData: The CreateSession response.
    ///   - configuration: Transport, cache, product-rule and meta-info settings.
    ///   - transport: An HTTP transport to use instead of the default (libcurl) one; for tests
    ///     and for callers with their own HTTP stack.
    /// - Throws: `http.insecureURL` when `clientApiUrl` is plain `http` to anything but loopback;
    ///   the configuration errors of `HTTPClient`.
    public init(
        sessionData: SessionData, configuration: ClientAPIConfiguration = ClientAPIConfiguration(),
        transport: (any HTTPTransport)? = nil
    ) throws(CSEError) {
        self.sessionData = sessionData
        self.configuration = configuration
        self.client = try HTTPClient(configuration: configuration.http, transport: transport)
        self.baseURL = try HTTPURL(sessionData.clientAPIURL)
        var headers = HTTPHeaders()
        headers.add(name: "Authorization", value: "GCS v1Client:\(sessionData.clientSessionID)")
        headers.add(name: "X-GCS-ClientMetaInfo", value: configuration.clientMetaInfo.encoded)
        headers.add(name: "Accept", value: "application/json")
        self.headers = headers
        let now: @Sendable () -> Duration = { MonotonicClock.now() }
        productLists = ResponseCache(policy: configuration.cachePolicy, now: now)
        products = ResponseCache(policy: configuration.cachePolicy, now: now)
        networks = ResponseCache(policy: configuration.cachePolicy, now: now)
        iin = ResponseCache(policy: configuration.cachePolicy, now: now)
    }

    /// `ClientAPISession(clientSessionId: 3e1f…(32 chars), …)`.
    public var description: String { "ClientAPISession(\(sessionData.description))" }

    // MARK: - Public key

    /// The platform's encryption key (`GET crypto/publickey`), fetched once per session and
    /// reused until ``dropPublicKey()``. Concurrent calls while no key is held (from here or from
    /// ``encrypt(_:)``) share one request.
    /// - Throws: The HTTP and status errors; `keyResponse.malformed` and the key-import errors
    ///   for a bad body; `jwe.keyTooSmall` for keys under 2048 bits.
    public func publicKey() async throws(CSEError) -> PublicKeyResponse {
        try await keyState().response
    }

    /// Forgets the cached public key (for example after the platform reports a decryption
    /// problem); the next call fetches it again.
    public func dropPublicKey() {
        key.drop()
    }

    /// Forgets every cached product list, product, network list and IIN answer.
    public func removeCachedResponses() {
        productLists.removeAll()
        products.removeAll()
        networks.removeAll()
        iin.removeAll()
    }

    private func keyState() async throws(CSEError) -> KeyState {
        try await key.value { () async throws(CSEError) in
            let response = try await send(.publicKey, path: ["crypto", "publickey"], method: .get)
            let publicKey = try PublicKeyResponse(json: response.body)
            var options = configuration.sealing
            options.clientMetaInfo = configuration.clientMetaInfo
            return KeyState(response: publicKey, sealer: try PaymentRequestSealer(publicKeyResponse: publicKey, options: options))
        }
    }

    // MARK: - Products

    /// The products available in `context` with their accounts on file (`GET products`), after
    /// the product rules (``ProductRules``). Cached by context.
    /// - Throws: The HTTP and status errors; ``CSEError/Code/clientAPIMalformedResponse``.
    public func basicPaymentProducts(for context: PaymentContext) async throws(CSEError) -> BasicPaymentProducts {
        if let cached = productLists.value(for: context) { return cached }
        let response = try await send(
            .products, path: ["products"], method: .get,
            query: context.queryItems + [(name: "hide", value: "fields")])
        let list = configuration.productRules.filter(try BasicPaymentProducts(json: response.body))
        productLists.store(list, for: context)
        return list
    }

    /// One product with its fields (`GET products/{id}`), ready for a ``PaymentRequest``:
    /// fields in display order, `expiryDate` as text, the SDK default masks. Cached by id and
    /// context. An all-digit id is compared as a number (`0117` is 117) and sent without leading
    /// zeros.
    /// - Throws: ``CSEError/Code/clientAPIProductUnavailable`` for 117, 5700, 5772, 5784
    ///   (without a call) and for a wallet the rules say this host cannot use;
    ///   ``CSEError/Code/clientAPIProductMismatch`` when the platform returns another product
    ///   than the one requested; the HTTP and
    ///   status errors; ``CSEError/Code/clientAPIMalformedResponse`` (the context's `cause` names
    ///   the `product.*` error).
    public func paymentProduct(id: String, for context: PaymentContext) async throws(CSEError) -> PaymentProduct {
        // The canonical id (`0117` → `117`): the one requested, cached and compared.
        let id = try configuration.productRules.checkRequestable(productID: id)
        let cacheKey = ProductKey(id: id, context: context)
        let entry: CachedProduct
        if let cached = products.value(for: cacheKey) {
            entry = cached
        } else {
            let response = try await send(.product, path: ["products", id], method: .get, query: context.queryItems)
            let reader = ResponseReader(endpoint: "products/{id}")
            let value = try reader.parse(response.body)
            let basic = try BasicPaymentProduct(value, reader)
            try ProductRules.checkReturned(productID: basic.id, requested: id)
            let product: PaymentProduct
            do {
                product = try PaymentProduct(jsonValue: value)
            } catch {
                var context = error.context
                context["endpoint"] = reader.endpoint
                throw CSEError(.clientAPIMalformedResponse, error.reason, context: context, underlying: error)
            }
            entry = CachedProduct(product: product, wallet: ProductRules.wallet(basic))
            products.store(entry, for: cacheKey)
        }
        try configuration.productRules.checkWallet(entry.wallet)
        return entry.product
    }

    /// The card networks of a product (`GET products/{id}/networks`). Cached by id and context.
    /// - Throws: ``CSEError/Code/clientAPIProductUnavailable`` for 117, 5700, 5772, 5784; the
    ///   HTTP and status errors; ``CSEError/Code/clientAPIMalformedResponse``.
    public func paymentProductNetworks(id: String, for context: PaymentContext) async throws(CSEError) -> PaymentProductNetworks {
        // The canonical id (`0117` → `117`): the one requested, cached and compared.
        let id = try configuration.productRules.checkRequestable(productID: id)
        let cacheKey = ProductKey(id: id, context: context)
        if let cached = networks.value(for: cacheKey) { return cached }
        let response = try await send(.networks, path: ["products", id, "networks"], method: .get, query: context.queryItems)
        let result = try PaymentProductNetworks(json: response.body)
        networks.store(result, for: cacheKey)
        return result
    }

    // MARK: - Card services

    /// The IIN details of a partial card number (`POST services/getIINdetails`), in the same
    /// ``IINDetails`` vocabulary as the local IIN tables.
    ///
    /// Spaces are removed; fewer than 6 digits answer ``IINStatus/notEnoughDigits`` without a
    /// call; 8 digits are sent when 8 or more were typed, else 6. HTTP 404 answers
    /// ``IINStatus/unknown``. The status follows WL-Swift and WL-Android (a missing
    /// `isAllowedInContext` is "not allowed"). Cached by the digits sent and the context; the
    /// call is retried like a GET (it changes nothing).
    /// - Parameters:
    ///   - partialCardNumber: The digits typed so far (spaces allowed).
    ///   - context: The payment context, sent as `paymentContext`; `nil` sends none.
    /// - Throws: ``CSEError/Code/clientAPIInvalidCardNumber`` (a non-digit, more than 19 digits);
    ///   the HTTP and status errors; ``CSEError/Code/clientAPIMalformedResponse``.
    public func iinDetails(partialCardNumber: String, for context: PaymentContext?) async throws(CSEError) -> IINDetails {
        guard let bin = try IINBin.truncated(partialCardNumber) else { return .notEnoughDigits }
        let cacheKey = IINKey(bin: bin, context: context)
        if let cached = iin.value(for: cacheKey) { return cached }
        let response = try await send(
            .iinDetails, path: ["services", "getIINdetails"], method: .post,
            body: IINBin.body(bin: bin, context: context), retry: .idempotent,
            acceptNotFound: true)
        let details = response.status == 404 ? IINDetails.unknown : try IINDetails(clientAPIJSON: response.body)
        iin.store(details, for: cacheKey)
        return details
    }

    /// A dynamic currency conversion quote (`POST services/dccrate`; API version per
    /// ``ClientAPIConfiguration/apiVersions``, `v1` by default). Not cached, not retried.
    /// - Parameters:
    ///   - cardSource: The card number (6 to 19 digits) or token.
    ///   - amount: The amount in the merchant's currency, sent as `transaction.amount`.
    /// - Throws: ``CSEError/Code/clientAPIInvalidCardNumber``; the HTTP and status errors;
    ///   ``CSEError/Code/clientAPIMalformedResponse``.
    public func currencyConversionQuote(
        cardSource: CardSource, amount: AmountOfMoney
    ) async throws(CSEError)
        -> CurrencyConversionResponse
    {
        var body = JSONValue.object(
            JSONObject([
                ("cardSource", try cardSource.jsonValue()),
                ("transaction", .object(JSONObject([("amount", amount.jsonValue)]))),
            ])
        ).serializedBytes
        defer { secureZero(&body) }
        let response = try await send(.currencyConversion, path: ["services", "dccrate"], method: .post, body: body)
        return try CurrencyConversionResponse(json: response.body)
    }

    /// The surcharge for a card and amount (`POST services/surchargecalculation`). Not cached,
    /// not retried.
    /// - Throws: ``CSEError/Code/clientAPIInvalidCardNumber``; the HTTP and status errors;
    ///   ``CSEError/Code/clientAPIMalformedResponse``.
    public func surchargeCalculation(
        cardSource: CardSource, amount: AmountOfMoney
    ) async throws(CSEError)
        -> SurchargeCalculationResponse
    {
        var body = JSONValue.object(
            JSONObject([
                ("amountOfMoney", amount.jsonValue), ("cardSource", try cardSource.jsonValue()),
            ])
        ).serializedBytes
        defer { secureZero(&body) }
        let response = try await send(.surchargeCalculation, path: ["services", "surchargecalculation"], method: .post, body: body)
        return try SurchargeCalculationResponse(json: response.body)
    }

    // MARK: - Encryption

    /// Validates and seals a request with the platform's key: the same
    /// `encryptedCustomerInput` and `encodedClientMetaInfo` as ``PaymentRequestSealer`` returns
    /// offline, with this session's id in the payload and ``ClientAPIConfiguration/clientMetaInfo``
    /// (the value of the `X-GCS-ClientMetaInfo` header) as the meta info. The key is fetched on
    /// first use and reused.
    /// - Throws: ``CSEError/Code/paymentsInvalidRequest`` when the request does not validate
    ///   (unless `configuration.sealing.allowInvalidRequest`); the errors of ``publicKey()`` and
    ///   ``PaymentRequestSealer/seal(_:clientSessionID:)``.
    public func encrypt(_ request: PaymentRequest) async throws(CSEError) -> SealedPaymentRequest {
        // The cached key first, without entering the async key fetch (cse-bench
        // client-encrypt-cached: the call into `keyState()` was most of the session's overhead).
        if let sealed = try encryptWithCachedKey(request) { return sealed }
        return try await keyState().sealer.seal(request, clientSessionID: sessionData.clientSessionID)
    }

    /// Seals with the cached key, or `nil` when none is cached yet (the synchronous fast path
    /// the CLI's batch mode uses after one ``publicKey()`` call).
    package func encryptWithCachedKey(_ request: PaymentRequest) throws(CSEError) -> SealedPaymentRequest? {
        guard let state = key.cached else { return nil }
        return try state.sealer.seal(request, clientSessionID: sessionData.clientSessionID)
    }

    // MARK: - HTTP

    /// Sends one call and returns a 2xx response (or a 404 when `acceptNotFound`).
    private func send(
        _ endpoint: ClientAPIEndpoint, path: [String], method: HTTPMethod,
        query: [(name: String, value: String)] = [], body: [UInt8] = [], retry: HTTPRetryPolicy? = nil,
        acceptNotFound: Bool = false
    ) async throws(CSEError) -> HTTPResponse {
        var url = try baseURL.appending(pathSegments: [try configuration.version(of: endpoint), sessionData.customerID] + path)
        if !query.isEmpty { url = url.settingQuery(query) }
        var requestHeaders = headers
        if !body.isEmpty { requestHeaders.add(name: "Content-Type", value: "application/json") }
        let request = HTTPRequest(method: method, url: url, headers: requestHeaders, body: body, retry: retry)
        let response = try await client.send(request)
        if (200...299).contains(response.status) || (acceptNotFound && response.status == 404) { return response }
        throw Self.statusError(response, endpoint: endpoint, method: method, secrets: [sessionData.clientSessionID])
    }

    /// The typed error of a non-2xx answer, with the decoded `ApiError` when the body is one.
    /// - Parameter secrets: The caller's secrets (the client session id), redacted by value from
    ///   everything the platform wrote (issue #24, point 9).
    static func statusError(
        _ response: HTTPResponse, endpoint: ClientAPIEndpoint, method: HTTPMethod, secrets: [String] = []
    ) -> CSEError {
        var context = ["status": String(response.status), "method": method.rawValue, "endpoint": endpoint.rawValue]
        let apiError = try? APIError(json: response.body)
        if let apiError {
            context.merge(apiError.context(secrets: secrets)) { current, _ in current }
        } else {
            context["body"] = response.body.isEmpty ? "empty" : "not an ApiError"
        }
        let unauthorized = response.status == 401 || response.status == 403
        return CSEError(
            unauthorized ? .clientAPIUnauthorized : .clientAPIHTTPStatus,
            unauthorized
                ? "the platform refused the session (HTTP \(response.status)); it may have expired"
                : "the platform answered HTTP \(response.status)",
            context: context, detail: apiError?.redactingMessages(secrets: secrets))
    }
}
