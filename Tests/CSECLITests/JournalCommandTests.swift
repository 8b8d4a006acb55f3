import CSECore
import Foundation
import Testing
import TestSupport

/// Issue #36 through `cse`: `cse journal list` (its members and filters), `cse journal settle`'s
/// usage rules and exit statuses, the canary scan of a journal's bytes after card, wallet, token
/// and credential flows, and eight `cse` processes sharing one journal.
@Suite("cse journal list and settle; nothing secret in the journal's bytes; eight processes share one journal")
struct JournalCommandTests {
    /// A fresh 0700 directory and the journal path in it.
    static func journal() throws -> (directory: String, path: String) {
        let directory = try CommandRunner.temporaryDirectory()
        chmod(directory, 0o700)
        return (directory, directory + "/journal.sqlite")
    }

    static func paysafe() throws -> (LoopbackEmulator, [String]) { try ServerCommandTests.paysafeEmulator() }

    static func pay(_ reference: String, amount: String = "1000") -> [String] {
        ["paysafe", "pay", "--amount", amount, "--currency", "EUR", "--merchant-ref", reference, "--payment-handle", "SCp7iW4xTkmN3Bq"]
    }

    static func lines(_ result: CommandRunner.Result) throws -> [JSONValue] {
        try result.out.split(separator: "\n").map { try JSONValue.parse(Array($0.utf8)) }
    }

    @Test("list: one object per entry with the issue's members; --open, --platform and --since filter; settle then closes the unknown one")
    func listAndSettle() throws {
        let (server, common) = try Self.paysafe()
        defer { server.stop() }
        let (_, journal) = try Self.journal()
        #expect(try CommandRunner.run(Self.pay("list-1") + common + ["--journal", journal]).status == 0)
        try server.enqueue(LoopbackEmulator.Fault.drop.afterRoute().times(3).onPath("/paymenthub/v1/payments"))
        let lost = try CommandRunner.run(Self.pay("list-2", amount: "700") + common + ["--journal", journal])
        #expect(lost.status == 75 && lost.err.contains("journal entry 2"), "\(lost.err)")

        let all = try Self.lines(try CommandRunner.run(["journal", "list", "--journal", journal]))
        #expect(all.count == 2)
        let first = try #require(all.first)
        let names = first.objectValue?.map { $0.0 } ?? []
        #expect(
            names == [
                "id", "platform", "operation", "amount", "currency", "merchantReference", "platformIds", "state", "createdAt", "updatedAt",
            ], "\(names)")
        #expect(first["id"]?.intValue == 1 && first["platform"]?.stringValue == "paysafe" && first["operation"]?.stringValue == "payment")
        #expect(first["amount"]?.intValue == 1000 && first["currency"]?.stringValue == "EUR" && first["state"]?.stringValue == "succeeded")
        #expect(first["platformIds"]?["paymentId"]?.stringValue?.isEmpty == false)
        #expect(first["createdAt"]?.stringValue?.count == 24 && first["createdAt"]?.stringValue?.hasSuffix("Z") == true)
        #expect(all.last?["state"]?.stringValue == "unknown" && all.last?["code"] != nil)

        let open = try Self.lines(try CommandRunner.run(["journal", "list", "--journal", journal, "--open"]))
        #expect(open.count == 1 && open.first?["merchantReference"]?.stringValue == "list-2")
        #expect(try CommandRunner.run(["journal", "list", "--journal", journal, "--platform", "aps"]).out.isEmpty)
        #expect(try CommandRunner.run(["journal", "list", "--journal", journal, "--since", "2999-01-01T00:00:00Z"]).out.isEmpty)
        #expect(
            try Self.lines(try CommandRunner.run(["journal", "list", "--journal", journal, "--since", "2000-01-01T00:00:00Z"])).count == 2)
        #expect(try CommandRunner.run(["journal", "list", "--journal", journal, "--since", "yesterday"]).status == 64)

        // The dropped payment was processed: settle finds it by its reference and closes the entry.
        let settled = try CommandRunner.run(["journal", "settle", "--journal", journal, "--platform", "paysafe"] + common)
        #expect(settled.status == 0, "\(settled.err)")
        let lines = try Self.lines(settled)
        #expect(lines.count == 1 && lines.first?["state"]?.stringValue == "succeeded" && lines.first?["id"]?.intValue == 2)
        #expect(try CommandRunner.run(["journal", "list", "--journal", journal, "--open"]).out.isEmpty)
        ServerCommandTests.checkCanaries(settled)
    }

    @Test("settle: Mastercard's options need --platform mastercard, Paysafe's --platform paysafe (64); an unreachable platform exits 75")
    func settleUsageAndUnknown() throws {
        let (_, journal) = try Self.journal()
        let credentials = try ServerCommandTests.file(#"{"apiKey":"\#(ServerCommandTests.paysafePaymentsKey)"}"#)
        let region = try CommandRunner.run(
            ["journal", "settle", "--journal", journal, "--platform", "paysafe", "--region", "eu", "--credentials", credentials])
        #expect(region.status == 64, "\(region.err)")
        let account = try CommandRunner.run(
            ["journal", "settle", "--journal", journal, "--platform", "aps", "--account", "1", "--credentials", credentials])
        #expect(account.status == 64, "\(account.err)")
        #expect(try CommandRunner.run(["journal", "settle", "--journal", journal, "--credentials", credentials]).status == 64)

        // An entry whose lookup cannot reach the platform stays open: exit 75, the entry named.
        let (server, common) = try Self.paysafe()
        try server.enqueue(LoopbackEmulator.Fault.drop.afterRoute().times(3).onPath("/paymenthub/v1/payments"))
        #expect(try CommandRunner.run(Self.pay("gone-1") + common + ["--journal", journal]).status == 75)
        server.stop()
        // Port 1 on loopback: nothing listens (the emulator's freed port could be another test's by now).
        let unreachable = try CommandRunner.run(
            [
                "journal", "settle", "--journal", journal, "--platform", "paysafe", "--credentials", credentials, "--endpoint",
                "http://127.0.0.1:1",
            ])
        #expect(unreachable.status == 75 && unreachable.err.contains("journal entries 1 of paysafe"), "\(unreachable.err)")
        #expect(try Self.lines(unreachable).first?["lookupError"]?.stringValue?.isEmpty == false)
    }

    @Test("Canary: after card, wallet, token and credential flows on every platform, no secret is in the journal's bytes")
    func canary() throws {
        let (directory, journal) = try Self.journal()
        var canaries = ServerCommandTests.secrets + [ServerCommandTests.pan, "SCp7iW4xTkmN3Bq", "Op9Vmp", "a.b.c.d.e"]
        // Paysafe: a payment with a payment handle (a token).
        let (paysafe, paysafeCommon) = try Self.paysafe()
        defer { paysafe.stop() }
        #expect(try CommandRunner.run(Self.pay("canary-ps") + paysafeCommon + ["--journal", journal]).status == 0)
        // Worldline: a sealed card.
        let worldline = try ServerCommandTests.emulator("worldline", ["--secret-api-key", ServerCommandTests.worldlineSecret])
        defer { worldline.stop() }
        let worldlineCommon = ["--credentials", try ServerCommandTests.worldlineCredentials(), "--endpoint", worldline.baseURL]
        let paid = try CommandRunner.run(
            ["worldline", "create-payment", "--amount", "2345", "--currency", "EUR", "--reference", "canary-wl", "--skip-authentication"]
                + worldlineCommon
                + ["--journal", journal], input: #"{"encryptedCustomerInput":"a.b.c.d.e"}"#)
        #expect(paid.status == 0, "\(paid.err)")
        // APS: a payment with a token name.
        let aps = try ServerCommandTests.emulator(
            "aps", ["--request-phrase", ServerCommandTests.requestPhrase, "--response-phrase", ServerCommandTests.responsePhrase])
        defer { aps.stop() }
        let apsPaid = try CommandRunner.run(
            [
                "aps", "purchase", "--token-name", "Op9Vmp", "--merchant-reference", "CANARY-1", "--amount", "50000", "--currency", "AED",
                "--customer-email", "payer@example.com", "--credentials", try ServerCommandTests.apsCredentials(), "--endpoint",
                aps.baseURL,
                "--journal", journal,
            ])
        #expect(apsPaid.status == 0, "\(apsPaid.err)")
        // Mastercard: a session holding the card (its id is a secret of the payer's session).
        let mastercard = try ServerCommandTests.emulator(
            "mastercard", ["--merchant-id", "TEST_12345", "--api-password", ServerCommandTests.mastercardPassword])
        defer { mastercard.stop() }
        let (mastercardCommon, session) = try ServerCommandTests.mastercardFilledSession(mastercard)
        canaries.append(session)
        let mcPaid = try CommandRunner.run(
            [
                "mastercard", "pay", "--order", "canary-o", "--transaction", "t1", "--amount", "100", "--currency", "EUR", "--session",
                session,
            ]
                + mastercardCommon + ["--journal", journal])
        #expect(mcPaid.status == 0, "\(mcPaid.err)")
        // A wallet: Apple Pay decrypted, paid on Worldline (DPAN and cryptogram in the request).
        if TestPaths.sharedVectors != nil {
            let decrypted = try CommandRunner.run(
                ["wallet", "decrypt"] + CLIWalletCommandTests.gala + ["--now", "2021-09-01T19:03:06Z"],
                stdin: CLIWalletCommandTests.file("gala/token.json"))
            let wallet = try CommandRunner.run(
                [
                    "worldline", "create-payment", "--wallet", "apple-pay", "--decrypted", "--amount", "100", "--currency", "USD",
                    "--reference",
                    "canary-w",
                ] + worldlineCommon + ["--journal", journal], stdin: decrypted.stdout)
            #expect(wallet.status == 0, "\(wallet.err)")
            let sent = try JSONValue.parse(Array(try #require(worldline.requests().last).body))
            let data = sent["mobilePaymentMethodSpecificInput"]?["decryptedPaymentData"]
            canaries += [data?["dpan"]?.stringValue, data?["cryptogram"]?.stringValue].compactMap { $0 }
        }
        // Every file SQLite keeps (the database, its write-ahead log and index), byte for byte.
        var bytes: [UInt8] = []
        for name in try FileManager.default.contentsOfDirectory(atPath: directory) {
            bytes += Array(try Data(contentsOf: URL(fileURLWithPath: directory + "/" + name)))
        }
        let text = String(decoding: bytes, as: UTF8.self)
        #expect(text.contains("canary-ps") && text.contains("CANARY-1"), "the scan must see the journal's own rows")
        for canary in canaries { #expect(!text.contains(canary), "the journal holds \(canary)") }
    }

    @Test(
        "Eight cse processes × 250 payments against the emulator, one journal: 2,000 entries, none lost or doubled, no lock failure",
        .tags(.concurrency))
    func eightProcesses() throws {
        let (server, common) = try Self.paysafe()
        defer { server.stop() }
        let (_, journal) = try Self.journal()
        let quoted = (common + ["--journal", journal]).map(IOShell.quote).joined(separator: " ")
        let started = ContinuousClock.now
        let result = try IOShell.run(
            """
            for w in 0 1 2 3 4 5 6 7; do
              ( for i in $(seq 1 250); do
                  "$CSE" paysafe pay --amount 100 --currency EUR --merchant-ref "w$w-$i" --payment-handle SCp7iW4xTkmN3Bq \(quoted) \
                    > /dev/null || echo "w$w-$i exit $?" >&2
                done ) &
            done
            wait
            """)
        let elapsed = ContinuousClock.now - started
        #expect(result.status == 0 && result.stderr.isEmpty, "\(result.stderr.prefix(2000))")
        let listed = try CommandRunner.run(["journal", "list", "--journal", journal])
        let entries = try Self.lines(listed)
        #expect(entries.count == 2_000, "in \(elapsed)")
        #expect(Set(entries.compactMap { $0["merchantReference"]?.stringValue }).count == 2_000)
        #expect(entries.allSatisfy { $0["state"]?.stringValue == "succeeded" })
        #expect(try server.requests().filter { $0.method == "POST" }.count == 2_000)
        print("JournalCommandTests.eightProcesses: 2,000 cse payments in \(elapsed)")
    }
}
