import CSECore
import Testing
import TestSupport

/// Issue #33 on Paysafe through `cse`: `cse paysafe settle|refund|void` and `cse paysafe lookup
/// --kind` against the loopback emulator, which keeps the amounts and checks every rule itself.
@Suite("cse paysafe settle, refund, void and lookup --kind: the README's flows, each refusal, usage, no secret on any output")
struct PaysafeLifecycleCommandTests {
    /// A Paysafe emulator and the options every command of the tests takes.
    struct Setup {
        let server: LoopbackEmulator
        let common: [String]

        init(_ arguments: [String] = []) throws {
            (server, common) = try ServerCommandTests.paysafeEmulator(arguments)
        }

        /// `cse` with the common options.
        func run(_ arguments: [String]) throws -> CommandRunner.Result {
            let result = try CommandRunner.run(arguments + common)
            ServerCommandTests.checkCanaries(result)
            return result
        }

        /// An authorisation of `amount` (`cse paysafe pay --authorize-only`); its id.
        func authorize(_ reference: String, amount: Int = 1000) throws -> String {
            let paid = try run([
                "paysafe", "pay", "--amount", String(amount), "--currency", "EUR", "--merchant-ref", reference, "--payment-handle",
                "SCp7iW4xTkmN3Bq", "--authorize-only",
            ])
            try #require(paid.status == 0, "\(paid.err)")
            return try #require(try JSONValue.parse(Array(paid.stdout))["id"]?.stringValue)
        }
    }

    static func json(_ result: CommandRunner.Result) throws -> JSONValue { try JSONValue.parse(Array(result.stdout)) }

    @Test("authorise → capture → refund: a partial and a full settlement, two partial refunds, each exit 0 with its status")
    func authoriseCaptureRefund() throws {
        let setup = try Setup()
        defer { setup.server.stop() }
        let payment = try setup.authorize("flow-1")
        let partial = try setup.run(["paysafe", "settle", payment, "--amount", "600", "--merchant-ref", "flow-1-s1"])
        let settlement = try Self.json(partial)
        #expect(partial.status == 0 && settlement["status"]?.stringValue == "PENDING" && settlement["kind"]?.stringValue == "settlement")
        #expect(settlement["amount"]?.intValue == 600 && settlement["availableToRefund"]?.intValue == 600, "\(partial.err)")
        let rest = try setup.run(["paysafe", "settle", payment, "--amount", "400", "--merchant-ref", "flow-1-s2"])
        #expect(rest.status == 0, "\(rest.err)")
        let settlementID = try #require(settlement["id"]?.stringValue)
        let first = try setup.run(["paysafe", "refund", settlementID, "--amount", "200", "--merchant-ref", "flow-1-r1"])
        let second = try setup.run(["paysafe", "refund", settlementID, "--amount", "400", "--merchant-ref", "flow-1-r2"])
        #expect(first.status == 0 && second.status == 0, "\(first.err) \(second.err)")
        #expect(try Self.json(second)["kind"]?.stringValue == "refund" && Self.json(second)["status"]?.stringValue == "PENDING")
        let refunds = try setup.run(["paysafe", "lookup", "--kind", "refund", "--merchant-ref", "flow-1-r1"])
        #expect(try refunds.status == 0 && (Self.json(refunds)["refunds"]?.arrayValue?.count) == 1, "\(refunds.err)")
        let settled = try setup.run(["paysafe", "lookup", "--kind", "settlement", "--merchant-ref", "flow-1-s1"])
        #expect(try (Self.json(settled)["settlements"]?.arrayValue?.first?["availableToRefund"]?.intValue) == 0)
        // Nothing is left to refund of the first settlement.
        let over = try setup.run(["paysafe", "refund", settlementID, "--amount", "1", "--merchant-ref", "flow-1-r3"])
        #expect(over.status == 1 && over.err.contains("paysafe.apiError") && over.err.contains("3406") && over.out.isEmpty)
    }

    @Test("authorise → void: exit 0 with the COMPLETED void, found by lookup --kind void; settling afterwards is refused")
    func authoriseVoid() throws {
        let setup = try Setup()
        defer { setup.server.stop() }
        let payment = try setup.authorize("flow-2")
        let void = try setup.run(["paysafe", "void", payment, "--amount", "1000", "--merchant-ref", "flow-2-v"])
        #expect(try void.status == 0 && (Self.json(void)["status"]?.stringValue) == "COMPLETED", "\(void.err)")
        let found = try setup.run(["paysafe", "lookup", "--kind", "void", "--merchant-ref", "flow-2-v"])
        #expect(try (Self.json(found)["voidAuths"]?.arrayValue?.first?["kind"]?.stringValue) == "voidAuthorization")
        let settle = try setup.run(["paysafe", "settle", payment, "--amount", "1", "--merchant-ref", "flow-2-s"])
        #expect(settle.status == 1 && settle.err.contains("paysafe.apiError"), "\(settle.err)")
        // lookup without --kind still lists payments.
        let payments = try setup.run(["paysafe", "lookup", "--merchant-ref", "flow-2"])
        #expect(try (Self.json(payments)["payments"]?.arrayValue?.count) == 1)
    }

    @Test("refusals exit 1 with a stable code and nothing on stdout; a repeat of the same settlement exits 0 with the first one")
    func refusals() throws {
        let setup = try Setup()
        defer { setup.server.stop() }
        let payment = try setup.authorize("ref-2")
        let over = try setup.run(["paysafe", "settle", payment, "--amount", "1001", "--merchant-ref", "ref-2-s0"])
        #expect(over.status == 1 && over.err.hasPrefix("Error: paysafe.apiError") && over.err.contains("3406"), "\(over.err)")
        let unknown = try setup.run(["paysafe", "refund", "no-such-settlement", "--amount", "5", "--merchant-ref", "ref-2-r"])
        #expect(unknown.status == 1 && unknown.err.hasPrefix("Error: server.unknownPayment"), "\(unknown.err)")
        let settled = try setup.run(["paysafe", "settle", payment, "--amount", "500", "--merchant-ref", "ref-2-s1"])
        let id = try Self.json(settled)["id"]?.stringValue
        let reused = try setup.run(["paysafe", "settle", payment, "--amount", "300", "--merchant-ref", "ref-2-s1"])
        #expect(reused.status == 1 && reused.err.hasPrefix("Error: server.referenceInUse"), "\(reused.err)")
        let repeated = try setup.run(["paysafe", "settle", payment, "--amount", "500", "--merchant-ref", "ref-2-s1"])
        #expect(try repeated.status == 0 && (Self.json(repeated)["id"]?.stringValue) == id, "\(repeated.err)")
        let notAllowed = try setup.run(["paysafe", "void", payment, "--amount", "100", "--merchant-ref", "ref-2-v"])
        #expect(notAllowed.status == 1 && notAllowed.err.contains("3203"), "\(notAllowed.err)")
        for result in [over, unknown, reused, notAllowed] { #expect(result.out.isEmpty) }
    }

    @Test("a declined settlement exits 1 with paysafe.operationDeclined")
    func declined() throws {
        let setup = try Setup(["--mode", "decline-operations"])
        defer { setup.server.stop() }
        let payment = try setup.authorize("dec-2")
        let settle = try setup.run(["paysafe", "settle", payment, "--amount", "100", "--merchant-ref", "dec-2-s"])
        #expect(
            settle.status == 1 && settle.err.hasPrefix("Error: paysafe.operationDeclined") && settle.err.contains("3022"), "\(settle.err)")
    }

    @Test("the Card Payments API with --account: settle, refund and lookup under the account")
    func cardPayments() throws {
        let setup = try Setup()
        defer { setup.server.stop() }
        let tokenCommon = [
            "--credentials", try ServerCommandTests.file(#"{"apiKey":"\#(ServerCommandTests.paysafeKey)"}"#), "--endpoint",
            setup.server.baseURL,
        ]
        let token = try CommandRunner.run(
            ["paysafe", "token"] + tokenCommon, input: #"{"cardNum":"\#(ServerCommandTests.pan)","cardExpiry":{"month":12,"year":2030}}"#)
        let paymentToken = try #require(try Self.json(token)["paymentToken"]?.stringValue)
        let auth = try setup.run([
            "paysafe", "pay", "--amount", "700", "--currency", "EUR", "--merchant-ref", "card-3", "--token", paymentToken, "--account",
            "1001234567", "--authorize-only",
        ])
        let authID = try #require(try Self.json(auth)["id"]?.stringValue)
        let settle = try setup.run([
            "paysafe", "settle", authID, "--amount", "700", "--merchant-ref", "card-3-s", "--account", "1001234567",
        ])
        #expect(settle.status == 0, "\(settle.err)")
        let settlementID = try #require(try Self.json(settle)["id"]?.stringValue)
        let refund = try setup.run([
            "paysafe", "refund", settlementID, "--amount", "700", "--merchant-ref", "card-3-r", "--account", "1001234567",
        ])
        #expect(refund.status == 0, "\(refund.err)")
        let found = try setup.run(["paysafe", "lookup", "--kind", "refund", "--merchant-ref", "card-3-r", "--account", "1001234567"])
        #expect(try (Self.json(found)["refunds"]?.arrayValue?.count) == 1)
        let elsewhere = try setup.run(["paysafe", "lookup", "--kind", "refund", "--merchant-ref", "card-3-r"])
        #expect(try (Self.json(elsewhere)["refunds"]?.arrayValue?.count) == 0)
        ServerCommandTests.checkCanaries(token)
    }

    @Test(
        "usage: exit 64 without the id, the amount or the reference, with a non-numeric amount or an unknown --kind",
        arguments: [
            ["paysafe", "settle", "--amount", "5", "--merchant-ref", "r"], ["paysafe", "refund", "s", "--merchant-ref", "r"],
            ["paysafe", "void", "p", "--amount", "5"], ["paysafe", "settle", "p", "--amount", "5x", "--merchant-ref", "r"],
            ["paysafe", "lookup", "--merchant-ref", "r", "--kind", "capture"],
            ["paysafe", "void", "p", "q", "--amount", "5", "--merchant-ref", "r"],
        ])
    func usage(arguments: [String]) throws {
        let result = try CommandRunner.run(arguments + ["--credentials", "x", "--endpoint", "http://127.0.0.1:9"])
        #expect(result.status == 64 && result.out.isEmpty, "\(arguments): \(result.err)")
    }

    @Test("every new command's --help names its path, its options and the way an unknown outcome is settled")
    func help() throws {
        for (command, path) in [("settle", "/settlements"), ("refund", "/refunds"), ("void", "/voidauths")] {
            let help = try CommandRunner.run(["paysafe", command, "--help"])
            #expect(help.status == 0 && help.out.contains(path) && help.out.contains("--account") && help.out.contains("--merchant-ref"))
            #expect(help.out.contains("cse paysafe lookup --kind"), "\(command)")
        }
        let lookup = try CommandRunner.run(["paysafe", "lookup", "--help"])
        #expect(lookup.out.contains("--kind") && lookup.out.contains("voidauths"))
    }
}
