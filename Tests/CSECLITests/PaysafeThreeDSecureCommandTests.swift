import CSECore
@_spi(CustomTransport) import CSEHTTP
import Testing
import TestSupport

/// Issue #34, section 5, through `cse paysafe pay --payment-handle H --payment-handle-id ID` and
/// `cse paysafe lookup`, against the emulator's 3-D Secure flows: each exit code (0, 1, 3, 64), a
/// challenge to its end (pending → the payer completes it → the same command → 0), and no token,
/// card number or secret on any output line but the result.
@Suite("cse paysafe pay with --payment-handle-id: 3-D Secure to the end, each refusal, pending is exit 3, lookup exits by outcome")
struct PaysafeThreeDSecureCommandTests {
    typealias Setup = PaysafeLifecycleCommandTests.Setup

    static func json(_ result: CommandRunner.Result) throws -> JSONValue { try JSONValue.parse(Array(result.stdout)) }

    static func pay(
        _ setup: Setup, _ reference: String, _ handle: (id: String, token: String, json: JSONValue)
    ) throws -> CommandRunner.Result {
        try setup.run([
            "paysafe", "pay", "--amount", "2345", "--currency", "EUR", "--merchant-ref", reference, "--payment-handle", handle.token,
            "--payment-handle-id", handle.id,
        ])
    }

    @Test("challenge: exit 3 with the redirect action and nothing sent; the payer completes it; the same command exits 0 with the results")
    func challenge() async throws {
        let setup = try Setup()
        defer { setup.server.stop() }
        let handle = try await PaysafeSavedCardCommandTests.handle(setup.server, pan: "4000000000001091", threeDS: true)
        let link = try #require(handle.json["links"]?.arrayValue?.first?["href"]?.stringValue)
        let pending = try Self.pay(setup, "3ds-1", handle)
        #expect(pending.status == 3, "\(pending.err)")
        let output = try Self.json(pending)
        #expect(output["outcome"]?.stringValue == "pending" && output["paymentHandleId"]?.stringValue == handle.id)
        #expect(
            output["action"] == .object(JSONObject([("type", .string("redirect")), ("url", .string(link)), ("method", .string("GET"))])))
        #expect(!pending.err.isEmpty && !pending.err.contains(handle.token) && !pending.out.contains(handle.token))
        #expect(try !setup.server.requests().contains { $0.method == "POST" && $0.path == "/paymenthub/v1/payments" })
        let completed = try await HTTPClient().send(HTTPRequest(method: .get, url: try HTTPURL(link + "?result=Y")))
        #expect(completed.status == 200)
        let paid = try Self.pay(setup, "3ds-1", handle)
        #expect(paid.status == 0, "\(paid.err)")
        let payment = try Self.json(paid)
        #expect(payment["status"]?.stringValue == "COMPLETED" && payment["authentication"]?["eci"]?.stringValue == "5")
        #expect(
            payment["authentication"]?["threeDResult"]?.stringValue == "Y"
                && payment["authentication"]?["threeDSecureVersion"]?.stringValue == "2.2.0")
        // Used: exit 1 naming COMPLETED; without the id, Paysafe's refusal names it too.
        let again = try Self.pay(setup, "3ds-2", handle)
        #expect(
            again.status == 1 && again.err.contains("paysafe.handleNotPayable") && again.err.contains("handleStatus=COMPLETED"),
            "\(again.err)")
        let withoutID = try setup.run([
            "paysafe", "pay", "--amount", "2345", "--currency", "EUR", "--merchant-ref", "3ds-3", "--payment-handle", handle.token,
        ])
        #expect(withoutID.status == 1 && withoutID.err.contains("handleStatus=COMPLETED") && !withoutID.err.contains(handle.token))
    }

    @Test("exit 1 naming the status, nothing sent: failed authentication, expired; another handle's token is paysafe.handleMismatch")
    func refusals() async throws {
        let setup = try Setup()
        defer { setup.server.stop() }
        let failed = try await PaysafeSavedCardCommandTests.handle(setup.server, pan: "4000000000001018", threeDS: true)
        let expiring = try await PaysafeSavedCardCommandTests.handle(setup.server, threeDS: true)
        _ = try await HTTPClient().send(
            HTTPRequest(method: .post, url: try HTTPURL(setup.server.baseURL + "/test/paysafe-handles/\(expiring.id)/expire")))
        let failedRun = try Self.pay(setup, "rf-1", failed)
        #expect(
            failedRun.status == 1 && failedRun.err.contains("paysafe.handleNotPayable") && failedRun.err.contains("handleStatus=FAILED"))
        let expiredRun = try Self.pay(setup, "rf-2", expiring)
        #expect(expiredRun.status == 1 && expiredRun.err.contains("handleStatus=EXPIRED") && expiredRun.out.isEmpty)
        let mismatch = try Self.pay(setup, "rf-3", (failed.id, expiring.token, failed.json))
        #expect(mismatch.status == 1 && mismatch.err.contains("paysafe.handleMismatch"), "\(mismatch.err)")
        for result in [failedRun, expiredRun, mismatch] {
            #expect(!result.err.contains(failed.token) && !result.err.contains(expiring.token))
        }
        #expect(try !setup.server.requests().contains { $0.method == "POST" && $0.path == "/paymenthub/v1/payments" })
        let usage = try setup.run([
            "paysafe", "pay", "--amount", "1", "--currency", "EUR", "--merchant-ref", "u", "--token", "t", "--account", "1001",
            "--payment-handle-id", "h",
        ])
        #expect(usage.status == 64 && usage.err.contains("--payment-handle-id needs --payment-handle"), "\(usage.err)")
    }

    @Test("frictionless and unavailable authentication exit 0 with their results")
    func frictionless() async throws {
        let setup = try Setup()
        defer { setup.server.stop() }
        let frictionless = try await PaysafeSavedCardCommandTests.handle(setup.server, pan: "4000000000001000", threeDS: true)
        let paid = try Self.pay(setup, "fr-1", frictionless)
        #expect(try paid.status == 0 && Self.json(paid)["authentication"]?["eci"]?.stringValue == "5", "\(paid.err)")
        let unavailable = try await PaysafeSavedCardCommandTests.handle(setup.server, pan: "4000000000001067", threeDS: true)
        let paidU = try Self.pay(setup, "un-1", unavailable)
        #expect(try paidU.status == 0 && Self.json(paidU)["authentication"]?["threeDResult"]?.stringValue == "U", "\(paidU.err)")
    }

    @Test("PROCESSING: pay and lookup exit 3 with outcome pending; a PENDING settlement still exits 0 from settle and lookup")
    func pendingStatuses() throws {
        let setup = try Setup(["--mode", "pending"])
        defer { setup.server.stop() }
        let pay = try setup.run([
            "paysafe", "pay", "--amount", "100", "--currency", "EUR", "--merchant-ref", "pe-1", "--payment-handle", "SCp7iW4xTkmN3Bq",
        ])
        #expect(
            try pay.status == 3 && Self.json(pay)["outcome"]?.stringValue == "pending"
                && Self.json(pay)["status"]?.stringValue == "PROCESSING", "\(pay.err)")
        #expect(try Self.json(pay)["action"] == nil)
        let lookup = try setup.run(["paysafe", "lookup", "--merchant-ref", "pe-1"])
        #expect(lookup.status == 3, "\(lookup.err)")
        let normal = try Setup()
        defer { normal.server.stop() }
        let payment = try normal.authorize("se-1")
        let settle = try normal.run(["paysafe", "settle", payment, "--amount", "1000", "--merchant-ref", "se-1-s"])
        #expect(try settle.status == 0 && Self.json(settle)["status"]?.stringValue == "PENDING")
        let found = try normal.run(["paysafe", "lookup", "--kind", "settlement", "--merchant-ref", "se-1-s"])
        #expect(found.status == 0)
        let completed = try normal.run(["paysafe", "lookup", "--merchant-ref", "se-1"])
        #expect(completed.status == 0)
    }
}
