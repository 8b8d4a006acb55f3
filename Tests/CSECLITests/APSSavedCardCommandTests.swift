import CSECore
import Testing
import TestSupport

/// Issue #35 through `cse`, on Amazon Payment Services: the README's "first payment saves the card
/// → second payment uses it" (`--remember-me`, the token from the verified answer or feedback,
/// `--merchant-initiated` under the agreement the first payment set up), `cse aps update-token`
/// and the refusal of an INACTIVE card; usage rules at parse time; no token on stderr.
@Suite("cse aps saved cards: remember-me → merchant-initiated purchase → update-token → inactive refused; parse-time rules")
struct APSSavedCardCommandTests {
    static func field(_ result: CommandRunner.Result, _ path: String...) -> String? {
        var value = try? JSONValue.parse(Array(result.stdout))
        for name in path { value = value?[name] }
        return value?.scalarText
    }

    /// GET `path` of the emulator, as text.
    static func get(_ server: LoopbackEmulator, _ path: String) throws -> String {
        try IOShell.run(
            #"python3 -c 'import sys, urllib.request as u; sys.stdout.write(u.build_opener(u.ProxyHandler({})).open(sys.argv[1]).read().decode())' "$URL""#,
            environment: ["URL": server.baseURL + path]
        ).out
    }

    static let payment = ["--amount", "50000", "--currency", "AED", "--customer-email", "payer@example.com"]

    /// No stream of `results` names `token`, but a successful command's stdout.
    static func checkToken(_ token: String, _ results: [CommandRunner.Result], sourceLocation: SourceLocation = #_sourceLocation) {
        for result in results {
            #expect(!result.err.contains(token), "the token on stderr: \(result.err)", sourceLocation: sourceLocation)
            if result.status != 0 { #expect(!result.out.contains(token), sourceLocation: sourceLocation) }
            ServerCommandTests.checkCanaries(result, sourceLocation: sourceLocation)
        }
    }

    @Test("README: the first payment saves the card and sets up the agreement; the second, merchant-initiated, uses the saved token")
    func firstSavesSecondUses() throws {
        let (server, common) = try APSLifecycleCommandTests.start()
        defer { server.stop() }
        let first = try CommandRunner.run(
            [
                "aps", "purchase", "--token-name", "TmpSdkToken9", "--merchant-reference", "ORD-1", "--remember-me", "--agreement",
                "SUB-1", "--recurring-mode", "variable",
            ] + Self.payment + common)
        #expect(first.status == 0, "\(first.err)")
        let saved = try #require(Self.field(first, "savedCard", "tokenName"))
        #expect(saved.count == 32 && saved != "TmpSdkToken9" && Self.field(first, "savedCard", "cardNumber") == "400555******0001")
        #expect(Self.field(first, "savedCard", "brand") == "VISA" && Self.field(first, "savedCard", "expiryDate") == "2105")
        #expect(Self.field(first, "agreementSetUp", "agreementId") == "SUB-1" && Self.field(first, "agreementSetUp", "tokenName") == saved)
        // The verified feedback of the first payment names the same token.
        let feedback = try Self.get(server, "/test/aps-feedback/ORD-1")
        let verified = try CommandRunner.run(
            ["aps", "feedback-verify", "--credentials", common[1], "--merchant-reference", "ORD-1"], input: feedback)
        #expect(verified.status == 0 && Self.field(verified, "tokenName") == saved, "\(verified.err)")

        let second = try CommandRunner.run(
            [
                "aps", "purchase", "--token-name", saved, "--merchant-reference", "ORD-2", "--merchant-initiated", "recurring",
                "--agreement", "SUB-1",
            ]
                + Self.payment + common)
        #expect(second.status == 0 && Self.field(second, "response_code") == "14000", "\(second.err)")
        #expect(Self.field(second, "eci") == "RECURRING" && Self.field(second, "recurring_mode") == "VARIABLE")
        #expect(Self.field(second, "agreementSetUp") == nil && Self.field(second, "savedCard") == nil)

        let updated = try CommandRunner.run(
            [
                "aps", "update-token", "--merchant-reference", "TOK-1", "--token-name", saved, "--expiry-date", "2911", "--holder-name",
                "Amal Haddad",
            ]
                + common)
        #expect(updated.status == 0 && Self.field(updated, "response_code") == "58000", "\(updated.err)")
        #expect(Self.field(updated, "expiry_date") == "2911" && Self.field(updated, "card_number") == "400555******0001")
        #expect(Self.field(updated, "token_status") == "ACTIVE" && Self.field(updated, "card_brand") == "VISA")

        let deleted = try CommandRunner.run(
            ["aps", "update-token", "--merchant-reference", "TOK-2", "--token-name", saved, "--status", "inactive"] + common)
        #expect(deleted.status == 0 && Self.field(deleted, "token_status") == "INACTIVE", "\(deleted.err)")
        let refused = try CommandRunner.run(
            [
                "aps", "purchase", "--token-name", saved, "--merchant-reference", "ORD-3", "--merchant-initiated", "unscheduled",
                "--agreement", "SUB-1",
            ]
                + Self.payment + common)
        #expect(refused.status == 1 && refused.err.hasPrefix("Error: aps.token.unknown") && refused.out.isEmpty, "\(refused.err)")
        Self.checkToken(saved, [first, verified, second, updated, deleted, refused])
    }

    @Test("update-token refusals exit 1 with their codes; a lost answer exits 75 naming the reference, never the token")
    func updateRefusalsAndLostAnswer() throws {
        let (server, common) = try APSLifecycleCommandTests.start()
        defer { server.stop() }
        let unknown = try CommandRunner.run(
            ["aps", "update-token", "--merchant-reference", "TOK-1", "--token-name", "NoSuchToken77", "--status", "inactive"] + common)
        #expect(unknown.status == 1 && unknown.err.hasPrefix("Error: aps.token.unknown") && unknown.err.contains("59044"), "\(unknown.err)")
        var tokens: [String] = []
        for reference in ["ORD-A", "ORD-B"] {
            let saved = try CommandRunner.run(
                ["aps", "authorize", "--token-name", "TmpSdkToken1", "--merchant-reference", reference, "--remember-me"] + Self.payment
                    + common)
            tokens.append(try #require(Self.field(saved, "savedCard", "tokenName")))
        }
        let inUse = try CommandRunner.run(
            ["aps", "update-token", "--merchant-reference", "TOK-2", "--token-name", tokens[0], "--new-token-name", tokens[1]] + common)
        #expect(inUse.status == 1 && inUse.err.hasPrefix("Error: aps.token.nameInUse"), "\(inUse.err)")
        try server.enqueue(LoopbackEmulator.Fault.drop.afterRoute().onPath("/FortAPI/paymentApi"))
        let lost = try CommandRunner.run(
            ["aps", "update-token", "--merchant-reference", "TOK-3", "--token-name", tokens[0], "--status", "inactive", "--timeout", "5"]
                + common)
        #expect(lost.status == 75 && lost.err.contains("merchantReference=TOK-3") && lost.err.contains("update-token"), "\(lost.err)")
        let again = try CommandRunner.run(
            ["aps", "update-token", "--merchant-reference", "TOK-4", "--token-name", tokens[0], "--status", "inactive"] + common)
        #expect(again.status == 0 && Self.field(again, "token_status") == "INACTIVE", "\(again.err)")
        for token in tokens { Self.checkToken(token, [unknown, inUse, lost, again]) }
    }

    @Test("a lost answer of a payment that saves the card exits 75; check-status settles it, the verified feedback names the token")
    func lostSave() throws {
        let (server, common) = try APSLifecycleCommandTests.start()
        defer { server.stop() }
        try server.enqueue(LoopbackEmulator.Fault.drop.afterRoute().onPath("/FortAPI/paymentApi"))
        let lost = try CommandRunner.run(
            ["aps", "purchase", "--token-name", "TmpSdkToken5", "--merchant-reference", "ORD-L1", "--remember-me", "--timeout", "5"]
                + Self.payment + common)
        #expect(lost.status == 75 && lost.err.contains("merchantReference=ORD-L1") && lost.err.contains("feedback-verify"), "\(lost.err)")
        let status = try CommandRunner.run(["aps", "check-status", "--merchant-reference", "ORD-L1"] + common)
        #expect(status.status == 0 && Self.field(status, "transaction_code") == "14000", "\(status.err)")
        let feedback = try Self.get(server, "/test/aps-feedback/ORD-L1")
        let verified = try CommandRunner.run(
            ["aps", "feedback-verify", "--credentials", common[1], "--merchant-reference", "ORD-L1"], input: feedback)
        let token = try #require(Self.field(verified, "tokenName"))
        #expect(verified.status == 0 && token.count == 32)
        Self.checkToken(token, [lost, status, verified])
    }

    @Test(
        "forbidden combinations are refused at parse time (64), nothing sent",
        arguments: [
            ["aps", "authorize", "--token-name", "T", "--merchant-initiated", "recurring", "--agreement", "A"],
            ["aps", "purchase", "--token-name", "T", "--merchant-initiated", "recurring"],
            [
                "aps", "purchase", "--token-name", "T", "--merchant-initiated", "recurring", "--agreement", "A", "--return-url",
                "https://m.example/r",
            ],
            ["aps", "purchase", "--token-name", "T", "--merchant-initiated", "recurring", "--agreement", "A", "--remember-me"],
            [
                "aps", "purchase", "--token-name", "T", "--merchant-initiated", "unscheduled", "--agreement", "A", "--recurring-mode",
                "fixed",
            ],
            [
                "aps", "purchase", "--token-name", "T", "--merchant-initiated", "recurring", "--agreement", "A", "--recurring-mode",
                "unscheduled",
            ],
            ["aps", "purchase", "--token-name", "T", "--merchant-initiated", "instalment", "--agreement", "A"],
            [
                "aps", "purchase", "--token-name", "T", "--merchant-initiated", "instalment", "--agreement", "A", "--recurring-mode",
                "variable",
                "--recurring-transactions-count", "3",
            ],
            [
                "aps", "purchase", "--token-name", "T", "--merchant-initiated", "unscheduled", "--agreement", "A",
                "--recurring-days-between-payments", "30",
            ],
            ["aps", "purchase", "--token-name", "T", "--recurring-mode", "fixed"],
            ["aps", "purchase", "--token-name", "T", "--agreement", "A", "--recurring-expiry-date", "2027-02-30"],
            ["aps", "purchase", "--token-name", "T", "--agreement", "A", "--recurring-transactions-count", "0"],
            ["aps", "purchase", "--wallet", "apple-pay", "--apple-credentials", "c", "--customer-ip", "192.0.2.1", "--remember-me"],
            ["aps", "purchase", "--merchant-initiated", "bogus", "--token-name", "T", "--agreement", "A"],
            ["aps", "update-token", "--token-name", "T"],
            ["aps", "update-token", "--merchant-reference", "R", "--token-name", "T", "--status", "deleted"],
        ])
    func usage(arguments: [String]) throws {
        let server = try ServerCommandTests.emulator("aps", [])
        defer { server.stop() }
        let extra = arguments[1] == "update-token" ? [] : ["--merchant-reference", "R"] + Self.payment
        let result = try CommandRunner.run(
            arguments + extra + ["--credentials", try ServerCommandTests.apsCredentials(), "--endpoint", server.baseURL])
        #expect(result.status == 64 && result.out.isEmpty, "\(arguments): \(result.err)")
        #expect(try server.requests().isEmpty)
    }
}
