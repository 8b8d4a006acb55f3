import CSECore
import Testing
import TestSupport

/// Issue #33, "Proof", the fault matrix of the payment calls (``PaymentFaultMatrixTests``) for
/// `cse mastercard capture|refund|void`: the gateway processed the PUT, then the answer is lost —
/// the connection cut (the transport's identical repeat reads the first answer: exit 0), a 2xx
/// that is not JSON or a 500 (exit 75, `server.outcomeUnknown` with the order and transaction
/// ids); never 1. Settling with the same command creates nothing twice.
@Suite("cse mastercard capture, refund, void: a cut exits 0 (replayed), an unreadable 2xx or a 500 exits 75, never 1")
struct MastercardLifecycleFaultTests {
    enum Operation: String, CaseIterable {
        case capture, refund, void

        /// The command after an authorisation (and, for a refund, a capture `cap-0`).
        var arguments: [String] {
            switch self {
            case .capture: ["capture", "--order", "order", "--transaction", "op-1", "--amount", "1000", "--currency", "EUR"]
            case .refund: ["refund", "--order", "order", "--transaction", "op-1", "--amount", "1000", "--currency", "EUR"]
            case .void: ["void", "--order", "order", "--transaction", "op-1", "--target", "auth-1"]
            }
        }

        /// The order's transactions once the operation is booked once.
        var ledger: [String] {
            switch self {
            case .capture: ["AUTHORIZATION", "CAPTURE"]
            case .refund: ["AUTHORIZATION", "CAPTURE", "REFUND"]
            case .void: ["AUTHORIZATION", "VOID_AUTHORIZATION"]
            }
        }
    }

    @Test("each fault on each operation", arguments: Operation.allCases, PaymentFaultMatrixTests.Fault.allCases)
    func fault(operation: Operation, fault: PaymentFaultMatrixTests.Fault) throws {
        let gateway = try MastercardLifecycleCommandTests.Gateway()
        defer { gateway.server.stop() }
        if operation == .refund { #expect(try gateway.capture("cap-0", "2345").status == 0) }
        try gateway.server.enqueue(
            fault.emulatorFault.onPath("/api/rest/version/100/merchant/TEST_12345/order/order/transaction/op-1"))
        let result = try gateway.run(operation.arguments)
        #expect(result.status == (fault == .cut ? 0 : 75), "\(operation) \(fault): \(result.err)")
        if fault != .cut {
            #expect(result.err.hasPrefix("Error: server.outcomeUnknown") && result.out.isEmpty, "\(result.err)")
            #expect(result.err.contains("orderId=order, transactionId=op-1"), "\(result.err)")
            #expect(result.err.contains("'cse mastercard retrieve order op-1'"))
            // Settled by the same command: the first answer, replayed.
            let settled = try gateway.run(operation.arguments)
            #expect(settled.status == 0, "\(settled.err)")
        }
        #expect(try gateway.ledger() == operation.ledger)
    }
}
