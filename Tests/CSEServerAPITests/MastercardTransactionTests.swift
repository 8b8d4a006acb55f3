import CSECore
import CSEGateways
import CSEHTTP
import CSEServerAPI
import CSEWallets
import CSEValidation
import Foundation
import Testing
import TestSupport

/// PAY and AUTHORIZE on the Mastercard Gateway (research notes §3), end to end against the loopback
/// emulator, which checks Basic authentication, the body (the amount a decimal in major units with
/// the currency's ISO 4217 exponent) and keeps one answer per order and transaction id.
@Suite("Mastercard PAY and AUTHORIZE: three outcomes, idempotent by order and transaction id, settled by RETRIEVE")
struct MastercardTransactionTests {
    static func client(_ server: LoopbackEmulator, version: Int = 100, http: HTTPClient? = nil) throws -> MastercardSessionClient {
        try MastercardSessionClient(
            credentials: try MastercardCredentials(merchantID: "TEST_12345", apiPassword: secret(Canary.mastercardPassword)),
            environment: try ServerEnvironment(origin: server.baseURL), apiVersion: version, http: try http ?? realClient())
    }

    /// A session the mobile SDK would have filled with a card.
    static func filledSession(_ client: MastercardSessionClient) async throws -> String {
        let created = try await client.createSession()
        var update = GatewayMap()
        try update.set(.string(Canary.pan), at: "sourceOfFunds.provided.card.number")
        try update.set("12", at: "sourceOfFunds.provided.card.expiry.month")
        try update.set("39", at: "sourceOfFunds.provided.card.expiry.year")
        _ = try await client.updateSession(id: created.id, with: update)
        return created.id
    }

    static func pay(
        _ session: String, order: String = "order-1", transaction: String = "pay-1", amount: Int64 = 2345, currency: String = "EUR",
        operation: MastercardTransactionRequest.Operation = .pay
    ) throws -> MastercardTransactionRequest {
        try MastercardTransactionRequest(
            operation, orderID: order, transactionID: transaction, amount: amount, currency: Currency(code: currency)!,
            source: .session(id: session))
    }

    @Test("PAY with the session's card is approved; the answer's card number is masked, the password never shown")
    func payWithSession() async throws {
        try await withServerEmulator("mastercard", ServerEmulatorTests.mastercardArguments) { server in
            let client = try Self.client(server)
            let session = try await Self.filledSession(client)
            let transaction = try await client.perform(try Self.pay(session)).get()
            #expect(transaction.isApproved && transaction.gatewayCode == "APPROVED" && transaction.orderStatus == "CAPTURED")
            #expect(transaction.transactionType == "PAYMENT" && transaction.authorizationCode == "123456")
            let shown = String(decoding: transaction.maskedJSON, as: UTF8.self)
            #expect(shown.contains("411111******1111") && !shown.contains(Canary.pan))
            let sent = try JSONValue.parse(Array(try #require(server.requests().last).body))
            #expect(sent["order"]?["amount"]?.stringValue == "23.45" && sent["session"]?["id"]?.stringValue == session)
            #expect(sent["apiOperation"]?.stringValue == "PAY" && sent["sourceOfFunds"]?["type"]?.stringValue == "CARD")
            Canary.check(transaction.description + shown)
        }
    }

    @Test(
        "order.amount is the minor amount in major units with the ISO 4217 exponent, never through floating point",
        arguments: [(Int64(2345), "JPY", "2345"), (2345, "KWD", "2.345"), (5, "EUR", "0.05"), (999_999_999_999, "USD", "9999999999.99")])
    func amountInMajorUnits(minor: Int64, currency: String, expected: String) throws {
        let request = try Self.pay("SESSION1", amount: minor, currency: currency)
        #expect(request.json["order"]?["amount"]?.stringValue == expected)
    }

    @Test("PAY naming a 3-D Secure transaction the order does not hold is refused before sending (mastercard.authentication.unknown)")
    func authenticationTransaction() async throws {
        try await withServerEmulator("mastercard", ServerEmulatorTests.mastercardArguments) { server in
            let client = try Self.client(server)
            let session = try await Self.filledSession(client)
            let request = try MastercardTransactionRequest(
                .pay, orderID: "order-3ds", transactionID: "pay-2", amount: 100, currency: Currency(code: "EUR")!,
                source: .session(id: session), authenticationTransactionID: "auth-1")
            #expect(request.json["authentication"]?["transactionId"]?.stringValue == "auth-1")
            let error = await thrown { try await client.perform(request) }
            #expect(error?.code == .mastercardAuthenticationUnknown && error?.context["authenticationTransactionId"] == "auth-1")
            #expect(try server.requests().last?.method == "GET")
        }
    }

    @Test("the emulator accepts the converted amounts of zero- and three-decimal currencies")
    func amountsAccepted() async throws {
        try await withServerEmulator("mastercard", ServerEmulatorTests.mastercardArguments) { server in
            let client = try Self.client(server)
            let session = try await Self.filledSession(client)
            for (n, currency) in ["JPY", "KWD"].enumerated() {
                let request = try Self.pay(session, order: "order-\(currency)", transaction: "t\(n)", currency: currency)
                #expect(try await client.perform(request).get().isApproved, "\(currency)")
            }
        }
    }

    @Test("the identical request again returns the first answer and moves no money twice; the same ids with another amount are refused")
    func idempotentByIDs() async throws {
        try await withServerEmulator("mastercard", ServerEmulatorTests.mastercardArguments) { server in
            let client = try Self.client(server)
            let session = try await Self.filledSession(client)
            let first = try await client.perform(try Self.pay(session)).get()
            let again = try await client.perform(try Self.pay(session)).get()
            #expect(again.json == first.json)
            let order = try JSONValue.parse(await client.retrieveOrder(orderID: "order-1"))
            #expect(order["transaction"]?.arrayValue?.count == 1 && order["totalCapturedAmount"] == .number("23.45"))
            let reused = await thrown { try await client.perform(try Self.pay(session, amount: 1)) }
            #expect(reused?.code == .mastercardInvalidRequest && reused?.context["field"] == "transaction.id")
        }
    }

    @Test("the answer is lost after the gateway processed the transaction: unknown with the order and transaction ids; RETRIEVE settles it")
    func lostAnswer() async throws {
        try await withServerEmulator("mastercard", ServerEmulatorTests.mastercardArguments) { server in
            let session = try await Self.filledSession(try Self.client(server))
            try server.enqueue(
                LoopbackEmulator.Fault.delay(milliseconds: 2500).afterRoute().onPath("/api/rest/version/100/merchant/TEST_12345/order"))
            let client = try Self.client(server, http: try realClient(requestTimeout: .seconds(1)))
            guard case .unknown(let keys, let error) = try await client.perform(try Self.pay(session)) else {
                Issue.record("not unknown")
                return
            }
            #expect(keys == PaymentReconciliation(orderID: "order-1", transactionID: "pay-1"))
            #expect(error.code == .serverOutcomeUnknown && error.underlying?.code == .httpTimeout)
            #expect(error.context["orderId"] == "order-1" && error.context["transactionId"] == "pay-1")
            let settled = try await client.retrieveTransaction(orderID: "order-1", transactionID: "pay-1")
            #expect(settled.isApproved && settled.transactionID == "pay-1")
            // Resending the identical request is safe too: the first answer, one transaction.
            #expect(try await client.perform(try Self.pay(session)).get().json == settled.json)
            #expect(try JSONValue.parse(await client.retrieveOrder(orderID: "order-1"))["transaction"]?.arrayValue?.count == 1)
        }
    }

    @Test("FAILURE is a refusal with the transaction; PENDING succeeds as pending; UNKNOWN and SERVER_BUSY are unknown")
    func resultClasses() async throws {
        for (mode, expected) in [("decline", "refused"), ("pending", "pending"), ("unknown-result", "unknown"), ("txn-busy", "unknown")] {
            try await withServerEmulator("mastercard", ServerEmulatorTests.mastercardArguments + ["--mode", mode]) { server in
                let client = try Self.client(server)
                let session = try await Self.filledSession(client)
                switch try await client.perform(try Self.pay(session, operation: .authorize)) {
                case .succeeded(let transaction, _):
                    #expect(expected == "pending" && transaction.isPending && !transaction.isApproved, "\(mode)")
                case .refused(let transaction, let error):
                    #expect(expected == "refused" && transaction?.gatewayCode == "DECLINED", "\(mode)")
                    #expect(error.code == .mastercardTransactionDeclined && error.context["orderId"] == "order-1")
                case .pending(let transaction, _, _):
                    #expect(expected == "pending" && transaction.isPending && !transaction.isApproved, "\(mode)")
                case .unknown(let keys, let error):
                    #expect(expected == "unknown" && keys.transactionID == "pay-1", "\(mode)")
                    let cause = mode == "txn-busy" ? CSEError.Code.mastercardServerBusy : .mastercardError
                    #expect(error.underlying?.code == cause, "\(mode)")
                }
            }
        }
    }

    @Test(
        "gateway codes UNKNOWN, TIMED_OUT, ACQUIRER_SYSTEM_ERROR, SYSTEM_ERROR and LOCK_FAILURE are unknown, not declines; an ERROR is unknown unless the request was invalid or rejected"
    )
    func undeterminedAnswers() async throws {
        func answer(_ status: Int, _ json: String) -> RecordingTransport { RecordingTransport(status: status, json: json) }
        let undetermined = ["UNKNOWN", "TIMED_OUT", "ACQUIRER_SYSTEM_ERROR", "SYSTEM_ERROR", "LOCK_FAILURE"].map { code in
            (
                code,
                answer(
                    200,
                    #"{"result":"FAILURE","response":{"gatewayCode":"\#(code)"},"order":{"id":"order-1"},"transaction":{"id":"pay-1"}}"#)
            )
        }
        let errors: [(String, RecordingTransport, Bool)] = [
            ("INVALID_REQUEST", answer(400, #"{"result":"ERROR","error":{"cause":"INVALID_REQUEST","explanation":"x"}}"#), false),
            ("REQUEST_REJECTED", answer(400, #"{"result":"ERROR","error":{"cause":"REQUEST_REJECTED"}}"#), false),
            ("a new cause at 500", answer(500, #"{"result":"ERROR","error":{"cause":"SOMETHING_NEW"}}"#), true),
            ("a new cause at 200", answer(200, #"{"result":"ERROR","error":{"cause":"SOMETHING_NEW"}}"#), true),
            ("an ERROR without detail", answer(200, #"{"result":"ERROR"}"#), true),
        ]
        func client(_ transport: RecordingTransport) throws -> MastercardSessionClient {
            try MastercardSessionClient(
                credentials: try MastercardCredentials(merchantID: "TEST_12345", apiPassword: secret(Canary.mastercardPassword)),
                environment: .mastercard(.mtf), http: try CSEServerAPITests.client(transport))
        }
        for (code, transport) in undetermined {
            let outcome = try await client(transport).perform(try Self.pay("SESSION0001"))
            guard case .unknown(let keys, let error) = outcome else {
                Issue.record("\(code): \(outcome)")
                continue
            }
            #expect(keys.orderID == "order-1" && keys.transactionID == "pay-1" && error.underlying?.context["gatewayCode"] == code)
        }
        for (name, transport, unknown) in errors {
            do {
                let outcome = try await client(transport).perform(try Self.pay("SESSION0001"))
                if case .unknown = outcome { #expect(unknown, "\(name)") } else { Issue.record("\(name): \(outcome)") }
            } catch {
                #expect(!unknown, "\(name): \(error)")
            }
        }
    }

    @Test("a transaction the gateway never received is mastercard.invalidRequest on RETRIEVE (then the same PUT is safe)")
    func retrieveUnknown() async throws {
        try await withServerEmulator("mastercard", ServerEmulatorTests.mastercardArguments) { server in
            let error = await thrown { try await Self.client(server).retrieveTransaction(orderID: "order-9", transactionID: "t") }
            #expect(error?.code == .mastercardInvalidRequest && error?.context["field"] == "transaction.id")
        }
    }

    @Test("a wallet token is sent as devicePayment.paymentToken with order.walletProvider, and needs API version 47")
    func walletToken() async throws {
        let token = #"{"version":"EC_v1","data":"ZGF0YQ==","signature":"c2ln","header":{"transactionId":"ab"}}"#
        try await withServerEmulator("mastercard", ServerEmulatorTests.mastercardArguments) { server in
            let request = try MastercardTransactionRequest(
                .pay, orderID: "order-w", transactionID: "w1", amount: 100, currency: Currency(code: "EUR")!,
                source: .walletToken(.applePay, token: token))
            #expect(try await Self.client(server).perform(request).get().isApproved)
            let sent = try JSONValue.parse(Array(try #require(server.requests().last).body))
            #expect(sent["order"]?["walletProvider"]?.stringValue == "APPLE_PAY")
            #expect(sent["sourceOfFunds"]?["provided"]?["card"]?["devicePayment"]?["paymentToken"]?.stringValue == token)
            let old = await thrown { try await Self.client(server, version: 46).perform(request) }
            #expect(old?.code == .serverAPIInvalidArgument && old?.context["argument"] == "apiVersion")
            #expect(try server.requests().count == 1)
            #expect(!request.description.contains("EC_v1"))
        }
    }

    static let decryptedApple = Array(
        #"{"wallet":"apple-pay","paymentData":{"applicationPrimaryAccountNumber":"5204730000001003","applicationExpirationDate":"290731","cardholderName":"A Payer","paymentData":{"onlinePaymentCryptogram":"Af9x/QwAA/DjmU65oyc1MAABAAA=","eciIndicator":"7"}}}"#
            .utf8)

    @Test("merchant-decrypted device data: the DPAN as card.number with a two-digit expiry and the cryptogram as devicePayment")
    func decryptedDevicePayment() async throws {
        try await withServerEmulator("mastercard", ServerEmulatorTests.mastercardArguments) { server in
            let card = try WalletCard(decryptionOutput: Self.decryptedApple)
            let request = try MastercardTransactionRequest(
                .pay, orderID: "order-d", transactionID: "d1", amount: 100, currency: Currency(code: "EUR")!,
                source: .decryptedDevicePayment(card))
            #expect(!request.description.contains("5204730000001003"))
            let transaction = try await Self.client(server).perform(request).get()
            #expect(transaction.isApproved && !String(decoding: transaction.maskedJSON, as: UTF8.self).contains("5204730000001003"))
            let sent = try JSONValue.parse(Array(try #require(server.requests().last).body))
            let sentCard = sent["sourceOfFunds"]?["provided"]?["card"]
            #expect(sent["order"]?["walletProvider"]?.stringValue == "APPLE_PAY" && sentCard?["number"]?.stringValue == "5204730000001003")
            #expect(sentCard?["expiry"] == .object(JSONObject([("month", .string("07")), ("year", .string("29"))])))
            #expect(
                sentCard?["devicePayment"]?["cryptogramFormat"]?.stringValue == "3DSECURE"
                    && sentCard?["devicePayment"]?["eciIndicator"]?.stringValue == "07")
        }
        try await withServerEmulator("mastercard", ServerEmulatorTests.mastercardArguments + ["--mode", "echo-errors"]) { server in
            let request = try MastercardTransactionRequest(
                .pay, orderID: "order-e", transactionID: "e1", amount: 100, currency: Currency(code: "EUR")!,
                source: .decryptedDevicePayment(try WalletCard(decryptionOutput: Self.decryptedApple)))
            let error = await thrown { try await Self.client(server).perform(request) }
            #expect(error?.code == .mastercardInvalidRequest && error?.context["explanation"]?.hasPrefix("Invalid card") == true)
            for value in ["5204730000001003", "Af9x/QwAA/DjmU65oyc1MAABAAA=", "A Payer"] {
                #expect(error?.description.contains(value) == false, "leaked \(value)")
            }
        }
    }

    @Test(
        "requests are checked before sending: ids, amount, currency, token",
        arguments: [
            ("", "t", Int64(1), "EUR"), ("..", "t", 1, "EUR"), ("o", String(repeating: "t", count: 41), 1, "EUR"), ("o", "t", -1, "EUR"),
            ("o", "t", 1, "XXX"),
        ])
    func requestChecks(order: String, transaction: String, amount: Int64, currency: String) {
        #expect(throws: CSEError(.serverAPIInvalidArgument, "")) {
            _ = try MastercardTransactionRequest(
                .pay, orderID: order, transactionID: transaction, amount: amount, currency: Currency(code: currency)!,
                source: .session(id: "SESSION1"))
        }
        #expect(throws: CSEError(.serverAPIInvalidArgument, "")) {
            _ = try MastercardTransactionRequest(
                .pay, orderID: "o", transactionID: "t", amount: 1, currency: Currency(code: "EUR")!,
                source: .walletToken(.googlePay, token: "not json"))
        }
    }
}
