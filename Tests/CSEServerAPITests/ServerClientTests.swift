import CSECore
import CSECrypto
import CSEGateways
@_spi(CustomTransport) import CSEHTTP
import CSEServerAPI
import Testing

@Suite("The server calls over an in-memory transport: request shapes, decoding and error mapping")
struct ServerClientTests {
    static let jwe = "eyJhbGciOiJSU0EtT0FFUC0yNTYiLCJlbmMiOiJBMjU2R0NNIn0.a2V5.aXY.Y2lwaGVy.dGFn"

    func worldline(_ transport: RecordingTransport) throws -> WorldlineServerClient {
        let credentials = try WorldlineServerCredentials(
            merchantID: "1234", apiKeyID: "5e45c937b9db33ae", secretAPIKey: secret("I42Zf4pVnRdroHfuHnRiJjJ2B6+22h0yQt/R3nZR8Xg="))
        return WorldlineServerClient(
            credentials: credentials, environment: .worldlinePreproduction,
            http: try client(transport))
    }

    @Test("CreateSession posts {tokens} to /v2/{merchantId}/sessions, signed, and decodes the session")
    func createSession() async throws {
        let transport = RecordingTransport(
            status: 201,
            json:
                #"{"assetUrl":"https://assets.example/","clientApiUrl":"https://client.example/client","clientSessionId":"68a4b0b183a34016b4b694b97938f75b","customerId":"cf7d7aafd42e4a1cb9e4b0624a5041b1","invalidTokens":["t2"]}"#
        )
        let session = try await worldline(transport).createSession(tokens: ["t1", "t2"])
        #expect(session.customerID == "cf7d7aafd42e4a1cb9e4b0624a5041b1" && session.invalidTokens == ["t2"])
        #expect(
            !session.description.contains("68a4b0b183a34016b4b694b97938f75b") && session.clientAPIURL == "https://client.example/client")
        let request = try #require(transport.requests.first)
        #expect(request.method == .post && request.url.path == "/v2/1234/sessions")
        #expect(String(decoding: request.body, as: UTF8.self) == #"{"tokens":["t1","t2"]}"#)
        // The Authorization header is recomputed here from the request as sent.
        let text = WorldlineSignature.stringToSign(
            method: "POST", headers: headerPairs(request.headers), path: request.url.path, query: request.url.query)
        let expected = try WorldlineSignature.signature(of: text, secret: secret("I42Zf4pVnRdroHfuHnRiJjJ2B6+22h0yQt/R3nZR8Xg="))
        #expect(request.headers["Authorization"] == "GCS v1HMAC:5e45c937b9db33ae:" + expected)
        #expect(request.headers["Date"]?.hasSuffix("GMT") == true)
    }

    @Test("CreatePayment posts encryptedCustomerInput and order.amountOfMoney/references, and decodes id and status")
    func createPayment() async throws {
        let transport = RecordingTransport(
            status: 201,
            json:
                #"{"creationOutput":{},"payment":{"id":"3066019730_0","paymentOutput":{"amountOfMoney":{"amount":2345,"currencyCode":"EUR"},"references":{"merchantReference":"order-1"},"cardPaymentMethodSpecificOutput":{"card":{"cardNumber":"4111111111111111","expiryDate":"1230"}}},"status":"PENDING_CAPTURE","statusOutput":{"statusCategory":"PENDING_MERCHANT","statusCode":5,"isAuthorized":true}}}"#
        )
        let payment = try await worldline(transport).createPayment(
            try WorldlinePaymentRequest(encryptedCustomerInput: Self.jwe, amount: 2345, currencyCode: "EUR", merchantReference: "order-1")
        ).get()
        #expect(payment.id == "3066019730_0" && payment.status == "PENDING_CAPTURE" && payment.statusCode == 5)
        #expect(payment.maskedCardNumber == "411111******1111")
        #expect(!payment.json.serialized.contains("4111111111111111"))
        let request = try #require(transport.requests.first)
        #expect(request.url.path == "/v2/1234/payments")
        #expect(
            String(decoding: request.body, as: UTF8.self)
                == #"{"encryptedCustomerInput":"\#(Self.jwe)","order":{"amountOfMoney":{"amount":2345,"currencyCode":"EUR"},"references":{"merchantReference":"order-1"}}}"#
        )
    }

    @Test(
        "Worldline error bodies map to typed errors: 402 with paymentResult, 400 errors[], 401; a non-JSON 500 is an unknown outcome")
    func worldlineErrors() async throws {
        let cases: [(Int, String, CSEError.Code)] = [
            (
                402,
                #"{"errorId":"e1","errors":[{"code":"21000020","message":"VALUE 4111111111111111 OF FIELD CREDITCARDNUMBER DID NOT PASS THE LUHNCHECK"}],"paymentResult":{"payment":{"id":"1_0","status":"REJECTED"}}}"#,
                .worldlinePaymentRejected
            ),
            (
                400,
                #"{"errorId":"e2","errors":[{"errorCode":50001130,"id":"UNKNOWN_PAYMENT_ID","propertyName":"paymentId","message":"x"}]}"#,
                .worldlineAPIError
            ),
            (401, #"{"errorId":"e3","errors":[{"id":"MISSING_OR_INVALID_AUTHORIZATION"}]}"#, .serverAPIAuthenticationFailed),
            (500, "<html>oops</html>", .serverOutcomeUnknown),
        ]
        for (status, body, code) in cases {
            do {
                _ = try await worldline(RecordingTransport(status: status, json: body)).createPayment(
                    try WorldlinePaymentRequest(encryptedCustomerInput: Self.jwe, amount: 1, currencyCode: "EUR")
                ).get()
                Issue.record("no error for \(status)")
            } catch let error as CSEError {
                #expect(error.code == code, "\(status)")
                if code == .serverOutcomeUnknown { #expect(error.underlying?.code == .serverAPIUnexpectedStatus) }
                #expect(!error.description.contains("4111111111111111"))
            }
        }
    }

    @Test("a 2xx body without payment.id is an unknown outcome, caused by an invalid response naming the member")
    func missingPaymentID() async throws {
        do {
            _ = try await worldline(RecordingTransport(status: 201, json: #"{"payment":{"status":"CREATED"}}"#)).createPayment(
                try WorldlinePaymentRequest(encryptedCustomerInput: Self.jwe, amount: 1, currencyCode: "EUR")
            ).get()
            Issue.record("accepted")
        } catch let error as CSEError {
            #expect(error.code == .serverOutcomeUnknown && error.context["idempotenceKey"]?.count == 36)
            #expect(error.underlying?.code == .serverAPIInvalidResponse && error.underlying?.context["member"] == "payment.id")
        }
    }

    @Test(
        "payment requests are checked: a compact JWE, amount range, currency (in the ISO 4217 table, with minor units), reference length",
        arguments: [
            ("not-a-jwe", Int64(1), "EUR", nil as String?), (jwe, -1, "EUR", nil), (jwe, 1_000_000_000_000, "EUR", nil),
            (jwe, 1, "eur", nil), (jwe, 1, "EURO", nil), (jwe, 1, "XYZ", nil), (jwe, 1, "XXX", nil),
            (jwe, 1, "EUR", String(repeating: "r", count: 41)), (jwe, 1, "EUR", ""),
        ])
    func paymentRequestChecks(input: String, amount: Int64, currency: String, reference: String?) {
        #expect(throws: CSEError(.serverAPIInvalidArgument, "")) {
            _ = try WorldlinePaymentRequest(
                encryptedCustomerInput: input, amount: amount, currencyCode: currency, merchantReference: reference)
        }
    }

    // MARK: Mastercard

    func mastercard(_ transport: RecordingTransport, version: Int = 73) throws -> MastercardSessionClient {
        let credentials = try MastercardCredentials(merchantID: "TEST_12345", apiPassword: secret("s3cr3t-pw"))
        return try MastercardSessionClient(
            credentials: credentials, environment: .mastercard(.mtf), apiVersion: version, http: try client(transport))
    }

    @Test("Mastercard create/update/retrieve use the documented paths and Basic merchant.<id>:<password>")
    func mastercardCalls() async throws {
        let created =
            #"{"merchant":"TEST_12345","result":"SUCCESS","session":{"aes256Key":"abc","authenticationLimit":5,"id":"SESSION0000000000000000000000","updateStatus":"NO_UPDATE","version":"abcdef0123"}}"#
        let updated =
            #"{"merchant":"TEST_12345","session":{"id":"SESSION0000000000000000000000","updateStatus":"SUCCESS","version":"1"},"sourceOfFunds":{"provided":{"card":{"number":"5123450000000008","securityCode":"123","expiry":{"month":"1","year":"39"}}},"type":"CARD"}}"#
        let transport = RecordingTransport([
            .success(HTTPResponse(status: 201, headers: [:], body: Array(created.utf8))),
            .success(HTTPResponse(status: 200, headers: [:], body: Array(updated.utf8))),
            .success(HTTPResponse(status: 200, headers: [:], body: Array(updated.utf8))),
        ])
        let api = try mastercard(transport)
        let session = try await api.createSession(authenticationLimit: 5)
        #expect(session.id == "SESSION0000000000000000000000" && session.updateStatus == "NO_UPDATE" && session.authenticationLimit == 5)
        var update = GatewayMap()
        try update.set("5123450000000008", at: "sourceOfFunds.provided.card.number")
        try update.set("123", at: "sourceOfFunds.provided.card.securityCode")
        try update.set("01", at: "sourceOfFunds.provided.card.expiry.month")
        try update.set("39", at: "sourceOfFunds.provided.card.expiry.year")
        let after = try await api.updateSession(id: session.id, with: update)
        #expect(after.updateStatus == "SUCCESS")
        let masked = String(decoding: after.maskedJSON, as: UTF8.self)
        #expect(masked.contains("512345******0008") && !masked.contains("5123450000000008") && !masked.contains("securityCode"))
        _ = try await api.retrieveSession(id: session.id)
        let requests = transport.requests
        #expect(requests.map(\.method) == [.post, .put, .get])
        #expect(requests[0].url.absoluteString == "https://mtf.gateway.mastercard.com/api/rest/version/73/merchant/TEST_12345/session")
        #expect(requests[1].url.path == "/api/rest/version/73/merchant/TEST_12345/session/SESSION0000000000000000000000")
        #expect(String(decoding: requests[0].body, as: UTF8.self) == #"{"session":{"authenticationLimit":5}}"#)
        // base64("merchant.TEST_12345:s3cr3t-pw"), computed with Python's base64 module.
        #expect(requests.allSatisfy { $0.headers["Authorization"] == "Basic bWVyY2hhbnQuVEVTVF8xMjM0NTpzM2NyM3QtcHc=" })
    }

    @Test("an update that fails the GatewayMap checks is refused before any request")
    func mastercardInvalidUpdate() async throws {
        let transport = RecordingTransport([])
        var update = GatewayMap()
        try update.set("4111111111111112", at: "sourceOfFunds.provided.card.number")
        do {
            _ = try await mastercard(transport).updateSession(id: "SESSION0000000000000000000000", with: update)
            Issue.record("accepted")
        } catch let error as CSEError {
            #expect(error.code == .mastercardInvalidUpdate)
            #expect(error.context["fields"]?.contains("sourceOfFunds.provided.card.number") == true)
            #expect(!error.description.contains("4111111111111112"))
        }
        #expect(transport.requests.isEmpty)
    }

    @Test(
        "result ERROR maps error.cause to a typed error with explanation and field",
        arguments: [
            ("INVALID_REQUEST", CSEError.Code.mastercardInvalidRequest), ("REQUEST_REJECTED", .mastercardRequestRejected),
            ("SERVER_BUSY", .mastercardServerBusy), ("SERVER_FAILED", .mastercardServerFailed), ("OTHER", .mastercardError),
        ])
    func mastercardErrors(cause: String, code: CSEError.Code) async throws {
        let body =
            #"{"error":{"cause":"\#(cause)","explanation":"Value '4111111111111111' is invalid","field":"session.authenticationLimit","validationType":"INVALID"},"result":"ERROR"}"#
        do {
            _ = try await mastercard(RecordingTransport(status: 400, json: body)).createSession()
            Issue.record("accepted")
        } catch let error as CSEError {
            #expect(error.code == code)
            #expect(error.context["field"] == "session.authenticationLimit")
            #expect(!error.description.contains("4111111111111111"))
        }
    }

    @Test("API versions below 39 and unknown regions are refused")
    func mastercardArguments() throws {
        #expect(throws: CSEError(.serverAPIInvalidArgument, "")) { _ = try mastercard(RecordingTransport([]), version: 38) }
        #expect(throws: CSEError(.serverAPIInvalidArgument, "")) { _ = try MastercardRegion(name: "xx") }
        #expect(ServerEnvironment.mastercard(try MastercardRegion(name: "KSA")).description == "https://ksa.gateway.mastercard.com")
    }

    @Test(
        "Each platform's environments are the documented origins, and a custom origin has no path, no query and no plain http off loopback")
    func environments() throws {
        let presets: [(ServerEnvironment, String)] = [
            (.worldlineProduction, "https://payment.direct.worldline-solutions.com"),
            (.worldlinePreproduction, "https://payment.preprod.direct.worldline-solutions.com"),
            (.apsProduction, "https://paymentservices.payfort.com"), (.apsTest, "https://sbpaymentservices.payfort.com"),
            (.paysafeProduction, "https://api.paysafe.com"), (.paysafeTest, "https://api.test.paysafe.com"),
            (.mastercard(.mtf), "https://mtf.gateway.mastercard.com"), (.mastercard(.europe), "https://eu.gateway.mastercard.com"),
        ]
        for (environment, origin) in presets {
            #expect(environment.description == origin)
            // The preset is the URL the parser would read from its text.
            #expect(environment == (try ServerEnvironment(origin: origin)))
        }
        #expect(try ServerEnvironment(origin: "http://127.0.0.1:8080/").description == "http://127.0.0.1:8080")
        #expect(throws: CSEError(.httpInvalidURL, "")) { try ServerEnvironment(origin: "https://api.paysafe.com/paymenthub") }
        #expect(throws: CSEError(.httpInvalidURL, "")) { try ServerEnvironment(origin: "https://api.paysafe.com?x=1") }
        #expect(throws: CSEError(.httpInsecureURL, "")) { try ServerEnvironment(origin: "http://api.paysafe.com") }
    }

    // MARK: Paysafe

    @Test("Paysafe posts {card} to /customervault/v1/singleusetokens with Basic <apiKey> and decodes token, TTL and masked card")
    func paysafe() async throws {
        let transport = RecordingTransport(
            status: 200,
            json:
                #"{"id":"b1b2","paymentToken":"SCO0Jpx0ZfBkF5y","timeToLiveSeconds":899,"card":{"cardBin":"453091","lastDigits":"2345","cardExpiry":{"month":12,"year":2030},"cardType":"VI"}}"#
        )
        let api = PaysafeTokenClient(
            credentials: try PaysafeCredentials(apiKey: secret("dXNlcjpwYXNz")), environment: .paysafeTest,
            http: try client(transport))
        let card = JSONObject([
            ("cardNum", .string("4530910000012345")),
            ("cardExpiry", .object(JSONObject([("month", .number("12")), ("year", .number("2030"))]))),
        ])
        let token = try await api.createSingleUseToken(card: card)
        #expect(token.paymentToken == "SCO0Jpx0ZfBkF5y" && token.timeToLiveSeconds == 899 && token.maskedCard == "453091******2345")
        let request = try #require(transport.requests.first)
        #expect(request.url.absoluteString == "https://api.test.paysafe.com/customervault/v1/singleusetokens")
        #expect(request.headers["Authorization"] == "Basic dXNlcjpwYXNz")
    }

    @Test("Paysafe error bodies map to paysafe.apiError with code and fields; 401 to authenticationFailed")
    func paysafeErrors() async throws {
        let card = JSONObject([
            ("cardNum", .string("4530910000012345")),
            ("cardExpiry", .object(JSONObject([("month", .number("12")), ("year", .number("2030"))]))),
        ])
        for (status, code) in [(400, CSEError.Code.paysafeAPIError), (401, .serverAPIAuthenticationFailed)] {
            let transport = RecordingTransport(
                status: status,
                json: #"{"error":{"code":"5068","message":"Field error(s)","fieldErrors":[{"field":"card.cardNum","error":"invalid"}]}}"#)
            let api = PaysafeTokenClient(
                credentials: try PaysafeCredentials(apiKey: secret("dXNlcjpwYXNz")), environment: .paysafeTest,
                http: try client(transport))
            do {
                _ = try await api.createSingleUseToken(card: card)
                Issue.record("accepted")
            } catch {
                #expect(error.code == code)
                #expect(error.context["paysafeCode"] == "5068" && error.context["fields"] == "card.cardNum")
            }
        }
    }

    @Test("platform errors redact card numbers with any separator, Basic credentials and the caller's secrets (issue #24 point 9)")
    func platformErrorRedaction() async throws {
        let password = "s3cr3t-api-password"
        // Mastercard: the explanation echoes the card with dots and slashes, the API password and a Basic header.
        let body =
            #"{"error":{"cause":"INVALID_REQUEST","explanation":"card 4111.1111.1111.1111 / 4111_1111_1111_1111 password \#(password) Authorization: Basic bWVyY2hhbnQuVEVTVDpzM2NyM3Q=","field":"4111/1111/1111/1111"},"result":"ERROR"}"#
        let credentials = try MastercardCredentials(merchantID: "TEST", apiPassword: secret(password))
        let mastercard = try MastercardSessionClient(
            credentials: credentials, environment: try ServerEnvironment(origin: "https://ap-gateway.mastercard.com"), apiVersion: 73,
            http: try client(RecordingTransport(status: 400, json: body)))
        let mastercardError = await Self.failure { () async throws(CSEError) in _ = try await mastercard.createSession() }
        let text = mastercardError.map { String(describing: $0) + $0.context.values.joined() } ?? ""
        #expect(mastercardError != nil)
        #expect(!text.contains("4111") && !text.contains("1111"), "\(text)")
        #expect(!text.contains(password) && !text.contains("bWVyY2hhbnQuVEVTVDpzM2NyM3Q="), "\(text)")
        #expect(mastercardError?.context["explanation"]?.contains("password <redacted>") == true, "\(text)")
        #expect(mastercardError?.context["explanation"]?.contains("Basic <redacted>") == true, "\(text)")
        // Worldline: the secret API key echoed in a message, a card number with underscores in the errorId.
        let key = "I42Zf4pVnRdroHfuHnRiJjJ2B6+22h0yQt/R3nZR8Xg="
        let worldlineBody =
            #"{"errorId":"4111_1111_1111_1111","errors":[{"errorCode":"50001111","id":"X","message":"key \#(key) is wrong for 4111.1111.1111.1111"}]}"#
        let worldline = try worldline(RecordingTransport(status: 400, json: worldlineBody))
        let worldlineError = await Self.failure { () async throws(CSEError) in _ = try await worldline.createSession(tokens: []) }
        let worldlineText = worldlineError.map { String(describing: $0) + $0.context.values.joined() } ?? ""
        #expect(worldlineError != nil)
        #expect(!worldlineText.contains("4111") && !worldlineText.contains(key), "\(worldlineText)")
    }

    /// The error `body` throws, or `nil`.
    static func failure(_ body: () async throws(CSEError) -> Void) async -> CSEError? {
        do throws(CSEError) {
            try await body()
            return nil
        } catch {
            return error
        }
    }

    @Test("the SafeText filter redacts digit runs of 12 or more (the one rule) and keeps short numbers")
    func safeText() async throws {
        // Through an error context: a Mastercard explanation echoing a card number.
        let body = #"{"error":{"cause":"INVALID_REQUEST","explanation":"card 4111 1111 1111 1111 code 123 ref 1234567"},"result":"ERROR"}"#
        do {
            _ = try await mastercard(RecordingTransport(status: 400, json: body)).createSession()
        } catch let error as CSEError {
            #expect(error.context["explanation"] == "card <redacted 19 chars> code 123 ref 1234567")
        }
    }
}
