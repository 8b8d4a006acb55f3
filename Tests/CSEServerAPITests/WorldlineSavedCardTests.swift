import CSECore
import CSECrypto
@_spi(CustomTransport) import CSEHTTP
import CSEServerAPI
import Testing
import TestSupport

/// Issue #35, Worldline: card-on-file tokens (CreatePayment with `tokenize`, CreateToken,
/// GetToken, DeleteToken, payments with `cardPaymentMethodSpecificInput.token`, merchant-initiated
/// series) over real HTTP against the loopback emulator's token vault (research notes §1.3, §6.1).
@Suite("Worldline saved cards: tokenize, create, read, pay with and delete tokens against the emulator's vault")
struct WorldlineSavedCardTests {
    /// A compact JWE standing for `card` at the emulator (which holds no private key: the card's
    /// JSON is the ciphertext part, see server_api_worldline.py).
    static func jwe(card: String, expiry: String = "1230") -> String {
        let json = #"{"cardNumber":"\#(card)","expiryDate":"\#(expiry)"}"#
        return "eyJhbGciOiJSU0EtT0FFUC0yNTYiLCJlbmMiOiJBMjU2R0NNIn0.a2V5.aXY."
            + Base64.encode(Array(json.utf8), alphabet: .url, padding: false) + ".dGFn"
    }

    static func client(_ server: LoopbackEmulator) throws -> WorldlineServerClient { try ServerEmulatorTests.worldline(server) }

    /// The JSON body of the last request to `path`.
    static func lastBody(_ server: LoopbackEmulator, _ path: String) throws -> JSONValue {
        let request = try #require(try server.requests().last { $0.path == path })
        return try JSONValue.parse(request.body)
    }

    static let skip = try! WorldlineThreeDSecure(skipAuthentication: true)

    @Test("first payment saves the card (tokenize) → second payment with the token → delete → a payment with it refused")
    func saveDuringPaymentPayAgainDelete() async throws {
        try await withServerEmulator("worldline", ServerEmulatorTests.worldlineArguments) { server in
            let client = try Self.client(server)
            let first = try await client.createPayment(
                try WorldlinePaymentRequest(
                    encryptedCustomerInput: Self.jwe(card: "4012888888881881"), amount: 1000, currencyCode: "EUR",
                    merchantReference: "first-1", threeDSecure: Self.skip, tokenize: true)
            ).get()
            let saved = try #require(first.tokenization)
            #expect(saved.tokenizationSucceeded == true && saved.isNewToken == true)
            let token = try #require(saved.token)
            #expect(!first.description.contains(token) && !saved.description.contains(token))
            let sent = try Self.lastBody(server, "/v2/1234/payments")
            #expect(sent["cardPaymentMethodSpecificInput"]?["tokenize"] == .bool(true))
            #expect(sent["cardPaymentMethodSpecificInput"]?["threeDSecure"]?["skipAuthentication"] == .bool(true))

            let second = try await client.createPayment(
                try WorldlineTokenPaymentRequest(
                    token: token, amount: 500, currencyCode: "EUR", merchantReference: "second-1",
                    threeDSecure: try WorldlineThreeDSecure(returnURL: "https://shop.example/3ds"))
            ).get()
            #expect(second.status == "PENDING_CAPTURE" && second.maskedCardNumber == "401288******1881")
            let body = try Self.lastBody(server, "/v2/1234/payments")
            #expect(body["cardPaymentMethodSpecificInput"]?["token"]?.stringValue == token && body["encryptedCustomerInput"] == nil)

            let read = try await client.getToken(token)
            #expect(read.token == token && read.maskedCardNumber == "401288******1881" && read.brand == "visa")
            #expect(read.expiryDate == "1230" && read.paymentProductID == 1)

            try await client.deleteToken(token)
            let gone = await thrown { try await client.getToken(token) }
            #expect(gone?.code == .serverUnknownPayment)
            let again = await thrown { try await client.deleteToken(token) }
            #expect(again?.code == .serverUnknownPayment)
            let refused = await thrown {
                try await client.createPayment(
                    try WorldlineTokenPaymentRequest(token: token, amount: 500, currencyCode: "EUR", threeDSecure: Self.skip)
                ).get()
            }
            #expect(refused?.code == .serverUnknownPayment)
            #expect(refused.map { !$0.description.contains(token) } == true)
            let session = try await client.createSession(tokens: [token])
            #expect(session.invalidTokens == [token])
        }
    }

    @Test("a payment with a saved card keeps CreatePayment's rules: a lost answer is unknown, the same key replays it once")
    func savedCardPaymentIdempotence() async throws {
        try await withServerEmulator("worldline", ServerEmulatorTests.worldlineArguments) { server in
            let client = try Self.client(server)
            let token = try await client.createToken(
                try WorldlineTokenRequest(encryptedCustomerInput: Self.jwe(card: "4012888888881881"))
            ).get().token
            let request = try WorldlineTokenPaymentRequest(
                token: token, amount: 700, currencyCode: "EUR", merchantReference: "again-1", threeDSecure: Self.skip)
            let key = try IdempotenceKey("saved-card-key-1")
            try server.enqueue(.malformedBody.afterRoute().onPath("/v2/1234/payments"))
            guard case .unknown(let keys, _) = try await client.createPayment(request, idempotenceKey: key) else {
                Issue.record("a lost answer must be an unknown outcome")
                return
            }
            #expect(keys.idempotenceKey == key && keys.merchantReference == "again-1")
            let replayed = try await client.createPayment(request, idempotenceKey: key).get()
            let again = try await client.createPayment(request, idempotenceKey: key).get()
            #expect(replayed.id == again.id && replayed.status == "PENDING_CAPTURE")
            let sent = try server.requests().filter { $0.path == "/v2/1234/payments" }
            #expect(sent.count == 3 && sent.allSatisfy { $0.header("X-GCS-Idempotence-Key") == "saved-card-key-1" })
        }
    }

    @Test("CreateToken: a new card gives a new token; the same card again gives the same token with isNewToken false")
    func createTokenNewAndExisting() async throws {
        try await withServerEmulator("worldline", ServerEmulatorTests.worldlineArguments) { server in
            let client = try Self.client(server)
            let request = try WorldlineTokenRequest(encryptedCustomerInput: Self.jwe(card: "5555555555554444", expiry: "0828"))
            let created = try await client.createToken(request).get()
            #expect(created.isNewToken == true && created.status == "CREATED")
            #expect(created.maskedCardNumber == "555555******4444" && created.expiryDate == "0828")
            let repeated = try await client.createToken(request).get()
            #expect(repeated.isNewToken == false && repeated.token == created.token && repeated.status == "UNCHANGED")
            let read = try await client.getToken(created.token)
            #expect(read.brand == "mastercard")
            let log = try server.requests().filter { $0.path == "/v2/1234/tokens" }
            #expect(log.count == 2 && log.allSatisfy { $0.header("X-GCS-Idempotence-Key") == nil })
            Canary.check(created.description + repeated.description)
            #expect(!created.description.contains(created.token))
        }
    }

    @Test("CreateToken: a card the vault refuses is an error (nothing saved), never a crash or a token")
    func vaultRefusesCard() async throws {
        try await withServerEmulator("worldline", ServerEmulatorTests.worldlineArguments) { server in
            let client = try Self.client(server)
            let error = await thrown {
                try await client.createToken(try WorldlineTokenRequest(encryptedCustomerInput: Self.jwe(card: "4111111111111112"))).get()
            }
            #expect(error?.code == .worldlineAPIError && error?.context["propertyName"] == "card.cardNumber")
            #expect(error.map { !$0.description.contains("4111111111111112") } == true)
        }
    }

    @Test("CreateToken whose answer is lost: unknown; creating again with the same card settles it with the same token")
    func lostTokenCreateSettledByCreatingAgain() async throws {
        try await withServerEmulator("worldline", ServerEmulatorTests.worldlineArguments) { server in
            let client = try Self.client(server)
            let request = try WorldlineTokenRequest(encryptedCustomerInput: Self.jwe(card: "4012888888881881"))
            try server.enqueue(.drop.afterRoute().onPath("/v2/1234/tokens"))
            guard case .unknown(_, let error) = try await client.createToken(request) else {
                Issue.record("a lost answer must be an unknown outcome")
                return
            }
            #expect(error.code == .serverOutcomeUnknown)
            let settled = try await client.createToken(request).get()
            #expect(settled.isNewToken == false)
            let answer = try await HTTPClient().send(
                HTTPRequest(method: .get, url: try HTTPURL(server.baseURL + "/test/worldline-tokens")))
            #expect(try JSONValue.parse(answer.body)["tokens"] == .number("1"))
        }
    }

    @Test("CreateToken: a 5xx that is not retriable is unknown; an unreadable 2xx is unknown")
    func tokenCreateFaults() async throws {
        try await withServerEmulator("worldline", ServerEmulatorTests.worldlineArguments) { server in
            let client = try Self.client(server)
            let request = try WorldlineTokenRequest(encryptedCustomerInput: Self.jwe(card: "4012888888881881"))
            try server.enqueue(.json(500, #"{"errorId":"e","errors":[{"id":"PROCESSING_ERROR","httpStatusCode":500}]}"#))
            guard case .unknown = try await client.createToken(request) else {
                Issue.record("a 500 must be unknown")
                return
            }
            try server.enqueue(.malformedBody.afterRoute().onPath("/v2/1234/tokens"))
            guard case .unknown = try await client.createToken(request) else {
                Issue.record("an unreadable 2xx must be unknown")
                return
            }
        }
    }

    @Test("merchant-initiated series: the first payment (tokenize) marks the series; later ones use the token, skip 3-D Secure")
    func merchantInitiatedSeries() async throws {
        try await withServerEmulator("worldline", ServerEmulatorTests.worldlineArguments) { server in
            let client = try Self.client(server)
            let first = try await client.createPayment(
                try WorldlinePaymentRequest(
                    encryptedCustomerInput: Self.jwe(card: "4012888888881881"), amount: 999, currencyCode: "EUR",
                    threeDSecure: try WorldlineThreeDSecure(
                        returnURL: "https://shop.example/3ds", challengeIndicator: .challengeRequired),
                    tokenize: true, cardOnFile: try WorldlineCardOnFile(kind: .recurring, sequence: .first))
            )
            // challenge-required: the first payment is challenged (pending), and leaves no token.
            guard case .pending(let redirected, .redirect?, _) = first else {
                Issue.record("a challenged first payment must be pending with a redirect")
                return
            }
            #expect(redirected.status == "REDIRECTED" && redirected.tokenization?.tokenizationSucceeded == false)
            var sent = try Self.lastBody(server, "/v2/1234/payments")["cardPaymentMethodSpecificInput"]
            #expect(sent?["isRecurring"] == .bool(true) && sent?["recurring"]?["recurringPaymentSequenceIndicator"] == .string("first"))

            // The card is saved afterwards, and the series goes on with the token.
            let token = try await client.createToken(
                try WorldlineTokenRequest(encryptedCustomerInput: Self.jwe(card: "4012888888881881"))
            ).get().token
            for (kind, expected) in [
                (WorldlineCardOnFile.Kind.recurring, "recurring"), (.instalment, "recurring"), (.unscheduled, "subsequent"),
            ] {
                let payment = try await client.createPayment(
                    try WorldlineTokenPaymentRequest(
                        token: token, amount: 999, currencyCode: "EUR",
                        cardOnFile: try WorldlineCardOnFile(kind: kind, sequence: .subsequent, initialSchemeTransactionID: "abc123"))
                ).get()
                #expect(payment.status == "PENDING_CAPTURE" && payment.threeDSecureResults == nil)
                sent = try Self.lastBody(server, "/v2/1234/payments")["cardPaymentMethodSpecificInput"]
                #expect(sent?["threeDSecure"]?["skipAuthentication"] == .bool(true))
                #expect(sent?["threeDSecure"]?["redirectionData"] == nil && sent?["initialSchemeTransactionId"] == .string("abc123"))
                if kind == .unscheduled {
                    #expect(sent?["isRecurring"] == nil && sent?["unscheduledCardOnFileRequestor"] == .string("merchantInitiated"))
                    #expect(sent?["unscheduledCardOnFileSequenceIndicator"] == .string(expected))
                } else {
                    #expect(sent?["isRecurring"] == .bool(true))
                    #expect(sent?["recurring"]?["recurringPaymentSequenceIndicator"] == .string(expected))
                }
            }
        }
    }

    @Test("the request rules: a series starts with tokenize; a later payment is merchant-initiated without 3-D Secure choices")
    func requestRules() throws {
        let first = try WorldlineCardOnFile(kind: .unscheduled, sequence: .first)
        let later = try WorldlineCardOnFile(kind: .recurring, sequence: .subsequent)
        #expect(throws: CSEError.self) {
            try WorldlinePaymentRequest(encryptedCustomerInput: ServerEmulatorTests.jwe, amount: 1, currencyCode: "EUR", cardOnFile: first)
        }
        #expect(throws: CSEError.self) {
            try WorldlinePaymentRequest(
                encryptedCustomerInput: ServerEmulatorTests.jwe, amount: 1, currencyCode: "EUR", tokenize: true, cardOnFile: later)
        }
        #expect(throws: CSEError.self) { try WorldlineTokenPaymentRequest(token: "t-1", amount: 1, currencyCode: "EUR", cardOnFile: first) }
        #expect(throws: CSEError.self) {
            try WorldlineTokenPaymentRequest(
                token: "t-1", amount: 1, currencyCode: "EUR", threeDSecure: try WorldlineThreeDSecure(returnURL: "https://a.example/r"),
                cardOnFile: later)
        }
        #expect(throws: CSEError.self) { try WorldlineTokenPaymentRequest(token: "../x", amount: 1, currencyCode: "EUR") }
        #expect(throws: CSEError.self) { try WorldlineCardOnFile(kind: .recurring, sequence: .first, initialSchemeTransactionID: "x") }
        #expect(throws: CSEError.self) { try WorldlineTokenRequest(encryptedCustomerInput: "not-a-jwe") }
        let body = try WorldlinePaymentRequest(
            encryptedCustomerInput: ServerEmulatorTests.jwe, amount: 1, currencyCode: "EUR", tokenize: true, cardOnFile: first
        ).json.serialized
        #expect(body.contains(#""unscheduledCardOnFileRequestor":"cardholderInitiated""#))
        #expect(body.contains(#""unscheduledCardOnFileSequenceIndicator":"first""#) && !body.contains("isRecurring"))
        let token = try WorldlineTokenPaymentRequest(token: "secret-token-1", amount: 1, currencyCode: "EUR")
        #expect(!token.description.contains("secret-token-1"))
    }

    /// V-WL-5 and V-WL-6 (research notes §5): the v1HMAC signatures of CreateToken (no idempotence
    /// key among the signed headers) and DeleteToken (no Content-Type, no body).
    @Test(
        "V-WL-5, V-WL-6: the signatures of CreateToken and DeleteToken",
        arguments: [
            (
                "POST\napplication/json\nFri, 06 Jun 2014 13:39:43 GMT\nx-gcs-servermetainfo:eyJzZGtJZGVudGlmaWVyIjoiQ1NFS2l0L3YxLjAuMCJ9\n"
                    + "/v2/1/tokens\n", "BQSucsTUVINzY/2jfWW+tcWg1EKsitXZy90nt3KpiYs="
            ),
            (
                "DELETE\n\nFri, 06 Jun 2014 13:39:43 GMT\nx-gcs-servermetainfo:eyJzZGtJZGVudGlmaWVyIjoiQ1NFS2l0L3YxLjAuMCJ9\n"
                    + "/v2/1/tokens/0ae1a9a5-8d4b-4a53-9d0d-5c0a0a3c7d11\n", "uV0SxoL4TQjmvPPBSmspRemYTS24g28rJFTrWV8ARKI="
            ),
        ])
    func knownAnswers(text: String, expected: String) throws {
        #expect(try WorldlineSignature.signature(of: text, secret: secret("secretApiKey")) == expected)
    }

    @Test("the client's own CreateToken and DeleteToken requests have the shapes V-WL-5 and V-WL-6 sign")
    func requestShapesOfTheVectors() async throws {
        try await withServerEmulator("worldline", ServerEmulatorTests.worldlineArguments) { server in
            let client = try Self.client(server)
            let token = try await client.createToken(
                try WorldlineTokenRequest(encryptedCustomerInput: Self.jwe(card: "4012888888881881"))
            ).get().token
            try await client.deleteToken(token)
            let log = try server.requests()
            let create = try #require(log.first { $0.path == "/v2/1234/tokens" })
            #expect(create.method == "POST" && create.header("Content-Type") == "application/json")
            #expect(create.header("X-GCS-Idempotence-Key") == nil)
            let delete = try #require(log.first { $0.method == "DELETE" })
            #expect(delete.path == "/v2/1234/tokens/" + token && delete.header("Content-Type") == nil && delete.body.isEmpty)
        }
    }
}
