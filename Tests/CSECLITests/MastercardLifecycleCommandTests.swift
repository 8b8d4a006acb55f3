import CSECore
import Testing
import TestSupport

/// `cse mastercard capture|refund|void` (issue #33) against the loopback emulator: the answers
/// printed with card numbers masked and the status named, exit 0; each refusal exit 1 with the
/// shared code; no card number or password on any output.
@Suite("cse mastercard capture, refund, void: exit 0 with the status, 1 with the shared refusal codes, 64 on usage")
struct MastercardLifecycleCommandTests {
    /// A running emulator, the common options, and an order `order` authorised (transaction
    /// `auth-1`) for 23.45 EUR with a card put into a session.
    struct Gateway {
        let server: LoopbackEmulator
        let common: [String]

        init(mode: String? = nil, operation: String = "authorize") throws {
            server = try ServerCommandTests.emulator(
                "mastercard",
                ["--merchant-id", "TEST_12345", "--api-password", ServerCommandTests.mastercardPassword]
                    + (mode.map { ["--mode", $0] } ?? []))
            let (common, id) = try ServerCommandTests.mastercardFilledSession(server)
            self.common = common
            let authorised = try CommandRunner.run(
                [
                    "mastercard", operation, "--order", "order", "--transaction", "auth-1", "--amount", "2345", "--currency", "EUR",
                    "--session", id,
                ]
                    + common)
            #expect(authorised.status == 0, "\(authorised.err)")
        }

        /// Runs `cse mastercard <arguments>` with the common options; checks the canaries.
        func run(_ arguments: [String], sourceLocation: SourceLocation = #_sourceLocation) throws -> CommandRunner.Result {
            let result = try CommandRunner.run(["mastercard"] + arguments + common)
            ServerCommandTests.checkCanaries(result, sourceLocation: sourceLocation)
            return result
        }

        func capture(_ id: String, _ amount: String) throws -> CommandRunner.Result {
            try run(["capture", "--order", "order", "--transaction", id, "--amount", amount, "--currency", "EUR"])
        }

        func refund(_ id: String, _ amount: String) throws -> CommandRunner.Result {
            try run(["refund", "--order", "order", "--transaction", id, "--amount", amount, "--currency", "EUR"])
        }

        func void(_ id: String, target: String = "auth-1") throws -> CommandRunner.Result {
            try run(["void", "--order", "order", "--transaction", id, "--target", target])
        }

        /// The types of the order's transactions, from `cse mastercard retrieve order`.
        func ledger() throws -> [String] {
            let order = try JSONValue.parse(Array(try run(["retrieve", "order"]).stdout))
            return order["transaction"]?.arrayValue?.compactMap { $0["type"]?.stringValue } ?? []
        }
    }

    static func answer(_ result: CommandRunner.Result) throws -> JSONValue { try JSONValue.parse(Array(result.stdout)) }

    @Test("authorise → capture → refund: exit 0 each, the output names the gateway code and the order status")
    func captureThenRefund() throws {
        let gateway = try Gateway()
        defer { gateway.server.stop() }
        let capture = try gateway.capture("cap-1", "2345")
        #expect(capture.status == 0, "\(capture.err)")
        let captured = try Self.answer(capture)
        #expect(captured["response"]?["gatewayCode"]?.stringValue == "APPROVED" && captured["order"]?["status"]?.stringValue == "CAPTURED")
        #expect(captured["transaction"]?["type"]?.stringValue == "CAPTURE" && captured["transaction"]?["amount"]?.scalarText == "23.45")
        let refund = try gateway.refund("ref-1", "2345")
        let refunded = try Self.answer(refund)
        #expect(refund.status == 0 && refunded["order"]?["status"]?.stringValue == "REFUNDED")
        let sent = try JSONValue.parse(Array(try #require(gateway.server.requests().last { $0.method == "PUT" }).body))
        #expect(sent["apiOperation"]?.stringValue == "REFUND" && sent["sourceOfFunds"] == nil)
        #expect(try gateway.ledger() == ["AUTHORIZATION", "CAPTURE", "REFUND"])
    }

    @Test("authorise → void: exit 0, order CANCELLED; then a capture exits 1 with server.operationNotAllowed")
    func voidThenCapture() throws {
        let gateway = try Gateway()
        defer { gateway.server.stop() }
        let void = try gateway.void("void-1")
        #expect(void.status == 0, "\(void.err)")
        let voided = try Self.answer(void)
        #expect(voided["order"]?["status"]?.stringValue == "CANCELLED")
        let capture = try gateway.capture("cap-1", "100")
        #expect(capture.status == 1 && capture.err.hasPrefix("Error: server.operationNotAllowed") && capture.out.isEmpty)
    }

    @Test("partial capture, two partial refunds, and the amount refusals (server.amountExceedsRemaining, exit 1)")
    func partialAmounts() throws {
        let gateway = try Gateway()
        defer { gateway.server.stop() }
        #expect(try gateway.capture("cap-1", "2000").status == 0)
        let over = try gateway.capture("cap-2", "346")
        #expect(over.status == 1 && over.err.hasPrefix("Error: server.amountExceedsRemaining"), "\(over.err)")
        #expect(over.err.contains("caused by mastercard.invalidRequest"))
        #expect(try gateway.refund("ref-1", "1000").status == 0)
        #expect(try gateway.refund("ref-2", "1000").status == 0)
        let refundOver = try gateway.refund("ref-3", "1")
        #expect(refundOver.status == 1 && refundOver.err.hasPrefix("Error: server.amountExceedsRemaining"), "\(refundOver.err)")
        #expect(try gateway.ledger() == ["AUTHORIZATION", "CAPTURE", "REFUND", "REFUND"])
    }

    @Test("refusals: refund of nothing captured, void after capture, unknown order or target, a reused id: exit 1, stable codes")
    func refusals() throws {
        let gateway = try Gateway()
        defer { gateway.server.stop() }
        func expectRefused(_ result: CommandRunner.Result, _ code: String, sourceLocation: SourceLocation = #_sourceLocation) {
            #expect(
                result.status == 1 && result.err.hasPrefix("Error: \(code)") && result.out.isEmpty, "\(result.err)",
                sourceLocation: sourceLocation)
        }
        expectRefused(try gateway.refund("ref-1", "100"), "server.operationNotAllowed")
        expectRefused(try gateway.void("void-0", target: "no-such"), "server.unknownPayment")
        expectRefused(
            try gateway.run(["capture", "--order", "no-order", "--transaction", "c", "--amount", "1", "--currency", "EUR"]),
            "server.unknownPayment")
        #expect(try gateway.capture("cap-1", "100").status == 0)
        expectRefused(try gateway.capture("cap-1", "200"), "server.referenceInUse")
        expectRefused(try gateway.void("void-1"), "server.operationNotAllowed")
        #expect(try gateway.ledger() == ["AUTHORIZATION", "CAPTURE"])
    }

    @Test("a declined capture exits 1 (mastercard.transactionDeclined)")
    func declined() throws {
        let gateway = try Gateway(mode: "capture-declined")
        defer { gateway.server.stop() }
        let result = try gateway.capture("cap-1", "100")
        #expect(result.status == 1 && result.err.hasPrefix("Error: mastercard.transactionDeclined"), "\(result.err)")
    }

    @Test("usage errors exit 64: a missing --target, an amount that is not minor units, an unknown currency")
    func usage() throws {
        for arguments in [
            ["void", "--order", "o", "--transaction", "v"],
            ["capture", "--order", "o", "--transaction", "c", "--amount", "1.5", "--currency", "EUR"],
            ["refund", "--order", "o", "--transaction", "r", "--amount", "1", "--currency", "EURO"],
        ] {
            let result = try CommandRunner.run(["mastercard"] + arguments + ["--credentials", "/nonexistent"])
            #expect(result.status == 64, "\(arguments): \(result.err)")
        }
    }
}
