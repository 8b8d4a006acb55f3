import CSECore
import Testing
import TestSupport

/// Issue #33 through `cse`, on Amazon Payment Services: `cse aps capture`, `refund` and `void`
/// against the loopback emulator, which keeps each order's amounts by its own rules; the README's
/// flows, every refusal's exit status and code, and no secret or card number on any output.
@Suite("cse aps capture, refund and void: the README's flows, each refusal exits 1 with its code, usage exits 64")
struct APSLifecycleCommandTests {
    /// A running emulator with the CLI tests' phrases, and the options every command takes.
    static func start() throws -> (LoopbackEmulator, [String]) {
        let server = try ServerCommandTests.emulator(
            "aps", ["--request-phrase", ServerCommandTests.requestPhrase, "--response-phrase", ServerCommandTests.responsePhrase])
        return (server, ["--credentials", try ServerCommandTests.apsCredentials(), "--endpoint", server.baseURL])
    }

    /// `cse aps authorize` of `amount` under `reference`; the order's fort_id.
    static func authorize(_ reference: String, amount: String = "50000", _ common: [String]) throws -> String {
        let result = try CommandRunner.run(
            [
                "aps", "authorize", "--token-name", "Op9Vmp", "--merchant-reference", reference, "--amount", amount, "--currency", "AED",
                "--customer-email", "payer@example.com",
            ] + common)
        #expect(result.status == 0, "\(result.err)")
        return try #require(try JSONValue.parse(Array(result.stdout))["fort_id"]?.stringValue)
    }

    /// The emulator's ledger of an order (its amounts and every maintenance operation).
    static func ledger(_ server: LoopbackEmulator, _ reference: String) throws -> JSONValue {
        let fetched = try IOShell.run(
            #"python3 -c 'import sys, urllib.request as u; sys.stdout.write(u.build_opener(u.ProxyHandler({})).open(sys.argv[1]).read().decode())' "$URL""#,
            environment: ["URL": server.baseURL + "/test/aps-ledger/" + reference])
        return try JSONValue.parse(Array(fetched.out.utf8))
    }

    static func field(_ result: CommandRunner.Result, _ name: String) -> String? {
        (try? JSONValue.parse(Array(result.stdout)))?[name]?.scalarText
    }

    @Test("authorise → capture → refund (README): a partial and a full capture, two partial refunds; check-status reports the amounts")
    func captureAndRefund() throws {
        let (server, common) = try Self.start()
        defer { server.stop() }
        let fortID = try Self.authorize("ORD-C1", common)
        let partial = try CommandRunner.run(
            ["aps", "capture", "--merchant-reference", "ORD-C1", "--amount", "20000", "--currency", "AED", "--fort-id", fortID] + common)
        #expect(partial.status == 0 && Self.field(partial, "response_code") == "04000", "\(partial.err)")
        #expect(Self.field(partial, "fort_id") == fortID && !partial.out.contains("signature"))
        let rest = try CommandRunner.run(
            ["aps", "capture", "--merchant-reference", "ORD-C1", "--amount", "30000", "--currency", "AED"] + common)
        #expect(rest.status == 0 && Self.field(rest, "response_code") == "04000", "\(rest.err)")
        var refunds: [CommandRunner.Result] = []
        for (amount, reference) in [("10000", "RF-1"), ("5000", "RF-2")] {
            let refund = try CommandRunner.run(
                [
                    "aps", "refund", "--merchant-reference", "ORD-C1", "--amount", amount, "--currency", "AED", "--maintenance-reference",
                    reference,
                ] + common)
            #expect(refund.status == 0 && Self.field(refund, "response_code") == "06000", "\(refund.err)")
            #expect(Self.field(refund, "maintenance_reference") == reference)
            refunds.append(refund)
        }
        let status = try CommandRunner.run(["aps", "check-status", "--merchant-reference", "ORD-C1"] + common)
        #expect(status.status == 0, "\(status.err)")
        #expect(
            Self.field(status, "authorized_amount") == "50000" && Self.field(status, "captured_amount") == "50000"
                && Self.field(status, "refunded_amount") == "15000" && Self.field(status, "transaction_code") == "06000")
        let ledger = try Self.ledger(server, "ORD-C1")
        #expect(ledger["operations"]?.arrayValue?.count == 4)
        for result in [partial, rest, status] + refunds { ServerCommandTests.checkCanaries(result) }
    }

    @Test("authorise → void (README); a capture after the void exits 1 with server.operationNotAllowed")
    func void() throws {
        let (server, common) = try Self.start()
        defer { server.stop() }
        let fortID = try Self.authorize("ORD-V1", common)
        let voided = try CommandRunner.run(["aps", "void", "--merchant-reference", "ORD-V1", "--fort-id", fortID] + common)
        #expect(voided.status == 0 && Self.field(voided, "response_code") == "08000", "\(voided.err)")
        let capture = try CommandRunner.run(
            ["aps", "capture", "--merchant-reference", "ORD-V1", "--amount", "100", "--currency", "AED"] + common)
        #expect(capture.status == 1 && capture.err.hasPrefix("Error: server.operationNotAllowed") && capture.out.isEmpty, "\(capture.err)")
        #expect(capture.err.contains("05034"))
        for result in [voided, capture] { ServerCommandTests.checkCanaries(result) }
    }

    @Test(
        "each refusal exits 1 with its stable code: over what is left, not allowed, unknown order; another currency keeps aps.message.013")
    func refusals() throws {
        let (server, common) = try Self.start()
        defer { server.stop() }
        _ = try Self.authorize("ORD-R1", common)
        let cases: [([String], String)] = [
            (["capture", "--merchant-reference", "ORD-R1", "--amount", "50001", "--currency", "AED"], "server.amountExceedsRemaining"),
            (["refund", "--merchant-reference", "ORD-R1", "--amount", "100", "--currency", "AED"], "server.operationNotAllowed"),
            (["void", "--merchant-reference", "ORD-NONE"], "server.unknownPayment"),
            (["capture", "--merchant-reference", "ORD-R1", "--amount", "100", "--currency", "USD"], "aps.message.013"),
            (
                ["capture", "--merchant-reference", "ORD-R1", "--amount", "100", "--currency", "AED", "--fort-id", "1"],
                "server.unknownPayment"
            ),
        ]
        for (arguments, code) in cases {
            let result = try CommandRunner.run(["aps"] + arguments + common)
            #expect(result.status == 1 && result.err.hasPrefix("Error: \(code)") && result.out.isEmpty, "\(arguments): \(result.err)")
            ServerCommandTests.checkCanaries(result)
        }
        _ = try CommandRunner.run(["aps", "capture", "--merchant-reference", "ORD-R1", "--amount", "100", "--currency", "AED"] + common)
        let over = try CommandRunner.run(
            ["aps", "refund", "--merchant-reference", "ORD-R1", "--amount", "101", "--currency", "AED"] + common)
        #expect(over.status == 1 && over.err.hasPrefix("Error: server.amountExceedsRemaining") && over.err.contains("07048"), "\(over.err)")
        let afterCapture = try CommandRunner.run(["aps", "void", "--merchant-reference", "ORD-R1"] + common)
        #expect(afterCapture.status == 1 && afterCapture.err.hasPrefix("Error: server.operationNotAllowed"), "\(afterCapture.err)")
        #expect(try Self.ledger(server, "ORD-R1")["captured"]?.intValue == 100)
    }

    @Test("aps feedback-verify: the emulator's feedback of a refund (06000) exits 0, of a refused refund (07048) exits 1")
    func feedback() throws {
        let (server, common) = try Self.start()
        defer { server.stop() }
        _ = try Self.authorize("ORD-FB", common)
        _ = try CommandRunner.run(["aps", "capture", "--merchant-reference", "ORD-FB", "--amount", "1000", "--currency", "AED"] + common)
        _ = try CommandRunner.run(["aps", "refund", "--merchant-reference", "ORD-FB", "--amount", "400", "--currency", "AED"] + common)
        _ = try CommandRunner.run(["aps", "refund", "--merchant-reference", "ORD-FB", "--amount", "700", "--currency", "AED"] + common)
        for (operation, exit, outcome) in [(1, Int32(0), "succeeded"), (2, 1, "refused")] {
            let body = try IOShell.run(
                #"python3 -c 'import sys, urllib.request as u; sys.stdout.write(u.build_opener(u.ProxyHandler({})).open(sys.argv[1]).read().decode())' "$URL""#,
                environment: ["URL": server.baseURL + "/test/aps-feedback/ORD-FB?operation=\(operation)"])
            let result = try CommandRunner.run(["aps", "feedback-verify", "--credentials", common[1]], input: body.out)
            #expect(result.status == exit && result.out.hasPrefix(#"{"valid":true,"outcome":"\#(outcome)""#), "\(result.out) \(result.err)")
            #expect(result.out.contains(#""command":"REFUND""#))
            ServerCommandTests.checkCanaries(result)
        }
    }

    @Test("usage errors exit 64 before any request: a missing amount, a non-integer amount, an unknown currency, a void with an amount")
    func usage() throws {
        let (server, common) = try Self.start()
        defer { server.stop() }
        for arguments in [
            ["capture", "--merchant-reference", "R", "--currency", "AED"],
            ["refund", "--merchant-reference", "R", "--amount", "1.5", "--currency", "AED"],
            ["capture", "--merchant-reference", "R", "--amount", "100", "--currency", "XXQ"],
            ["void", "--merchant-reference", "R", "--amount", "100"],
            ["void", "--merchant-reference", "R", "--language", "fr"],
        ] {
            let result = try CommandRunner.run(["aps"] + arguments + common)
            #expect(result.status == 64 && result.out.isEmpty, "\(arguments): \(result.err)")
        }
        // An argument the library refuses (a fort_id that is not digits) exits 1, nothing sent.
        let bad = try CommandRunner.run(["aps", "void", "--merchant-reference", "R", "--fort-id", "12a"] + common)
        #expect(bad.status == 1 && bad.err.hasPrefix("Error: serverAPI.invalidArgument"), "\(bad.err)")
        #expect(try server.requests().isEmpty)
    }
}
