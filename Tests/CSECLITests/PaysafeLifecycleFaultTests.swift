import CSECore
import Testing
import TestSupport

/// Issue #33, "Proof", on Paysafe: the fault matrix of the payment calls (PaymentFaultMatrixTests)
/// extended to `cse paysafe settle`, `refund` and `void`. Each fault loses the answer after the
/// emulator made the operation; Paysafe has no replay (no idempotence key, POSTs never
/// repeated), so every one exits 75 with the reference on stderr and the lookup that settles it,
/// never 1. Settling then makes nothing twice: the lookup lists one operation, and running the
/// same command again exits 0 with that operation (Paysafe refuses the duplicate, 409, and the
/// command reports the first).
@Suite("cse paysafe settle, refund and void: a cut, an unreadable 2xx or a 500 after processing exits 75, never 1; settling makes one")
struct PaysafeLifecycleFaultTests {
    enum Command: String, CaseIterable {
        case settle, refund, void

        var kind: String { self == .void ? "void" : self == .settle ? "settlement" : "refund" }
        var list: String { self == .void ? "voidAuths" : self == .settle ? "settlements" : "refunds" }
    }

    @Test("each fault on each new command", arguments: Command.allCases, PaymentFaultMatrixTests.Fault.allCases)
    func fault(command: Command, fault: PaymentFaultMatrixTests.Fault) throws {
        let setup = try PaysafeLifecycleCommandTests.Setup()
        defer { setup.server.stop() }
        let payment = try setup.authorize("fault-\(command)")
        var target = payment
        var path = "/paymenthub/v1/payments/\(payment)/" + (command == .void ? "voidauths" : "settlements")
        if command == .refund {
            let settled = try setup.run(["paysafe", "settle", payment, "--amount", "1000", "--merchant-ref", "fault-refund-s"])
            target = try #require(try PaysafeLifecycleCommandTests.json(settled)["id"]?.stringValue)
            path = "/paymenthub/v1/settlements/\(target)/refunds"
        }
        let reference = "fault-\(command)-\(fault)"
        let line = ["paysafe", command.rawValue, target, "--amount", "300", "--merchant-ref", reference]
        try setup.server.enqueue(fault.emulatorFault.onPath(path))
        let lost = try setup.run(line)
        #expect(lost.status == 75, "\(command) \(fault): \(lost.err)")
        #expect(lost.err.hasPrefix("Error: server.outcomeUnknown") && lost.out.isEmpty, "\(lost.err)")
        #expect(lost.err.contains("merchantReference=\(reference)"))
        #expect(lost.err.contains("'cse paysafe lookup --kind \(command.kind) --merchant-ref \(reference)'"), "\(lost.err)")
        // Settled by lookup: the emulator made exactly one.
        let found = try setup.run(["paysafe", "lookup", "--kind", command.kind, "--merchant-ref", reference])
        let listed = try #require(try PaysafeLifecycleCommandTests.json(found)[command.list]?.arrayValue)
        #expect(found.status == 0 && listed.count == 1 && listed[0]["amount"]?.intValue == 300, "\(found.err)")
        // The same command again is a duplicate: exit 0 with the one operation, and still one.
        let again = try setup.run(line)
        #expect(try again.status == 0 && (PaysafeLifecycleCommandTests.json(again)["id"]) == listed[0]["id"], "\(again.err)")
        let after = try setup.run(["paysafe", "lookup", "--kind", command.kind, "--merchant-ref", reference])
        #expect(try (PaysafeLifecycleCommandTests.json(after)[command.list]?.arrayValue?.count) == 1)
    }

    @Test("a late answer (past --timeout) to a refund exits 75; the lookup shows the one refund, and a rerun reports it")
    func lateRefund() throws {
        let setup = try PaysafeLifecycleCommandTests.Setup()
        defer { setup.server.stop() }
        let payment = try setup.authorize("late-1")
        let settled = try setup.run(["paysafe", "settle", payment, "--amount", "1000", "--merchant-ref", "late-1-s"])
        let settlement = try #require(try PaysafeLifecycleCommandTests.json(settled)["id"]?.stringValue)
        try setup.server.enqueue(
            LoopbackEmulator.Fault.delay(milliseconds: 2500).afterRoute().onPath("/paymenthub/v1/settlements/\(settlement)/refunds"))
        let line = ["paysafe", "refund", settlement, "--amount", "250", "--merchant-ref", "late-1-r"]
        let late = try setup.run(line + ["--timeout", "1"])
        #expect(late.status == 75 && late.err.contains("merchantReference=late-1-r") && late.out.isEmpty, "\(late.err)")
        let found = try setup.run(["paysafe", "lookup", "--kind", "refund", "--merchant-ref", "late-1-r"])
        #expect(try PaysafeLifecycleCommandTests.json(found)["refunds"]?.arrayValue?.count == 1)
        let again = try setup.run(line)
        #expect(try again.status == 0 && PaysafeLifecycleCommandTests.json(again)["amount"]?.intValue == 250, "\(again.err)")
    }
}
