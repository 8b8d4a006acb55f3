import CSECore
@_spi(CustomTransport) import CSEHTTP
import CSEServerAPI
import CSEValidation
import Testing
import TestSupport

/// Issue #32 (hardening, round four), the server points through the library: each test fails on
/// the code before the fix (72a2865) and passes after.
@Suite("Hardening round four: hidden retries, undocumented statuses, 409 lookups and answers naming another payment")
struct HardeningRoundFourTests {
    // MARK: Point 2: a retry's 4xx does not hide an earlier attempt

    /// An earlier attempt that the platform processed and answered with `first`, then `later`
    /// for the transport's repeat.
    static let hiddenRetries: [(name: String, first: LoopbackEmulator.Fault, later: LoopbackEmulator.Fault)] = [
        ("502 then 404", .status(502, body: "<html>bad gateway</html>"), .json(404, #"{"errorId":"e","errors":[{"id":"X","code":"1"}]}"#)),
        ("504 then a WAF's 403", .status(504), .status(403, body: "<html>Forbidden by the firewall</html>")),
        ("503 then 429s", .status(503), .status(429).times(3)),
    ]

    @Test("Worldline CreatePayment: a 502/504/503 (processed) then a 4xx or 429 is unknown with the key, and the key settles it")
    func worldlineHiddenRetry() async throws {
        for (name, first, later) in Self.hiddenRetries {
            try await withServerEmulator("worldline", ServerEmulatorTests.worldlineArguments) { server in
                try server.enqueue(first.afterRoute().onPath("/v2/1234/payments"))
                try server.enqueue(later.onPath("/v2/1234/payments"))
                let client = try ServerEmulatorTests.worldline(server)
                let key = try IdempotenceKey("hidden-retry-1")
                let outcome = try await client.createPayment(try ServerEmulatorTests.payment(), idempotenceKey: key)
                guard case .unknown(let keys, let error) = outcome else {
                    Issue.record("\(name): \(outcome)")
                    return
                }
                #expect(keys.idempotenceKey == key && error.code == .serverOutcomeUnknown, "\(name)")
                // The same key replays the payment the first attempt created: one payment in all.
                let settled = try await client.createPayment(try ServerEmulatorTests.payment(), idempotenceKey: key).get()
                #expect(settled.amount == 2345, "\(name)")
            }
        }
    }

    @Test("Worldline: a 503 whose errors are all retriable on every attempt still processed nothing (thrown)")
    func worldlineRetriableEveryTime() async throws {
        try await withServerEmulator("worldline", ServerEmulatorTests.worldlineArguments + ["--mode", "error503-retriable"]) { server in
            let error = await thrown { try await ServerEmulatorTests.worldline(server).createPayment(try ServerEmulatorTests.payment()) }
            #expect(error?.code == .worldlineAPIError && error?.context["status"] == "503")
        }
    }

    @Test("Mastercard PAY: a 502/504/503 (processed) then a 4xx or 429 is unknown with the order and transaction ids")
    func mastercardHiddenRetry() async throws {
        for (index, (name, first, later)) in Self.hiddenRetries.enumerated() {
            try await withServerEmulator("mastercard", ServerEmulatorTests.mastercardArguments) { server in
                let client = try MastercardTransactionTests.client(server)
                let session = try await MastercardTransactionTests.filledSession(client)
                let path = "/api/rest/version/100/merchant/TEST_12345/order/"
                try server.enqueue(first.afterRoute().onPath(path))
                try server.enqueue(later.onPath(path))
                let outcome = try await client.perform(try MastercardTransactionTests.pay(session, order: "o-\(index)", transaction: "t-1"))
                guard case .unknown(let keys, let error) = outcome else {
                    Issue.record("\(name): \(outcome)")
                    return
                }
                #expect(keys.orderID == "o-\(index)" && keys.transactionID == "t-1", "\(name)")
                #expect(error.code == .serverOutcomeUnknown, "\(name)")
                // The identical request settles it: the gateway answers the transaction it holds.
                let settled = try await client.perform(try MastercardTransactionTests.pay(session, order: "o-\(index)", transaction: "t-1"))
                #expect(settled.isSucceeded, "\(name): \(settled)")
            }
        }
    }

    @Test("Mastercard PAY: a 409 that names no gateway error is unknown (as CreatePayment's); one naming INVALID_REQUEST is thrown")
    func mastercardBare409() async throws {
        for body in ["", "<html>Conflict</html>", "{}", #"{"result":"ERROR"}"#] {
            let transport = RecordingTransport([
                .success(HTTPResponse(status: 409, headers: ["Content-Type": "application/json"], body: Array(body.utf8)))
            ])
            let client = try MastercardSessionClient(
                credentials: try MastercardCredentials(merchantID: "TEST_12345", apiPassword: secret(Canary.mastercardPassword)),
                environment: .mastercard(.mtf), http: try CSEServerAPITests.client(transport))
            let outcome = try await client.perform(try MastercardTransactionTests.pay("SESSION0001"))
            #expect(outcome.name == "unknown", "\(body): \(outcome)")
        }
        let named = RecordingTransport(
            status: 409, json: #"{"result":"ERROR","error":{"cause":"INVALID_REQUEST","explanation":"Transaction ID already used"}}"#)
        let client = try MastercardSessionClient(
            credentials: try MastercardCredentials(merchantID: "TEST_12345", apiPassword: secret(Canary.mastercardPassword)),
            environment: .mastercard(.mtf), http: try CSEServerAPITests.client(named))
        #expect(
            await thrown { try await client.perform(try MastercardTransactionTests.pay("SESSION0001")) }?.code == .mastercardInvalidRequest)
    }

    // MARK: Point 3: an undocumented Paysafe status is unknown

    static func paysafePayment(status: String) -> String {
        #"{"id":"p-1","status":"\#(status)","merchantRefNum":"order-1","amount":2345,"currencyCode":"EUR"}"#
    }

    @Test(
        "Paysafe pay: ERROR, FAILURE, DECLINED, lower-case failed and any other status Paysafe does not document are unknown, never success",
        arguments: ["ERROR", "FAILURE", "DECLINED", "failed", "completed", "SETTLED", "APPROVED"])
    func paysafeUndocumentedStatus(status: String) async throws {
        let transport = RecordingTransport(status: 201, json: Self.paysafePayment(status: status))
        let outcome = try await PaysafeStrictDecodingTests.payments(transport).pay(try PaysafeStrictDecodingTests.payment())
        guard case .unknown(let keys, let error) = outcome else {
            Issue.record("\(status): \(outcome)")
            return
        }
        #expect(keys.merchantReference == "order-1" && keys.paymentID == "p-1")
        #expect(error.code == .serverOutcomeUnknown && error.underlying?.code == .paysafePaymentUndetermined)
        #expect(error.underlying?.context["paymentStatus"] == status)
    }

    @Test(
        "Paysafe pay: COMPLETED succeeds, the documented statuses not final yet are pending (issue #34); FAILED, CANCELLED, EXPIRED are refused",
        arguments: [
            ("COMPLETED", "succeeded"), ("RECEIVED", "pending"), ("INITIATED", "pending"), ("PENDING", "pending"),
            ("PROCESSING", "pending"), ("HELD", "pending"), ("FAILED", "refused"), ("CANCELLED", "refused"), ("EXPIRED", "refused"),
        ])
    func paysafeDocumentedStatus(status: String, expected: String) async throws {
        let transport = RecordingTransport(status: 201, json: Self.paysafePayment(status: status))
        let outcome = try await PaysafeStrictDecodingTests.payments(transport).pay(try PaysafeStrictDecodingTests.payment())
        #expect(outcome.name == expected, "\(status): \(outcome)")
    }

    // MARK: Point 4: after a 409, every listed payment counts

    static func conflictThenLookup(_ payments: [String]) -> RecordingTransport {
        let conflict = #"{"error":{"code":"5031","message":"The merchant reference number has already been used"}}"#
        let list = #"{"payments":[\#(payments.joined(separator: ","))]}"#
        return RecordingTransport([
            .success(HTTPResponse(status: 409, headers: ["Content-Type": "application/json"], body: Array(conflict.utf8))),
            .success(HTTPResponse(status: 200, headers: ["Content-Type": "application/json"], body: Array(list.utf8))),
        ])
    }

    static func entry(_ id: String, _ status: String, amount: Int = 2345, currency: String = "EUR") -> String {
        #"{"id":"\#(id)","status":"\#(status)","merchantRefNum":"order-1","amount":\#(amount),"currencyCode":"\#(currency)"}"#
    }

    @Test("Paysafe pay after a 409: a FAILED entry listed first does not hide a COMPLETED one")
    func paysafeConflictPrefersTaken() async throws {
        let cases: [(String, [String], String, String?)] = [
            ("failed first, completed second", [Self.entry("p-1", "FAILED"), Self.entry("p-2", "COMPLETED")], "succeeded", "p-2"),
            ("failed first, pending second", [Self.entry("p-1", "FAILED"), Self.entry("p-2", "PROCESSING")], "pending", "p-2"),
            ("pending first, completed second", [Self.entry("p-1", "PENDING"), Self.entry("p-2", "COMPLETED")], "succeeded", "p-2"),
            ("every entry refused", [Self.entry("p-1", "FAILED"), Self.entry("p-2", "CANCELLED")], "refused", "p-1"),
            ("a refusal and an undocumented status", [Self.entry("p-1", "FAILED"), Self.entry("p-2", "ERROR")], "unknown", nil),
            (
                "another amount's completed entry does not count",
                [Self.entry("p-1", "COMPLETED", amount: 999), Self.entry("p-2", "FAILED")],
                "refused", "p-2"
            ),
        ]
        for (name, payments, expected, id) in cases {
            let client = try PaysafeStrictDecodingTests.payments(Self.conflictThenLookup(payments))
            let outcome = try await client.pay(try PaysafeStrictDecodingTests.payment())
            #expect(outcome.name == expected, "\(name): \(outcome)")
            if let id { #expect(outcome.payment?.id == id, "\(name)") }
        }
        // Every entry of another amount or currency: the reference belongs to another order.
        let other = try PaysafeStrictDecodingTests.payments(
            Self.conflictThenLookup([Self.entry("p-1", "COMPLETED", amount: 1), Self.entry("p-2", "COMPLETED", currency: "USD")]))
        let error = await thrown { try await other.pay(try PaysafeStrictDecodingTests.payment()) }
        #expect(error?.code == .serverReferenceInUse)
    }

    // MARK: Point 6: an answer naming another payment is not this payment

    @Test(
        "Worldline CreatePayment: a 2xx (or 402) payment with another amount, currency or reference is server.referenceInUse",
        arguments: [
            (201, #""amountOfMoney":{"amount":100,"currencyCode":"EUR"},"references":{"merchantReference":"order-1"}"#, "amount"),
            (201, #""amountOfMoney":{"amount":2345,"currencyCode":"USD"},"references":{"merchantReference":"order-1"}"#, "currency"),
            (
                201, #""amountOfMoney":{"amount":2345,"currencyCode":"EUR"},"references":{"merchantReference":"order-9"}"#,
                "merchantReference"
            ),
        ])
    func worldlineAnotherPayment(status: Int, output: String, member: String) async throws {
        let body =
            #"{"payment":{"id":"1_0","status":"CAPTURED","statusOutput":{"statusCategory":"COMPLETED"},"paymentOutput":{\#(output)}}}"#
        let client = try WorldlineStrictDecodingTests.api(RecordingTransport(status: status, json: body))
        let error = await thrown {
            try await client.createPayment(try WorldlineStrictDecodingTests.payment(), idempotenceKey: try IdempotenceKey("reused-key"))
        }
        #expect(error?.code == .serverReferenceInUse && error?.context["member"] == member, "\(String(describing: error))")
        #expect(error?.context["idempotenceKey"] == "reused-key")
        // The same payment, with its own amount, currency and reference, is this payment.
        let own =
            #"{"payment":{"id":"1_0","status":"CAPTURED","statusOutput":{"statusCategory":"COMPLETED"},"paymentOutput":{"amountOfMoney":{"amount":2345,"currencyCode":"EUR"},"references":{"merchantReference":"order-1"}}}}"#
        let ok = try await WorldlineStrictDecodingTests.api(RecordingTransport(status: 201, json: own)).createPayment(
            try WorldlineStrictDecodingTests.payment())
        #expect(ok.isSucceeded)
        // A 402 refusal of another payment is not this payment's refusal either.
        let refused =
            #"{"errorId":"e","errors":[{"code":"430330"}],"paymentResult":{"payment":{"id":"1_0","status":"REJECTED","statusOutput":{"statusCategory":"UNSUCCESSFUL"},"paymentOutput":{\#(output)}}}}"#
        let declined = try WorldlineStrictDecodingTests.api(RecordingTransport(status: 402, json: refused))
        #expect(
            await thrown { try await declined.createPayment(try WorldlineStrictDecodingTests.payment()) }?.code == .serverReferenceInUse)
    }

    @Test(
        "Mastercard PAY: an answer with another amount, currency, order or transaction id is server.referenceInUse",
        arguments: [
            (#""order":{"id":"order-1"},"transaction":{"id":"pay-1","amount":1.00,"currency":"EUR"}"#, "amount"),
            (#""order":{"id":"order-1"},"transaction":{"id":"pay-1","amount":23.45,"currency":"USD"}"#, "currency"),
            (#""order":{"id":"order-9"},"transaction":{"id":"pay-1","amount":23.45,"currency":"EUR"}"#, "orderId"),
            (#""order":{"id":"order-1"},"transaction":{"id":"pay-9","amount":23.45,"currency":"EUR"}"#, "transactionId"),
            (#""order":{"id":"order-1","amount":99,"currency":"EUR"},"transaction":{"id":"pay-1"}"#, "amount"),
        ])
    func mastercardAnotherPayment(members: String, member: String) async throws {
        let body = #"{"result":"SUCCESS","response":{"gatewayCode":"APPROVED"},\#(members)}"#
        let client = try MastercardSessionClient(
            credentials: try MastercardCredentials(merchantID: "TEST_12345", apiPassword: secret(Canary.mastercardPassword)),
            environment: .mastercard(.mtf), http: try CSEServerAPITests.client(RecordingTransport(status: 201, json: body)))
        let error = await thrown { try await client.perform(try MastercardTransactionTests.pay("SESSION0001")) }
        #expect(error?.code == .serverReferenceInUse && error?.context["member"] == member, "\(String(describing: error))")
        #expect(error?.context["orderId"] == "order-1" && error?.context["transactionId"] == "pay-1")
    }

    @Test("Mastercard amounts in major units compare exactly, whatever the JSON spelling (23.45, 23.450, 2.345E1; JPY 100.0)")
    func mastercardAmountSpellings() async throws {
        for (amount, currency, minor) in [
            ("23.45", "EUR", 2345), ("23.450", "EUR", 2345), ("2.345E1", "EUR", 2345), ("100.0", "JPY", 100), ("1.234", "KWD", 1234),
        ] {
            let body =
                #"{"result":"SUCCESS","response":{"gatewayCode":"APPROVED"},"order":{"id":"order-1"},"transaction":{"id":"pay-1","amount":\#(amount),"currency":"\#(currency)"}}"#
            let client = try MastercardSessionClient(
                credentials: try MastercardCredentials(merchantID: "TEST_12345", apiPassword: secret(Canary.mastercardPassword)),
                environment: .mastercard(.mtf), http: try CSEServerAPITests.client(RecordingTransport(status: 201, json: body)))
            let outcome = try await client.perform(
                try MastercardTransactionTests.pay("SESSION0001", amount: Int64(minor), currency: currency))
            #expect(outcome.isSucceeded, "\(amount) \(currency): \(outcome)")
        }
    }

    // MARK: Point 7: the platform's own error codes stay readable

    @Test("Worldline's 8-digit error codes and short references print as sent; a card number in the same text is still redacted")
    func errorCodesReadable() async throws {
        let body =
            #"{"errorId":"657b10da-d2f9-4d2f-a2cd-6ea4b4d5d4a4","errors":[{"errorCode":"21000020","code":"21000020","id":"INVALID_VALUE","message":"card 4111 1111 1111 1111 refused, code 21000020, order 1234567890"}]}"#
        let client = try WorldlineStrictDecodingTests.api(RecordingTransport(status: 400, json: body))
        let error = await thrown { try await client.createPayment(try WorldlineStrictDecodingTests.payment()) }
        let text = (error?.description ?? "") + (error?.context.values.joined(separator: " ") ?? "")
        #expect(text.contains("21000020"), "\(text)")
        #expect(!text.contains("********"), "\(text)")
        #expect(!text.contains("4111"), "\(text)")
    }
}

extension PaymentOutcome {
    /// `succeeded`, `refused` or `unknown`.
    var name: String {
        switch self {
        case .succeeded: "succeeded"
        case .refused: "refused"
        case .pending: "pending"
        case .unknown: "unknown"
        }
    }

    var isSucceeded: Bool { name == "succeeded" }

    /// The payment of a succeeded or refused outcome.
    var payment: Payment? {
        switch self {
        case .succeeded(let payment, _): payment
        case .refused(let payment, _): payment
        case .pending(let payment, _, _): payment
        case .unknown: nil
        }
    }
}
