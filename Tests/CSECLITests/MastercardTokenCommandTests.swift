import CSECore
import Testing
import TestSupport

/// `cse mastercard token create|get|delete` and `cse mastercard pay --token` (issue #35) against
/// the loopback emulator's token vault: the token printed whole as the result, the card masked,
/// exit 0/1/75/64 with stable codes, and no card number, password, session or token in any error
/// or stderr line.
@Suite("cse mastercard token create, get, delete; pay --token; agreements: exit 0, 1, 75, 64")
struct MastercardTokenCommandTests {
    struct Gateway {
        let server: LoopbackEmulator
        let common: [String]
        let session: String

        init(mode: String? = nil) throws {
            server = try ServerCommandTests.emulator(
                "mastercard",
                ["--merchant-id", "TEST_12345", "--api-password", ServerCommandTests.mastercardPassword]
                    + (mode.map { ["--mode", $0] } ?? []))
            (common, session) = try ServerCommandTests.mastercardFilledSession(server)
        }

        /// Runs `cse mastercard <arguments>` with the common options; checks the canaries (and
        /// that no error line names `hidden`: a token, a session id).
        func run(
            _ arguments: [String], hidden: [String] = [], sourceLocation: SourceLocation = #_sourceLocation
        ) throws
            -> CommandRunner.Result
        {
            let result = try CommandRunner.run(["mastercard"] + arguments + common)
            ServerCommandTests.checkCanaries(result, sourceLocation: sourceLocation)
            for secret in hidden + [session] {
                #expect(!result.err.contains(secret), "stderr names \(secret)", sourceLocation: sourceLocation)
            }
            return result
        }

        func pay(order: String, _ source: [String], _ extra: [String] = [], hidden: [String] = []) throws -> CommandRunner.Result {
            try run(
                ["pay", "--order", order, "--transaction", "pay-1", "--amount", "1500", "--currency", "EUR"] + source + extra,
                hidden: hidden)
        }
    }

    /// Standard output as JSON (`null` when it is not).
    static func json(_ result: CommandRunner.Result) -> JSONValue { (try? JSONValue.parse(Array(result.stdout))) ?? .null }

    @Test("pay with the session, save its card, pay again with --token, delete it, and a payment with it exits 1")
    func lifecycle() throws {
        let gateway = try Gateway()
        defer { gateway.server.stop() }
        #expect(try gateway.pay(order: "order-1", ["--session", gateway.session]).status == 0)
        let created = try gateway.run(["token", "create", "--session", gateway.session])
        #expect(created.status == 0, "\(created.err)")
        let saved = Self.json(created)
        let token = try #require(saved["token"]?.stringValue)
        #expect(saved["card"]?["number"]?.stringValue == "411111xxxxxx1111" && saved["card"]?["expiry"]?.stringValue == "1239")
        #expect(saved["newToken"] == .bool(true) && saved["status"]?.stringValue == "VALID")
        let again = try gateway.run(["token", "create", "--session", gateway.session])
        #expect(Self.json(again)["token"]?.stringValue == token && Self.json(again)["newToken"] == .bool(false))
        let paid = try gateway.pay(order: "order-2", ["--token", token], hidden: [token])
        #expect(paid.status == 0 && Self.json(paid)["response"]?["gatewayCode"]?.stringValue == "APPROVED", "\(paid.err)")
        let got = try gateway.run(["token", "get", token], hidden: [token])
        #expect(got.status == 0 && Self.json(got)["card"]?["brand"]?.stringValue == "VISA")
        let deleted = try gateway.run(["token", "delete", token], hidden: [token])
        #expect(deleted.status == 0 && deleted.out == #"{"deleted":true}"# + "\n", "\(deleted.err)")
        let refused = try gateway.pay(order: "order-3", ["--token", token], hidden: [token])
        #expect(refused.status == 1 && refused.err.hasPrefix("Error: mastercard.tokenUnknown") && refused.out.isEmpty, "\(refused.err)")
        let gone = try gateway.run(["token", "get", token], hidden: [token])
        #expect(gone.status == 1 && gone.err.hasPrefix("Error: mastercard.tokenUnknown"))
        #expect(try gateway.run(["token", "delete", token], hidden: [token]).status == 1)
    }

    @Test("--token-id: create, then update with a renewed card (newToken false), get shows the new expiry")
    func merchantIDUpdate() throws {
        let gateway = try Gateway()
        defer { gateway.server.stop() }
        let created = try gateway.run(["token", "create", "--session", gateway.session, "--token-id", "cust-7"])
        #expect(created.status == 0 && Self.json(created)["token"]?.stringValue == "cust-7", "\(created.err)")
        let renewed = try CommandRunner.run(["mastercard", "session", "create"] + gateway.common)
        let id = try #require(Self.json(renewed)["session"]?["id"]?.stringValue)
        let card =
            #"{"sourceOfFunds.provided.card.number":"5123450000000008","sourceOfFunds.provided.card.expiry":{"month":"05","year":"31"}}"#
        #expect(try CommandRunner.run(["mastercard", "session", "update", id] + gateway.common, input: card).status == 0)
        let updated = try gateway.run(["token", "create", "--session", id, "--token-id", "cust-7"], hidden: [id])
        #expect(updated.status == 0 && Self.json(updated)["newToken"] == .bool(false), "\(updated.err)")
        let got = Self.json(try gateway.run(["token", "get", "cust-7"]))
        #expect(got["card"]?["expiry"]?.stringValue == "0531" && got["card"]?["number"]?.stringValue == "512345xxxxxx0008")
    }

    @Test("refused by the repository: exit 1 mastercard.tokenRefused; a session without a card: exit 1 mastercard.invalidRequest")
    func refusals() throws {
        let refusing = try Gateway(mode: "token-refused")
        defer { refusing.server.stop() }
        let refused = try refusing.run(["token", "create", "--session", refusing.session])
        #expect(refused.status == 1 && refused.err.hasPrefix("Error: mastercard.tokenRefused") && refused.out.isEmpty, "\(refused.err)")
        let gateway = try Gateway()
        defer { gateway.server.stop() }
        let empty = Self.json(try CommandRunner.run(["mastercard", "session", "create"] + gateway.common))
        let id = try #require(empty["session"]?["id"]?.stringValue)
        let noCard = try gateway.run(["token", "create", "--session", id], hidden: [id])
        #expect(noCard.status == 1 && noCard.err.hasPrefix("Error: mastercard.invalidRequest"), "\(noCard.err)")
    }

    @Test("a lost answer: exit 75; with --token-id stderr names the id and 'token get' settles it; without, stderr says what to check")
    func lostAnswer() throws {
        let gateway = try Gateway()
        defer { gateway.server.stop() }
        try gateway.server.enqueue(
            LoopbackEmulator.Fault.status(500, body: "oops").afterRoute().onPath("/api/rest/version/100/merchant/TEST_12345/token/cust-9"))
        let lost = try gateway.run(["token", "create", "--session", gateway.session, "--token-id", "cust-9"])
        #expect(lost.status == 75 && lost.out.isEmpty, "\(lost.err)")
        #expect(lost.err.contains("'cse mastercard token get ID'") && lost.err.contains("merchantReference=cust-9"), "\(lost.err)")
        #expect(try gateway.run(["token", "get", "cust-9"]).status == 0)
        try gateway.server.enqueue(
            LoopbackEmulator.Fault.malformedBody.afterRoute().onPath("/api/rest/version/100/merchant/TEST_12345/token"))
        let system = try gateway.run(["token", "create", "--session", gateway.session])
        #expect(system.status == 75 && system.err.contains("Merchant Administration"), "\(system.err)")
        #expect(try gateway.run(["token", "create", "--session", gateway.session]).status == 0)
    }

    @Test("a cut connection after the gateway stored the card: --token-id (a PUT) is repeated and exits 0; a POST is not, and exits 75")
    func cutConnection() throws {
        let gateway = try Gateway()
        defer { gateway.server.stop() }
        try gateway.server.enqueue(
            LoopbackEmulator.Fault.drop.afterRoute().onPath("/api/rest/version/100/merchant/TEST_12345/token/cust-cut"))
        let repeated = try gateway.run(["token", "create", "--session", gateway.session, "--token-id", "cust-cut"])
        #expect(repeated.status == 0 && Self.json(repeated)["token"]?.stringValue == "cust-cut", "\(repeated.err)")
        #expect(try gateway.server.requests().filter { $0.path.hasSuffix("/token/cust-cut") }.count == 2)
        try gateway.server.enqueue(LoopbackEmulator.Fault.drop.afterRoute().onPath("/api/rest/version/100/merchant/TEST_12345/token"))
        let cut = try gateway.run(["token", "create", "--session", gateway.session])
        #expect(cut.status == 75 && cut.err.hasPrefix("Error: server.outcomeUnknown") && cut.out.isEmpty, "\(cut.err)")
    }

    @Test("an agreement: the first payment says it set it up; a merchant-initiated payment with the token is marked MERCHANT")
    func agreements() throws {
        let gateway = try Gateway()
        defer { gateway.server.stop() }
        let first = try gateway.pay(
            order: "order-a1", ["--session", gateway.session], ["--set-up-agreement", "recurring", "--agreement", "sub-1"])
        #expect(first.status == 0, "\(first.err)")
        #expect(Self.json(first)["agreement"]?.serialized == #"{"id":"sub-1","type":"RECURRING","setUp":true}"#)
        let token = try #require(Self.json(try gateway.run(["token", "create", "--session", gateway.session]))["token"]?.stringValue)
        for (n, kind) in ["recurring", "unscheduled", "instalment"].enumerated() {
            let later = try gateway.pay(
                order: "order-m\(n)", ["--token", token], ["--merchant-initiated", kind, "--agreement", "sub-1"], hidden: [token])
            #expect(later.status == 0, "\(later.err)")
            #expect(Self.json(later)["agreement"]?["merchantInitiated"] == .bool(true))
            let sent = try JSONValue.parse(Array(try #require(gateway.server.requests().last { $0.method == "PUT" }).body))
            #expect(sent["transaction"]?["source"]?.stringValue == "MERCHANT")
            #expect(sent["agreement"]?["type"]?.stringValue == ["RECURRING", "UNSCHEDULED", "INSTALLMENT"][n])
        }
    }

    @Test(
        "usage (64), nothing sent: a merchant-initiated payment without a token, without an agreement, with 3-D Secure; an agreement alone; two sources",
        arguments: [
            ["--session", "S1", "--merchant-initiated", "recurring", "--agreement", "a"],
            ["--token", "4111110000011111", "--merchant-initiated", "recurring"],
            ["--token", "4111110000011111", "--merchant-initiated", "recurring", "--agreement", "a", "--authentication-transaction", "x"],
            ["--token", "4111110000011111", "--agreement", "a"],
            ["--token", "4111110000011111", "--set-up-agreement", "recurring", "--merchant-initiated", "recurring", "--agreement", "a"],
            ["--token", "4111110000011111", "--session", "S1"],
            ["--token", "4111110000011111", "--merchant-initiated", "monthly", "--agreement", "a"],
            ["--wallet", "apple-pay", "--set-up-agreement", "recurring", "--agreement", "a"],
            ["--token", "../x"],
        ])
    func usage(arguments: [String]) throws {
        let result = try CommandRunner.run(
            [
                "mastercard", "pay", "--order", "o", "--transaction", "t", "--amount", "1", "--currency", "EUR", "--credentials",
                "/nonexistent",
            ]
                + arguments)
        #expect(result.status == 64, "\(arguments): \(result.err)")
        #expect(!result.err.contains("4111110000011111"))
    }
}
