import CSECore
import CSEGateways
@_spi(CustomTransport) import CSEHTTP
import CSEServerAPI
import CSEValidation
import Testing
import TestSupport

/// 3-D Secure on the Mastercard Gateway (issue #34 §3; payment-lifecycle research notes §2.1,
/// emulator rules §6.2), end to end against the loopback emulator: the browser channel
/// (INITIATE_AUTHENTICATION, AUTHENTICATE_PAYER), each flow to its final outcome, and the check
/// before paying, which retrieves the authentication and sends nothing unless it allows the payment.
/// The emulator decides each flow by the card in the session.
@Suite("Mastercard 3-D Secure: frictionless, challenge to payment, unavailable, do not proceed, the check before paying")
struct MastercardThreeDSecureTests {
    static let eur = Currency(code: "EUR")!
    static let challengeCard = "5555555555554444"
    static let unavailableCard = "4012888888881881"
    static let doNotProceedCard = "4000000000000002"
    static let failedCard = "4000000000000010"
    static let attemptedCard = "4000000000000028"

    static func withGateway(_ body: (LoopbackEmulator, MastercardSessionClient) async throws -> Void) async throws {
        try await withServerEmulator("mastercard", ServerEmulatorTests.mastercardArguments) { server in
            try await body(server, try MastercardTransactionTests.client(server))
        }
    }

    static func authentication(
        _ session: String, order: String = "order-1", transaction: String = "auth-1", amount: Int64 = 2345
    ) throws -> MastercardAuthenticationRequest {
        try MastercardAuthenticationRequest(
            orderID: order, transactionID: transaction, sessionID: session, amount: amount, currency: eur,
            returnURL: "https://merchant.example/3ds/return",
            deviceJSON: Array(
                #"{"browser":"Mozilla/5.0","ipAddress":"192.0.2.10","browserDetails":{"3DSecureChallengeWindowSize":"FULL_SCREEN"}}"#.utf8))
    }

    static func pay(
        _ session: String, order: String = "order-1", transaction: String = "pay-1", authentication: String = "auth-1",
        amount: Int64 = 2345, currency: Currency = eur, allowUnauthenticated: Bool = false
    ) throws -> MastercardTransactionRequest {
        try MastercardTransactionRequest(
            .pay, orderID: order, transactionID: transaction, amount: amount, currency: currency, source: .session(id: session),
            authenticationTransactionID: authentication, allowsUnauthenticated: allowUnauthenticated)
    }

    /// The code of the error `perform` throws for `request`, and that it sent nothing (the last
    /// request is the GET of the authentication).
    static func refusal(
        _ server: LoopbackEmulator, _ client: MastercardSessionClient, _ request: MastercardTransactionRequest
    ) async throws -> CSEError.Code? {
        let error = await thrown { try await client.perform(request) }
        #expect(try server.requests().last?.method == "GET", "a refused payment sent something")
        if let error { Canary.check(String(describing: error)) }
        return error?.code
    }

    static func sent(_ server: LoopbackEmulator) throws -> [JSONValue] {
        try server.requests().filter { $0.method == "PUT" && $0.path.contains("/order/") }.map { try JSONValue.parse(Array($0.body)) }
    }

    @Test("frictionless: INITIATE then AUTHENTICATE_PAYER on the same ids, succeeded; the payment retrieves it first and is approved")
    func frictionless() async throws {
        try await Self.withGateway { server, client in
            let session = try await MastercardTokenTests.session(client)
            let outcome = try await client.authenticate(try Self.authentication(session))
            guard case .succeeded(let authentication, let keys) = outcome else {
                Issue.record("not succeeded: \(outcome)")
                return
            }
            #expect(authentication.authenticationStatus == "AUTHENTICATION_SUCCESSFUL" && authentication.transactionStatus == "Y")
            #expect(authentication.isAuthenticated && keys == PaymentReconciliation(orderID: "order-1", transactionID: "auth-1"))
            let bodies = try Self.sent(server)
            #expect(
                bodies.first?.serialized
                    == #"{"apiOperation":"INITIATE_AUTHENTICATION","authentication":{"acceptVersions":"3DS2","channel":"PAYER_BROWSER","purpose":"PAYMENT_TRANSACTION"},"order":{"currency":"EUR"},"session":{"id":"\#(session)"}}"#
            )
            #expect(bodies.last?["apiOperation"]?.stringValue == "AUTHENTICATE_PAYER")
            #expect(bodies.last?["order"]?["amount"]?.stringValue == "23.45")
            #expect(bodies.last?["authentication"]?["redirectResponseUrl"]?.stringValue == "https://merchant.example/3ds/return")
            #expect(bodies.last?["device"]?["ipAddress"]?.stringValue == "192.0.2.10")
            let shown = String(decoding: authentication.maskedValue.serializedBytes, as: UTF8.self)
            Canary.check(shown + authentication.description)
            let paid = try await client.perform(try Self.pay(session)).get()
            #expect(paid.isApproved && paid.verifiedAuthentication?.isAuthenticated == true)
            let methods = try server.requests().suffix(2).map(\.method)
            #expect(methods == ["GET", "PUT"])
        }
    }

    @Test("attempted (A) is authenticated: the payment goes through")
    func attempted() async throws {
        try await Self.withGateway { _, client in
            let session = try await MastercardTokenTests.session(client, number: Self.attemptedCard)
            let authentication = try await client.authenticate(try Self.authentication(session)).get()
            #expect(authentication.authenticationStatus == "AUTHENTICATION_ATTEMPTED")
            #expect(try await client.perform(try Self.pay(session)).get().isApproved)
        }
    }

    @Test("challenge → the payer completes it → the unsigned return → the payment retrieves the authentication and is approved")
    func challengeToPayment() async throws {
        try await Self.withGateway { server, client in
            let session = try await MastercardTokenTests.session(client, number: Self.challengeCard)
            let outcome = try await client.authenticate(try Self.authentication(session))
            guard case .pending(let authentication, let action, let keys) = outcome, case .html(let html)? = action else {
                Issue.record("not pending with HTML: \(outcome)")
                return
            }
            #expect(authentication.authenticationStatus == "AUTHENTICATION_PENDING" && keys.transactionID == "auth-1")
            #expect(html.contains("/acs/order-1/auth-1") && !html.contains(Self.challengeCard))
            // Before the payer finishes, the payment is refused and nothing is sent.
            #expect(try await Self.refusal(server, client, try Self.pay(session)) == .mastercardAuthenticationPending)
            let returned = try MastercardChallenge.complete(html)
            #expect(returned.status == 200 && returned.action == "https://merchant.example/3ds/return")
            #expect(returned.fields["result"] == "SUCCESS" && returned.fields["transaction.id"] == "auth-1")
            #expect(returned.fields["response.gatewayRecommendation"] == "PROCEED" && returned.fields.count == 4)
            let paid = try await client.perform(try Self.pay(session)).get()
            #expect(paid.isApproved && paid.verifiedAuthentication?.authenticationStatus == "AUTHENTICATION_SUCCESSFUL")
            // A replayed completion is refused by the ACS; the payment stays the one payment.
            #expect(try MastercardChallenge.complete(html).status == 409)
        }
    }

    @Test("challenge failed by the payer: the return says FAILURE; the payment is refused (do not proceed), nothing sent")
    func challengeFailed() async throws {
        try await Self.withGateway { server, client in
            let session = try await MastercardTokenTests.session(client, number: Self.challengeCard)
            guard case .pending(_, .html(let html)?, _) = try await client.authenticate(try Self.authentication(session)) else {
                Issue.record("not pending")
                return
            }
            let returned = try MastercardChallenge.complete(html, outcome: "N")
            #expect(returned.fields["result"] == "FAILURE")
            #expect(
                try await Self.refusal(server, client, try Self.pay(session, allowUnauthenticated: true))
                    == .mastercardAuthenticationDoNotProceed)
        }
    }

    @Test("a forged return (SUCCESS posted while the gateway's record is pending) and a return replayed onto another order pay nothing")
    func forgedAndReplayedReturns() async throws {
        try await Self.withGateway { server, client in
            let session = try await MastercardTokenTests.session(client, number: Self.challengeCard)
            _ = try await client.authenticate(try Self.authentication(session))
            // Whatever the browser posted, the payment reads the gateway's own record.
            #expect(try await Self.refusal(server, client, try Self.pay(session)) == .mastercardAuthenticationPending)
            let frictionless = try await MastercardTokenTests.session(client)
            _ = try await client.authenticate(try Self.authentication(frictionless, order: "order-A")).get()
            let other = try Self.pay(frictionless, order: "order-B")
            #expect(try await Self.refusal(server, client, other) == .mastercardAuthenticationUnknown)
        }
    }

    @Test("unavailable with PROCEED: refused (unavailable); payable only with allowsUnauthenticated, the merchant keeping the liability")
    func unavailable() async throws {
        try await Self.withGateway { server, client in
            let session = try await MastercardTokenTests.session(client, number: Self.unavailableCard)
            let outcome = try await client.authenticate(try Self.authentication(session))
            guard case .refused(let answer?, let error) = outcome else {
                Issue.record("not refused: \(outcome)")
                return
            }
            #expect(error.code == .mastercardAuthenticationUnavailable && answer.isUnavailable)
            #expect(try Self.sent(server).count == 1, "AUTHENTICATE_PAYER was sent")
            #expect(try await Self.refusal(server, client, try Self.pay(session)) == .mastercardAuthenticationUnavailable)
            let paid = try await client.perform(try Self.pay(session, allowUnauthenticated: true)).get()
            #expect(paid.isApproved && paid.verifiedAuthentication?.isAuthenticated == false)
        }
    }

    @Test("do not proceed: refused by authenticate and by the payment, allowUnauthenticated or not; a failed frictionless one too")
    func doNotProceed() async throws {
        try await Self.withGateway { server, client in
            for (n, card) in [Self.doNotProceedCard, Self.failedCard].enumerated() {
                let session = try await MastercardTokenTests.session(client, number: card)
                let order = "order-d\(n)"
                let outcome = try await client.authenticate(try Self.authentication(session, order: order))
                guard case .refused(_, let error) = outcome else {
                    Issue.record("not refused: \(outcome)")
                    return
                }
                #expect(error.code == .mastercardAuthenticationDoNotProceed)
                let pay = try Self.pay(session, order: order, allowUnauthenticated: true)
                #expect(try await Self.refusal(server, client, pay) == .mastercardAuthenticationDoNotProceed)
            }
        }
    }

    @Test("the check: another amount or currency, a transaction that is not an authentication, the authentication's own id")
    func checkRefusals() async throws {
        try await Self.withGateway { server, client in
            let session = try await MastercardTokenTests.session(client)
            _ = try await client.authenticate(try Self.authentication(session)).get()
            #expect(try await Self.refusal(server, client, try Self.pay(session, amount: 2000)) == .mastercardAuthenticationAmountMismatch)
            let usd = try Self.pay(session, currency: Currency(code: "USD")!)
            #expect(try await Self.refusal(server, client, usd) == .mastercardAuthenticationAmountMismatch)
            _ = try await client.perform(try Self.pay(session)).get()
            let onPayment = try Self.pay(session, transaction: "pay-2", authentication: "pay-1")
            #expect(try await Self.refusal(server, client, onPayment) == .mastercardAuthenticationNotAuthentication)
            #expect(throws: CSEError.self) { try Self.pay(session, transaction: "auth-1") }
            #expect(throws: CSEError.self) {
                try MastercardTransactionRequest(
                    .pay, orderID: "o", transactionID: "t", amount: 1, currency: Self.eur, source: .session(id: session),
                    allowsUnauthenticated: true)
            }
        }
    }

    @Test("requests the gateway would refuse are refused before sending: a bad return URL, device members, an amount of 0")
    func invalidRequests() throws {
        #expect(throws: CSEError.self) {
            try MastercardAuthenticationRequest(
                orderID: "o", transactionID: "a", sessionID: "S1", amount: 1, currency: Self.eur, returnURL: "javascript:alert(1)")
        }
        #expect(throws: CSEError.self) {
            try MastercardAuthenticationRequest(
                orderID: "o", transactionID: "a", sessionID: "S1", amount: 1, currency: Self.eur, returnURL: "https://m.example/r",
                deviceJSON: Array(#"{"cardNumber":"\#(Canary.pan)"}"#.utf8))
        }
        #expect(throws: CSEError.self) {
            try MastercardAuthenticationRequest(
                orderID: "o", transactionID: "a", sessionID: "S1", amount: 0, currency: Self.eur, returnURL: "https://m.example/r")
        }
    }

    @Test("the gateway's notification of the completed authentication verifies and carries the AUTHENTICATION as RETRIEVE answers it")
    func authenticationWebhook() async throws {
        try await withServerEmulator("mastercard", MastercardWebhookTests.arguments) { server in
            let client = try MastercardTransactionTests.client(server)
            let session = try await MastercardTokenTests.session(client, number: Self.challengeCard)
            guard case .pending(_, .html(let html)?, _) = try await client.authenticate(try Self.authentication(session)) else {
                Issue.record("not pending")
                return
            }
            _ = try MastercardChallenge.complete(html)
            let delivery = try await Delivery.fetch(server, "/test/mastercard-webhook/order-1/auth-1")
            let notification = try MastercardWebhook.verifiedNotification(
                body: delivery.body, headers: delivery.headers, secret: MastercardWebhookTests.configured())
            #expect(notification.transaction.transactionType == "AUTHENTICATION" && notification.transaction.orderID == "order-1")
            let state = MastercardSessionClient.state(of: notification.transaction, keys: PaymentReconciliation())
            guard case .succeeded = state else {
                Issue.record("not succeeded: \(state)")
                return
            }
            Canary.check(String(decoding: notification.transaction.maskedJSON, as: UTF8.self))
        }
    }

    @Test("a lost answer (INITIATE processed, a 500 read) is unknown with the ids; the same request again replays it and goes on")
    func lostAnswer() async throws {
        try await Self.withGateway { server, client in
            let session = try await MastercardTokenTests.session(client)
            try server.enqueue(
                LoopbackEmulator.Fault.status(500, body: "lost").afterRoute().onPath(
                    "/api/rest/version/100/merchant/TEST_12345/order/order-1/transaction/auth-1"))
            guard case .unknown(let keys, let error) = try await client.authenticate(try Self.authentication(session)) else {
                Issue.record("not unknown")
                return
            }
            #expect(keys == PaymentReconciliation(orderID: "order-1", transactionID: "auth-1") && error.code == .serverOutcomeUnknown)
            let again = try await client.authenticate(try Self.authentication(session)).get()
            #expect(again.isAuthenticated)
            let retrieved = try await client.retrieveTransaction(orderID: "order-1", transactionID: "auth-1")
            #expect(retrieved.transactionType == "AUTHENTICATION")
        }
    }
}
