import CSECore
import CSEHTTP
import CSEServerAPI
import CSEValidation
import Testing
import TestSupport

/// Issue #26, "Proof": on every platform, the faults that lose an outcome after the platform
/// processed the request — the connection cut once the request was read, a 2xx whose body
/// cannot be read, and a 500 — leave an outcome that is either settled by the platform's own safe retry or
/// `unknown` with the keys that settle it; and settling it creates nothing twice.
@Suite("A lost answer on every platform: unknown with its keys, or settled by a safe retry; never a second payment")
struct LostOutcomeTests {
    enum Fault: String, CaseIterable { case cut, unreadable, serverError }

    static func fault(_ fault: Fault, path: String) -> LoopbackEmulator.Fault {
        let answer: LoopbackEmulator.Fault =
            switch fault {
            case .cut: .drop
            case .unreadable: .malformedBody
            case .serverError: .status(500, body: "<html>internal error</html>")
            }
        return answer.afterRoute().onPath(path)
    }

    @Test(
        "Mastercard: a cut connection is repeated with the same ids (the gateway replays); an unreadable 2xx is unknown, RETRIEVE settles it",
        arguments: Fault.allCases)
    func mastercard(fault: Fault) async throws {
        try await withServerEmulator("mastercard", ServerEmulatorTests.mastercardArguments) { server in
            let client = try MastercardTransactionTests.client(server)
            let session = try await MastercardTransactionTests.filledSession(client)
            try server.enqueue(Self.fault(fault, path: "/api/rest/version/100/merchant/TEST_12345/order"))
            let outcome = try await client.perform(try MastercardTransactionTests.pay(session))
            switch (fault, outcome) {
            case (.cut, .succeeded(let transaction, _)):
                #expect(transaction.isApproved)
            case (.unreadable, .unknown(let keys, let error)), (.serverError, .unknown(let keys, let error)):
                let cause: CSEError.Code = fault == .unreadable ? .serverAPIInvalidResponse : .serverAPIUnexpectedStatus
                #expect(keys.orderID == "order-1" && keys.transactionID == "pay-1" && error.underlying?.code == cause)
                #expect(try await client.retrieveTransaction(orderID: "order-1", transactionID: "pay-1").isApproved)
            default:
                Issue.record("\(fault): \(outcome)")
            }
            #expect(try JSONValue.parse(await client.retrieveOrder(orderID: "order-1"))["transaction"]?.arrayValue?.count == 1)
        }
    }

    @Test("Paysafe: unknown naming the reference; the lookup finds one payment and a retry returns it", arguments: Fault.allCases)
    func paysafe(fault: Fault) async throws {
        try await withServerEmulator("paysafe", PaysafePaymentTests.arguments) { server in
            try server.enqueue(Self.fault(fault, path: "/paymenthub/v1/payments"))
            let client = try PaysafePaymentTests.client(server)
            guard case .unknown(let keys, _) = try await client.pay(try PaysafePaymentTests.handlePayment()) else {
                Issue.record("\(fault): not unknown")
                return
            }
            #expect(keys.merchantReference == "order-1")
            let found = try await client.payments(merchantReference: "order-1")
            #expect(found.count == 1)
            #expect(try await client.pay(try PaysafePaymentTests.handlePayment()).get().id == found.first?.id)
            #expect(try await client.payments(merchantReference: "order-1").count == 1)
        }
    }

    @Test(
        "APS: unknown naming the reference; CHECK_STATUS settles it and a repeated reference is the first order", arguments: Fault.allCases)
    func aps(fault: Fault) async throws {
        try await withServerEmulator("aps", ServerEmulatorTests.apsArguments) { server in
            try server.enqueue(Self.fault(fault, path: "/FortAPI/paymentApi"))
            let client = try APSPaymentTests.client(server)
            guard case .unknown(let keys, _) = try await client.pay(try APSPaymentTests.purchase()) else {
                Issue.record("\(fault): not unknown")
                return
            }
            #expect(keys.merchantReference == "ORD-0001")
            let status = try await client.checkStatus(merchantReference: "ORD-0001")
            #expect(status.isApproved)
            #expect(try await client.pay(try APSPaymentTests.purchase()).get().fortID == status.fortID)
        }
    }

    @Test(
        "Worldline: a cut connection is repeated with the same key (replayed); an unreadable 2xx is unknown and the same key settles it",
        arguments: Fault.allCases)
    func worldline(fault: Fault) async throws {
        try await withServerEmulator("worldline", ServerEmulatorTests.worldlineArguments) { server in
            try server.enqueue(Self.fault(fault, path: "/v2/1234/payments"))
            let client = try ServerEmulatorTests.worldline(server)
            let key = try IdempotenceKey()
            let outcome = try await client.createPayment(try ServerEmulatorTests.payment(), idempotenceKey: key)
            switch (fault, outcome) {
            case (.cut, .succeeded(let payment, _)):
                #expect(payment.id == "3066019701_0")
            case (.unreadable, .unknown(let keys, _)), (.serverError, .unknown(let keys, _)):
                #expect(keys.idempotenceKey == key)
                #expect(try await client.createPayment(try ServerEmulatorTests.payment(), idempotenceKey: key).get().id == "3066019701_0")
            default:
                Issue.record("\(fault): \(outcome)")
            }
            try await PaymentOutcomeNeverLostTests.expectPaymentsCreated(1, client)
        }
    }
}
