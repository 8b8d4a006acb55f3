import CSEClientAPI
import TestSupport
import CSECore
import CSECrypto
@_spi(CustomTransport) import CSEHTTP
import CSEJOSE
import CSEPayments
import CSEValidation
import Testing

@Suite("ClientAPISession with an in-memory transport: requests, rules, caches, errors")
struct ClientAPISessionTests {
    func makeSession(
        _ answers: Answers, cache: CachePolicy = .default, rules: ProductRules = .default,
        configure: (inout ClientAPIConfiguration) -> Void = { _ in }
    ) throws -> (ClientAPISession, InMemoryTransport) {
        let transport = InMemoryTransport { request in answers.answer(request) }
        var configuration = SessionFixtures.configuration(cache: cache, rules: rules)
        configure(&configuration)
        return (
            try ClientAPISession(sessionData: try SessionFixtures.sessionData(), configuration: configuration, transport: transport),
            transport
        )
    }

    @Test("products: {clientApiUrl}/v1/{customerId}/products, the context query, both GCS headers, rules applied")
    func productsRequest() async throws {
        let answers = Answers()
        answers.set("/products", 200, SessionFixtures.productList)
        let (session, transport) = try makeSession(answers)
        let list = try await session.basicPaymentProducts(for: try SessionFixtures.context())
        #expect(list.paymentProducts.map(\.id) == ["1", "840"])  // 117 dropped, 302 not available
        let request = try #require(transport.requests.first)
        #expect(request.method == .get)
        #expect(
            request.url.absoluteString
                == "https://client.example.com/client/v1/cust-42/products?countryCode=NL&currencyCode=EUR&amount=1000&isRecurring=false&hide=fields"
        )
        #expect(request.headers["Authorization"] == "GCS v1Client:\(canarySessionID)")
        #expect(request.headers["X-GCS-ClientMetaInfo"] == SessionFixtures.metaInfo.encoded)
        #expect(request.headers["Content-Type"] == nil)
        #expect(request.retry == .idempotent)
    }

    @Test("a wallet predicate can keep Apple Pay")
    func walletPredicate() async throws {
        let answers = Answers()
        answers.set("/products", 200, SessionFixtures.productList)
        let (session, _) = try makeSession(answers, rules: ProductRules { $0.productID == "302" && $0.networks == ["Visa"] })
        #expect(
            try await session.basicPaymentProducts(for: try SessionFixtures.context()).paymentProducts.map(\.id) == ["1", "302", "840"])
    }

    @Test("product 1: a full PaymentProduct (fields by display order, expiryDate as text, default masks), cached by id and context")
    func product() async throws {
        let answers = Answers()
        answers.set("/products/1", 200, SessionFixtures.visaProduct)
        let (session, transport) = try makeSession(answers)
        let context = try SessionFixtures.context()
        let product = try await session.paymentProduct(id: "1", for: context)
        #expect(product.fields.map(\.id) == ["cardNumber", "expiryDate", "cvv"])
        #expect(product.field("expiryDate")?.displayHints.formElementType == .text)
        #expect(product.field("expiryDate")?.displayHints.mask == "{{99}}/{{99}}")
        #expect(product.field("cardNumber")?.displayHints.mask == "{{9999}} {{9999}} {{9999}} {{9999}}")
        #expect(
            transport.requests.first?.url.absoluteString
                == "https://client.example.com/client/v1/cust-42/products/1?countryCode=NL&currencyCode=EUR&amount=1000&isRecurring=false")
        _ = try await session.paymentProduct(id: "1", for: context)
        #expect(transport.requests.count == 1)
        _ = try await session.paymentProduct(id: "1", for: try SessionFixtures.context(recurring: true))
        #expect(transport.requests.count == 2)
        var request = PaymentRequest(product: product)
        try request.setValue("4111 1111 1111 1111", forField: "cardNumber")
        #expect(request.unmaskedValue(forField: "cardNumber") == "4111111111111111")
    }

    @Test("a later error never poisons a cached good answer; another id fails with the decoded ApiError")
    func noPoisoning() async throws {
        let answers = Answers()
        answers.set("/products/1", 200, SessionFixtures.visaProduct)
        let (session, _) = try makeSession(answers)
        let context = try SessionFixtures.context()
        _ = try await session.paymentProduct(id: "1", for: context)
        answers.set("/products/1", 500, #"{"errorId":"e-1","errors":[{"errorCode":"9999","id":"BOOM","retriable":true}]}"#)
        answers.set(
            "/products/2", 404,
            #"{"errorId":"e-2","errors":[{"errorCode":1007,"id":"UNKNOWN_PRODUCT_ID","propertyName":"productId","retriable":false}]}"#)
        #expect(try await session.paymentProduct(id: "1", for: context).id == "1")
        let error = await caught { () async throws(CSEError) in try await session.paymentProduct(id: "2", for: context) }
        #expect(error?.code == .clientAPIHTTPStatus)
        #expect(error?.context["status"] == "404")
        #expect(error?.context["errorId"] == "e-2")
        #expect(error?.context["errorCode"] == "1007")
        #expect(error?.context["id"] == "UNKNOWN_PRODUCT_ID")
        #expect(error?.context["propertyName"] == "productId")
        #expect(error?.context["retriable"] == "false")
        #expect(try await session.paymentProduct(id: "1", for: context).id == "1")
    }

    @Test("a non-2xx answer hands the caller the decoded ApiError, with a message that echoes a card number redacted")
    func decodedAPIErrorReachesTheCaller() async throws {
        let answers = Answers()
        answers.set(
            "/products/3", 400,
            #"{"errorId":"e-3","errors":[{"errorCode":"1008","id":"INVALID_VALUE","propertyName":"cardNumber","message":"value 4111.1111.1111.1111 is invalid","retriable":false},{"errorCode":"1009","message":"amount is too large"}]}"#
        )
        answers.set("/products/4", 502, "<html>bad gateway</html>")
        let (session, _) = try makeSession(answers)
        let context = try SessionFixtures.context()
        let error = await caught { () async throws(CSEError) in try await session.paymentProduct(id: "3", for: context) }
        let apiError = try #require(error?.clientAPIError)
        #expect(apiError.errorID == "e-3")
        #expect(apiError.errors.map(\.errorCode) == ["1008", "1009"])
        #expect(apiError.errors.map(\.propertyName) == ["cardNumber", nil])
        #expect(apiError.errors[1].message == "amount is too large")
        #expect(!apiError.errors[0].message.contains("1111"))
        #expect(error.map { !String(describing: $0).contains("1111") } == true)
        let notAnAPIError = await caught { () async throws(CSEError) in try await session.paymentProduct(id: "4", for: context) }
        #expect(notAnAPIError?.code == .clientAPIHTTPStatus)
        #expect(notAnAPIError?.clientAPIError == nil)
    }

    @Test(
        "an ApiError echoing the session id, a dotted card number or Basic credentials reaches no error, context or message (issue #24 point 9)"
    )
    func apiErrorRedaction() async throws {
        let answers = Answers()
        answers.set(
            "/products/5", 400,
            #"{"errorId":"\#(canarySessionID)","errors":[{"errorCode":"1008","id":"INVALID_VALUE","propertyName":"cardNumber","message":"card 4111_1111_1111_1111 or 4111/1111/1111/1111 for session \#(canarySessionID), Authorization: Basic bWVyY2hhbnQ6cGFzc3dvcmQ=","retriable":false}]}"#
        )
        let (session, _) = try makeSession(answers)
        let error = await caught { () async throws(CSEError) in
            try await session.paymentProduct(id: "5", for: try SessionFixtures.context())
        }
        let apiError = try #require(error?.clientAPIError)
        let everything = [String(describing: error!), apiError.errorID, apiError.errors[0].message] + error!.context.values
        for text in everything {
            #expect(!text.contains(canarySessionID), "\(text)")
            #expect(!text.contains("1111"), "\(text)")
            #expect(!text.contains("bWVyY2hhbnQ6cGFzc3dvcmQ"), "\(text)")
        }
        #expect(error?.context["errorId"] == "<redacted>")
    }

    @Test("the unsupported products fail clearly without a call; a wallet without the predicate is unavailable")
    func unsupported() async throws {
        let answers = Answers()
        answers.set(
            "/products/302", 200, #"{"id":302,"paymentMethod":"mobile","paymentProduct302SpecificData":{"networks":["Visa"]},"fields":[]}"#)
        let (session, transport) = try makeSession(answers)
        for id in ["117", "5700", "5772", "5784"] {
            let error = await caught { () async throws(CSEError) in
                try await session.paymentProduct(id: id, for: try SessionFixtures.context())
            }
            #expect(error?.code == .clientAPIProductUnavailable)
        }
        #expect(transport.requests.isEmpty)
        let wallet = await caught { () async throws(CSEError) in
            try await session.paymentProduct(id: "302", for: try SessionFixtures.context())
        }
        #expect(wallet?.code == .clientAPIProductUnavailable)
    }

    @Test("401 and 403 are unauthorized; a non-ApiError body and a malformed 2xx are typed; the session id never shows")
    func errors() async throws {
        let answers = Answers()
        answers.set("/products", 403, #"{"errorId":"x","errors":[{"errorCode":"9002","id":"MISSING_OR_INVALID_AUTHORIZATION"}]}"#)
        answers.set("/networks", 502, "<html>bad gateway</html>")
        answers.set("/crypto/publickey", 200, #"{"keyId":1}"#)
        answers.set("/products/1", 200, "{not json")
        let (session, _) = try makeSession(answers)
        let context = try SessionFixtures.context()
        let unauthorized = await caught { () async throws(CSEError) in try await session.basicPaymentProducts(for: context) }
        #expect(unauthorized?.code == .clientAPIUnauthorized)
        #expect(unauthorized?.context["errorCode"] == "9002")
        let gateway = await caught { () async throws(CSEError) in try await session.paymentProductNetworks(id: "1", for: context) }
        #expect(gateway?.code == .clientAPIHTTPStatus)
        #expect(gateway?.context["body"] == "not an ApiError")
        let key = await caught { () async throws(CSEError) in try await session.publicKey() }
        #expect(key?.code == .keyResponseMalformed)
        let malformed = await caught { () async throws(CSEError) in try await session.paymentProduct(id: "1", for: context) }
        #expect(malformed?.code == .clientAPIMalformedResponse)
        for error in [unauthorized, gateway, key, malformed] {
            let text = "\(String(describing: error)) \(String(reflecting: error))"
            #expect(!text.contains(canarySessionID))
        }
        #expect(!session.description.contains(canarySessionID))
    }

    @Test("IIN: < 6 digits → notEnoughDigits with no call; spaces stripped; 8 digits when ≥ 8 typed, else 6; 404 → unknown")
    func iin() async throws {
        let answers = Answers()
        answers.set(
            "/services/getIINdetails", 200, #"{"paymentProductId":1,"isAllowedInContext":true,"countryCode":"BE","cardType":"Credit"}"#)
        let (session, transport) = try makeSession(answers)
        let context = try SessionFixtures.context()
        for short in ["", "4", "41111", "4 1 1 1 1"] {
            #expect(try await session.iinDetails(partialCardNumber: short, for: context).status == .notEnoughDigits)
        }
        #expect(transport.requests.isEmpty)
        for (typed, sent) in [("411111", "411111"), ("4111112", "411111"), ("4111 1122", "41111122"), ("4111 1133 3333 3", "41111133")] {
            let details = try await session.iinDetails(partialCardNumber: typed, for: context)
            #expect(details.status == .supported)
            #expect(details.productID == "1")
            let body = try JSONValue.parse(try #require(transport.requests.last).body)
            #expect(body["bin"] == .string(sent), "\(typed)")
        }
        // 4111112 truncates to the cached 411111.
        #expect(transport.requests.count == 3)
        let request = try #require(transport.requests.last)
        #expect(request.method == .post)
        #expect(request.retry == .idempotent)
        #expect(request.headers["Content-Type"] == "application/json")
        #expect(request.url.absoluteString == "https://client.example.com/client/v1/cust-42/services/getIINdetails")
        #expect(
            String(decoding: request.body, as: UTF8.self)
                == #"{"bin":"41111133","paymentContext":{"amountOfMoney":{"amount":1000,"currencyCode":"EUR"},"countryCode":"NL","isRecurring":false,"isInstallments":false}}"#
        )
        answers.set("/services/getIINdetails", 404, #"{"errorId":"x","errors":[{"errorCode":"50001111","id":"IIN_NOT_FOUND"}]}"#)
        #expect(try await session.iinDetails(partialCardNumber: "999999", for: context) == .unknown)
        let bad = await caught { () async throws(CSEError) in try await session.iinDetails(partialCardNumber: "4111-1111", for: context) }
        #expect(bad?.code == .clientAPIInvalidCardNumber)
        #expect(!(bad?.description.contains("4111") ?? true))
    }

    @Test("dccrate on a configurable API version; surcharge lower-case; bodies carry the currency, not the amount")
    func cardServices() async throws {
        let answers = Answers()
        answers.set("/services/dccrate", 200, #"{"dccSessionId":"d1","result":{"result":"Allowed"},"proposal":{}}"#)
        answers.set("/services/surchargecalculation", 200, #"{"surcharges":[]}"#)
        let (session, transport) = try makeSession(answers) { $0.apiVersions[.currencyConversion] = "v2" }
        let amount = try AmountOfMoney(amount: 1000, currencyCode: "EUR")
        let quote = try await session.currencyConversionQuote(
            cardSource: .card(number: "4111 1111 1111 1111", paymentProductID: "1"), amount: amount)
        #expect(quote.dccSessionID == "d1")
        let dcc = try #require(transport.requests.last)
        #expect(dcc.url.path == "/client/v2/cust-42/services/dccrate")
        #expect(dcc.retry == .never)
        #expect(
            String(decoding: dcc.body, as: UTF8.self)
                == #"{"cardSource":{"card":{"cardNumber":"4111111111111111","paymentProductId":1}},"transaction":{"amount":{"amount":1000,"currencyCode":"EUR"}}}"#
        )
        _ = try await session.surchargeCalculation(cardSource: .token("tok-1"), amount: amount)
        let surcharge = try #require(transport.requests.last)
        #expect(surcharge.url.path == "/client/v1/cust-42/services/surchargecalculation")
        #expect(
            String(decoding: surcharge.body, as: UTF8.self)
                == #"{"amountOfMoney":{"amount":1000,"currencyCode":"EUR"},"cardSource":{"token":"tok-1"}}"#)
        #expect(!CardSource.card(number: canaryPAN, paymentProductID: nil).description.contains(canaryPAN))
    }

    @Test("a key id over 1,024 bytes is refused when the platform's key is imported, so no JWE with a header over 8 KiB is written")
    func overlongKeyIDRefusedAtImport() async throws {
        let der = DemoKeys.testOnlyPublicKey.derRepresentation
        for (length, refused) in [(1_024, false), (1_025, true), (8_150, true)] {
            let answers = Answers()
            answers.set(
                "/crypto/publickey", 200, #"{"keyId":"\#(String(repeating: "k", count: length))","publicKey":"\#(Base64.encode(der))"}"#)
            let (session, _) = try makeSession(answers)
            let error = await caught { () async throws(CSEError) in try await session.publicKey() }
            #expect((error?.code == .jweKeyIDTooLong) == refused && (refused || error == nil), "\(length)")
        }
    }

    @Test("encrypt: the offline sealer's output shape, the session id in the payload, the header's meta info; key fetched once, droppable")
    func encrypt() async throws {
        let answers = Answers()
        answers.set("/crypto/publickey", 200, SessionFixtures.demoKeyJSON)
        answers.set("/products/1", 200, SessionFixtures.visaProduct)
        let (session, transport) = try makeSession(answers)
        var request = PaymentRequest(product: try await session.paymentProduct(id: "1", for: try SessionFixtures.context()))
        try request.setValue(canaryPAN, forField: "cardNumber")
        try request.setValue("12/35", forField: "expiryDate")
        try request.setValue("123", forField: "cvv")
        let sealed = try await session.encrypt(request)
        let again = try await session.encrypt(request)
        #expect(transport.requests.filter { $0.url.path.hasSuffix("/crypto/publickey") }.count == 1)
        #expect(sealed.encodedClientMetaInfo == SessionFixtures.metaInfo.encoded)
        var offlineOptions = SessionFixtures.configuration().sealing
        offlineOptions.clientMetaInfo = SessionFixtures.metaInfo
        let offline = try PaymentRequestSealer(publicKeyResponse: DemoKeys.testOnlyPublicKeyResponse, options: offlineOptions)
        #expect(try offline.seal(request, clientSessionID: canarySessionID).encodedClientMetaInfo == sealed.encodedClientMetaInfo)
        let decryptor = try JWEDecryptor(privateKey: DemoKeys.testOnlyPrivateKey(), expectedKeyID: DemoKeys.testOnlyKeyID)
        let payload = try JSONValue.parse(try decryptor.decrypt(sealed.encryptedCustomerInput).plaintext.unsafeCopyToArray())
        #expect(payload.objectValue?.keys == ["clientSessionId", "nonce", "paymentProductId", "paymentValues"])
        #expect(payload["clientSessionId"] == .string(canarySessionID))
        #expect(payload["paymentProductId"] == .number("1"))
        #expect(sealed.encryptedCustomerInput != again.encryptedCustomerInput)
        session.dropPublicKey()
        _ = try await session.encrypt(request)
        #expect(transport.requests.filter { $0.url.path.hasSuffix("/crypto/publickey") }.count == 2)
        var invalid = request
        try invalid.setValue("4111111111111112", forField: "cardNumber")
        let refused = await caught { () async throws(CSEError) in try await session.encrypt(invalid) }
        #expect(refused?.code == .paymentsInvalidRequest)
        #expect(!(refused?.description.contains("4111111111111112") ?? true))
    }

    @Test("plain http to a non-loopback host is refused when the session is created")
    func insecure() throws {
        let data = try SessionFixtures.sessionData(url: "http://client.example.com")
        #expect(throws: CSEError(.httpInsecureURL, "")) { try ClientAPISession(sessionData: data) }
    }
}

@Suite("ResponseCache: TTL, capacity, oldest first, disabled")
struct ResponseCacheTests {
    @Test("entries expire after the TTL and the oldest goes first when full")
    func ttlAndCapacity() async throws {
        let answers = Answers()
        answers.set("/products", 200, SessionFixtures.productList)
        let transport = InMemoryTransport { answers.answer($0) }
        var configuration = SessionFixtures.configuration(cache: CachePolicy(timeToLive: .milliseconds(300), capacity: 2))
        configuration.http.maxRetries = 0
        let session = try ClientAPISession(
            sessionData: try SessionFixtures.sessionData(), configuration: configuration, transport: transport)
        let contexts = try [1, 2, 3].map { try PaymentContext(amount: Int64($0), currencyCode: "EUR", countryCode: "NL") }
        for context in contexts { _ = try await session.basicPaymentProducts(for: context) }
        #expect(transport.requests.count == 3)
        _ = try await session.basicPaymentProducts(for: contexts[2])  // newest: cached
        #expect(transport.requests.count == 3)
        _ = try await session.basicPaymentProducts(for: contexts[0])  // the oldest was evicted
        #expect(transport.requests.count == 4)
        try await Task.sleep(for: .milliseconds(400))
        _ = try await session.basicPaymentProducts(for: contexts[0])  // expired
        #expect(transport.requests.count == 5)
        session.removeCachedResponses()
        _ = try await session.basicPaymentProducts(for: contexts[0])
        #expect(transport.requests.count == 6)
    }

    @Test("a disabled cache always calls")
    func disabled() async throws {
        let answers = Answers()
        answers.set("/products", 200, SessionFixtures.productList)
        let transport = InMemoryTransport { answers.answer($0) }
        let session = try ClientAPISession(
            sessionData: try SessionFixtures.sessionData(),
            configuration: SessionFixtures.configuration(cache: .disabled), transport: transport)
        for _ in 0..<3 { _ = try await session.basicPaymentProducts(for: try SessionFixtures.context()) }
        #expect(transport.requests.count == 3)
    }
}
