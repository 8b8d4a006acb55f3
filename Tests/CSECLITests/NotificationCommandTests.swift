import CSECore
import Foundation
import Testing
import TestSupport

/// `cse worldline|mastercard|paysafe webhook-verify` and `cse aps feedback-verify` on the built
/// binary: the known answers of the research notes (§5), the loopback emulators' deliveries, and
/// every refusal: exit 1 with a stable code, nothing on stdout, nothing of the body or the secret
/// on stderr.
@Suite("cse notification verifiers: known answers, emulator deliveries, refusals, canaries")
struct NotificationCommandTests {
    static let worldlineWebhookSecret = "CANARY-cli-wl-webhook-3c9e"
    static let mastercardNotificationSecret = "CANARY-cli-mc-notify-51d7"
    static let paysafeKeyText = Base64.encode(Array("CANARY-cli-ps-webhook-key-abcdefghijklmnopqrstuv".utf8))
    /// The secrets, and the Paysafe key's decoded text (what the HMAC is keyed with).
    static let secrets = [worldlineWebhookSecret, mastercardNotificationSecret, paysafeKeyText, "CANARY-cli-ps-webhook-key"]

    /// No secret, key or card number on either stream (and the server suite's canaries).
    static func checkCanaries(_ result: CommandRunner.Result, sourceLocation: SourceLocation = #_sourceLocation) {
        ServerCommandTests.checkCanaries(result, sourceLocation: sourceLocation)
        for canary in secrets {
            #expect(!result.out.contains(canary) && !result.err.contains(canary), "leaked \(canary)", sourceLocation: sourceLocation)
        }
    }

    /// A refusal: exit 1, the code on stderr, nothing on stdout, none of `hidden` echoed.
    static func expectRefused(
        _ result: CommandRunner.Result, _ code: String, hiding hidden: [String] = [], sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(result.status == 1 && result.out.isEmpty, "\(result.status) \(result.err)", sourceLocation: sourceLocation)
        #expect(result.err.hasPrefix("Error: \(code)"), "\(result.err)", sourceLocation: sourceLocation)
        for text in hidden { #expect(!result.err.contains(text), "echoed \(text)", sourceLocation: sourceLocation) }
        checkCanaries(result, sourceLocation: sourceLocation)
    }

    /// The delivery the emulator would post: its headers and raw body.
    static func delivery(_ url: String) throws -> (headers: [(String, String)], body: String) {
        let fetched = try IOShell.run(
            #"python3 -c 'import sys, urllib.request as u; sys.stdout.write(u.build_opener(u.ProxyHandler({})).open(sys.argv[1]).read().decode())' "$URL""#,
            environment: ["URL": url])
        let json = try JSONValue.parse(Array(fetched.out.utf8))
        let headers = (json["headers"]?.arrayValue ?? []).compactMap { pair -> (String, String)? in
            guard let items = pair.arrayValue, items.count == 2, let name = items[0].stringValue, let value = items[1].stringValue else {
                return nil
            }
            return (name, value)
        }
        return (headers, try #require(json["body"]?.stringValue))
    }

    static func header(_ delivery: (headers: [(String, String)], body: String), _ name: String) throws -> String {
        try #require(delivery.headers.first { $0.0.lowercased() == name.lowercased() }?.1)
    }

    // MARK: Worldline

    @Test("worldline webhook-verify: V-WL-1 (the Java SDK's body) exits 0 with its event; a changed byte or secret exits 1")
    func worldlineKnownAnswer() throws {
        let body =
            "{\n  \"apiVersion\": \"v1\",\n  \"id\": \"8ee793f6-4553-4749-85dc-f2ef095c5ab0\",\n  \"created\": \"2017-02-02T11:24:14.040+0100\",\n  \"merchantId\": \"20000\",\n  \"type\": \"payment.paid\"\n}"
        let secretFile = try ServerCommandTests.file("hello+world\n")
        let verify = [
            "worldline", "webhook-verify", "--secret-file", secretFile, "--signature", "6sFZob2yfSpd25MiutFRgBdx8dfbgxs+ZFp5kza1QR8=",
        ]
        let valid = try CommandRunner.run(verify, input: body)
        #expect(
            valid.status == 0
                && valid.out
                    == #"{"valid":true,"event":{"id":"8ee793f6-4553-4749-85dc-f2ef095c5ab0","type":"payment.paid","created":"2017-02-02T11:24:14.040+0100","merchantId":"20000","apiVersion":"v1"}}"#
                    + "\n",
            "\(valid.out) \(valid.err)")
        Self.expectRefused(try CommandRunner.run(verify, input: body + "\n"), "worldline.webhook.signature", hiding: ["8ee793f6"])
        let other = try ServerCommandTests.file("hello+world!\n")
        Self.expectRefused(
            try CommandRunner.run(["worldline", "webhook-verify", "--secret-file", other, "--signature", verify[5]], input: body),
            "worldline.webhook.signature", hiding: ["8ee793f6"])
    }

    @Test(
        "worldline webhook-verify: the emulator's captured, refunded, cancelled and rejected-capture events print typed; tampered ones exit 1"
    )
    func worldlineEmulatorEvents() throws {
        let server = try ServerCommandTests.emulator("worldline", ["--webhook-secret", Self.worldlineWebhookSecret])
        defer { server.stop() }
        let secretFile = try ServerCommandTests.file(Self.worldlineWebhookSecret)
        for (type, status, category) in [
            ("payment.captured", "CAPTURED", "COMPLETED"), ("payment.refunded", "REFUNDED", "REFUNDED"),
            ("payment.cancelled", "CANCELLED", "UNSUCCESSFUL"), ("payment.rejected_capture", "REJECTED_CAPTURE", "UNSUCCESSFUL"),
        ] {
            let delivery = try Self.delivery(server.baseURL + "/test/worldline-webhook/3066019730_0?type=\(type)")
            let command = [
                "worldline", "webhook-verify", "--secret-file", secretFile, "--signature", try Self.header(delivery, "X-GCS-Signature"),
            ]
            let result = try CommandRunner.run(command, input: delivery.body)
            #expect(result.status == 0, "\(type): \(result.err)")
            let event = try JSONValue.parse(Array(result.stdout))["event"]
            #expect(event?["type"]?.stringValue == type && event?["payment"]?["id"]?.stringValue == "3066019730_0")
            #expect(event?["payment"]?["status"]?.stringValue == status && event?["payment"]?["statusCategory"]?.stringValue == category)
            #expect(event?["payment"]?["amount"]?.intValue == 2345 && event?["payment"]?["currencyCode"]?.stringValue == "EUR")
            Self.checkCanaries(result)
            let tampered = delivery.body.replacingOccurrences(of: "2345", with: "2346")
            Self.expectRefused(try CommandRunner.run(command, input: tampered), "worldline.webhook.signature", hiding: ["3066019730"])
        }
        let bad = try Self.delivery(server.baseURL + "/test/worldline-webhook/3066019730_0?mode=bad-signature")
        Self.expectRefused(
            try CommandRunner.run(
                ["worldline", "webhook-verify", "--secret-file", secretFile, "--signature", try Self.header(bad, "X-GCS-Signature")],
                input: bad.body), "worldline.webhook.signature")
    }

    // MARK: Mastercard

    /// A Mastercard emulator with a paid order-1/pay-1, and the credentials options.
    static func mastercardPaid() throws -> (LoopbackEmulator, [String]) {
        let server = try ServerCommandTests.emulator(
            "mastercard",
            [
                "--merchant-id", "TEST_12345", "--api-password", ServerCommandTests.mastercardPassword, "--notification-secret",
                mastercardNotificationSecret,
            ])
        let (common, id) = try ServerCommandTests.mastercardFilledSession(server)
        let pay = try CommandRunner.run(
            ["mastercard", "pay", "--order", "order-1", "--transaction", "pay-1", "--amount", "2345", "--currency", "EUR", "--session", id]
                + common)
        #expect(pay.status == 0, "\(pay.err)")
        return (server, common)
    }

    static func headerArguments(_ headers: [(String, String)]) -> [String] {
        headers.flatMap { ["--header", "\($0.0): \($0.1)"] }
    }

    @Test("mastercard webhook-verify: the emulator's notification of a PAY exits 0 with its id and the masked transaction")
    func mastercardVerified() throws {
        let (server, _) = try Self.mastercardPaid()
        defer { server.stop() }
        let secretFile = try ServerCommandTests.file(Self.mastercardNotificationSecret + "\n")
        let delivery = try Self.delivery(server.baseURL + "/test/mastercard-webhook/order-1/pay-1")
        let result = try CommandRunner.run(
            ["mastercard", "webhook-verify", "--secret-file", secretFile] + Self.headerArguments(delivery.headers), input: delivery.body)
        #expect(result.status == 0, "\(result.err)")
        let json = try JSONValue.parse(Array(result.stdout))
        let id = try Self.header(delivery, "X-Notification-Id")
        #expect(json["valid"]?.boolValue == true && json["notificationId"]?.stringValue == id)
        #expect(json["attempt"]?.intValue == 1 && json["transaction"]?["transaction"]?["id"]?.stringValue == "pay-1")
        #expect(json["transaction"]?["result"]?.stringValue == "SUCCESS" && result.out.contains("411111******1111"))
        Self.checkCanaries(result)
        // The same headers from a file (CRLF lines, as a server logs them): the secret stays off the command line.
        let headersFile = try ServerCommandTests.file(delivery.headers.map { "\($0.0): \($0.1)\r\n" }.joined())
        let fromFile = try CommandRunner.run(
            ["mastercard", "webhook-verify", "--secret-file", secretFile, "--headers-file", headersFile], input: delivery.body)
        #expect(fromFile.status == 0 && fromFile.out == result.out, "\(fromFile.err)")
        let broken = try ServerCommandTests.file("X-Notification-Id: 1\n\(Self.mastercardNotificationSecret)\n")
        let refused = try CommandRunner.run(
            ["mastercard", "webhook-verify", "--secret-file", secretFile, "--headers-file", broken], input: delivery.body)
        Self.expectRefused(refused, "mastercard.webhook.header", hiding: ["pay-1"])
        #expect(refused.err.contains("line=2"), "\(refused.err)")
    }

    @Test(
        "mastercard webhook-verify: a wrong, missing, repeated or comma-joined secret header exits 1; so does a changed secret file",
        arguments: [
            ("wrong-secret", "mastercard.webhook.secret"), ("no-secret", "mastercard.webhook.header"),
            ("duplicate", "mastercard.webhook.header"), ("joined", "mastercard.webhook.header"),
        ])
    func mastercardRefused(mode: String, code: String) throws {
        let (server, _) = try Self.mastercardPaid()
        defer { server.stop() }
        let secretFile = try ServerCommandTests.file(Self.mastercardNotificationSecret)
        let delivery = try Self.delivery(server.baseURL + "/test/mastercard-webhook/order-1/pay-1?mode=\(mode)")
        let result = try CommandRunner.run(
            ["mastercard", "webhook-verify", "--secret-file", secretFile] + Self.headerArguments(delivery.headers), input: delivery.body)
        Self.expectRefused(result, code, hiding: ["order-1", "pay-1", "CANARY-cli-mc-notify"])
        let good = try Self.delivery(server.baseURL + "/test/mastercard-webhook/order-1/pay-1")
        let otherFile = try ServerCommandTests.file("another-notification-secret")
        Self.expectRefused(
            try CommandRunner.run(
                ["mastercard", "webhook-verify", "--secret-file", otherFile] + Self.headerArguments(good.headers), input: good.body),
            "mastercard.webhook.secret", hiding: ["order-1"])
    }

    @Test("mastercard webhook-verify: a --header without 'NAME:' is a usage error (64) that does not quote it")
    func mastercardUsage() throws {
        let secretFile = try ServerCommandTests.file(Self.mastercardNotificationSecret)
        let result = try CommandRunner.run(
            ["mastercard", "webhook-verify", "--secret-file", secretFile, "--header", Self.mastercardNotificationSecret], input: "{}")
        #expect(result.status == 64 && result.err.contains("--header") && result.out.isEmpty, "\(result.err)")
        Self.checkCanaries(result)
        #expect(try CommandRunner.run(["mastercard", "webhook-verify"], input: "{}").status == 64)
    }

    // MARK: Paysafe

    static let vpsKey =
        "Y+83Kt6imrf2eQBVojCfVAx9iDNwtgN7UzZydbpqUgNq3WzgJOhiNpdAF5b9UJ4Ymf++HMgdrgClOmwfq8qItCNcVaCT/MPhMGYgiMb+oLtc2K3nmJxvPxTR6caFalI8qKr6BgX0K1tqKDka2xJZhUZXCVjBsBmKJLT/XQ0+cTSGUfLOwOF+jo0Mgm8oHYnIdOTYlA1XIDJH867WhK8iWe54SONltkRZgNxejUoygtvwdUVxKKa+Mm57RXpH6pI7qh3gkKxcwlrUJ1LhkMLxSNwr78WH4zAd/ILHfEFWORJHgNilzyqyBMZutCtPHhDIBnzkgqfgv1eE6EcDozRT+Q=="

    @Test("paysafe webhook-verify: V-PS-1 and V-PS-1b exit 0; V-PS-2 (the key text as the key) and a swapped body exit 1")
    func paysafeKnownAnswers() throws {
        let keyFile = try ServerCommandTests.file(Self.vpsKey + "\n")
        let compact = #"{"id":1,"name":"John Smith"}"#
        let pretty = "{\n  \"id\": 1,\n  \"name\": \"John Smith\"\n}"
        for (body, signature) in [
            (compact, "cQPmKNg51k2mAcp8y6eh2oOl0OSbDwbK+chWLuifUxU="), (pretty, "lwjnjjixwi/ZX/IBvuH1P6ng6GLycHaUuF648jny4O0="),
        ] {
            let result = try CommandRunner.run(["paysafe", "webhook-verify", "--key-file", keyFile, "--signature", signature], input: body)
            #expect(
                result.status == 0 && result.out.hasPrefix(#"{"valid":true,"id":"1","eventType":null,"notification":{"id":1"#),
                "\(result.out) \(result.err)")
        }
        Self.expectRefused(
            try CommandRunner.run(
                ["paysafe", "webhook-verify", "--key-file", keyFile, "--signature", "cQPmKNg51k2mAcp8y6eh2oOl0OSbDwbK+chWLuifUxU="],
                input: pretty), "paysafe.webhook.signature", hiding: ["John"])
        // V-PS-2: a key file whose bytes, once decoded, are the base64 TEXT of the key.
        let textAsKey = try ServerCommandTests.file(Base64.encode(Array(Self.vpsKey.utf8)))
        Self.expectRefused(
            try CommandRunner.run(
                ["paysafe", "webhook-verify", "--key-file", textAsKey, "--signature", "cQPmKNg51k2mAcp8y6eh2oOl0OSbDwbK+chWLuifUxU="],
                input: compact), "paysafe.webhook.signature", hiding: ["John"])
        let notBase64 = try ServerCommandTests.file("not base64 at all")
        let refused = try CommandRunner.run(["paysafe", "webhook-verify", "--key-file", notBase64, "--signature", "x"], input: compact)
        Self.expectRefused(refused, "serverAPI.credentials", hiding: ["not base64 at all"])
    }

    @Test("paysafe webhook-verify: the emulator's event exits 0 masked; bad-signature and pretty-body deliveries exit 1")
    func paysafeEmulator() throws {
        let server = try ServerCommandTests.emulator("paysafe", ["--webhook-key", Self.paysafeKeyText])
        defer { server.stop() }
        let keyFile = try ServerCommandTests.file(Self.paysafeKeyText)
        let delivery = try Self.delivery(server.baseURL + "/test/paysafe-webhook/ev-7")
        let command = ["paysafe", "webhook-verify", "--key-file", keyFile, "--signature"]
        let result = try CommandRunner.run(command + [try Self.header(delivery, "Signature")], input: delivery.body)
        #expect(result.status == 0 && result.out.hasPrefix(#"{"valid":true,"id":"ev-7","eventType":"PAYMENT_COMPLETED""#), "\(result.err)")
        #expect(result.out.contains("411111******1111"))
        Self.checkCanaries(result)
        for mode in ["bad-signature", "pretty-body"] {
            let bad = try Self.delivery(server.baseURL + "/test/paysafe-webhook/ev-7?mode=\(mode)")
            Self.expectRefused(
                try CommandRunner.run(command + [try Self.header(bad, "Signature")], input: bad.body), "paysafe.webhook.signature",
                hiding: ["ev-7"])
        }
    }

    // MARK: APS

    @Test(
        "aps feedback-verify: signed maintenance feedback 04/06/08 exits 0 (succeeded), 05/07/09 exits 1 (refused), a tampered one 1",
        arguments: [
            ("04", "04000", "succeeded", Int32(0)), ("06", "06000", "succeeded", 0), ("08", "08000", "succeeded", 0),
            ("05", "05042", "refused", 1), ("07", "07048", "refused", 1), ("09", "09034", "refused", 1),
        ])
    func apsMaintenanceFeedback(status: String, code: String, outcome: String, exit: Int32) throws {
        let server = try ServerCommandTests.emulator(
            "aps", ["--request-phrase", ServerCommandTests.requestPhrase, "--response-phrase", ServerCommandTests.responsePhrase])
        defer { server.stop() }
        let credentials = try ServerCommandTests.apsCredentials()
        let authorized = try CommandRunner.run([
            "aps", "authorize", "--token-name", "Op9Vmp", "--merchant-reference", "MNT-1", "--amount", "10000", "--currency", "AED",
            "--customer-email", "payer@example.com", "--credentials", credentials, "--endpoint", server.baseURL,
        ])
        #expect(authorized.status == 0, "\(authorized.err)")
        let form = try IOShell.run(
            #"python3 -c 'import sys, urllib.request as u; sys.stdout.write(u.build_opener(u.ProxyHandler({})).open(sys.argv[1]).read().decode())' "$URL""#,
            environment: ["URL": server.baseURL + "/test/aps-feedback/MNT-1?status=\(status)&response_code=\(code)"])
        let result = try CommandRunner.run(["aps", "feedback-verify", "--credentials", credentials], input: form.out)
        #expect(result.status == exit && result.out.hasPrefix(#"{"valid":true,"outcome":"\#(outcome)""#), "\(result.out) \(result.err)")
        #expect(result.out.contains(#""response_code":"\#(code)""#))
        Self.checkCanaries(result)
        let tampered = try CommandRunner.run(
            ["aps", "feedback-verify", "--credentials", credentials],
            input: form.out.replacingOccurrences(of: "amount=10000", with: "amount=1"))
        Self.expectRefused(tampered, "aps.feedback.signature", hiding: ["MNT-1"])
    }

    // MARK: Every verifier

    @Test("every verifier refuses a body over 1 MiB unread (exit 1) and a missing required option (exit 64)")
    func boundsAndUsage() throws {
        let big = String(repeating: " ", count: (1 << 20) + 1)
        let secretFile = try ServerCommandTests.file(Self.worldlineWebhookSecret)
        let keyFile = try ServerCommandTests.file(Self.paysafeKeyText)
        let commands = [
            ["worldline", "webhook-verify", "--secret-file", secretFile, "--signature", "x"],
            ["mastercard", "webhook-verify", "--secret-file", secretFile, "--header", "X-Notification-Secret: x"],
            ["paysafe", "webhook-verify", "--key-file", keyFile, "--signature", "x"],
            ["aps", "feedback-verify", "--credentials", try ServerCommandTests.apsCredentials()],
        ]
        for command in commands {
            let result = try CommandRunner.run(command, input: big)
            #expect(result.status == 1 && result.out.isEmpty && result.err.contains("cli.inputTooLarge"), "\(command): \(result.err)")
            Self.checkCanaries(result)
            let usage = try CommandRunner.run(Array(command.prefix(2)), input: "{}")
            #expect(usage.status == 64, "\(command)")
        }
    }
}
