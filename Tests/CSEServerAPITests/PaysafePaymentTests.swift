import CSECore
import CSEHTTP
import CSEServerAPI
import CSEValidation
import Testing
import TestSupport

/// Paysafe payments on its two APIs, kept apart (research notes §4), end to end against the
/// loopback emulator, which checks Basic authentication and the bodies, and refuses a merchant
/// reference used before (dupCheck).
@Suite("Paysafe payments: a payment handle or a card token, three outcomes, a reused reference settled by lookup")
struct PaysafePaymentTests {
    /// Each key opens its own API: the single-use-token key the Customer Vault, the
    /// server-to-server key the payments.
    static let arguments = ["--api-key", Canary.paysafeKey, "--payments-key", Canary.paysafePaymentsKey]

    static func client(
        _ server: LoopbackEmulator, key: String = Canary.paysafePaymentsKey, http: HTTPClient? = nil
    ) throws
        -> PaysafePaymentClient
    {
        PaysafePaymentClient(
            credentials: try PaysafeCredentials(apiKey: secret(key)),
            environment: try ServerEnvironment(origin: server.baseURL),
            http: try http ?? realClient())
    }

    static func handlePayment(_ reference: String = "order-1", amount: Int64 = 2345) throws -> PaysafePaymentRequest {
        try PaysafePaymentRequest(
            merchantReference: reference, amount: amount, currency: Currency(code: "EUR")!, source: .paymentHandle("SCp7iW4xTkmN3Bq"))
    }

    @Test("each key opens its own API: the single-use-token key takes no payment, the payments key makes no token; nothing is taken")
    func keyKinds() async throws {
        try await withServerEmulator("paysafe", Self.arguments) { server in
            let wrongKey = await thrown { try await Self.client(server, key: Canary.paysafeKey).pay(try Self.handlePayment()) }
            #expect(wrongKey?.code == .serverAPIAuthenticationFailed && wrongKey?.context["paysafeCode"] == "5279")
            let tokenWithPaymentsKey = await thrown {
                try await ServerEmulatorTests.paysafe(server, key: Canary.paysafePaymentsKey).createSingleUseToken(
                    card: ServerEmulatorTests.card(Canary.pan))
            }
            #expect(tokenWithPaymentsKey?.code == .serverAPIAuthenticationFailed)
            // The right key for each: a token, then a payment with it, then nothing more was taken.
            let token = try await ServerEmulatorTests.paysafe(server).createSingleUseToken(card: ServerEmulatorTests.card(Canary.pan))
            let request = try PaysafePaymentRequest(
                merchantReference: "keys-1", amount: 100, currency: Currency(code: "EUR")!,
                source: .cardToken(token.paymentToken, accountID: "1001234567"))
            #expect(try await Self.client(server).pay(request).get().isCompleted)
            #expect(try await Self.client(server).payments(merchantReference: "order-1", accountID: nil).isEmpty)
            for error in [wrongKey, tokenWithPaymentsKey] { Canary.check(error.map { "\($0)" + $0.debugDescription } ?? "") }
        }
    }

    @Test("a payment handle goes to the Payments API with dupCheck on; COMPLETED succeeds with the card's last digits only")
    func paymentHandle() async throws {
        try await withServerEmulator("paysafe", Self.arguments) { server in
            let payment = try await Self.client(server).pay(try Self.handlePayment()).get()
            #expect(payment.isCompleted && payment.merchantReference == "order-1" && payment.amount == 2345 && payment.lastDigits == "1111")
            let log = try server.requests()
            #expect(log.map(\.path) == ["/paymenthub/v1/payments"])
            let sent = try JSONValue.parse(Array(log[0].body))
            #expect(sent["dupCheck"] == .bool(true) && sent["amount"]?.intValue == 2345 && sent["currencyCode"]?.stringValue == "EUR")
            #expect(sent["paymentHandleToken"]?.stringValue == "SCp7iW4xTkmN3Bq" && sent["settleWithAuth"] == .bool(true))
            Canary.check(payment.description + payment.json.serialized)
        }
    }

    @Test("a single-use card token goes to the Card Payments API of its account")
    func cardToken() async throws {
        try await withServerEmulator("paysafe", Self.arguments) { server in
            let token = try await ServerEmulatorTests.paysafe(server).createSingleUseToken(card: ServerEmulatorTests.card(Canary.pan))
            let request = try PaysafePaymentRequest(
                merchantReference: "order-2", amount: 100, currency: Currency(code: "EUR")!,
                source: .cardToken(token.paymentToken, accountID: "1001234567"), settleWithAuthorization: false)
            let payment = try await Self.client(server).pay(request).get()
            #expect(payment.isCompleted && payment.authorizationCode == "222222")
            let last = try #require(server.requests().last)
            #expect(last.path == "/cardpayments/v1/accounts/1001234567/auths")
            let sent = try JSONValue.parse(Array(last.body))
            #expect(sent["card"]?["paymentToken"]?.stringValue == token.paymentToken && sent["settleWithAuth"] == .bool(false))
            #expect(!request.description.contains(token.paymentToken))
        }
    }

    @Test("a reference used before (409) is the first payment's outcome after a lookup, never a failure")
    func duplicateReference() async throws {
        try await withServerEmulator("paysafe", Self.arguments) { server in
            let client = try Self.client(server)
            let first = try await client.pay(try Self.handlePayment()).get()
            let again = try await client.pay(try Self.handlePayment())
            guard case .succeeded(let found, _) = again else {
                Issue.record("the repeat is not the first payment's success")
                return
            }
            #expect(found.id == first.id)
            #expect(try await client.payments(merchantReference: "order-1").count == 1)
            #expect(try server.requests().map(\.method) == ["POST", "POST", "GET", "GET"])
            // The same reference for another amount is another order's: this one took nothing.
            let error = await thrown { try await client.pay(try Self.handlePayment(amount: 999)) }
            #expect(error?.code == .serverReferenceInUse && error?.context["merchantReference"] == "order-1")
            #expect(try await client.payments(merchantReference: "order-1").count == 1)
        }
    }

    @Test("the answer is lost after the payment was taken: unknown naming the reference; the lookup finds it and a retry creates nothing")
    func lostAnswer() async throws {
        try await withServerEmulator("paysafe", Self.arguments) { server in
            try server.enqueue(LoopbackEmulator.Fault.delay(milliseconds: 2500).afterRoute().onPath("/paymenthub/v1/payments"))
            let client = try Self.client(server, http: try realClient(requestTimeout: .seconds(1)))
            guard case .unknown(let keys, let error) = try await client.pay(try Self.handlePayment()) else {
                Issue.record("not unknown")
                return
            }
            #expect(keys == PaymentReconciliation(merchantReference: "order-1") && error.context["merchantReference"] == "order-1")
            #expect(error.underlying?.code == .httpTimeout)
            let found = try await client.payments(merchantReference: "order-1")
            #expect(found.count == 1 && found[0].isCompleted)
            // A POST is never repeated by the transport; the caller's retry meets dupCheck and gets the first payment.
            #expect(try await client.pay(try Self.handlePayment()).get().id == found[0].id)
            #expect(try await client.payments(merchantReference: "order-1").count == 1)
        }
    }

    @Test("402 is a refusal with the declined payment; PROCESSING is pending (issue #34); a 5xx is unknown; 400 and 401 throw")
    func outcomes() async throws {
        try await withServerEmulator("paysafe", Self.arguments + ["--mode", "decline"]) { server in
            guard case .refused(let payment?, let error) = try await Self.client(server).pay(try Self.handlePayment()) else {
                Issue.record("not refused")
                return
            }
            #expect(payment.status == "FAILED" && error.code == .paysafePaymentDeclined && error.context["paysafeCode"] == "3009")
        }
        try await withServerEmulator("paysafe", Self.arguments + ["--mode", "pending"]) { server in
            guard case .pending(let payment, nil, let keys) = try await Self.client(server).pay(try Self.handlePayment()) else {
                Issue.record("not pending")
                return
            }
            #expect(payment.isPending && payment.status == "PROCESSING" && keys.paymentID == payment.id)
        }
        try await withServerEmulator("paysafe", Self.arguments) { server in
            try server.enqueue(.json(503, #"{"error":{"code":"1000","message":"Internal error"}}"#).onPath("/paymenthub"))
            guard case .unknown = try await Self.client(server).pay(try Self.handlePayment()) else {
                Issue.record("503 not unknown")
                return
            }
            #expect(try server.requests().count == 1, "a POST is not repeated")
            let wrong = PaysafePaymentClient(
                credentials: try PaysafeCredentials(apiKey: secret(Base64.encode(Array("other:key".utf8)))),
                environment: try ServerEnvironment(origin: server.baseURL), http: try realClient())
            let refused = await thrown { try await wrong.pay(try Self.handlePayment("order-9")) }
            #expect(refused?.code == .serverAPIAuthenticationFailed)
            let card = try PaysafePaymentRequest(
                merchantReference: "order-3", amount: 1, currency: Currency(code: "EUR")!, source: .cardToken("SCunknown", accountID: "1"))
            let invalid = await thrown { try await Self.client(server).pay(card) }
            #expect(invalid?.code == .paysafeAPIError && invalid?.context["fields"] == "card.paymentToken")
        }
    }

    @Test("Apple Pay (encrypted or decrypted) and Google Pay tokens become single-use tokens that pay on the Card Payments API")
    func walletTokens() async throws {
        try await withServerEmulator("paysafe", Self.arguments) { server in
            let tokens = try ServerEmulatorTests.paysafe(server)
            let google = Array(
                #"{"apiVersion":2,"paymentMethodData":{"tokenizationData":{"type":"PAYMENT_GATEWAY","token":"{\"signature\":\"MEUC\",\"protocolVersion\":\"ECv2\",\"signedMessage\":\"{}\",\"intermediateSigningKey\":{\"signedKey\":\"k\",\"signatures\":[\"s\"]}}"}}}"#
                    .utf8)
            let googleToken = try await tokens.createGooglePaySingleUseToken(token: google)
            let sent = try JSONValue.parse(Array(try #require(server.requests().last).body))
            #expect(sent["googlePayPaymentToken"]?["protocolVersion"]?.stringValue == "ECv2")
            #expect(sent["googlePayPaymentToken"]?["intermediateSigningKey"]?["signedKey"]?.stringValue == "k")
            #expect(googleToken.maskedCard == "489537******3478" && googleToken.timeToLiveSeconds == 899)
            let apple = try await tokens.createApplePaySingleUseToken(
                token: Array(
                    #"{"token":{"paymentData":{"version":"EC_v1","data":"ZA==","signature":"cw==","header":{"transactionId":"ab"}},"paymentMethod":{"network":"Visa"},"transactionIdentifier":"ab"},"billingContact":{"countryCode":"NL"}}"#
                        .utf8))
            let appleSent = try JSONValue.parse(Array(try #require(server.requests().last).body))
            #expect(appleSent["applePayPaymentToken"]?["billingContact"]?["countryCode"]?.stringValue == "NL")
            #expect(appleSent["applePayPaymentToken"]?["token"]?["paymentData"]?["version"]?.stringValue == "EC_v1")
            let decrypted = try await tokens.createApplePaySingleUseToken(
                token: Array("{}".utf8),
                decrypted: Array(
                    #"{"applicationPrimaryAccountNumber":"4109370251004320","applicationExpirationDate":"291231","paymentData":{"onlinePaymentCryptogram":"Af9x"}}"#
                        .utf8))
            let decryptedSent = try JSONValue.parse(Array(try #require(server.requests().last).body))
            #expect(decryptedSent["applePayPaymentToken"]?["token"]?["paymentData"]?.objectValue?.keys == ["decryptedData"])
            // Each token pays once on the Card Payments API.
            for (n, token) in [googleToken, apple, decrypted].enumerated() {
                let request = try PaysafePaymentRequest(
                    merchantReference: "wallet-\(n)", amount: 500, currency: Currency(code: "EUR")!,
                    source: .cardToken(token.paymentToken, accountID: "1001234567"))
                #expect(try await Self.client(server).pay(request).get().isCompleted)
            }
            let incomplete = await thrown {
                try await tokens.createGooglePaySingleUseToken(token: JSONObject([("signature", .string("x"))]))
            }
            #expect(incomplete?.code == .serverAPIInvalidArgument && incomplete?.context["argument"] == "protocolVersion")
        }
    }

    @Test("an error that echoes decrypted Apple Pay data shows neither the DPAN, nor the cryptogram, nor the name")
    func decryptedDataRedacted() async throws {
        try await withServerEmulator("paysafe", Self.arguments + ["--mode", "echo-errors"]) { server in
            let decrypted = try JSONValue.parse(
                Array(
                    #"{"applicationPrimaryAccountNumber":"4109370251004320","cardholderName":"A Payer","paymentData":{"onlinePaymentCryptogram":"Af9x/QwAA/DjmU65oyc1MAABAAA="}}"#
                        .utf8)
            ).objectValue!
            let error = await thrown {
                try await ServerEmulatorTests.paysafe(server).createApplePaySingleUseToken(token: JSONObject(), decrypted: decrypted)
            }
            #expect(error?.code == .paysafeAPIError && error?.context["message"]?.hasPrefix("Invalid data") == true)
            for value in ["4109370251004320", "Af9x/QwAA/DjmU65oyc1MAABAAA=", "A Payer"] {
                #expect(error?.description.contains(value) == false, "leaked \(value)")
            }
        }
    }

    @Test("requests are checked before sending: reference, amount, currency, token, account")
    func requestChecks() {
        let eur = Currency(code: "EUR")!
        let cases: [() throws -> PaysafePaymentRequest] = [
            { try PaysafePaymentRequest(merchantReference: "", amount: 1, currency: eur, source: .paymentHandle("h")) },
            { try PaysafePaymentRequest(merchantReference: "r\n", amount: 1, currency: eur, source: .paymentHandle("h")) },
            { try PaysafePaymentRequest(merchantReference: "r", amount: -1, currency: eur, source: .paymentHandle("h")) },
            { try PaysafePaymentRequest(merchantReference: "r", amount: 1, currency: Currency(code: "XXX")!, source: .paymentHandle("h")) },
            { try PaysafePaymentRequest(merchantReference: "r", amount: 1, currency: eur, source: .paymentHandle("")) },
            { try PaysafePaymentRequest(merchantReference: "r", amount: 1, currency: eur, source: .paymentHandle("a/b")) },
            { try PaysafePaymentRequest(merchantReference: "r", amount: 1, currency: eur, source: .cardToken("t", accountID: "12a")) },
        ]
        for make in cases {
            #expect(throws: CSEError(.serverAPIInvalidArgument, "")) { _ = try make() }
        }
    }
}
