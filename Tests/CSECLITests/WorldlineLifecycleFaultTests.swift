import CSECore
import Testing
import TestSupport

/// Issue #33, "Proof", Worldline through `cse`: the fault matrix of the payment calls
/// (``PaymentFaultMatrixTests``) for capture, refund and cancel. The emulator processes the
/// operation and then loses the answer: a cut connection is repeated by the transport with the
/// same idempotence key and replayed (exit 0); an unreadable 2xx or a 500 is an unknown outcome
/// (exit 75, the keys on stderr), never 1. Running the command again with the same key settles
/// it, and the emulator's ledger shows the operation booked once.
@Suite("cse worldline capture|refund|cancel: a cut, an unreadable 2xx or a 500 after processing exits 0 (replayed) or 75, never 1")
struct WorldlineLifecycleFaultTests {
    enum Operation: String, CaseIterable {
        case capture, refund, cancel

        /// The command line after the payment id.
        var arguments: [String] {
            switch self {
            case .capture: ["--amount", "1000", "--reference", "op-ref"]
            case .refund: ["--amount", "500", "--currency", "EUR", "--reference", "op-ref"]
            case .cancel: ["--amount", "300", "--currency", "EUR", "--reference", "op-ref"]
            }
        }

        /// The ledger's amount the operation moves, and its expected value after one booking.
        var booked: (member: String, amount: String) {
            switch self {
            case .capture: ("captured", "1000")
            case .refund: ("refunded", "500")
            case .cancel: ("cancelled", "300")
            }
        }
    }

    @Test("each fault on each operation", arguments: Operation.allCases, PaymentFaultMatrixTests.Fault.allCases)
    func fault(operation: Operation, fault: PaymentFaultMatrixTests.Fault) async throws {
        let fixture = try WorldlineLifecycleCommandTests.Fixture()
        defer { fixture.server.stop() }
        let id = try fixture.authorise()
        if operation == .refund { #expect(try fixture.run(["capture", id]).status == 0) }
        try fixture.server.enqueue(fault.emulatorFault.onPath("/v2/1234/payments/\(id)/\(operation.rawValue)"))
        let command = [operation.rawValue, id] + operation.arguments + ["--idempotence-key", "fault-\(operation.rawValue)"]
        let result = try fixture.run(command)
        let expected: Int32 = fault == .cut ? 0 : 75
        #expect(result.status == expected, "\(operation) \(fault): \(result.err)")
        if expected == 75 {
            #expect(result.err.hasPrefix("Error: server.outcomeUnknown") && result.out.isEmpty, "\(result.err)")
            for key in ["idempotenceKey=fault-\(operation.rawValue)", "merchantReference=op-ref", "paymentId=\(id)"] {
                #expect(result.err.contains(key), "\(operation) \(fault): \(key)")
            }
            #expect(result.err.contains("--idempotence-key"))
            // Settling: the same command with the same key is replayed, not booked again.
            let settled = try fixture.run(command)
            #expect(settled.status == 0, "\(operation) \(fault) settle: \(settled.err)")
        }
        let ledger = try await fixture.ledger(id)
        #expect(ledger[operation.booked.member] == .number(operation.booked.amount), "\(operation) \(fault): \(ledger)")
        #expect(ledger["operations"]?[operation.rawValue] == .number("1"), "\(operation) \(fault): \(ledger)")
    }
}
