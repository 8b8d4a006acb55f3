import CSECore
import Testing
import TestSupport

/// Issue #33, "Proof", the fault matrix of `cse aps capture|refund|void`: the answer is lost after
/// APS booked the operation (the connection cut once the request was read, a 2xx body that is not
/// JSON, a 500). APS replays nothing and documents no idempotence for maintenance, so the command
/// never sends the operation again: it asks CHECK_STATUS, and exits 0 when the order shows the
/// operation booked; 75 with the keys when CHECK_STATUS cannot tell; never 1. The emulator's
/// ledger shows each operation booked once.
@Suite("cse aps capture, refund and void: a lost answer is settled by CHECK_STATUS (0) or unknown (75), never 1, never booked twice")
struct APSLifecycleFaultTests {
    typealias Fault = PaymentFaultMatrixTests.Fault
    static let path = "/FortAPI/paymentApi"

    @Test(
        "each fault after APS booked the capture, the refund and the void: exit 0 from CHECK_STATUS, each booked once",
        arguments: Fault.allCases)
    func settled(fault: Fault) throws {
        let (server, common) = try APSLifecycleCommandTests.start()
        defer { server.stop() }
        _ = try APSLifecycleCommandTests.authorize("ORD-F1", common)
        _ = try APSLifecycleCommandTests.authorize("ORD-F2", common)
        let operations: [([String], String, Bool)] = [
            (["capture", "--merchant-reference", "ORD-F1", "--amount", "50000", "--currency", "AED"], "04000", true),
            (
                ["refund", "--merchant-reference", "ORD-F1", "--amount", "700", "--currency", "AED", "--maintenance-reference", "RF-1"],
                "06000", true
            ),
            (["void", "--merchant-reference", "ORD-F2"], "08000", false),
        ]
        for (arguments, code, checksFirst) in operations {
            // A capture or refund first asks CHECK_STATUS (that request passes); the operation loses its answer.
            if checksFirst { try server.enqueue(LoopbackEmulator.Fault.delay(milliseconds: 0).onPath(Self.path)) }
            try server.enqueue(fault.emulatorFault.onPath(Self.path))
            let result = try CommandRunner.run(["aps"] + arguments + common)
            #expect(result.status == 0, "\(fault) \(arguments): \(result.err)")
            #expect(
                APSLifecycleCommandTests.field(result, "query_command") == "CHECK_STATUS"
                    && APSLifecycleCommandTests.field(result, "transaction_code") == code, "\(result.out)")
            ServerCommandTests.checkCanaries(result)
        }
        let first = try APSLifecycleCommandTests.ledger(server, "ORD-F1")
        #expect(first["operations"]?.arrayValue?.map { $0["command"]?.stringValue } == ["CAPTURE", "REFUND"])
        #expect(first["captured"]?.intValue == 50000 && first["refunded"]?.intValue == 700)
        let second = try APSLifecycleCommandTests.ledger(server, "ORD-F2")
        #expect(second["operations"]?.arrayValue?.count == 1 && second["voided"]?.boolValue == true)
    }

    @Test(
        "each fault, and CHECK_STATUS lost as well: exit 75 with the reference and the amount to look for; nothing sent twice",
        arguments: Fault.allCases)
    func unknown(fault: Fault) throws {
        let (server, common) = try APSLifecycleCommandTests.start()
        defer { server.stop() }
        let fortID = try APSLifecycleCommandTests.authorize("ORD-G1", common)
        try server.enqueue(LoopbackEmulator.Fault.delay(milliseconds: 0).onPath(Self.path))
        try server.enqueue(fault.emulatorFault.onPath(Self.path))
        try server.enqueue(LoopbackEmulator.Fault.drop.onPath(Self.path))
        let result = try CommandRunner.run(
            ["aps", "capture", "--merchant-reference", "ORD-G1", "--amount", "1000", "--currency", "AED", "--fort-id", fortID] + common)
        #expect(result.status == 75, "\(fault): \(result.err)")
        #expect(result.err.hasPrefix("Error: server.outcomeUnknown") && result.out.isEmpty, "\(result.err)")
        #expect(result.err.contains("merchantReference=ORD-G1, paymentId=\(fortID)") && result.err.contains("expectedCapturedAmount"))
        #expect(result.err.contains("'cse aps check-status --merchant-reference ORD-G1'"))
        ServerCommandTests.checkCanaries(result)
        // The capture was booked once and not sent again; check-status now shows the amount named.
        let ledger = try APSLifecycleCommandTests.ledger(server, "ORD-G1")
        #expect(ledger["operations"]?.arrayValue?.count == 1 && ledger["captured"]?.intValue == 1000)
        #expect(result.err.contains("expectedCapturedAmount=1000") || result.err.contains("\"expectedCapturedAmount\":\"1000\""))
        let status = try CommandRunner.run(["aps", "check-status", "--merchant-reference", "ORD-G1"] + common)
        #expect(status.status == 0 && APSLifecycleCommandTests.field(status, "captured_amount") == "1000", "\(status.err)")
    }
}
