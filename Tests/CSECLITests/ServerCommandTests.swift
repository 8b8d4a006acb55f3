import CSECore
@_spi(CustomTransport) import CSEHTTP
import Foundation
import Testing
import TestSupport

/// `cse worldline|aps|mastercard|paysafe …` end to end: the real binary against the loopback
/// emulators of Tests/Emulators/server_api_emulator.py, which check signatures and Basic auth
/// themselves (Python hmac/hashlib/base64).
@Suite("cse server commands end to end against the loopback emulators")
struct ServerCommandTests {
    static let worldlineSecret = "CANARY-cli-wl-secret-41af"
    static let requestPhrase = "CANARY-cli-aps-req-93bd"
    static let responsePhrase = "CANARY-cli-aps-resp-5ce0"
    static let mastercardPassword = "CANARY-cli-mc-pw-77e1"
    static let paysafePassword = "CANARY-cli-ps-pw-0b3d"
    static let paysafeKey = Base64.encode(Array("clientuser:\(paysafePassword)".utf8))
    static let paysafePaymentsPassword = "CANARY-cli-ps-pay-6f2a"
    /// The server-to-server key of the Paysafe payment tests (`paysafeKey` is the single-use-token key).
    static let paysafePaymentsKey = Base64.encode(Array("serveruser:\(paysafePaymentsPassword)".utf8))
    static let pan = "4111111111111111"
    static let secrets = [
        worldlineSecret, requestPhrase, responsePhrase, mastercardPassword, paysafePassword, paysafeKey, paysafePaymentsPassword,
        paysafePaymentsKey,
    ]

    /// Neither stdout nor stderr carries a secret or a full card number.
    static func checkCanaries(_ result: CommandRunner.Result, sourceLocation: SourceLocation = #_sourceLocation) {
        for canary in secrets + [pan, CLIFixtures.canaryPAN] {
            #expect(!result.out.contains(canary) && !result.err.contains(canary), "leaked \(canary)", sourceLocation: sourceLocation)
        }
    }

    /// Writes `text` to a new file in a fresh temporary directory.
    static func file(_ text: String) throws -> String {
        let path = try CommandRunner.temporaryDirectory() + "/file"
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        CommandRunner.ownerOnly(path)
        return path
    }

    static func emulator(_ platform: String, _ arguments: [String]) throws -> LoopbackEmulator {
        try LoopbackEmulator(script: "server_api_emulator.py", arguments: ["--platform", platform] + arguments)
    }

    /// The Paysafe emulator (its two test keys, then `arguments`) and the options every Paysafe
    /// command of the tests takes to reach it (`--credentials FILE --endpoint URL`).
    static func paysafeEmulator(_ arguments: [String] = []) throws -> (server: LoopbackEmulator, common: [String]) {
        let server = try emulator("paysafe", ["--api-key", paysafeKey, "--payments-key", paysafePaymentsKey] + arguments)
        let common = ["--credentials", try file(#"{"apiKey":"\#(paysafePaymentsKey)"}"#), "--endpoint", server.baseURL]
        return (server, common)
    }

    /// The options that reach the Mastercard emulator `server` (`--credentials FILE --endpoint URL`)
    /// and a session the app has filled with the test card (`cse mastercard session create`, then
    /// `update` with the card, which must succeed).
    static func mastercardFilledSession(
        _ server: LoopbackEmulator, sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> (common: [String], session: String) {
        let credentials = try file(#"{"merchantId":"TEST_12345","apiPassword":"\#(mastercardPassword)"}"#)
        let common = ["--credentials", credentials, "--endpoint", server.baseURL]
        let created = try CommandRunner.run(["mastercard", "session", "create"] + common)
        let id = try #require(try JSONValue.parse(Array(created.stdout))["session"]?["id"]?.stringValue, sourceLocation: sourceLocation)
        let card = #"{"sourceOfFunds.provided.card.number":"\#(pan)","sourceOfFunds.provided.card.expiry":{"month":"12","year":"39"}}"#
        #expect(
            try CommandRunner.run(["mastercard", "session", "update", id] + common, input: card).status == 0, sourceLocation: sourceLocation
        )
        return (common, id)
    }

    /// The Client API emulator of the session the Worldline emulator creates.
    static func clientAPIEmulator() throws -> LoopbackEmulator {
        let fixtures = try #require(TestPaths.sharedVectors).appendingPathComponent("client-api").path
        return try LoopbackEmulator(
            script: "client_api_emulator.py",
            arguments: [
                "--fixtures", fixtures, "--session-id", "68a4b0b183a34016b4b694b97938f75b", "--customer-id",
                "cf7d7aafd42e4a1cb9e4b0624a5041b1",
            ])
    }

    /// The Client API emulator's verdict on a JWE the payment API received: it decrypts it with
    /// its own key (jwcrypto) and checks the payload (`{"ok","paymentProductId","fields"}`).
    static func clientAPIVerdict(_ clientAPI: LoopbackEmulator, jwe: String, expectedProductID: Int) async throws -> JSONValue {
        let body = #"{"encryptedCustomerInput":"\#(jwe)","expectedProductId":\#(expectedProductID)}"#
        let verdict = try await HTTPClient().send(
            HTTPRequest(
                method: .post, url: try HTTPURL(clientAPI.baseURL + "/merchant/payments"),
                headers: ["Content-Type": "application/json"], body: Array(body.utf8)))
        return try JSONValue.parse(verdict.body)
    }

    static func worldlineCredentials(secret: String = worldlineSecret) throws -> String {
        try file(#"{"merchantId":"1234","apiKeyId":"5e45c937b9db33ae","secretApiKey":"\#(secret)"}"#)
    }

    // MARK: Worldline

    @Test("create-session → seal → create-payment: the whole server flow through the CLI, the payload sealed for the session")
    func worldlineFlow() throws {
        let server = try Self.emulator("worldline", ["--secret-api-key", Self.worldlineSecret])
        defer { server.stop() }
        let credentials = try Self.worldlineCredentials()
        let session = try CommandRunner.run([
            "worldline", "create-session", "--credentials", credentials, "--endpoint", server.baseURL,
            "--token", "tok-1", "--token", "bad-2", "--idempotence-key", "session-order-1",
        ])
        #expect(session.status == 0, "\(session.err)")
        #expect(try server.requests().last?.header("X-GCS-Idempotence-Key") == "session-order-1")
        let badKey = try CommandRunner.run([
            "worldline", "create-session", "--credentials", credentials, "--endpoint", server.baseURL,
            "--idempotence-key", String(repeating: "k", count: 41),
        ])
        // The parser refuses a key the platform would refuse (exit 64), before anything is read or sent.
        #expect(
            badKey.status == 64 && badKey.err.hasPrefix("Error: The value for '--idempotence-key' must be 1 to 40 printable ASCII"),
            "\(badKey.err)")
        let sessionJSON = try JSONValue.parse(Array(session.stdout))
        let sessionID = try #require(sessionJSON["clientSessionId"]?.stringValue)
        #expect(sessionJSON["invalidTokens"] == .array([.string("bad-2")]))
        // Seal for the session (offline, with the suite's key standing in for the session's public key).
        let sealed = try CLIFixtures.run(
            [
                "seal", "--product", "builtin:card", "--key", "@PUBLICJSON", "--session-id", sessionID,
                "--now", CLIFixtures.now,
            ], CLIFixtures.validCard)
        #expect(sealed.status == 0, "\(sealed.err)")
        let payment = try CommandRunner.run(
            [
                "worldline", "create-payment", "--skip-authentication", "--amount", "2345", "--currency", "EUR", "--reference", "order-1",
                "--credentials", credentials, "--endpoint", server.baseURL,
            ], stdin: sealed.stdout)
        #expect(payment.status == 0, "\(payment.err)")
        let result = try JSONValue.parse(Array(payment.stdout))
        #expect(result["status"]?.stringValue == "PENDING_CAPTURE" && result["amount"]?.intValue == 2345)
        #expect(result["cardNumber"]?.stringValue == "411111******1111")
        // What the platform received decrypts (with the private key) to a payload for this session.
        let received = try JSONValue.parse(try #require(server.requests().last).body)
        let jwe = try #require(received["encryptedCustomerInput"]?.stringValue)
        let opened = try CommandRunner.run(["decrypt", "--key", CLIFixtures.privateKey], input: jwe)
        #expect(try JSONValue.parse(Array(opened.stdout))["clientSessionId"]?.stringValue == sessionID)
        #expect(received["order"]?["references"]?["merchantReference"]?.stringValue == "order-1")
        for run in [session, sealed, payment] { Self.checkCanaries(run) }
    }

    @Test(
        "the README flow: create-session → seal --session (key from the Client API emulator) → create-payment, the payload checked by the Client API emulator's own key",
        .enabled(
            if: TestPaths.sharedFile("client-api/PROVENANCE.md") != nil && JWCryptoOracle.isAvailable,
            "needs ../shared/vectors/client-api and /usr/bin/python3 with python3-jwcrypto"))
    func worldlineFlowWithSession() async throws {
        let clientAPI = try Self.clientAPIEmulator()
        defer { clientAPI.stop() }
        let server = try Self.emulator("worldline", ["--secret-api-key", Self.worldlineSecret, "--client-api-url", clientAPI.baseURL])
        defer { server.stop() }
        let credentials = try Self.worldlineCredentials()
        let session = try CommandRunner.run(["worldline", "create-session", "--credentials", credentials, "--endpoint", server.baseURL])
        #expect(session.status == 0, "\(session.err)")
        let sessionFile = try Self.file(session.out)
        let sealed = try CommandRunner.run(
            ["seal", "--session", sessionFile, "--product", "builtin:card", "--now", CLIFixtures.now],
            input: CLIFixtures.validCard)
        #expect(sealed.status == 0, "\(sealed.err)")
        #expect(try clientAPI.requests().map(\.path) == ["/client/v1/cf7d7aafd42e4a1cb9e4b0624a5041b1/crypto/publickey"])
        let payment = try CommandRunner.run(
            [
                "worldline", "create-payment", "--skip-authentication", "--amount", "2345", "--currency", "EUR", "--reference", "order-1",
                "--credentials", credentials, "--endpoint", server.baseURL,
            ], stdin: sealed.stdout)
        #expect(payment.status == 0, "\(payment.err)")
        #expect(try JSONValue.parse(Array(payment.stdout))["status"]?.stringValue == "PENDING_CAPTURE")
        // The Client API emulator decrypts what the payment API received with its own key (jwcrypto).
        let received = try JSONValue.parse(try #require(server.requests().last).body)
        let jwe = try #require(received["encryptedCustomerInput"]?.stringValue)
        let verdict = try await Self.clientAPIVerdict(clientAPI, jwe: jwe, expectedProductID: 1)
        #expect(verdict["ok"] == .bool(true), "\(verdict.serialized)")
        for run in [session, sealed, payment] { Self.checkCanaries(run) }
    }

    /// Issue #26, route 1 of the research notes: the raw wallet token sealed for the session as
    /// the client examples do; the Client API emulator decrypts what the payment API received
    /// with its own key (jwcrypto) and names the sealed fields.
    @Test(
        "worldline create-payment --wallet … --session: the raw token sealed as product 302/320 for the session's key",
        .enabled(
            if: TestPaths.sharedFile("client-api/PROVENANCE.md") != nil && JWCryptoOracle.isAvailable,
            "needs ../shared/vectors/client-api and /usr/bin/python3 with python3-jwcrypto"))
    func worldlineSealedWalletToken() async throws {
        let clientAPI = try Self.clientAPIEmulator()
        defer { clientAPI.stop() }
        let server = try Self.emulator("worldline", ["--secret-api-key", Self.worldlineSecret, "--client-api-url", clientAPI.baseURL])
        defer { server.stop() }
        let credentials = try Self.worldlineCredentials()
        let session = try CommandRunner.run(["worldline", "create-session", "--credentials", credentials, "--endpoint", server.baseURL])
        let sessionFile = try Self.file(session.out)
        let tokens = [
            (
                "apple-pay", 302,
                #"{"paymentData":{"version":"EC_v1","data":"ZA==","signature":"cw==","header":{"transactionId":"ab"}},"paymentMethod":{"network":"Visa"},"transactionIdentifier":"AB12"}"#,
                ["encryptedPaymentData", "transactionId"]
            ),
            (
                "google-pay", 320,
                #"{"apiVersion":2,"paymentMethodData":{"tokenizationData":{"type":"PAYMENT_GATEWAY","token":"{\"signature\":\"MEUC\",\"protocolVersion\":\"ECv2\",\"signedMessage\":\"{}\"}"}}}"#,
                ["encryptedPaymentData"]
            ),
        ]
        for (wallet, product, token, fields) in tokens {
            let paid = try CommandRunner.run(
                [
                    "worldline", "create-payment", "--wallet", wallet, "--session", sessionFile, "--amount", "100", "--currency", "EUR",
                    "--return-url", "https://shop.example/3ds", "--credentials", credentials, "--endpoint", server.baseURL,
                ]
                .filter { wallet == "google-pay" || ($0 != "--return-url" && $0 != "https://shop.example/3ds") },
                input: token)
            #expect(paid.status == 0, "\(wallet): \(paid.err)")
            let received = try JSONValue.parse(try #require(server.requests().last).body)
            let jwe = try #require(received["encryptedCustomerInput"]?.stringValue)
            #expect((received["mobilePaymentMethodSpecificInput"] != nil) == (product == 320), "\(wallet)")
            let answer = try await Self.clientAPIVerdict(clientAPI, jwe: jwe, expectedProductID: product)
            #expect(answer["ok"] == .bool(true), "\(answer.serialized)")
            #expect(answer["fields"] == .array(fields.map(JSONValue.string)), "\(wallet)")
        }
    }

    @Test("credentials from env:NAME; a wrong secret is refused by the emulator with exit 1 and a typed error")
    func worldlineCredentialsSources() throws {
        let server = try Self.emulator("worldline", ["--secret-api-key", Self.worldlineSecret])
        defer { server.stop() }
        var environment = ProcessInfo.processInfo.environment
        environment["CSE_TEST_WL"] = #"{"merchantId":"1234","apiKeyId":"5e45c937b9db33ae","secretApiKey":"\#(Self.worldlineSecret)"}"#
        let viaEnv = try CommandRunner.run(
            ["worldline", "create-session", "--credentials", "env:CSE_TEST_WL", "--endpoint", server.baseURL],
            environment: environment)
        #expect(viaEnv.status == 0, "\(viaEnv.err)")
        let wrong = try CommandRunner.run([
            "worldline", "create-session", "--credentials", try Self.worldlineCredentials(secret: "wrong-secret"),
            "--endpoint", server.baseURL,
        ])
        #expect(wrong.status == 1 && wrong.err.contains("serverAPI.authenticationFailed"))
        let missing = try CommandRunner.run(["worldline", "create-session", "--credentials", "env:CSE_TEST_UNSET_VARIABLE"])
        #expect(missing.status == 1 && missing.err.contains("cli.missingEnvironment"))
        let malformed = try CommandRunner.run([
            "worldline", "create-session", "--credentials", try Self.file(#"{"merchantId":"1","secretApiKey":"\#(Self.worldlineSecret)"}"#),
        ])
        #expect(malformed.status == 1 && malformed.err.contains("serverAPI.credentials") && malformed.err.contains("apiKeyId"))
        for run in [viaEnv, wrong, missing, malformed] { Self.checkCanaries(run) }
    }

    @Test("a refused payment exits 1 naming the payment; the echoed card number never reaches stderr")
    func worldlineRejected() throws {
        let server = try Self.emulator("worldline", ["--secret-api-key", Self.worldlineSecret, "--mode", "reject"])
        defer { server.stop() }
        let result = try CommandRunner.run(
            [
                "worldline", "create-payment", "--skip-authentication", "--amount", "1", "--currency", "EUR", "--credentials",
                try Self.worldlineCredentials(), "--endpoint", server.baseURL,
            ],
            stdin: Array(#"{"encryptedCustomerInput":"a.b.c.d.e"}"#.utf8))
        #expect(result.status == 1 && result.err.contains("worldline.paymentRejected") && result.err.contains("REJECTED"))
        Self.checkCanaries(result)
    }

    @Test(
        "a 201 answer with a REJECTED or CANCELLED payment exits 1 with worldline.paymentRejected, as docs/CLI.md says",
        arguments: ["REJECTED", "CANCELLED"])
    func worldlineRefusedWithSuccessStatus(status: String) throws {
        let server = try Self.emulator("worldline", ["--secret-api-key", Self.worldlineSecret, "--mode", "2xx-" + status])
        defer { server.stop() }
        let result = try CommandRunner.run(
            [
                "worldline", "create-payment", "--skip-authentication", "--amount", "1", "--currency", "EUR", "--credentials",
                try Self.worldlineCredentials(), "--endpoint", server.baseURL,
            ],
            stdin: Array(#"{"encryptedCustomerInput":"a.b.c.d.e"}"#.utf8))
        #expect(result.status == 1 && result.err.contains("worldline.paymentRejected") && result.err.contains(status))
        #expect(result.err.contains("UNSUCCESSFUL") && result.out.isEmpty)
        Self.checkCanaries(result)
    }

    /// Issue #26: the platform created the payment but the answer came after the deadline. `cse`
    /// exits 75 naming the keys; the same command with `--idempotence-key` settles it with the
    /// first payment, and the emulator holds one payment, not two.
    @Test("an answer after the deadline exits 75 with server.outcomeUnknown and the keys; --idempotence-key settles it")
    func worldlineOutcomeUnknown() throws {
        let server = try Self.emulator("worldline", ["--secret-api-key", Self.worldlineSecret])
        defer { server.stop() }
        try server.enqueue(LoopbackEmulator.Fault.delay(milliseconds: 2500).afterRoute().onPath("/v2/1234/payments"))
        let credentials = try Self.worldlineCredentials()
        let arguments = [
            "worldline", "create-payment", "--skip-authentication", "--amount", "2345", "--currency", "EUR", "--reference", "order-7",
            "--credentials", credentials, "--endpoint", server.baseURL, "--timeout", "1",
        ]
        let input = Array(#"{"encryptedCustomerInput":"a.b.c.d.e"}"#.utf8)
        let lost = try CommandRunner.run(arguments, stdin: input)
        #expect(lost.status == 75 && lost.out.isEmpty, "\(lost.err)")
        #expect(lost.err.hasPrefix("Error: server.outcomeUnknown") && lost.err.contains("merchantReference=order-7"), "\(lost.err)")
        let keyLine = try #require(lost.err.split(separator: "\n").last { $0.hasPrefix("cse: the outcome is unknown") })
        let key = try #require(keyLine.split(separator: " ").first { $0.hasPrefix("idempotenceKey=") }?.dropFirst(15).dropLast())
        #expect(key.count == 36)
        Self.checkCanaries(lost)
        let settled = try CommandRunner.run(arguments + ["--idempotence-key", String(key)], stdin: input)
        #expect(settled.status == 0, "\(settled.err)")
        let payment = try JSONValue.parse(Array(settled.stdout))
        #expect(payment["id"]?.stringValue == "3066019701_0" && payment["idempotenceKey"]?.stringValue == String(key))
        let keys = try server.requests().filter { $0.path == "/v2/1234/payments" }.compactMap { $0.header("X-GCS-Idempotence-Key") }
        #expect(keys == [String(key), String(key)])
        // One payment exists: GetPayment finds it, and no second one.
        let found = try CommandRunner.run([
            "worldline", "get-payment", "3066019701_0", "--credentials", credentials, "--endpoint", server.baseURL,
        ])
        let foundJSON = try JSONValue.parse(Array(found.stdout))
        #expect(found.status == 0 && foundJSON["status"]?.stringValue == "PENDING_CAPTURE", "\(found.err)")
        #expect(found.out.contains("411111******1111") && !found.out.contains(Self.pan))
        let none = try CommandRunner.run([
            "worldline", "get-payment", "3066019702_0", "--credentials", credentials, "--endpoint", server.baseURL,
        ])
        #expect(none.status == 1 && none.err.contains("worldline.apiError") && none.err.contains("UNKNOWN_PAYMENT_ID"))
    }

    @Test("the platform answered but stdout is /dev/full: the payment id, status and key go to stderr before exit 1")
    func worldlineOutputFails() throws {
        let server = try Self.emulator("worldline", ["--secret-api-key", Self.worldlineSecret])
        defer { server.stop() }
        let result = try IOShell.run(
            #"echo '{"encryptedCustomerInput":"a.b.c.d.e"}' | timeout 60 "$CSE" worldline create-payment --skip-authentication --amount 1 --currency EUR "#
                + #"--idempotence-key order-9-key --credentials "$CREDENTIALS" --endpoint "$ENDPOINT" > /dev/full"#,
            environment: ["CREDENTIALS": try Self.worldlineCredentials(), "ENDPOINT": server.baseURL])
        #expect(result.status == 1, "\(result.stderr)")
        #expect(
            result.stderr.contains("the payment was created with status PENDING_CAPTURE, but standard output failed"), "\(result.stderr)")
        #expect(result.stderr.contains("idempotenceKey=order-9-key") && result.stderr.contains("paymentId=3066019701_0"))
        #expect(result.stderr.contains("cli.write"))
        #expect(!result.stderr.contains(Self.pan) && !result.stderr.contains(Self.worldlineSecret))
    }

    @Test("the platform answered but the reader of stdout has gone: the ids go to stderr and the exit is 1, not a silent SIGPIPE")
    func worldlineReaderGone() throws {
        let server = try Self.emulator("worldline", ["--secret-api-key", Self.worldlineSecret])
        defer { server.stop() }
        // The reader closes its end of the pipe at once and stays alive, so every write to it fails with EPIPE.
        let result = try IOShell.run(
            #"echo '{"encryptedCustomerInput":"a.b.c.d.e"}' | timeout 60 "$CSE" worldline create-payment --skip-authentication --amount 1 --currency EUR "#
                + #"--idempotence-key order-10-key --credentials "$CREDENTIALS" --endpoint "$ENDPOINT" | { exec 0<&-; sleep 1; }; "#
                + #"echo "cse=${PIPESTATUS[1]}" >&2"#,
            environment: ["CREDENTIALS": try Self.worldlineCredentials(), "ENDPOINT": server.baseURL])
        #expect(result.stderr.contains("cse=1\n"), "\(result.stderr)")
        #expect(result.stderr.contains("but standard output failed") && result.stderr.contains("idempotenceKey=order-10-key"))
        #expect(result.stderr.contains("paymentId=") && result.stderr.contains("cli.brokenPipe"), "\(result.stderr)")
    }

    @Test("worldline sign prints the server SDK's known answers")
    func worldlineSign() throws {
        let text = "GET\n\nFri, 06 Jun 2014 13:39:43 GMT\n/v2/1/tokens/2\n"
        let result = try CommandRunner.run(
            ["worldline", "sign", "--secret-file", try Self.file("6Kj5HT0MQKC6D8eb7W3lTg71kVKVDSt1\n")], input: text)
        #expect(result.status == 0 && result.out == "vCos01y77soPNJOW6kDCm4Bu5b2darAZ09PP7Wa+jRA=\n", "\(result.err)")
        let delete =
            "DELETE\napplication/json\nFri, 06 Jun 2014 13:39:43 GMT\nx-gcs-clientmetainfo:processed header value\n"
            + "x-gcs-customerheader:processed header value\nx-gcs-servermetainfo:processed header value\n/v2/1/tokens/2\n"
        let second = try CommandRunner.run(["worldline", "sign", "--secret-file", try Self.file("secretApiKey")], input: delete)
        #expect(second.out == "jXG/ESTtRWawO4OOyxOrtWcQA8XkrZKeoHeGGIj4jws=\n")
    }

    @Test("worldline webhook-verify exits 0 with the event for a valid signature and 1 for a wrong one or a changed body")
    func webhookVerify() throws {
        let body = #"{"apiVersion":"v1","id":"8ee793f6-4553-4749-85dc-f2ef095c5ab0","type":"payment.created"}"#
        let secretFile = try Self.file("hello+world\n")
        let valid = try CommandRunner.run(
            [
                "worldline", "webhook-verify", "--secret-file", secretFile, "--signature",
                "TLypUey0ycj4/1OjNnyUoIOi5XFQxKt3jhxvS6ugfFE=",
            ], input: body)
        #expect(
            valid.status == 0
                && valid.out
                    == #"{"valid":true,"event":{"id":"8ee793f6-4553-4749-85dc-f2ef095c5ab0","type":"payment.created","apiVersion":"v1"}}"#
                    + "\n",
            "\(valid.err)")
        let wrong = try CommandRunner.run(
            [
                "worldline", "webhook-verify", "--secret-file", secretFile, "--signature",
                "1TLypUey0ycj4/1OjNnyUoIOi5XFQxKt3jhxvS6ugfFE=",
            ], input: body)
        #expect(wrong.status == 1 && wrong.out.isEmpty && wrong.err.hasPrefix("Error: worldline.webhook.signature"), "\(wrong.err)")
        let changed = try CommandRunner.run(
            [
                "worldline", "webhook-verify", "--secret-file", secretFile, "--signature",
                "TLypUey0ycj4/1OjNnyUoIOi5XFQxKt3jhxvS6ugfFE=",
            ], input: body + " ")
        #expect(changed.status == 1 && changed.out.isEmpty && !changed.err.contains("8ee793f6"))
    }

    // MARK: APS

    static func apsCredentials(request: String = requestPhrase, response: String = responsePhrase) throws -> String {
        try file(
            #"{"access_code":"zx0IPmPy5jp1vAz8Kpg7","merchant_identifier":"CycHZxVj","sha_request_phrase":"\#(request)","sha_response_phrase":"\#(response)","sha_type":"sha256"}"#
        )
    }

    /// Issue #26, APS: purchase with a stored card, a repeat with the reference (the first
    /// order, exit 0), a lost answer (exit 75) settled by check-status, and the feedback verified.
    @Test(
        "aps purchase, check-status and feedback-verify: a repeated reference exits 0; a lost answer exits 75; a tampered feedback exits 1")
    func apsPayments() throws {
        let server = try Self.emulator("aps", ["--request-phrase", Self.requestPhrase, "--response-phrase", Self.responsePhrase])
        defer { server.stop() }
        let credentials = try Self.apsCredentials()
        let common = ["--credentials", credentials, "--endpoint", server.baseURL]
        let purchase = [
            "aps", "purchase", "--token-name", "Op9Vmp", "--merchant-reference", "ORD-0001", "--amount", "50000", "--currency", "AED",
            "--customer-email", "payer@example.com", "--customer-ip", "192.0.2.10",
        ]
        let paid = try CommandRunner.run(purchase + common)
        #expect(paid.status == 0 && paid.out.contains("\"response_code\":\"14000\""), "\(paid.err)")
        let fortID = try #require(try JSONValue.parse(Array(paid.stdout))["fort_id"]?.stringValue)
        let repeated = try CommandRunner.run(purchase + common)
        #expect(repeated.status == 0 && repeated.out.contains(fortID), "\(repeated.err)")
        try server.enqueue(LoopbackEmulator.Fault.delay(milliseconds: 2500).afterRoute().onPath("/FortAPI/paymentApi"))
        var second = purchase
        second[5] = "ORD-0002"
        let lost = try CommandRunner.run(second + common + ["--timeout", "1"])
        #expect(
            lost.status == 75 && lost.err.contains("server.outcomeUnknown") && lost.err.contains("merchantReference=ORD-0002"),
            "\(lost.err)")
        #expect(lost.err.contains("'cse aps check-status --merchant-reference ORD-0002'; do not send the purchase again"))
        let status = try CommandRunner.run(["aps", "check-status", "--merchant-reference", "ORD-0002"] + common)
        #expect(status.status == 0 && status.out.contains("\"transaction_code\":\"14000\""), "\(status.err)")
        // The feedback APS would post for an order, signed by the emulator (Python hashlib).
        let feedbackServer = try Self.emulator("aps", ["--request-phrase", Self.requestPhrase, "--response-phrase", Self.responsePhrase])
        defer { feedbackServer.stop() }
        _ = try CommandRunner.run(
            [
                "aps", "purchase", "--token-name", "Op9Vmp", "--merchant-reference", "FB-1", "--amount", "100", "--currency", "AED",
                "--customer-email", "payer@example.com", "--credentials", credentials, "--endpoint", feedbackServer.baseURL,
            ])
        let form = try IOShell.run(
            // No proxy, whatever the environment holds (another suite sets proxy variables process-wide).
            #"python3 -c 'import sys, urllib.request as u; sys.stdout.write(u.build_opener(u.ProxyHandler({})).open(sys.argv[1]).read().decode())' "$URL""#,
            environment: ["URL": feedbackServer.baseURL + "/test/aps-feedback/FB-1"])
        let verified = try CommandRunner.run(["aps", "feedback-verify", "--credentials", credentials], input: form.out)
        #expect(
            verified.status == 0 && verified.out.hasPrefix("{\"valid\":true") && verified.out.contains("FB-1"),
            "\(verified.err) \(form.out)")
        let tampered = try CommandRunner.run(
            ["aps", "feedback-verify", "--credentials", credentials],
            input: form.out.replacingOccurrences(of: "amount=100", with: "amount=1"))
        #expect(tampered.status == 1 && tampered.err.contains("aps.feedback.signature") && tampered.out.isEmpty)
        #expect(verified.out.hasPrefix(#"{"valid":true,"outcome":"succeeded","#))
        // Feedback for a declined, an unprocessed and an uncertain transaction: a typed outcome each.
        for (status, code, outcome, exit) in [
            ("13", "13666", "refused", Int32(1)), ("00", "00016", "notProcessed", 1), ("15", "15777", "unknown", 75),
        ] {
            let other = try IOShell.run(
                #"python3 -c 'import sys, urllib.request as u; sys.stdout.write(u.build_opener(u.ProxyHandler({})).open(sys.argv[1]).read().decode())' "$URL""#,
                environment: ["URL": feedbackServer.baseURL + "/test/aps-feedback/FB-1?status=\(status)&response_code=\(code)"])
            let result = try CommandRunner.run(["aps", "feedback-verify", "--credentials", credentials], input: other.out)
            #expect(
                result.status == exit && result.out.hasPrefix(#"{"valid":true,"outcome":"\#(outcome)""#),
                "\(status): \(result.out) \(result.err)")
        }
        for result in [paid, repeated, lost, status, verified, tampered] { Self.checkCanaries(result) }
    }

    @Test("aps purchase --wallet apple-pay: the token on stdin, signed with --apple-credentials; the options go together")
    func apsApplePay() throws {
        let server = try Self.emulator(
            "aps",
            [
                "--request-phrase", Self.requestPhrase, "--response-phrase", Self.responsePhrase,
                "--apple-request-phrase", "CANARY-cli-apple-req", "--apple-response-phrase", "CANARY-cli-apple-resp",
            ])
        defer { server.stop() }
        let apple = try Self.file(
            #"{"access_code":"AppleAccessCode01","merchant_identifier":"CycHZxVj","sha_request_phrase":"CANARY-cli-apple-req","sha_response_phrase":"CANARY-cli-apple-resp"}"#
        )
        let token =
            #"{"paymentData":{"version":"EC_v1","data":"DATA_B64","signature":"SIG_B64","header":{"publicKeyHash":"PKH_B64","ephemeralPublicKey":"EPK_B64","transactionId":"TXN_HEX"}},"paymentMethod":{"displayName":"Visa 0492","network":"Visa","type":"debit"}}"#
        let base = [
            "aps", "purchase", "--merchant-reference", "ORD-A1", "--amount", "1000", "--currency", "AED", "--customer-email",
            "payer@example.com", "--credentials", try Self.apsCredentials(), "--endpoint", server.baseURL,
        ]
        let paid = try CommandRunner.run(
            base + ["--wallet", "apple-pay", "--apple-credentials", apple, "--customer-ip", "192.0.2.10"], input: token)
        #expect(paid.status == 0 && paid.out.contains("\"digital_wallet\":\"APPLE_PAY\"") && paid.out.contains("14000"), "\(paid.err)")
        #expect(!paid.err.contains("CANARY"))
        let missing = try CommandRunner.run(base + ["--wallet", "apple-pay", "--customer-ip", "192.0.2.10"], input: token)
        #expect(missing.status == 64 && missing.err.contains("--wallet needs --apple-credentials."))
        // Each source's apple_header order is sent as signed, and the emulator (which signs the
        // members as received) accepts each; the default is the .NET SDK's.
        let orders = [
            (nil, "ORD-A2", ["apple_ephemeralPublicKey", "apple_publicKeyHash", "apple_transactionId"]),
            ("php", "ORD-A3", ["apple_transactionId", "apple_publicKeyHash", "apple_ephemeralPublicKey"]),
            ("integrations", "ORD-A4", ["apple_transactionId", "apple_ephemeralPublicKey", "apple_publicKeyHash"]),
        ]
        for (order, reference, members) in orders {
            var arguments = base + ["--wallet", "apple-pay", "--apple-credentials", apple, "--customer-ip", "192.0.2.10"]
            arguments[3] = reference
            if let order { arguments += ["--apple-header-order", order] }
            let result = try CommandRunner.run(arguments, input: token)
            #expect(result.status == 0, "\(order ?? "default"): \(result.err)")
            let sent = try JSONValue.parse(try #require(server.requests().last).body)
            #expect(sent["apple_header"]?.objectValue?.keys == members, "\(order ?? "default")")
        }
        let badOrder = try CommandRunner.run(base + ["--token-name", "T", "--apple-header-order", "php"])
        #expect(badOrder.status == 64 && badOrder.err.contains("--apple-header-order needs --wallet."))
        // A wrong Apple phrase: the emulator refuses the signature, and neither phrase reaches stderr.
        let wrong = try Self.file(
            #"{"access_code":"AppleAccessCode01","merchant_identifier":"CycHZxVj","sha_request_phrase":"CANARY-cli-apple-wrong","sha_response_phrase":"CANARY-cli-apple-resp"}"#
        )
        var refused = base + ["--wallet", "apple-pay", "--apple-credentials", wrong, "--customer-ip", "192.0.2.10"]
        refused[3] = "ORD-A5"
        let failed = try CommandRunner.run(refused, input: token)
        #expect(
            failed.status != 0 && !failed.err.isEmpty && !failed.err.contains("CANARY") && !failed.out.contains("CANARY"), "\(failed.err)")
    }

    @Test(
        "aps sdk-token prints the verified token; a wrong response phrase, a tampered response or a wrong request phrase exits 1 without a token",
        arguments: [("normal", "", 0), ("normal", "wrong-response", 1), ("tampered", "", 1), ("normal", "wrong-request", 1)])
    func apsToken(mode: String, variant: String, status: Int32) throws {
        let server = try Self.emulator(
            "aps", ["--request-phrase", Self.requestPhrase, "--response-phrase", Self.responsePhrase, "--mode", mode])
        defer { server.stop() }
        let credentials = try Self.apsCredentials(
            request: variant == "wrong-request" ? "other-phrase" : Self.requestPhrase,
            response: variant == "wrong-response" ? "other-phrase" : Self.responsePhrase)
        let result = try CommandRunner.run([
            "aps", "sdk-token", "--device-id", "ffffffff-a9fa-0b44-7b27-29e70033c587", "--language", "en",
            "--environment", "test", "--credentials", credentials, "--endpoint", server.baseURL,
        ])
        #expect(result.status == status, "\(result.err)")
        if status == 0 {
            #expect(try JSONValue.parse(Array(result.stdout))["sdk_token"]?.stringValue == "Dwp78q3TOKEN")
        } else {
            #expect(result.out.isEmpty && !result.err.contains("TOKEN"))
            #expect(result.err.contains(variant == "wrong-request" ? "aps.message.008" : "aps.sdkToken.responseSignature"))
        }
        Self.checkCanaries(result)
    }

    // MARK: Mastercard

    /// Issue #26, Mastercard: session → (the app fills it) → pay, then retrieve; a lost answer
    /// exits 75 naming the order and transaction ids, and the same command settles it.
    @Test(
        "mastercard pay with the filled session: approved (0), card masked; retrieve; a lost answer exits 75 and the same command settles it"
    )
    func mastercardPay() throws {
        let server = try Self.emulator("mastercard", ["--merchant-id", "TEST_12345", "--api-password", Self.mastercardPassword])
        defer { server.stop() }
        let (common, id) = try Self.mastercardFilledSession(server)
        let pay = [
            "mastercard", "pay", "--order", "order-1", "--transaction", "pay-1", "--amount", "2345", "--currency", "EUR", "--session", id,
        ]
        let paid = try CommandRunner.run(pay + common)
        #expect(paid.status == 0, "\(paid.err)")
        let answer = try JSONValue.parse(Array(paid.stdout))
        #expect(answer["result"]?.stringValue == "SUCCESS" && answer["response"]?["gatewayCode"]?.stringValue == "APPROVED")
        #expect(paid.out.contains("411111******1111"))
        Self.checkCanaries(paid)
        let sent = try JSONValue.parse(Array(try #require(server.requests().last).body))
        #expect(sent["order"]?["amount"]?.stringValue == "23.45")
        let transaction = try CommandRunner.run(["mastercard", "retrieve", "order-1", "pay-1"] + common)
        #expect(transaction.status == 0 && transaction.out.contains("\"gatewayCode\":\"APPROVED\""), "\(transaction.err)")
        let order = try CommandRunner.run(["mastercard", "retrieve", "order-1"] + common)
        #expect(order.status == 0 && order.out.contains("\"status\":\"CAPTURED\""), "\(order.err)")
        Self.checkCanaries(transaction)
        // The answer of a second transaction is lost after the gateway processed it.
        try server.enqueue(
            LoopbackEmulator.Fault.delay(milliseconds: 2500).afterRoute().onPath("/api/rest/version/100/merchant/TEST_12345/order"))
        let second = [
            "mastercard", "authorize", "--order", "order-2", "--transaction", "auth-1", "--amount", "100", "--currency", "JPY", "--session",
            id,
        ]
        let lost = try CommandRunner.run(second + common + ["--timeout", "1"])
        #expect(lost.status == 75 && lost.out.isEmpty, "\(lost.err)")
        #expect(
            lost.err.hasPrefix("Error: server.outcomeUnknown") && lost.err.contains("orderId=order-2, transactionId=auth-1"), "\(lost.err)")
        #expect(lost.err.contains("'cse mastercard retrieve order-2 auth-1'"), "\(lost.err)")
        let settled = try CommandRunner.run(second + common)
        #expect(settled.status == 0 && settled.out.contains("\"type\":\"AUTHORIZATION\""), "\(settled.err)")
        let transactions = try server.requests().filter { $0.method == "PUT" && $0.path.hasSuffix("/order/order-2/transaction/auth-1") }
        #expect(transactions.count == 2)
        let again = try CommandRunner.run(["mastercard", "retrieve", "order-2"] + common)
        #expect(try JSONValue.parse(Array(again.stdout))["transaction"]?.arrayValue?.count == 1)
    }

    @Test(
        "mastercard pay: a declined transaction exits 1; a Google Pay PaymentData on stdin is sent as the token; --session and --wallet exclude each other"
    )
    func mastercardPayEdges() throws {
        let declined = try Self.emulator(
            "mastercard", ["--merchant-id", "TEST_12345", "--api-password", Self.mastercardPassword, "--mode", "decline"])
        defer { declined.stop() }
        let credentials = try Self.file(#"{"merchantId":"TEST_12345","apiPassword":"\#(Self.mastercardPassword)"}"#)
        let token = #"{"signature":"MEUC","protocolVersion":"ECv2","signedMessage":"{}"}"#
        let paymentData =
            #"{"apiVersion":2,"paymentMethodData":{"type":"CARD","tokenizationData":{"type":"PAYMENT_GATEWAY","token":"\#(token.replacingOccurrences(of: "\"", with: "\\\""))"}}}"#
        let base = [
            "mastercard", "pay", "--order", "o", "--transaction", "t", "--amount", "1", "--currency", "EUR", "--credentials", credentials,
        ]
        let refused = try CommandRunner.run(base + ["--wallet", "google-pay", "--endpoint", declined.baseURL], input: paymentData)
        #expect(
            refused.status == 1 && refused.err.contains("mastercard.transactionDeclined") && refused.err.contains("DECLINED"),
            "\(refused.err)")
        let sent = try JSONValue.parse(Array(try #require(declined.requests().last).body))
        #expect(sent["order"]?["walletProvider"]?.stringValue == "GOOGLE_PAY")
        #expect(sent["sourceOfFunds"]?["provided"]?["card"]?["devicePayment"]?["paymentToken"]?.stringValue == token)
        // Apple Pay: a PKPaymentToken, or Apple Pay JS's {"token":{…}} around it, sends its paymentData as the token.
        let paymentDataJSON = #"{"version":"EC_v1","data":"DATA_B64","signature":"SIG_B64","header":{"transactionId":"TXN"}}"#
        for input in [#"{"paymentData":\#(paymentDataJSON)}"#, #"{"token":{"paymentData":\#(paymentDataJSON)},"billingContact":{}}"#] {
            _ = try CommandRunner.run(base + ["--wallet", "apple-pay", "--endpoint", declined.baseURL], input: input)
            let apple = try JSONValue.parse(Array(try #require(declined.requests().last).body))
            #expect(apple["order"]?["walletProvider"]?.stringValue == "APPLE_PAY")
            let sentToken = apple["sourceOfFunds"]?["provided"]?["card"]?["devicePayment"]?["paymentToken"]?.stringValue
            #expect(try JSONValue.parse(try #require(sentToken)) == (try JSONValue.parse(paymentDataJSON)), "\(input)")
        }
        let both = try CommandRunner.run(base + ["--wallet", "apple-pay", "--session", "S1"])
        #expect(both.status == 64 && both.err.contains("--wallet cannot be combined with --session."))
        let neither = try CommandRunner.run(base)
        #expect(neither.status == 64)
        let badWallet = try CommandRunner.run(base + ["--wallet", "samsung-pay"])
        #expect(badWallet.status == 64 && badWallet.err.contains("apple-pay or google-pay"))
    }

    @Test("mastercard session create, update (stdin) and get; the echoed card number is masked and the CVV dropped")
    func mastercardSessions() throws {
        let server = try Self.emulator("mastercard", ["--merchant-id", "TEST_12345", "--api-password", Self.mastercardPassword])
        defer { server.stop() }
        let credentials = try Self.file(#"{"merchantId":"TEST_12345","apiPassword":"\#(Self.mastercardPassword)"}"#)
        let common = ["--region", "eu", "--api-version", "73", "--credentials", credentials, "--endpoint", server.baseURL]
        let created = try CommandRunner.run(["mastercard", "session", "create"] + common)
        #expect(created.status == 0, "\(created.err)")
        let id = try #require(try JSONValue.parse(Array(created.stdout))["session"]?["id"]?.stringValue)
        let update =
            #"{"sourceOfFunds.provided.card.number":"\#(Self.pan)","sourceOfFunds.provided.card.securityCode":"123","sourceOfFunds.provided.card.expiry":{"month":"12","year":"39"}}"#
        let updated = try CommandRunner.run(["mastercard", "session", "update", id] + common, input: update)
        #expect(updated.status == 0, "\(updated.err)")
        #expect(updated.out.contains("411111******1111") && !updated.out.contains("securityCode"))
        let fetched = try CommandRunner.run(["mastercard", "session", "get", id] + common)
        #expect(fetched.status == 0 && fetched.out.contains("\"updateStatus\":\"SUCCESS\""))
        #expect(
            try server.requests().map(\.path) == [
                "/api/rest/version/73/merchant/TEST_12345/session", "/api/rest/version/73/merchant/TEST_12345/session/\(id)",
                "/api/rest/version/73/merchant/TEST_12345/session/\(id)",
            ])
        let invalid = try CommandRunner.run(
            ["mastercard", "session", "update", id] + common,
            input: #"{"sourceOfFunds":{"provided":{"card":{"number":"4111111111111112"}}}}"#)
        #expect(invalid.status == 1 && invalid.err.contains("mastercard.invalidUpdate") && !invalid.err.contains("4111111111111112"))
        let wrong = try CommandRunner.run([
            "mastercard", "session", "get", id, "--credentials",
            try Self.file(#"{"merchantId":"TEST_12345","apiPassword":"wrong"}"#), "--endpoint", server.baseURL, "--api-version", "73",
        ])
        #expect(wrong.status == 1 && wrong.err.contains("serverAPI.authenticationFailed"))
        for run in [created, updated, fetched, invalid, wrong] { Self.checkCanaries(run) }
    }

    @Test(
        "usage errors: an endpoint with a path, an unknown region, an API version below 39, a plain-http remote endpoint",
        arguments: [
            ["mastercard", "session", "create", "--credentials", "x", "--endpoint", "http://127.0.0.1:1/api"],
            ["mastercard", "session", "create", "--credentials", "x", "--region", "zz"],
            ["mastercard", "session", "create", "--credentials", "x", "--api-version", "38"],
            ["paysafe", "token", "--credentials", "x", "--endpoint", "http://example.com"],
            ["aps", "sdk-token", "--credentials", "x", "--device-id", "d", "--language", "fr"],
        ])
    func usageErrors(arguments: [String]) throws {
        let result = try CommandRunner.run(arguments)
        #expect(result.status == 64, "\(result.err)")
    }

    // MARK: Paysafe

    /// Issue #26, Paysafe: a card token on the Card Payments API and a payment handle on the
    /// Payments API; a repeat with the same reference is the first payment (exit 0), and a lost
    /// answer exits 75 naming the reference, settled by lookup.
    @Test(
        "paysafe pay and lookup: both APIs, each with its own key; a repeated reference exits 0 with the first payment; a lost answer exits 75"
    )
    func paysafePay() throws {
        let server = try Self.emulator("paysafe", ["--api-key", Self.paysafeKey, "--payments-key", Self.paysafePaymentsKey])
        defer { server.stop() }
        let tokenCommon = ["--credentials", try Self.file(#"{"apiKey":"\#(Self.paysafeKey)"}"#), "--endpoint", server.baseURL]
        let common = ["--credentials", try Self.file(#"{"apiKey":"\#(Self.paysafePaymentsKey)"}"#), "--endpoint", server.baseURL]
        let token = try CommandRunner.run(
            ["paysafe", "token"] + tokenCommon, input: #"{"cardNum":"\#(Self.pan)","cardExpiry":{"month":12,"year":2030}}"#)
        let paymentToken = try #require(try JSONValue.parse(Array(token.stdout))["paymentToken"]?.stringValue)
        let byCard = try CommandRunner.run(
            [
                "paysafe", "pay", "--amount", "100", "--currency", "EUR", "--merchant-ref", "order-1", "--token", paymentToken,
                "--account", "1001234567",
            ] + common)
        #expect(
            byCard.status == 0 && byCard.out.contains("\"status\":\"COMPLETED\"") && byCard.out.contains("\"lastDigits\":\"1111\""),
            "\(byCard.err)")
        let pay = [
            "paysafe", "pay", "--amount", "2345", "--currency", "EUR", "--merchant-ref", "order-2", "--payment-handle", "SCp7iW4xTkmN3Bq",
        ]
        // The single-use-token key takes no payment: exit 1 (nothing was processed), no payment recorded.
        let wrongKey = try CommandRunner.run(pay + tokenCommon)
        #expect(wrongKey.status == 1 && wrongKey.err.contains("serverAPI.authenticationFailed"), "\(wrongKey.err)")
        let first = try CommandRunner.run(pay + common)
        #expect(first.status == 0, "\(first.err)")
        let id = try #require(try JSONValue.parse(Array(first.stdout))["id"]?.stringValue)
        let repeated = try CommandRunner.run(pay + common)
        let repeatedID = try JSONValue.parse(Array(repeated.stdout))["id"]?.stringValue
        #expect(repeated.status == 0 && repeatedID == id, "\(repeated.err)")
        try server.enqueue(LoopbackEmulator.Fault.delay(milliseconds: 2500).afterRoute().onPath("/paymenthub/v1/payments"))
        let lostPay = [
            "paysafe", "pay", "--amount", "5", "--currency", "EUR", "--merchant-ref", "order-3", "--payment-handle", "SCp7iW4xTkmN3Bq",
        ]
        let lost = try CommandRunner.run(lostPay + common + ["--timeout", "1"])
        #expect(
            lost.status == 75 && lost.err.contains("server.outcomeUnknown") && lost.err.contains("merchantReference=order-3"), "\(lost.err)"
        )
        #expect(lost.err.contains("'cse paysafe lookup --merchant-ref order-3'") && !lost.err.contains("--idempotence-key"))
        let lookup = try CommandRunner.run(["paysafe", "lookup", "--merchant-ref", "order-3"] + common)
        let found = try JSONValue.parse(Array(lookup.stdout))["payments"]?.arrayValue
        #expect(lookup.status == 0 && found?.count == 1 && found?.first?["status"]?.stringValue == "COMPLETED", "\(lookup.err)")
        // A reference Paysafe lists no payment under: nothing was processed (exit 1), not "done".
        let none = try CommandRunner.run(["paysafe", "lookup", "--merchant-ref", "never-used"] + common)
        #expect(none.status == 1 && none.err.hasPrefix("Error: server.unknownPayment"), "\(none.err)")
        let usage = try CommandRunner.run(
            ["paysafe", "pay", "--amount", "5", "--currency", "EUR", "--merchant-ref", "r", "--token", "t"] + common)
        #expect(usage.status == 64 && usage.err.contains("--token needs --account."))
        for result in [token, byCard, wrongKey, first, repeated, lost, lookup] { Self.checkCanaries(result) }
    }

    @Test(
        "paysafe lookup exits by what the reference's payments say: a declined payment is 1 (paysafe.paymentDeclined), its list still printed"
    )
    func paysafeLookupDeclined() throws {
        let server = try Self.emulator("paysafe", ["--payments-key", Self.paysafePaymentsKey, "--mode", "decline"])
        defer { server.stop() }
        let common = ["--credentials", try Self.file(#"{"apiKey":"\#(Self.paysafePaymentsKey)"}"#), "--endpoint", server.baseURL]
        let pay = [
            "paysafe", "pay", "--amount", "700", "--currency", "EUR", "--merchant-ref", "order-d", "--payment-handle", "SCp7iW4xTkmN3Bq",
        ]
        let refused = try CommandRunner.run(pay + common)
        #expect(refused.status == 1 && refused.err.hasPrefix("Error: paysafe.paymentDeclined"), "\(refused.err)")
        let lookup = try CommandRunner.run(["paysafe", "lookup", "--merchant-ref", "order-d"] + common)
        let listed = try JSONValue.parse(Array(lookup.stdout))["payments"]?.arrayValue
        #expect(lookup.status == 1 && lookup.err.hasPrefix("Error: paysafe.paymentDeclined"), "\(lookup.err)")
        #expect(listed?.first?["status"]?.stringValue == "FAILED")
        for result in [refused, lookup] { Self.checkCanaries(result) }
    }

    @Test("paysafe wallet-token: a Google Pay PaymentData becomes a token that pays with --token; --decrypted is Apple Pay's only")
    func paysafeWalletToken() throws {
        let server = try Self.emulator("paysafe", ["--api-key", Self.paysafeKey])
        defer { server.stop() }
        let common = ["--credentials", try Self.file(#"{"apiKey":"\#(Self.paysafeKey)"}"#), "--endpoint", server.baseURL]
        let paymentData =
            #"{"apiVersion":2,"paymentMethodData":{"tokenizationData":{"type":"PAYMENT_GATEWAY","token":"{\"signature\":\"MEUC\",\"protocolVersion\":\"ECv2\",\"signedMessage\":\"{}\"}"}}}"#
        let token = try CommandRunner.run(["paysafe", "wallet-token", "--wallet", "google-pay"] + common, input: paymentData)
        #expect(token.status == 0 && token.out.contains("\"maskedCard\":\"489537******3478\""), "\(token.err)")
        let paymentToken = try #require(try JSONValue.parse(Array(token.stdout))["paymentToken"]?.stringValue)
        let paid = try CommandRunner.run(
            [
                "paysafe", "pay", "--amount", "500", "--currency", "EUR", "--merchant-ref", "gp-1", "--token", paymentToken, "--account",
                "1001234567",
            ] + common)
        #expect(paid.status == 0 && paid.out.contains("\"status\":\"COMPLETED\""), "\(paid.err)")
        let usage = try CommandRunner.run(
            ["paysafe", "wallet-token", "--wallet", "google-pay", "--decrypted"] + common, input: paymentData)
        #expect(usage.status == 64 && usage.err.contains("--decrypted cannot be combined with --wallet google-pay"))
    }

    @Test("paysafe token prints the token with the card as BIN and last digits; a wrong key exits 1")
    func paysafeToken() throws {
        let server = try Self.emulator("paysafe", ["--api-key", Self.paysafeKey])
        defer { server.stop() }
        let card = #"{"cardNum":"\#(Self.pan)","cardExpiry":{"month":12,"year":2030},"holderName":"A Payer"}"#
        let result = try CommandRunner.run(
            [
                "paysafe", "token", "--credentials", try Self.file(#"{"apiKey":"\#(Self.paysafeKey)"}"#),
                "--endpoint", server.baseURL,
            ], input: card)
        #expect(result.status == 0, "\(result.err)")
        let token = try JSONValue.parse(Array(result.stdout))
        #expect(token["timeToLiveSeconds"]?.intValue == 899 && token["card"]?["maskedCard"]?.stringValue == "411111******1111")
        #expect(try server.requests()[0].path == "/customervault/v1/singleusetokens")
        let wrong = try CommandRunner.run(
            [
                "paysafe", "token", "--credentials", try Self.file(#"{"apiKey":"b3RoZXI6a2V5"}"#),
                "--endpoint", server.baseURL,
            ], input: #"{"card":\#(card)}"#)
        #expect(wrong.status == 1 && wrong.err.contains("serverAPI.authenticationFailed"))
        let badKey = try CommandRunner.run(
            [
                "paysafe", "token", "--credentials", try Self.file(#"{"apiKey":"not base64"}"#),
                "--endpoint", server.baseURL,
            ], input: card)
        #expect(badKey.status == 1 && badKey.err.contains("paysafe.apiKey") && badKey.err.contains("9013"))
        for run in [result, wrong, badKey] { Self.checkCanaries(run) }
    }

    @Test("--ca-file trusts the test CA over TLS (an unrelated CA fails with http.tls); --timeout ends a slow call with http.timeout")
    func tlsAndTimeout() throws {
        let ca = try TestCA()
        let other = try TestCA(commonName: "Unrelated CA")
        defer { ca.remove(); other.remove() }
        let server = try LoopbackEmulator(
            script: "server_api_emulator.py", arguments: ["--platform", "worldline", "--secret-api-key", Self.worldlineSecret],
            tls: try ca.issueServerCertificate())
        defer { server.stop() }
        let credentials = try Self.worldlineCredentials()
        let trusted = try CommandRunner.run([
            "worldline", "create-session", "--credentials", credentials, "--endpoint", server.baseURL,
            "--ca-file", ca.certificatePath,
        ])
        #expect(trusted.status == 0, "\(trusted.err)")
        let untrusted = try CommandRunner.run([
            "worldline", "create-session", "--credentials", credentials, "--endpoint", server.baseURL,
            "--ca-file", other.certificatePath,
        ])
        #expect(untrusted.status == 1 && untrusted.err.contains("http.tls"))
        try server.enqueue(.delay(milliseconds: 4000))
        let slow = try CommandRunner.run([
            "worldline", "create-session", "--credentials", credentials, "--endpoint", server.baseURL,
            "--ca-file", ca.certificatePath, "--timeout", "1",
        ])
        #expect(slow.status == 1 && slow.err.contains("http.timeout"), "\(slow.err)")
        for run in [trusted, untrusted, slow] { Self.checkCanaries(run) }
    }

    @Test("help lists the server command groups")
    func help() throws {
        let top = try CommandRunner.run(["--help"])
        for group in ["worldline", "aps", "mastercard", "paysafe"] { #expect(top.out.contains("  \(group) ")) }
        let session = try CommandRunner.run(["mastercard", "session", "--help"])
        #expect(session.out.contains("create") && session.out.contains("update") && session.out.contains("get"))
    }
}
