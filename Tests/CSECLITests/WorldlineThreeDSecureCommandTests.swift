import CSECore
@_spi(CustomTransport) import CSEHTTP
import Testing
import TestSupport

/// Issue #34, Worldline, through `cse`: a challenge is pending (exit 3) with the redirect or the
/// mobile parameters; the payer's return is checked by `get-payment --returnmac
/// --expected-returnmac` (constant time; a mismatch exits 1 and sends nothing), which then exits by
/// the payment's outcome. Each flow to its final outcome against the emulator's ACS.
@Suite("cse worldline 3-D Secure: challenge → return → resume, each exit code, against the emulator's ACS")
struct WorldlineThreeDSecureCommandTests {
    typealias Fixture = WorldlineSavedCardCommandTests.Fixture

    static let returnURL = "https://shop.example/3ds/return"
    static let pay = ["create-payment", "--amount", "2345", "--currency", "EUR", "--reference", "order-3ds"]

    static func json(_ result: CommandRunner.Result) throws -> JSONValue { try JSONValue.parse(Array(result.stdout)) }

    /// A challenged payment through `cse`: its id, the action's URL and returnmac.
    static func challenge(_ fixture: Fixture, _ extra: [String] = []) throws -> (id: String, url: String, returnMAC: String) {
        let result = try fixture.run(
            Self.pay + ["--return-url", Self.returnURL] + extra, input: WorldlineSavedCardCommandTests.sealed("4000000000001091"))
        #expect(result.status == 3, "\(result.err)")
        let output = try Self.json(result)
        #expect(output["outcome"] == .string("pending") && output["status"] == .string("REDIRECTED"))
        let action = try #require(output["action"])
        #expect(action["type"] == .string("redirect") && action["method"] == .string("GET"))
        let returnMAC = try #require(action["returnmac"]?.stringValue)
        #expect(!result.err.contains(returnMAC) && result.err.contains("get-payment"), "\(result.err)")
        return (try #require(output["id"]?.stringValue), try #require(action["url"]?.stringValue), returnMAC)
    }

    /// The payer at the emulator's ACS; the RETURNMAC of the browser's return, if it was sent back.
    static func payer(_ url: String, _ outcome: String) async throws -> String? {
        let answer = try await HTTPClient().send(HTTPRequest(method: .get, url: try HTTPURL(url + "?outcome=" + outcome)))
        guard let location = answer.headers["Location"], let query = location.split(separator: "?").last else { return nil }
        return query.split(separator: "&").first { $0.hasPrefix("RETURNMAC=") }.map { String($0.dropFirst("RETURNMAC=".count)) }
    }

    /// `get-payment ID --returnmac R --expected-returnmac S`.
    static func resume(_ fixture: Fixture, _ id: String, received: String, stored: String) throws -> CommandRunner.Result {
        try fixture.run(["get-payment", id, "--returnmac", received, "--expected-returnmac", stored])
    }

    @Test("challenge → the payer authenticates → return with RETURNMAC → get-payment checks it → 0 authorised, challenge results")
    func challengeReturnResume() async throws {
        let fixture = try Fixture()
        defer { fixture.server.stop() }
        let (id, url, stored) = try Self.challenge(fixture)
        let received = try #require(try await Self.payer(url, "success"))
        #expect(received == stored)
        let result = try Self.resume(fixture, id, received: received, stored: stored)
        #expect(result.status == 0, "\(result.err)")
        let payment = try Self.json(result)
        #expect(payment["status"] == .string("PENDING_CAPTURE") && payment["outcome"] == nil)
        let results = try #require(payment["threeDSecureResults"])
        #expect(results["flow"] == .string("challenge") && results["eci"] == .string("05") && results["liability"] == .string("issuer"))
        #expect(results["version"] == .string("2.2.0") && results["authenticationStatus"] == .string("Y"))
        // A replayed return passes the MAC check and only reads the payment again.
        let replay = try Self.resume(fixture, id, received: received, stored: stored)
        #expect(replay.status == 0, "\(replay.err)")
        #expect(try Self.json(replay)["status"] == .string("PENDING_CAPTURE"))
        let captured = try fixture.run(["capture", id])
        #expect(captured.status == 0, "\(captured.err)")
    }

    @Test("a tampered or foreign return: worldline.returnMACMismatch, exit 1, nothing sent; one of the two options alone is 64")
    func tamperedReturn() async throws {
        let fixture = try Fixture()
        defer { fixture.server.stop() }
        let (id, url, stored) = try Self.challenge(fixture)
        _ = try await Self.payer(url, "success")
        let before = try fixture.server.requests().count
        let tampered = try Self.resume(fixture, id, received: String(stored.reversed()), stored: stored)
        #expect(tampered.status == 1 && tampered.err.hasPrefix("Error: worldline.returnMACMismatch"), "\(tampered.err)")
        #expect(!tampered.err.contains(stored) && tampered.stdout.isEmpty)
        #expect(try fixture.server.requests().count == before)
        for half in [["--returnmac", stored], ["--expected-returnmac", stored]] {
            let usage = try fixture.run(["get-payment", id] + half)
            #expect(usage.status == 64, "\(usage.err)")
        }
        #expect(try fixture.server.requests().count == before)
    }

    @Test("the payer fails the challenge: get-payment exits 1 (worldline.paymentRejected); the payer abandons: exit 3, still pending")
    func failedAndAbandoned() async throws {
        let fixture = try Fixture()
        defer { fixture.server.stop() }
        let failed = try Self.challenge(fixture)
        let received = try #require(try await Self.payer(failed.url, "fail"))
        let refused = try Self.resume(fixture, failed.id, received: received, stored: failed.returnMAC)
        #expect(refused.status == 1 && refused.err.hasPrefix("Error: worldline.paymentRejected"), "\(refused.err)")

        let abandoned = try Self.challenge(fixture)
        #expect(try await Self.payer(abandoned.url, "abandon") == nil)
        let pending = try fixture.run(["get-payment", abandoned.id])
        #expect(pending.status == 3, "\(pending.err)")
        #expect(try Self.json(pending)["outcome"] == .string("pending"))
    }

    @Test("a challenged payment whose answer is lost: 75 with the key; the same key replays it as pending (3) with the same id and action")
    func lostChallengeAnswer() throws {
        let fixture = try Fixture()
        defer { fixture.server.stop() }
        let arguments = Self.pay + ["--return-url", Self.returnURL, "--idempotence-key", "3ds-lost-1"]
        let input = WorldlineSavedCardCommandTests.sealed("4000000000001091")
        try fixture.server.enqueue(.malformedBody.afterRoute().onPath("/v2/1234/payments"))
        let lost = try fixture.run(arguments, input: input)
        #expect(lost.status == 75 && lost.err.contains("idempotenceKey=3ds-lost-1"), "\(lost.err)")
        let replayed = try fixture.run(arguments, input: input)
        #expect(replayed.status == 3, "\(replayed.err)")
        let again = try fixture.run(arguments, input: input)
        let first = try Self.json(replayed)
        let second = try Self.json(again)
        #expect(first["id"] != nil && first["id"] == second["id"] && first["action"] == second["action"])
        #expect(try fixture.server.requests().filter { $0.path == "/v2/1234/payments" }.count == 3)
    }

    @Test("--device-channel app: pending with the mobile challenge parameters as the platform gave them")
    func mobileChallenge() throws {
        let fixture = try Fixture()
        defer { fixture.server.stop() }
        let result = try fixture.run(
            Self.pay + ["--return-url", "myshop://3ds", "--device-channel", "app"],
            input: WorldlineSavedCardCommandTests.sealed("4000000000001091"))
        #expect(result.status == 3, "\(result.err)")
        let action = try #require(try Self.json(result)["action"])
        #expect(action["type"] == .string("mobile-challenge"))
        #expect(action["parameters"]?["acsReferenceNumber"] == .string("3DS_LOA_ACS_201_13579"))
        #expect(action["parameters"]?["threeDServerTransactionId"] != nil)
        let sent = try JSONValue.parse(try #require(try fixture.server.requests().last).body)
        #expect(sent["cardPaymentMethodSpecificInput"]?["threeDSecure"]?["deviceChannel"] == .string("AppBased"))
    }

    @Test("frictionless 0, failed authentication 1, unavailable 0 (merchant liability), each with its results")
    func frictionlessFlows() throws {
        let fixture = try Fixture()
        defer { fixture.server.stop() }
        for (card, status, authentication) in [("4012888888881881", 0, "Y"), ("4000000000001018", 1, "N"), ("4000000000001067", 0, "U")] {
            let result = try fixture.run(Self.pay + ["--return-url", Self.returnURL], input: WorldlineSavedCardCommandTests.sealed(card))
            #expect(result.status == Int32(status), "\(card): \(result.err)")
            if status == 0 {
                let results = try Self.json(result)["threeDSecureResults"]
                #expect(results?["authenticationStatus"] == .string(authentication) && results?["flow"] == .string("frictionless"))
            }
        }
    }

    @Test("--tokenize with a challenge: pending, and creationOutput says no token was made")
    func tokenizeWithChallenge() throws {
        let fixture = try Fixture()
        defer { fixture.server.stop() }
        let result = try fixture.run(
            Self.pay + ["--return-url", Self.returnURL, "--tokenize"], input: WorldlineSavedCardCommandTests.sealed("4000000000001091"))
        #expect(result.status == 3, "\(result.err)")
        let output = try Self.json(result)
        #expect(output["creationOutput"]?["tokenizationSucceeded"] == .bool(false) && output["creationOutput"]?["token"] == nil)
    }

    @Test(
        "pending statuses exit 3 from create-payment and get-payment; PENDING_CAPTURE and CAPTURED stay 0",
        arguments: [("REDIRECTED", 3), ("PENDING_APPROVAL", 3), ("PENDING_FRAUD_APPROVAL", 3), ("CAPTURED", 0), ("PENDING_CAPTURE", 0)])
    func pendingStatuses(status: String, exit: Int) throws {
        let server = try ServerCommandTests.emulator(
            "worldline", ["--secret-api-key", ServerCommandTests.worldlineSecret, "--mode", "2xx-" + status])
        defer { server.stop() }
        let common = ["--credentials", try ServerCommandTests.worldlineCredentials(), "--endpoint", server.baseURL]
        let created = try CommandRunner.run(
            ["worldline"] + Self.pay + ["--skip-authentication"] + common, input: #"{"encryptedCustomerInput":"a.b.c.d.e"}"#)
        ServerCommandTests.checkCanaries(created)
        #expect(created.status == Int32(exit), "\(status): \(created.err)")
        let id = try #require(try Self.json(created)["id"]?.stringValue)
        let read = try CommandRunner.run(["worldline", "get-payment", id] + common, input: "")
        #expect(read.status == Int32(exit), "\(status): \(read.err)")
        if exit == 3 { #expect(try Self.json(read)["outcome"] == .string("pending")) }
    }
}
