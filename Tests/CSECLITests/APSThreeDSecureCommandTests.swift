import CSECore
import Foundation
import Testing
import TestSupport

/// Issue #34 §4 through `cse`, on Amazon Payment Services: a purchase on hold for 3-D Secure exits
/// 3 with the redirect action; the payer's challenge at the emulator's issuer page; the signed
/// return verified by `cse aps feedback-verify` and the order settled by `cse aps check-status`;
/// each refusal and exit status; no card number, token or secret on stderr.
@Suite("cse aps 3-D Secure: pending (3) with the redirect, the signed return verified, check-status settles; refusals exit 1")
struct APSThreeDSecureCommandTests {
    static let payment = ["--amount", "50000", "--currency", "AED", "--customer-email", "payer@example.com"]

    /// `cse aps purchase` with the emulator's enrolled card.
    static func purchase(
        _ reference: String, _ common: [String], extra: [String] = ["--return-url", "https://merchant.example/aps/return"]
    )
        throws -> CommandRunner.Result
    {
        try CommandRunner.run(
            ["aps", "purchase", "--token-name", "Tmp3DSToken1", "--merchant-reference", reference] + extra + Self.payment + common)
    }

    /// The payer at the issuer's page: the `Location` the browser is sent back to (or the status).
    static func challenge(_ url: String, _ outcome: String) throws -> String {
        try IOShell.run(
            #"""
            python3 -c '
            import sys, urllib.request as u, urllib.error as e
            class Stay(u.HTTPRedirectHandler):
                def redirect_request(self, *a, **k): return None
            try:
                r = u.build_opener(u.ProxyHandler({}), Stay).open(sys.argv[1]); sys.stdout.write(str(r.status))
            except e.HTTPError as x:
                sys.stdout.write(x.headers.get("Location") or str(x.code))
            ' "$URL"
            """#,
            environment: ["URL": url + "?outcome=" + outcome]
        ).out
    }

    /// The pending action of a result: `(url, method)`.
    static func action(_ result: CommandRunner.Result) -> (String?, String?) {
        let object = try? JSONValue.parse(Array(result.stdout))
        #expect(object?["outcome"]?.stringValue == "pending" && object?["action"]?["type"]?.stringValue == "redirect")
        return (object?["action"]?["url"]?.stringValue, object?["action"]?["method"]?.stringValue)
    }

    @Test("purchase exits 3 with the redirect → challenge → feedback-verify the return (0, tokenName) → check-status 0")
    func challengeToSuccess() throws {
        let (server, common) = try APSLifecycleCommandTests.start()
        defer { server.stop() }
        let held = try Self.purchase("ORD-3D1", common, extra: ["--return-url", "https://merchant.example/aps/return", "--remember-me"])
        #expect(held.status == 3 && APSLifecycleCommandTests.field(held, "response_code") == "20064", "\(held.err)")
        let (url, method) = Self.action(held)
        let redirect = try #require(url)
        #expect(method == "GET" && redirect.hasPrefix(server.baseURL + "/3ds/") && held.err.contains("check-status"))
        let onHold = try CommandRunner.run(["aps", "check-status", "--merchant-reference", "ORD-3D1"] + common)
        #expect(onHold.status == 3 && Self.action(onHold).0 == redirect, "\(onHold.err)")

        let back = try Self.challenge(redirect, "success")
        #expect(back.hasPrefix("https://merchant.example/aps/return?"), "\(back)")
        let verified = try CommandRunner.run(
            ["aps", "feedback-verify", "--format", "query", "--merchant-reference", "ORD-3D1", "--credentials", common[1]], input: back)
        #expect(verified.status == 0, "\(verified.err)")
        let object = try JSONValue.parse(Array(verified.stdout))
        let token = try #require(object["tokenName"]?.stringValue)
        #expect(object["outcome"]?.stringValue == "succeeded" && token.count == 32)
        #expect(object["transaction"]?["response_code"]?.stringValue == "14000")
        let settled = try CommandRunner.run(["aps", "check-status", "--merchant-reference", "ORD-3D1"] + common)
        #expect(settled.status == 0 && APSLifecycleCommandTests.field(settled, "transaction_code") == "14000", "\(settled.err)")
        APSSavedCardCommandTests.checkToken(token, [held, onHold, settled])
        for result in [held, onHold, verified, settled] { ServerCommandTests.checkCanaries(result) }
    }

    @Test("failed and unavailable authentication: the return and check-status exit 1; an abandoned challenge stays 3")
    func refusals() throws {
        let (server, common) = try APSLifecycleCommandTests.start()
        defer { server.stop() }
        for (reference, outcome, code) in [("ORD-3DF", "failure", "13030"), ("ORD-3DU", "unavailable", "13074")] {
            let held = try Self.purchase(reference, common)
            let back = try Self.challenge(try #require(Self.action(held).0), outcome)
            let verified = try CommandRunner.run(["aps", "feedback-verify", "--credentials", common[1]], input: back)
            #expect(verified.status == 1 && APSLifecycleCommandTests.field(verified, "outcome") == "refused", "\(verified.err)")
            let settled = try CommandRunner.run(["aps", "check-status", "--merchant-reference", reference] + common)
            #expect(settled.status == 1 && settled.err.hasPrefix("Error: aps.transactionDeclined") && settled.err.contains(code))
            for result in [held, verified, settled] { ServerCommandTests.checkCanaries(result) }
        }
        let abandoned = try Self.purchase("ORD-3DA", common)
        #expect(try Self.challenge(try #require(Self.action(abandoned).0), "abandon") == "200")
        let still = try CommandRunner.run(["aps", "check-status", "--merchant-reference", "ORD-3DA"] + common)
        #expect(still.status == 3 && Self.action(still).0 == Self.action(abandoned).0)
        let unknown = try CommandRunner.run(["aps", "check-status", "--merchant-reference", "ORD-NONE"] + common)
        #expect(unknown.status == 1 && unknown.out.isEmpty && unknown.err.hasPrefix("Error: server.unknownPayment"), "\(unknown.err)")
    }

    @Test("a tampered return, another order's return and a missing return URL exit 1 with their codes, nothing on stdout")
    func tamperedReplayedMissing() throws {
        let (server, common) = try APSLifecycleCommandTests.start()
        defer { server.stop() }
        let missing = try Self.purchase("ORD-3DM", common, extra: [])
        #expect(missing.status == 1 && missing.err.hasPrefix("Error: aps.message.037") && missing.out.isEmpty, "\(missing.err)")
        let held = try Self.purchase("ORD-3DT", common)
        let back = try Self.challenge(try #require(Self.action(held).0), "success")
        let tampered = try CommandRunner.run(
            ["aps", "feedback-verify", "--credentials", common[1]], input: back.replacingOccurrences(of: "amount=50000", with: "amount=5"))
        #expect(tampered.status == 1 && tampered.err.hasPrefix("Error: aps.feedback.signature") && tampered.out.isEmpty)
        let replayed = try CommandRunner.run(
            ["aps", "feedback-verify", "--merchant-reference", "ORD-OTHER", "--credentials", common[1]], input: back)
        #expect(replayed.status == 1 && replayed.err.hasPrefix("Error: aps.feedback.otherOrder") && replayed.out.isEmpty)
        for result in [missing, tampered, replayed] { ServerCommandTests.checkCanaries(result) }
    }

    @Test(
        "statuses 19, 20 and 40 exit 3 from purchase and from feedback-verify; a lost answer exits 75",
        arguments: [
            ("pending", "19065"), ("review", "40090"), ("on-hold", "20064"),
        ])
    func pendingExits(mode: String, code: String) throws {
        let server = try ServerCommandTests.emulator(
            "aps",
            ["--request-phrase", ServerCommandTests.requestPhrase, "--response-phrase", ServerCommandTests.responsePhrase, "--mode", mode])
        defer { server.stop() }
        let common = ["--credentials", try ServerCommandTests.apsCredentials(), "--endpoint", server.baseURL]
        let result = try CommandRunner.run(
            ["aps", "authorize", "--token-name", "Op9Vmp", "--merchant-reference", "ORD-P1"] + Self.payment + common)
        #expect(result.status == 3 && APSLifecycleCommandTests.field(result, "response_code") == code, "\(result.err)")
        #expect(APSLifecycleCommandTests.field(result, "outcome") == "pending")
        let feedback = try APSSavedCardCommandTests.get(server, "/test/aps-feedback/ORD-P1")
        let verified = try CommandRunner.run(["aps", "feedback-verify", "--credentials", common[1]], input: feedback)
        #expect(verified.status == 3 && APSLifecycleCommandTests.field(verified, "outcome") == "pending", "\(verified.err)")
        let status = try CommandRunner.run(["aps", "check-status", "--merchant-reference", "ORD-P1"] + common)
        #expect(status.status == 3, "\(status.err)")
        for result in [result, verified, status] { ServerCommandTests.checkCanaries(result) }
    }
}
