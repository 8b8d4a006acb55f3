import CSECore
import CSEHTTP
import CSEServerAPI
import CSEValidation
import Testing
import TestSupport

/// CAPTURE, REFUND and VOID on the Mastercard Gateway (issue #33; payment-lifecycle research notes
/// §2.2, §6.2), end to end against the loopback emulator, which keeps each order's authorised,
/// captured and refunded amounts and refuses with its own rules what the amounts or the order's
/// state do not allow.
@Suite("Mastercard CAPTURE, REFUND, VOID: new transactions on the order, the shared refusal codes, idempotent by ids")
struct MastercardLifecycleTests {
    static let eur = Currency(code: "EUR")!

    /// An emulator with an order `order` authorised for 23.45 EUR (transaction `auth-1`), or paid
    /// when `operation` is PAY.
    static func withAuthorisedOrder(
        _ mode: String? = nil, operation: MastercardTransactionRequest.Operation = .authorize,
        _ body: (LoopbackEmulator, MastercardSessionClient) async throws -> Void
    ) async throws {
        let arguments = ServerEmulatorTests.mastercardArguments + (mode.map { ["--mode", $0] } ?? [])
        try await withServerEmulator("mastercard", arguments) { server in
            let client = try MastercardTransactionTests.client(server)
            let session = try await MastercardTransactionTests.filledSession(client)
            let authorised = try await client.perform(
                try MastercardTransactionTests.pay(session, order: "order", transaction: "auth-1", operation: operation)
            ).get()
            #expect(authorised.isApproved)
            try await body(server, client)
        }
    }

    static func capture(_ id: String, _ amount: Int64, order: String = "order") throws -> MastercardLifecycleRequest {
        try .capture(orderID: order, transactionID: id, amount: amount, currency: eur)
    }

    static func refund(_ id: String, _ amount: Int64) throws -> MastercardLifecycleRequest {
        try .refund(orderID: "order", transactionID: id, amount: amount, currency: eur)
    }

    /// The error a refused operation throws.
    static func refusal(
        _ client: MastercardSessionClient, _ request: @autoclosure () throws -> MastercardLifecycleRequest
    ) async -> CSEError? {
        do {
            _ = try await client.perform(try request())
            return nil
        } catch {
            return error as? CSEError
        }
    }

    @Test("the bodies: CAPTURE and REFUND carry transaction.amount in major units and currency, VOID the target; none a source of funds")
    func bodies() throws {
        let capture = try Self.capture("cap-1", 2345)
        #expect(capture.json.serialized == #"{"apiOperation":"CAPTURE","transaction":{"amount":"23.45","currency":"EUR"}}"#)
        let refund = try MastercardLifecycleRequest.refund(
            orderID: "o", transactionID: "r", amount: 2345, currency: Currency(code: "KWD")!, reference: "ref-1")
        #expect(
            refund.json.serialized == #"{"apiOperation":"REFUND","transaction":{"amount":"2.345","currency":"KWD","reference":"ref-1"}}"#)
        let void = try MastercardLifecycleRequest.void(orderID: "o", transactionID: "v", targetTransactionID: "auth-1")
        #expect(void.json.serialized == #"{"apiOperation":"VOID","transaction":{"targetTransactionId":"auth-1"}}"#)
        #expect(void.amount == nil && void.description == "MastercardLifecycleRequest(VOID order: o, transaction: v, target: auth-1)")
    }

    @Test("arguments a request cannot carry are refused before anything is sent")
    func invalidArguments() throws {
        #expect(throws: CSEError.self) { try Self.capture("cap-1", 0) }
        #expect(throws: CSEError.self) { try Self.capture("../x", 100) }
        #expect(throws: CSEError.self) {
            try MastercardLifecycleRequest.void(orderID: "o", transactionID: "same", targetTransactionID: "same")
        }
        #expect(throws: CSEError.self) {
            try MastercardLifecycleRequest.refund(orderID: "o", transactionID: "r", amount: 1, currency: Self.eur, reference: "a b")
        }
    }

    @Test("full capture: the whole authorisation, order CAPTURED")
    func fullCapture() async throws {
        try await Self.withAuthorisedOrder { server, client in
            let captured = try await client.perform(try Self.capture("cap-1", 2345)).get()
            #expect(captured.isApproved && captured.transactionType == "CAPTURE" && captured.orderStatus == "CAPTURED")
            let sent = try JSONValue.parse(Array(try #require(server.requests().last).body))
            #expect(sent["sourceOfFunds"] == nil && sent["transaction"]?["amount"]?.stringValue == "23.45")
        }
    }

    @Test("partial captures up to the authorisation, then a capture over what is left is server.amountExceedsRemaining")
    func partialCaptures() async throws {
        try await Self.withAuthorisedOrder { _, client in
            let first = try await client.perform(try Self.capture("cap-1", 1000)).get()
            #expect(first.orderStatus == "PARTIALLY_CAPTURED")
            let error = await Self.refusal(client, try Self.capture("cap-2", 1346))
            #expect(error?.code == .serverAmountExceedsRemaining && error?.underlying?.code == .mastercardInvalidRequest)
            let second = try await client.perform(try Self.capture("cap-2b", 1345)).get()
            #expect(second.orderStatus == "CAPTURED")
        }
    }

    @Test("two partial refunds, then a refund over what is left is server.amountExceedsRemaining")
    func twoPartialRefunds() async throws {
        try await Self.withAuthorisedOrder { _, client in
            _ = try await client.perform(try Self.capture("cap-1", 2345)).get()
            let first = try await client.perform(try Self.refund("ref-1", 1000)).get()
            #expect(first.transactionType == "REFUND" && first.orderStatus == "PARTIALLY_REFUNDED")
            let second = try await client.perform(try Self.refund("ref-2", 1345)).get()
            #expect(second.orderStatus == "REFUNDED")
            let error = await Self.refusal(client, try Self.refund("ref-3", 1))
            #expect(error?.code == .serverAmountExceedsRemaining)
            let order = try JSONValue.parse(try await client.retrieveOrder(orderID: "order"))
            #expect(order["totalRefundedAmount"]?.scalarText == "23.45")
            #expect(
                order["transaction"]?.arrayValue?.compactMap { $0["type"]?.stringValue } == [
                    "AUTHORIZATION", "CAPTURE", "REFUND", "REFUND",
                ])
        }
    }

    @Test("void of the authorisation cancels the order; a capture afterwards is server.operationNotAllowed")
    func voidThenCapture() async throws {
        try await Self.withAuthorisedOrder { _, client in
            let voided = try await client.perform(
                try .void(orderID: "order", transactionID: "void-1", targetTransactionID: "auth-1")
            ).get()
            #expect(voided.isApproved && voided.orderStatus == "CANCELLED" && voided.transactionType == "VOID_AUTHORIZATION")
            let error = await Self.refusal(client, try Self.capture("cap-1", 100))
            #expect(error?.code == .serverOperationNotAllowed && error?.context["platform"] == "mastercard")
        }
    }

    @Test(
        "each refusal, nothing processed: refund of nothing captured, void after a capture, capture of a sale, unknown order and target, a reused transaction id"
    )
    func refusals() async throws {
        try await Self.withAuthorisedOrder { _, client in
            #expect(await Self.refusal(client, try Self.refund("ref-1", 100))?.code == .serverOperationNotAllowed)
            #expect(await Self.refusal(client, try Self.capture("cap-1", 100, order: "no-such-order"))?.code == .serverUnknownPayment)
            let noTarget = try MastercardLifecycleRequest.void(orderID: "order", transactionID: "void-0", targetTransactionID: "nothing")
            #expect(await Self.refusal(client, noTarget)?.code == .serverUnknownPayment)
            _ = try await client.perform(try Self.capture("cap-1", 100)).get()
            // The same id with another amount: the gateway refuses; it is not the capture it holds.
            #expect(await Self.refusal(client, try Self.capture("cap-1", 200))?.code == .serverReferenceInUse)
            let void = try MastercardLifecycleRequest.void(orderID: "order", transactionID: "void-1", targetTransactionID: "auth-1")
            #expect(await Self.refusal(client, void)?.code == .serverOperationNotAllowed)
        }
        try await Self.withAuthorisedOrder(operation: .pay) { _, client in
            #expect(await Self.refusal(client, try Self.capture("cap-1", 100))?.code == .serverOperationNotAllowed)
        }
    }

    @Test("an identical repeat replays the first answer and moves no money twice")
    func idempotentRepeat() async throws {
        try await Self.withAuthorisedOrder { _, client in
            let first = try await client.perform(try Self.capture("cap-1", 1000)).get()
            let again = try await client.perform(try Self.capture("cap-1", 1000)).get()
            #expect(first.maskedJSON == again.maskedJSON)
            let order = try JSONValue.parse(try await client.retrieveOrder(orderID: "order"))
            #expect(order["totalCapturedAmount"]?.scalarText == "10.0")
        }
    }

    @Test("a declined capture is refused (mastercard.transactionDeclined); SERVER_BUSY is unknown with the ids")
    func declinedAndBusy() async throws {
        try await Self.withAuthorisedOrder("capture-declined") { _, client in
            let outcome = try await client.perform(try Self.capture("cap-1", 100))
            guard case .refused(let transaction, let error) = outcome else { Issue.record("\(outcome)"); return }
            #expect(transaction?.gatewayCode == "DECLINED" && error.code == .mastercardTransactionDeclined)
        }
        try await Self.withAuthorisedOrder { server, client in
            let busy = #"{"result":"ERROR","error":{"cause":"SERVER_BUSY","explanation":"Try again later"}}"#
            try server.enqueue(LoopbackEmulator.Fault.json(500, busy).onPath("/api/rest/version/100/merchant/TEST_12345/order/order/"))
            let outcome = try await client.perform(try Self.capture("cap-1", 100))
            guard case .unknown(let keys, let error) = outcome else { Issue.record("\(outcome)"); return }
            #expect(error.code == .serverOutcomeUnknown && keys.description == "orderId=order, transactionId=cap-1")
        }
    }

    @Test("a cut after processing is replayed by the transport's identical repeat; a 500 or unreadable 2xx is unknown with the ids")
    func faults() async throws {
        try await Self.withAuthorisedOrder { server, client in
            let path = "/api/rest/version/100/merchant/TEST_12345/order/order/transaction/"
            try server.enqueue(LoopbackEmulator.Fault.drop.afterRoute().onPath(path + "cap-1"))
            let replayed = try await client.perform(try Self.capture("cap-1", 1000)).get()
            #expect(replayed.isApproved)
            try server.enqueue(LoopbackEmulator.Fault.status(500, body: "<html>").afterRoute().onPath(path + "ref-1"))
            let outcome = try await client.perform(try Self.refund("ref-1", 500))
            guard case .unknown(let keys, let error) = outcome else { Issue.record("\(outcome)"); return }
            #expect(error.code == .serverOutcomeUnknown && keys.orderID == "order" && keys.transactionID == "ref-1")
            // Settled by the same request: one capture, one refund on the order.
            _ = try await client.perform(try Self.refund("ref-1", 500)).get()
            let order = try JSONValue.parse(try await client.retrieveOrder(orderID: "order"))
            #expect(order["transaction"]?.arrayValue?.compactMap { $0["type"]?.stringValue } == ["AUTHORIZATION", "CAPTURE", "REFUND"])
        }
    }

    @Test("an INVALID_REQUEST after an earlier attempt that may have been processed is unknown, never a refusal")
    func laterRefusalAfterLostAttempt() async throws {
        try await Self.withAuthorisedOrder { server, client in
            let path = "/api/rest/version/100/merchant/TEST_12345/order/order/transaction/cap-1"
            try server.enqueue(LoopbackEmulator.Fault.drop.onPath(path))
            try server.enqueue(
                LoopbackEmulator.Fault.json(400, #"{"result":"ERROR","error":{"cause":"INVALID_REQUEST","explanation":"x"}}"#).onPath(path))
            let outcome = try await client.perform(try Self.capture("cap-1", 5000))
            guard case .unknown(_, let error) = outcome else { Issue.record("\(outcome)"); return }
            #expect(error.code == .serverOutcomeUnknown && error.underlying?.code == .mastercardInvalidRequest)
        }
    }

    @Test("a 409 that names no gateway error is unknown; one with INVALID_REQUEST is read like a 400")
    func conflictStatus() async throws {
        try await Self.withAuthorisedOrder { server, client in
            let path = "/api/rest/version/100/merchant/TEST_12345/order/order/transaction/"
            try server.enqueue(LoopbackEmulator.Fault.status(409, body: "").onPath(path + "cap-1"))
            let outcome = try await client.perform(try Self.capture("cap-1", 100))
            guard case .unknown(let keys, let error) = outcome else { Issue.record("\(outcome)"); return }
            #expect(error.code == .serverOutcomeUnknown && keys.transactionID == "cap-1")
            let invalid = #"{"result":"ERROR","error":{"cause":"INVALID_REQUEST","explanation":"x"}}"#
            try server.enqueue(LoopbackEmulator.Fault.json(409, invalid).onPath(path + "cap-2"))
            #expect(await Self.refusal(client, try Self.capture("cap-2", 100, order: "order"))?.code == .mastercardInvalidRequest)
        }
    }

    @Test("the README flows: authorise → capture → refund, and authorise → void; no card number or password in any text")
    func readmeFlows() async throws {
        try await Self.withAuthorisedOrder { _, client in
            let capture = try await client.perform(try Self.capture("cap-1", 2345)).get()
            let refund = try await client.perform(try Self.refund("ref-1", 2345)).get()
            #expect(capture.orderStatus == "CAPTURED" && refund.orderStatus == "REFUNDED")
            Canary.check(capture.description + refund.description + String(decoding: refund.maskedJSON, as: UTF8.self))
        }
        try await Self.withAuthorisedOrder { _, client in
            let void = try await client.perform(try .void(orderID: "order", transactionID: "void-1", targetTransactionID: "auth-1")).get()
            #expect(void.orderStatus == "CANCELLED")
            let error = await Self.refusal(client, try Self.capture("cap-1", 1))
            Canary.check(String(describing: error) + void.description)
        }
    }
}
