import CSECore
import CSECrypto
import CSEGateways
@_spi(CustomTransport) import CSEHTTP
import CSEServerAPI
import Foundation
import Synchronization
import Testing
import TestSupport

/// Canary secrets: they must never appear in an error, a description or a diagnostic event.
enum Canary {
    static let worldlineSecret = "CANARY-wl-secret-5c1d9e"
    static let requestPhrase = "CANARY-aps-request-7b2f"
    static let responsePhrase = "CANARY-aps-response-3e8a"
    static let mastercardPassword = "CANARY-mc-password-9d4c"
    /// Paysafe's single-use-token key (Customer Vault).
    static let paysafeKey = Base64.encode(Array("canaryuser:CANARY-ps-password-2a6b".utf8))
    /// Paysafe's server-to-server key (the Payments and Card Payments APIs).
    static let paysafePaymentsKey = Base64.encode(Array("canarypay:CANARY-ps-payments-7c1d".utf8))
    static let pan = "4111111111111111"
    static let all = [
        worldlineSecret, requestPhrase, responsePhrase, mastercardPassword, paysafeKey, "CANARY-ps-password-2a6b", paysafePaymentsKey,
        "CANARY-ps-payments-7c1d", pan,
    ]

    static func check(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) {
        for canary in all { #expect(!text.contains(canary), "leaked \(canary)", sourceLocation: sourceLocation) }
    }
}

/// Collects the transport's diagnostics events.
final class Diagnostics: Sendable {
    private let events = Mutex<[String]>([])
    func append(_ event: HTTPAttemptEvent) { events.withLock { $0.append(String(describing: event)) } }
    var all: [String] { events.withLock { $0 } }
}

/// A real (libcurl) client with short limits and a diagnostics collector.
func realClient(
    _ diagnostics: Diagnostics? = nil, trust: TLSTrust = .system, requestTimeout: Duration = .seconds(60),
    maxResponseBytes: Int = 1 << 20
) throws -> HTTPClient {
    var configuration = HTTPClientConfiguration()
    configuration.trust = trust
    configuration.requestTimeout = requestTimeout
    // Generous limits: in a full parallel `swift test` the CPU-bound suites can starve the
    // cooperative pool for tens of seconds, and the deadline is wall time (see CSEHTTPTests).
    configuration.deadline = .seconds(600)
    configuration.maxResponseBytes = maxResponseBytes
    configuration.backoffBase = .milliseconds(20)
    configuration.maxBackoff = .milliseconds(100)
    if let diagnostics { configuration.diagnostics = { diagnostics.append($0) } }
    return try HTTPClient(configuration: configuration)
}

/// Starts `server_api_emulator.py` for a platform, runs `body`, stops it.
func withServerEmulator<T>(
    _ platform: String, _ arguments: [String] = [], tls: TestCA.ServerCertificate? = nil,
    _ body: (LoopbackEmulator) async throws -> T
) async throws -> T {
    let emulator = try LoopbackEmulator(script: "server_api_emulator.py", arguments: ["--platform", platform] + arguments, tls: tls)
    defer { emulator.stop() }
    return try await body(emulator)
}

/// The CSEError `body` throws, or `nil`.
func thrown<T>(_ body: () async throws -> T) async -> CSEError? {
    do {
        _ = try await body()
        return nil
    } catch let error as CSEError {
        Canary.check(error.description)
        return error
    } catch {
        Issue.record("not a CSEError: \(error)")
        return nil
    }
}

@Suite("Server calls end to end against loopback emulators that check signatures and authentication themselves")
struct ServerEmulatorTests {
    static let jwe = "eyJhbGciOiJSU0EtT0FFUC0yNTYiLCJlbmMiOiJBMjU2R0NNIn0.a2V5.aXY.Y2lwaGVy.dGFn"
    static let worldlineArguments = ["--secret-api-key", Canary.worldlineSecret]

    static func worldline(
        _ server: LoopbackEmulator, key: String = Canary.worldlineSecret, diagnostics: Diagnostics? = nil,
        http: HTTPClient? = nil
    ) throws -> WorldlineServerClient {
        let credentials = try WorldlineServerCredentials(merchantID: "1234", apiKeyID: "5e45c937b9db33ae", secretAPIKey: secret(key))
        return WorldlineServerClient(
            credentials: credentials, environment: try ServerEnvironment(origin: server.baseURL), http: try http ?? realClient(diagnostics))
    }

    static func payment() throws -> WorldlinePaymentRequest {
        try WorldlinePaymentRequest(encryptedCustomerInput: jwe, amount: 2345, currencyCode: "EUR", merchantReference: "order-1")
    }

    // MARK: Worldline

    @Test("Worldline: CreateSession and CreatePayment pass the emulator's own v1HMAC check")
    func worldlineFlow() async throws {
        let diagnostics = Diagnostics()
        try await withServerEmulator("worldline", Self.worldlineArguments) { server in
            let client = try Self.worldline(server, diagnostics: diagnostics)
            let session = try await client.createSession(tokens: ["tok-1", "bad-2"])
            #expect(session.customerID == "cf7d7aafd42e4a1cb9e4b0624a5041b1" && session.invalidTokens == ["bad-2"])
            let payment = try await client.createPayment(try Self.payment()).get()
            #expect(payment.id.hasSuffix("_0") && payment.status == "PENDING_CAPTURE" && payment.amount == 2345)
            #expect(payment.maskedCardNumber == "411111******1111")
            let log = try server.requests()
            #expect(log.map(\.path) == ["/v2/1234/sessions", "/v2/1234/payments"])
            #expect(log[1].header("Authorization")?.hasPrefix("GCS v1HMAC:5e45c937b9db33ae:") == true)
            Canary.check(payment.description + payment.json.serialized + session.description)
        }
        #expect(diagnostics.all.count == 2)
        for event in diagnostics.all { Canary.check(event) }
    }

    @Test(
        "Worldline: CreateSession carries a signed X-GCS-Idempotence-Key; a cut answer is repeated with it and the platform creates one session; 409 in progress is worldline.requestInProgress"
    )
    func worldlineSessionIdempotence() async throws {
        try await withServerEmulator("worldline", Self.worldlineArguments) { server in
            try server.enqueue(LoopbackEmulator.Fault.drop.afterRoute().onPath("/v2/1234/sessions"))
            let client = try Self.worldline(server)
            let session = try await client.createSession(idempotenceKey: IdempotenceKey("session-order-7"))
            #expect(session.customerID == "cf7d7aafd42e4a1cb9e4b0624a5041b1")
            let log = try server.requests().filter { $0.path == "/v2/1234/sessions" }
            #expect(log.count == 2 && log.allSatisfy { $0.header("X-GCS-Idempotence-Key") == "session-order-7" })
            let created = try await HTTPClient().send(
                HTTPRequest(method: .get, url: try HTTPURL(server.baseURL + "/test/worldline-sessions")))
            #expect(try JSONValue.parse(created.body)["keys"] == .array([.string("session-order-7")]))
            // Without a key of the caller's own, every CreateSession still carries a fresh one.
            _ = try await client.createSession()
            #expect(try server.requests().last?.header("X-GCS-Idempotence-Key")?.count == 36)
        }
        try await withServerEmulator("worldline", Self.worldlineArguments + ["--mode", "session-in-progress"]) { server in
            let error = await thrown { try await Self.worldline(server).createSession(idempotenceKey: IdempotenceKey("k-1")) }
            #expect(error?.code == .worldlineRequestInProgress && error?.underlying?.code == .worldlineAPIError)
        }
    }

    @Test("Worldline: a request signed with the wrong secret is refused by the emulator (401 → authenticationFailed)")
    func worldlineWrongSecret() async throws {
        try await withServerEmulator("worldline", Self.worldlineArguments) { server in
            let error = await thrown { try await Self.worldline(server, key: "not-the-secret").createSession() }
            #expect(error?.code == .serverAPIAuthenticationFailed)
            #expect(error?.context["id"] == "MISSING_OR_INVALID_AUTHORIZATION")
        }
    }

    @Test("Worldline: a refused payment (402 with paymentResult) is a refusal; an HTML 500 is an unknown outcome")
    func worldlineRefused() async throws {
        try await withServerEmulator("worldline", Self.worldlineArguments + ["--mode", "reject"]) { server in
            let error = await thrown { try await Self.worldline(server).createPayment(try Self.payment()).get() }
            #expect(error?.code == .worldlinePaymentRejected && error?.context["paymentStatus"] == "REJECTED")
        }
        try await withServerEmulator("worldline", Self.worldlineArguments + ["--mode", "error500"]) { server in
            let error = await thrown { try await Self.worldline(server).createPayment(try Self.payment()).get() }
            #expect(error?.code == .serverOutcomeUnknown && error?.underlying?.code == .serverAPIUnexpectedStatus)
            #expect(error?.underlying?.context["status"] == "500")
        }
    }

    /// With an idempotence key on every attempt, CreatePayment is the same request each time: the
    /// transport repeats it after a connection failure or a 503 (and the emulator replays or
    /// creates it once); a fault after which the request may have been processed is an unknown
    /// outcome naming the key.
    @Test(
        "transport faults: repeated with the same idempotence key when safe, else an unknown outcome caused by the typed error",
        arguments: [
            ("drop", "succeeded", 2), ("truncate", "succeeded", 2), ("503", "succeeded", 2), ("garbage", "http.", 1),
            ("malformed", CSEError.Code.serverAPIInvalidResponse.rawValue, 1),
            ("oversized", CSEError.Code.httpResponseTooLarge.rawValue, 1), ("delay", CSEError.Code.httpTimeout.rawValue, 1),
        ])
    func transportFaults(fault: String, expected: String, attempts: Int) async throws {
        try await withServerEmulator("worldline", Self.worldlineArguments) { server in
            let faults: [String: LoopbackEmulator.Fault] = [
                "drop": .drop, "truncate": .truncatedBody, "garbage": .garbage, "malformed": .malformedBody,
                "oversized": .oversizedBody(bytes: 300_000, chunked: true), "delay": .delay(milliseconds: 3000), "503": .status(503),
            ]
            try server.enqueue(faults[fault]!.onPath("/v2/1234/payments"))
            let http = try realClient(requestTimeout: .seconds(1), maxResponseBytes: 200_000)
            let outcome = try await Self.worldline(server, http: http).createPayment(try Self.payment())
            let log = try server.requests()
            #expect(log.count == attempts, "\(fault)")
            let keys = Set(log.compactMap { $0.header("X-GCS-Idempotence-Key") })
            #expect(keys.count == 1 && keys.first?.count == 36, "every attempt carries the same key")
            switch outcome {
            case .succeeded(let payment, _):
                #expect(expected == "succeeded", "\(fault)")
                #expect(payment.id.hasSuffix("_0"))
            case .pending: Issue.record("a pending outcome for \(fault)")
            case .unknown(let reconciliation, let error):
                #expect(error.code == .serverOutcomeUnknown)
                #expect(error.underlying?.code.rawValue.hasPrefix(expected) == true, "\(fault): \(error)")
                #expect(reconciliation.idempotenceKey?.text == keys.first && reconciliation.merchantReference == "order-1")
                #expect(error.context["idempotenceKey"] == keys.first && error.context["merchantReference"] == "order-1")
                Canary.check(error.description)
            case .refused(_, let error):
                Issue.record("\(fault): refused \(error)")
            }
        }
    }

    @Test("TLS: the right CA is trusted; an unrelated CA fails with http.tls before any request is answered")
    func tls() async throws {
        let ca = try TestCA()
        let other = try TestCA(commonName: "Unrelated CA")
        defer { ca.remove(); other.remove() }
        let certificate = try ca.issueServerCertificate()
        try await withServerEmulator("worldline", Self.worldlineArguments, tls: certificate) { server in
            let good = try Self.worldline(server, http: try realClient(trust: .caFile(ca.certificatePath)))
            #expect(try await good.createSession().customerID.isEmpty == false)
            let bad = try Self.worldline(server, http: try realClient(trust: .caFile(other.certificatePath)))
            let error = await thrown { try await bad.createSession() }
            #expect(error?.code == .httpTLS)
        }
    }

    // MARK: APS

    static let apsArguments = ["--request-phrase", Canary.requestPhrase, "--response-phrase", Canary.responsePhrase]

    static func aps(
        _ server: LoopbackEmulator, requestPhrase: String = Canary.requestPhrase,
        responsePhrase: String = Canary.responsePhrase, diagnostics: Diagnostics? = nil
    ) throws -> APSSDKTokenClient {
        let credentials = try APSCredentials(
            accessCode: "zx0IPmPy5jp1vAz8Kpg7", merchantIdentifier: "CycHZxVj",
            requestPhrase: secret(requestPhrase), responsePhrase: secret(responsePhrase))
        return try APSSDKTokenClient(
            credentials: credentials, environment: try ServerEnvironment(origin: server.baseURL),
            http: try realClient(diagnostics))
    }

    @Test("APS: the emulator verifies the request signature and signs its answer; the token comes back")
    func apsToken() async throws {
        let diagnostics = Diagnostics()
        try await withServerEmulator("aps", Self.apsArguments) { server in
            let token = try await Self.aps(server, diagnostics: diagnostics).sdkToken(
                deviceID: "ffffffff-a9fa-0b44-7b27-29e70033c587", language: "ar")
            #expect(token.token == "Dwp78q3TOKEN" && token.responseCode.description == "22000")
            let log = try server.requests()
            #expect(log.map(\.path) == ["/FortAPI/paymentApi"])
            Canary.check(log[0].bodyText)
        }
        for event in diagnostics.all { Canary.check(event) }
    }

    @Test("APS: a request signed with the wrong phrase is refused by APS (00008 → aps.message.008)")
    func apsWrongRequestPhrase() async throws {
        try await withServerEmulator("aps", Self.apsArguments) { server in
            let error = await thrown {
                try await Self.aps(server, requestPhrase: "wrong-request-phrase").sdkToken(deviceID: "device-1")
            }
            #expect(error?.code == .apsMessage("008"))
        }
    }

    @Test(
        "APS: a wrongly signed, tampered, unsigned or foreign response is refused and no token is returned",
        arguments: [
            ("wrong-response-signature", CSEError.Code.apsResponseSignature), ("tampered", .apsResponseSignature),
            ("unsigned", .apsResponseSignature), ("other-device", .apsResponseMismatch),
            ("failure-21068", .apsMessage("068")), ("failure-21070", .apsMessage("070")),
        ])
    func apsBadResponses(mode: String, expected: CSEError.Code) async throws {
        try await withServerEmulator("aps", Self.apsArguments + ["--mode", mode]) { server in
            let error = await thrown { try await Self.aps(server).sdkToken(deviceID: "device-1") }
            #expect(error?.code == expected)
            #expect(error?.description.contains("TOKEN") == false)
        }
    }

    @Test("APS: verifying with the wrong response phrase refuses a genuine response")
    func apsWrongResponsePhrase() async throws {
        try await withServerEmulator("aps", Self.apsArguments) { server in
            let error = await thrown {
                try await Self.aps(server, responsePhrase: "not-the-response-phrase").sdkToken(deviceID: "device-1")
            }
            #expect(error?.code == .apsResponseSignature)
        }
    }

    // MARK: Mastercard

    static func mastercard(
        _ server: LoopbackEmulator, password: String = Canary.mastercardPassword, version: Int = 73,
        diagnostics: Diagnostics? = nil
    ) throws -> MastercardSessionClient {
        try MastercardSessionClient(
            credentials: try MastercardCredentials(merchantID: "TEST_12345", apiPassword: secret(password)),
            environment: try ServerEnvironment(origin: server.baseURL), apiVersion: version, http: try realClient(diagnostics))
    }

    static let mastercardArguments = ["--merchant-id", "TEST_12345", "--api-password", Canary.mastercardPassword]

    @Test("Mastercard: create, update (GatewayMap-checked) and retrieve pass the emulator's Basic check")
    func mastercardFlow() async throws {
        let diagnostics = Diagnostics()
        try await withServerEmulator("mastercard", Self.mastercardArguments) { server in
            let client = try Self.mastercard(server, diagnostics: diagnostics)
            let created = try await client.createSession(authenticationLimit: 3)
            #expect(created.updateStatus == "NO_UPDATE" && created.authenticationLimit == 3)
            var update = GatewayMap()
            try update.set(.string(Canary.pan), at: "sourceOfFunds.provided.card.number")
            try update.set("123", at: "sourceOfFunds.provided.card.securityCode")
            try update.set("12", at: "sourceOfFunds.provided.card.expiry.month")
            try update.set("39", at: "sourceOfFunds.provided.card.expiry.year")
            let updated = try await client.updateSession(id: created.id, with: update)
            #expect(updated.updateStatus == "SUCCESS")
            let fetched = try await client.retrieveSession(id: created.id)
            #expect(fetched.updateStatus == "SUCCESS")
            Canary.check(String(decoding: fetched.maskedJSON, as: UTF8.self) + fetched.description)
            #expect(String(decoding: fetched.maskedJSON, as: UTF8.self).contains("411111******1111"))
            #expect(try server.requests().map(\.method) == ["POST", "PUT", "GET"])
        }
        for event in diagnostics.all { Canary.check(event) }
    }

    @Test("Mastercard: a wrong password is refused (401 → authenticationFailed); result ERROR causes map to typed errors")
    func mastercardErrors() async throws {
        try await withServerEmulator("mastercard", Self.mastercardArguments) { server in
            let error = await thrown { try await Self.mastercard(server, password: "wrong").createSession() }
            #expect(error?.code == .serverAPIAuthenticationFailed)
            let unknown = await thrown { try await Self.mastercard(server).retrieveSession(id: "SESSION404") }
            #expect(unknown?.code == .mastercardInvalidRequest && unknown?.context["field"] == "session.id")
        }
        try await withServerEmulator("mastercard", Self.mastercardArguments + ["--mode", "busy"]) { server in
            let error = await thrown { try await Self.mastercard(server).createSession() }
            #expect(error?.code == .mastercardServerBusy)
        }
    }

    @Test("Mastercard: a GET is retried after a 503 and succeeds")
    func mastercardRetry() async throws {
        try await withServerEmulator("mastercard", Self.mastercardArguments) { server in
            let client = try Self.mastercard(server)
            let created = try await client.createSession()
            try server.enqueue(.status(503))
            #expect(try await client.retrieveSession(id: created.id).id == created.id)
            #expect(try server.requests().map(\.method) == ["POST", "GET", "GET"])
        }
    }

    // MARK: Paysafe

    static func paysafe(_ server: LoopbackEmulator, key: String = Canary.paysafeKey) throws -> PaysafeTokenClient {
        PaysafeTokenClient(
            credentials: try PaysafeCredentials(apiKey: secret(key)), environment: try ServerEnvironment(origin: server.baseURL),
            http: try realClient())
    }

    /// A card in Paysafe's shape, as the JSON text the public API takes.
    static func card(_ number: String) -> [UInt8] {
        Array(#"{"cardNum":"\#(number)","holderName":"A Payer","cardExpiry":{"month":12,"year":2030}}"#.utf8)
    }

    @Test("Paysafe: the token, its lifetime and the masked card; wrong key → authenticationFailed; bad card → paysafe.apiError")
    func paysafe() async throws {
        try await withServerEmulator("paysafe", ["--api-key", Canary.paysafeKey]) { server in
            let token = try await Self.paysafe(server).createSingleUseToken(card: Self.card(Canary.pan))
            #expect(token.timeToLiveSeconds == 899 && token.maskedCard == "411111******1111" && token.paymentToken.hasPrefix("SCO"))
            Canary.check(token.json.serialized + token.description)
            let wrongKey = await thrown {
                try await Self.paysafe(server, key: Base64.encode(Array("other:key".utf8))).createSingleUseToken(
                    card: Self.card(Canary.pan))
            }
            #expect(wrongKey?.code == .serverAPIAuthenticationFailed && wrongKey?.context["paysafeCode"] == "5279")
            let badCard = await thrown {
                try await Self.paysafe(server).createSingleUseToken(card: Self.card("4111111111111112"))
            }
            #expect(badCard?.code == .paysafeAPIError && badCard?.context["fields"] == "card.cardNum")
        }
    }
}
