import CSECore
import Testing
import TestSupport

/// Issue #26, "Proof", through `cse`: for every platform, the faults that lose an answer after the
/// platform processed the request — the connection cut once the request was read, a 2xx body that
/// is not JSON, a 500 — give the exit status of the outcome they leave: 0 where the platform makes
/// the transport's repeat safe and the repeat reads the first answer (Worldline's idempotence key,
/// Mastercard's ids), 75 (`server.outcomeUnknown`, the keys on stderr) everywhere else; never 1.
@Suite("cse payment commands: a cut, an unreadable 2xx or a 500 after processing exits 0 (replayed) or 75, never 1")
struct PaymentFaultMatrixTests {
    enum Fault: String, CaseIterable {
        case cut, unreadable, serverError

        var emulatorFault: LoopbackEmulator.Fault {
            switch self {
            case .cut: LoopbackEmulator.Fault.drop.afterRoute()
            case .unreadable: LoopbackEmulator.Fault.malformedBody.afterRoute()
            case .serverError: LoopbackEmulator.Fault.status(500, body: "<html>internal error</html>").afterRoute()
            }
        }
    }

    /// One platform's money-moving command: its emulator, the command line, the payment path, the
    /// keys stderr must name, and the exit status expected for a cut connection.
    struct Platform: Sendable, CustomTestStringConvertible {
        let name: String
        let emulatorArguments: [String]
        let credentials: String
        let command: [String]
        let path: String
        let keys: [String]
        let cutExit: Int32
        var testDescription: String { name }
    }

    static let platforms: [Platform] = [
        Platform(
            name: "worldline", emulatorArguments: ["--secret-api-key", ServerCommandTests.worldlineSecret],
            credentials:
                #"{"merchantId":"1234","apiKeyId":"5e45c937b9db33ae","secretApiKey":"\#(ServerCommandTests.worldlineSecret)"}"#,
            command: [
                "worldline", "create-payment", "--skip-authentication", "--amount", "2345", "--currency", "EUR", "--reference", "order-f",
                "--idempotence-key", "fault-key-1",
            ],
            path: "/v2/1234/payments", keys: ["idempotenceKey=fault-key-1", "merchantReference=order-f"], cutExit: 0),
        Platform(
            name: "aps",
            emulatorArguments: [
                "--request-phrase", ServerCommandTests.requestPhrase, "--response-phrase", ServerCommandTests.responsePhrase,
            ],
            credentials:
                #"{"access_code":"zx0IPmPy5jp1vAz8Kpg7","merchant_identifier":"CycHZxVj","sha_request_phrase":"\#(ServerCommandTests.requestPhrase)","sha_response_phrase":"\#(ServerCommandTests.responsePhrase)","sha_type":"sha256"}"#,
            command: [
                "aps", "purchase", "--token-name", "Op9Vmp", "--merchant-reference", "ORD-F1", "--amount", "500", "--currency", "AED",
                "--customer-email", "payer@example.com",
            ],
            path: "/FortAPI/paymentApi", keys: ["merchantReference=ORD-F1"], cutExit: 75),
        Platform(
            name: "paysafe", emulatorArguments: ["--api-key", ServerCommandTests.paysafeKey],
            credentials: #"{"apiKey":"\#(ServerCommandTests.paysafeKey)"}"#,
            command: [
                "paysafe", "pay", "--amount", "5", "--currency", "EUR", "--merchant-ref", "order-f", "--payment-handle", "SCp7iW4xTkmN3Bq",
            ],
            path: "/paymenthub/v1/payments", keys: ["merchantReference=order-f"], cutExit: 75),
    ]

    @Test("each fault on each platform", arguments: platforms, Fault.allCases)
    func fault(platform: Platform, fault: Fault) throws {
        let server = try ServerCommandTests.emulator(platform.name, platform.emulatorArguments)
        defer { server.stop() }
        let common = ["--credentials", try ServerCommandTests.file(platform.credentials), "--endpoint", server.baseURL]
        try server.enqueue(fault.emulatorFault.onPath(platform.path))
        let stdin = platform.name == "worldline" ? #"{"encryptedCustomerInput":"a.b.c.d.e"}"# : ""
        let result = try CommandRunner.run(platform.command + common, input: stdin)
        let expected = fault == .cut ? platform.cutExit : 75
        #expect(result.status == expected, "\(platform.name) \(fault): \(result.err)")
        if expected == 75 {
            #expect(result.err.hasPrefix("Error: server.outcomeUnknown") && result.out.isEmpty, "\(result.err)")
            for key in platform.keys { #expect(result.err.contains(key), "\(platform.name) \(fault): \(key)") }
        }
        ServerCommandTests.checkCanaries(result)
    }

    @Test("Mastercard: each fault after the gateway processed the PUT", arguments: Fault.allCases)
    func mastercard(fault: Fault) throws {
        let server = try ServerCommandTests.emulator(
            "mastercard", ["--merchant-id", "TEST_12345", "--api-password", ServerCommandTests.mastercardPassword])
        defer { server.stop() }
        let (common, id) = try ServerCommandTests.mastercardFilledSession(server)
        try server.enqueue(fault.emulatorFault.onPath("/api/rest/version/100/merchant/TEST_12345/order"))
        let result = try CommandRunner.run(
            [
                "mastercard", "pay", "--order", "order-f", "--transaction", "pay-f", "--amount", "2345", "--currency", "EUR", "--session",
                id,
            ] + common)
        #expect(result.status == (fault == .cut ? 0 : 75), "\(fault): \(result.err)")
        if fault != .cut {
            #expect(result.err.contains("orderId=order-f, transactionId=pay-f"), "\(result.err)")
            #expect(result.err.contains("'cse mastercard retrieve order-f pay-f'"))
        }
        ServerCommandTests.checkCanaries(result)
    }
}
