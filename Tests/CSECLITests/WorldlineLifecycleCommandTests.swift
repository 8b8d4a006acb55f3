import CSECore
@_spi(CustomTransport) import CSEHTTP
import Testing
import TestSupport

/// Issue #33, Worldline, through `cse`: `cse worldline capture|refund|cancel` against the loopback
/// emulator's order store; exit 0 accepted (the output names the status), 1 refused with a
/// stable code, 64 usage; no secret or card number on any output.
@Suite("cse worldline capture, refund and cancel end to end against the emulator's order store")
struct WorldlineLifecycleCommandTests {
    /// A running emulator, the common options, and a payment authorised through `cse`.
    struct Fixture {
        let server: LoopbackEmulator
        let common: [String]

        init(_ arguments: [String] = []) throws {
            server = try ServerCommandTests.emulator("worldline", ["--secret-api-key", ServerCommandTests.worldlineSecret] + arguments)
            common = ["--credentials", try ServerCommandTests.worldlineCredentials(), "--endpoint", server.baseURL]
        }

        /// `cse worldline create-payment` of EUR 23.45; the payment id.
        func authorise() throws -> String {
            let result = try CommandRunner.run(
                ["worldline", "create-payment", "--skip-authentication", "--amount", "2345", "--currency", "EUR", "--reference", "order-1"]
                    + common,
                input: #"{"encryptedCustomerInput":"a.b.c.d.e"}"#)
            #expect(result.status == 0, "\(result.err)")
            return try #require(try JSONValue.parse(Array(result.stdout))["id"]?.stringValue)
        }

        /// Runs `cse worldline <arguments>` with the common options; checks the canaries.
        func run(_ arguments: [String]) throws -> CommandRunner.Result {
            let result = try CommandRunner.run(["worldline"] + arguments + common, input: "")
            ServerCommandTests.checkCanaries(result)
            return result
        }

        /// The emulator's ledger of a payment.
        func ledger(_ id: String) async throws -> JSONValue {
            let answer = try await HTTPClient().send(
                HTTPRequest(method: .get, url: try HTTPURL(server.baseURL + "/test/worldline-ledger/" + id)))
            return try JSONValue.parse(answer.body)
        }
    }

    static func json(_ result: CommandRunner.Result) throws -> JSONValue { try JSONValue.parse(Array(result.stdout)) }

    @Test("authorise → capture → refund (the README's flow): 0 each, the statuses named, the key printed")
    func captureRefund() async throws {
        let fixture = try Fixture()
        defer { fixture.server.stop() }
        let id = try fixture.authorise()
        let capture = try fixture.run(["capture", id, "--reference", "cap-1", "--idempotence-key", "cap-key-1"])
        #expect(capture.status == 0, "\(capture.err)")
        let captured = try Self.json(capture)
        #expect(captured["status"]?.stringValue == "CAPTURE_REQUESTED" && captured["amount"]?.intValue == 2345)
        #expect(captured["paymentId"]?.stringValue == id && captured["idempotenceKey"]?.stringValue == "cap-key-1")
        #expect(captured["kind"]?.stringValue == "capture" && captured["merchantReference"]?.stringValue == "cap-1")
        let refund = try fixture.run(["refund", id, "--amount", "2345", "--currency", "EUR"])
        #expect(refund.status == 0, "\(refund.err)")
        #expect(try Self.json(refund)["status"]?.stringValue == "REFUND_REQUESTED")
        let ledger = try await fixture.ledger(id)
        #expect(ledger["captured"] == .number("2345") && ledger["refunded"] == .number("2345"))
    }

    @Test("authorise → void (the README's flow): 0, the payment CANCELLED, its card number masked")
    func void() async throws {
        let fixture = try Fixture()
        defer { fixture.server.stop() }
        let id = try fixture.authorise()
        let result = try fixture.run(["cancel", id])
        #expect(result.status == 0, "\(result.err)")
        let payment = try Self.json(result)
        #expect(payment["status"]?.stringValue == "CANCELLED" && payment["cardNumber"]?.stringValue == "411111******1111")
        #expect(try await fixture.ledger(id)["cancelled"] == .number("2345"))
    }

    @Test("partial capture then the final rest; two partial refunds; a partial void")
    func partials() async throws {
        let fixture = try Fixture(["--worldline-capture-status", "CAPTURED", "--worldline-refund-status", "REFUNDED"])
        defer { fixture.server.stop() }
        let id = try fixture.authorise()
        let first = try fixture.run(["capture", id, "--amount", "1000"])
        #expect(try first.status == 0 && Self.json(first)["status"]?.stringValue == "CAPTURED", "\(first.err)")
        #expect(try fixture.run(["capture", id, "--amount", "1345", "--final"]).status == 0)
        #expect(try fixture.run(["refund", id, "--amount", "500", "--currency", "EUR", "--reference", "rf-1"]).status == 0)
        let second = try fixture.run(["refund", id, "--amount", "700", "--currency", "EUR", "--reference", "rf-2"])
        #expect(try second.status == 0 && Self.json(second)["status"]?.stringValue == "REFUNDED")
        let ledger = try await fixture.ledger(id)
        #expect(ledger["captured"] == .number("2345") && ledger["refunded"] == .number("1200"))
        #expect(ledger["operations"]?["capture"] == .number("2") && ledger["operations"]?["refund"] == .number("2"))

        let other = try fixture.authorise()
        let partial = try fixture.run(["cancel", other, "--amount", "345", "--currency", "EUR"])
        #expect(try partial.status == 0 && Self.json(partial)["status"]?.stringValue == "PENDING_CAPTURE", "\(partial.err)")
        #expect(try await fixture.ledger(other)["cancelled"] == .number("345"))
    }

    @Test("refusals exit 1 with a stable code: over what is left, not allowed, unknown payment, a key reused for another amount")
    func refusals() async throws {
        let fixture = try Fixture()
        defer { fixture.server.stop() }
        let id = try fixture.authorise()
        let over = try fixture.run(["capture", id, "--amount", "2346"])
        #expect(over.status == 1 && over.err.hasPrefix("Error: worldline.apiError") && over.err.contains("INVALID_VALUE"), "\(over.err)")
        let uncaptured = try fixture.run(["refund", id, "--amount", "1", "--currency", "EUR"])
        #expect(uncaptured.status == 1 && uncaptured.err.hasPrefix("Error: server.operationNotAllowed"), "\(uncaptured.err)")
        let unknown = try fixture.run(["cancel", "9999999999_0"])
        #expect(unknown.status == 1 && unknown.err.hasPrefix("Error: server.unknownPayment"), "\(unknown.err)")
        #expect(try fixture.run(["capture", id, "--amount", "100", "--idempotence-key", "k-100"]).status == 0)
        let reused = try fixture.run(["capture", id, "--amount", "200", "--idempotence-key", "k-100"])
        #expect(reused.status == 1 && reused.err.hasPrefix("Error: server.referenceInUse"), "\(reused.err)")
        let afterCapture = try fixture.run(["cancel", id])
        #expect(afterCapture.status == 1 && afterCapture.err.hasPrefix("Error: server.operationNotAllowed"), "\(afterCapture.err)")
        let voided = try fixture.authorise()
        #expect(try fixture.run(["cancel", voided]).status == 0)
        let afterVoid = try fixture.run(["capture", voided])
        #expect(afterVoid.status == 1 && afterVoid.err.hasPrefix("Error: server.operationNotAllowed"), "\(afterVoid.err)")
        let ledger = try await fixture.ledger(id)
        #expect(ledger["captured"] == .number("100") && ledger["operations"]?["capture"] == .number("1"))
    }

    @Test("create-payment --authorization-mode sale is captured at approval: capture is not allowed, refund is")
    func sale() async throws {
        let fixture = try Fixture()
        defer { fixture.server.stop() }
        let created = try CommandRunner.run(
            [
                "worldline", "create-payment", "--skip-authentication", "--amount", "2345", "--currency", "EUR", "--authorization-mode",
                "sale",
            ] + fixture.common,
            input: #"{"encryptedCustomerInput":"a.b.c.d.e"}"#)
        #expect(created.status == 0, "\(created.err)")
        let id = try #require(try Self.json(created)["id"]?.stringValue)
        #expect(try Self.json(created)["status"]?.stringValue == "CAPTURED")
        #expect(try fixture.run(["capture", id]).status == 1)
        #expect(try fixture.run(["refund", id, "--amount", "2345", "--currency", "EUR"]).status == 0)
        #expect(try await fixture.ledger(id)["mode"]?.stringValue == "SALE")
    }

    @Test("a declined refund exits 1 with worldline.paymentRejected naming the refund's status")
    func declinedRefund() throws {
        let fixture = try Fixture(["--mode", "refund-declined"])
        defer { fixture.server.stop() }
        let id = try fixture.authorise()
        #expect(try fixture.run(["capture", id]).status == 0)
        let result = try fixture.run(["refund", id, "--amount", "100", "--currency", "EUR"])
        #expect(result.status == 1 && result.err.hasPrefix("Error: worldline.paymentRejected") && result.out.isEmpty, "\(result.err)")
    }

    @Test(
        "usage errors exit 64",
        arguments: [
            ["capture"], ["capture", "1_0", "--amount", "0"], ["capture", "1_0", "--amount", "ten"], ["refund", "1_0", "--amount", "5"],
            ["refund", "1_0", "--amount", "5", "--currency", "EURO"], ["cancel", "1_0", "--amount", "5"],
            ["cancel", "1_0", "--currency", "EUR"],
        ])
    func usage(arguments: [String]) throws {
        let result = try CommandRunner.run(
            ["worldline"] + arguments + ["--credentials", "/nonexistent", "--endpoint", "http://127.0.0.1:9"], input: "")
        #expect(result.status == 64, "\(arguments): \(result.err)")
        #expect(result.out.isEmpty)
    }
}
