import CSECore
import Testing
import TestSupport

/// `cse mastercard authenticate` and `cse mastercard pay --authentication-transaction` (issue #34
/// §3) against the loopback emulator: each 3-D Secure flow to its final exit status (0, 3 with the
/// HTML action, 1 with the stable codes, 75), the challenge completed by the payer's browser and
/// the payment afterwards, and no card number, password or session id on any output.
@Suite("cse mastercard authenticate, pay after 3-D Secure: exit 0, 3 (challenge), 1, 75, 64")
struct MastercardThreeDSecureCommandTests {
    struct Gateway {
        let server: LoopbackEmulator
        let common: [String]
        let session: String
        let card: String

        init(card: String = ServerCommandTests.pan) throws {
            server = try ServerCommandTests.emulator(
                "mastercard", ["--merchant-id", "TEST_12345", "--api-password", ServerCommandTests.mastercardPassword])
            let credentials = try ServerCommandTests.file(
                #"{"merchantId":"TEST_12345","apiPassword":"\#(ServerCommandTests.mastercardPassword)"}"#)
            common = ["--credentials", credentials, "--endpoint", server.baseURL]
            let created = try CommandRunner.run(["mastercard", "session", "create"] + common)
            session = try #require(try JSONValue.parse(Array(created.stdout))["session"]?["id"]?.stringValue)
            let update =
                #"{"sourceOfFunds.provided.card.number":"\#(card)","sourceOfFunds.provided.card.expiry":{"month":"12","year":"39"}}"#
            #expect(try CommandRunner.run(["mastercard", "session", "update", session] + common, input: update).status == 0)
            self.card = card
        }

        /// Runs `cse mastercard <arguments>`; checks that no secret, card number or session id
        /// is printed.
        func run(_ arguments: [String], sourceLocation: SourceLocation = #_sourceLocation) throws -> CommandRunner.Result {
            let result = try CommandRunner.run(["mastercard"] + arguments + common)
            ServerCommandTests.checkCanaries(result, sourceLocation: sourceLocation)
            for secret in [card, session] {
                #expect(
                    !result.out.contains(secret) && !result.err.contains(secret), "printed \(secret)", sourceLocation: sourceLocation)
            }
            return result
        }

        func authenticate(order: String = "order-1", browser: String? = nil) throws -> CommandRunner.Result {
            try run(
                [
                    "authenticate", "--order", order, "--transaction", "auth-1", "--session", session, "--amount", "2345", "--currency",
                    "EUR", "--return-url", "https://merchant.example/3ds/return",
                ] + (browser.map { ["--browser", $0] } ?? []))
        }

        func pay(order: String = "order-1", amount: String = "2345", _ extra: [String] = []) throws -> CommandRunner.Result {
            try run(
                [
                    "pay", "--order", order, "--transaction", "pay-1", "--amount", amount, "--currency", "EUR", "--session", session,
                    "--authentication-transaction", "auth-1",
                ] + extra)
        }
    }

    static func json(_ result: CommandRunner.Result) -> JSONValue { (try? JSONValue.parse(Array(result.stdout))) ?? .null }

    @Test("frictionless: authenticate exits 0 and says how to pay; pay retrieves the authentication and exits 0, liability issuer")
    func frictionless() throws {
        let gateway = try Gateway()
        defer { gateway.server.stop() }
        let browser = try ServerCommandTests.file(#"{"browser":"Mozilla/5.0","browserDetails":{"colorDepth":24},"ipAddress":"192.0.2.1"}"#)
        let authenticated = try gateway.authenticate(browser: browser)
        #expect(authenticated.status == 0, "\(authenticated.err)")
        #expect(Self.json(authenticated)["transaction"]?["authenticationStatus"]?.stringValue == "AUTHENTICATION_SUCCESSFUL")
        #expect(authenticated.err.contains("--authentication-transaction auth-1"))
        let paid = try gateway.pay()
        #expect(paid.status == 0, "\(paid.err)")
        #expect(Self.json(paid)["authenticationCheck"]?["liability"]?.stringValue == "issuer")
        let sent = try gateway.server.requests().filter { $0.method == "PUT" && $0.path.contains("/order/") }.map {
            try JSONValue.parse(Array($0.body))
        }
        #expect(sent.map { $0["apiOperation"]?.stringValue ?? "" } == ["INITIATE_AUTHENTICATION", "AUTHENTICATE_PAYER", "PAY"])
        #expect(sent[1]["device"]?["ipAddress"]?.stringValue == "192.0.2.1")
    }

    @Test("challenge: exit 3 with the HTML action; pay before the payer finishes exits 1 (pending), after it exits 0; retrieve 3 then 0")
    func challenge() throws {
        let gateway = try Gateway(card: "5555555555554444")
        defer { gateway.server.stop() }
        let pending = try gateway.authenticate()
        #expect(pending.status == 3, "\(pending.err)")
        let output = Self.json(pending)
        #expect(output["outcome"]?.stringValue == "pending" && output["action"]?["type"]?.stringValue == "html")
        let html = try #require(output["action"]?["html"]?.stringValue)
        #expect(html.contains("/acs/order-1/auth-1"))
        #expect(pending.err.contains("UNSIGNED") && pending.err.contains("--authentication-transaction auth-1"), "\(pending.err)")
        #expect(try gateway.run(["retrieve", "order-1", "auth-1"]).status == 3)
        let early = try gateway.pay()
        #expect(early.status == 1 && early.err.hasPrefix("Error: mastercard.authentication.pending") && early.out.isEmpty, "\(early.err)")
        #expect(try gateway.server.requests().last?.method == "GET")
        let returned = try MastercardChallenge.complete(html)
        #expect(returned.fields["result"] == "SUCCESS")
        #expect(try gateway.run(["retrieve", "order-1", "auth-1"]).status == 0)
        let paid = try gateway.pay()
        #expect(paid.status == 0 && Self.json(paid)["response"]?["gatewayCode"]?.stringValue == "APPROVED", "\(paid.err)")
    }

    @Test("a challenge the payer fails: pay exits 1 with mastercard.authentication.doNotProceed, even with --allow-unauthenticated")
    func challengeFailed() throws {
        let gateway = try Gateway(card: "5555555555554444")
        defer { gateway.server.stop() }
        let html = try #require(Self.json(try gateway.authenticate())["action"]?["html"]?.stringValue)
        _ = try MastercardChallenge.complete(html, outcome: "N")
        let refused = try gateway.pay(["--allow-unauthenticated"])
        #expect(refused.status == 1 && refused.err.hasPrefix("Error: mastercard.authentication.doNotProceed"), "\(refused.err)")
        #expect(try gateway.run(["retrieve", "order-1", "auth-1"]).status == 1)
    }

    @Test("unavailable: authenticate exits 1 (unavailable); pay exits 1 without --allow-unauthenticated, 0 with it, liability merchant")
    func unavailable() throws {
        let gateway = try Gateway(card: "4012888888881881")
        defer { gateway.server.stop() }
        let refused = try gateway.authenticate()
        #expect(refused.status == 1 && refused.err.hasPrefix("Error: mastercard.authentication.unavailable"), "\(refused.err)")
        let plain = try gateway.pay()
        #expect(plain.status == 1 && plain.err.hasPrefix("Error: mastercard.authentication.unavailable"))
        let paid = try gateway.pay(["--allow-unauthenticated"])
        #expect(paid.status == 0, "\(paid.err)")
        #expect(Self.json(paid)["authenticationCheck"]?["liability"]?.stringValue == "merchant")
        #expect(paid.err.contains("the liability for fraud stays with you"))
    }

    @Test("do not proceed: authenticate exits 1 (doNotProceed); pay exits 1 even with --allow-unauthenticated")
    func doNotProceed() throws {
        let gateway = try Gateway(card: "4000000000000002")
        defer { gateway.server.stop() }
        let refused = try gateway.authenticate()
        #expect(refused.status == 1 && refused.err.hasPrefix("Error: mastercard.authentication.doNotProceed"), "\(refused.err)")
        let pay = try gateway.pay(["--allow-unauthenticated"])
        #expect(pay.status == 1 && pay.err.hasPrefix("Error: mastercard.authentication.doNotProceed"))
    }

    @Test("another amount exits 1 (amountMismatch), nothing sent; a lost answer exits 75 and the same command settles it")
    func mismatchAndLostAnswer() throws {
        let gateway = try Gateway()
        defer { gateway.server.stop() }
        try gateway.server.enqueue(
            LoopbackEmulator.Fault.status(500, body: "lost").afterRoute().onPath(
                "/api/rest/version/100/merchant/TEST_12345/order/order-1/transaction/auth-1"))
        let lost = try gateway.authenticate()
        #expect(lost.status == 75 && lost.err.contains("orderId=order-1, transactionId=auth-1"), "\(lost.err)")
        #expect(try gateway.authenticate().status == 0)
        let other = try gateway.pay(amount: "2000")
        #expect(other.status == 1 && other.err.hasPrefix("Error: mastercard.authentication.amountMismatch"), "\(other.err)")
        #expect(try gateway.server.requests().last?.method == "GET")
    }

    @Test(
        "usage (64), nothing sent: --allow-unauthenticated without --authentication-transaction; authenticate without --return-url",
        arguments: [
            [
                "pay", "--order", "o", "--transaction", "t", "--amount", "1", "--currency", "EUR", "--session", "S1",
                "--allow-unauthenticated",
            ],
            ["authenticate", "--order", "o", "--transaction", "a", "--session", "S1", "--amount", "1", "--currency", "EUR"],
        ])
    func usage(arguments: [String]) throws {
        let result = try CommandRunner.run(["mastercard"] + arguments + ["--credentials", "/nonexistent"])
        #expect(result.status == 64, "\(arguments): \(result.err)")
    }
}
