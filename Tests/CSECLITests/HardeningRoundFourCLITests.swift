import CSECore
import Foundation
import Testing
import TestSupport

/// Issue #32 (hardening, round four) through `cse`: each test fails on the code before the fix
/// (72a2865) and passes after.
@Suite("cse, hardening round four: hidden retries exit 75, undocumented statuses are not success, tokens are read canonically")
struct HardeningRoundFourCLITests {
    static let worldlineCredentials =
        #"{"merchantId":"1234","apiKeyId":"5e45c937b9db33ae","secretApiKey":"\#(ServerCommandTests.worldlineSecret)"}"#
    static let worldlinePayment = [
        "worldline", "create-payment", "--skip-authentication", "--amount", "2345", "--currency", "EUR", "--reference", "order-h",
        "--idempotence-key", "hidden-1",
    ]
    static let encrypted = #"{"encryptedCustomerInput":"a.b.c.d.e"}"#

    // MARK: Point 2

    @Test("worldline create-payment: a 502 after processing, then a 404 or a WAF's 403, exits 75 with the key, never 1")
    func worldlineHiddenRetry() throws {
        for later in [
            LoopbackEmulator.Fault.json(404, #"{"errorId":"e","errors":[{"id":"X"}]}"#), .status(403, body: "<html>blocked</html>"),
        ] {
            let server = try ServerCommandTests.emulator("worldline", ["--secret-api-key", ServerCommandTests.worldlineSecret])
            defer { server.stop() }
            try server.enqueue(LoopbackEmulator.Fault.status(502).afterRoute().onPath("/v2/1234/payments"))
            try server.enqueue(later.onPath("/v2/1234/payments"))
            let common = ["--credentials", try ServerCommandTests.file(Self.worldlineCredentials), "--endpoint", server.baseURL]
            let result = try CommandRunner.run(Self.worldlinePayment + common, input: Self.encrypted)
            #expect(result.status == 75 && result.out.isEmpty, "\(result.err)")
            #expect(result.err.hasPrefix("Error: server.outcomeUnknown") && result.err.contains("idempotenceKey=hidden-1"), "\(result.err)")
            // The same command settles it: the platform replays the payment the first attempt made.
            let settled = try CommandRunner.run(Self.worldlinePayment + common, input: Self.encrypted)
            #expect(settled.status == 0, "\(settled.err)")
            ServerCommandTests.checkCanaries(result)
        }
    }

    @Test("mastercard pay: a 504 after processing, then 429s, exits 75 naming the order and transaction")
    func mastercardHiddenRetry() throws {
        let server = try ServerCommandTests.emulator(
            "mastercard", ["--merchant-id", "TEST_12345", "--api-password", ServerCommandTests.mastercardPassword])
        defer { server.stop() }
        let (common, id) = try ServerCommandTests.mastercardFilledSession(server)
        let path = "/api/rest/version/100/merchant/TEST_12345/order/"
        try server.enqueue(LoopbackEmulator.Fault.status(504).afterRoute().onPath(path))
        try server.enqueue(LoopbackEmulator.Fault.status(429).times(5).onPath(path))
        let pay = ["mastercard", "pay", "--order", "o-h", "--transaction", "t-h", "--amount", "100", "--currency", "EUR", "--session", id]
        let result = try CommandRunner.run(pay + common)
        #expect(result.status == 75 && result.err.contains("orderId=o-h, transactionId=t-h"), "\(result.err)")
        ServerCommandTests.checkCanaries(result)
    }

    // MARK: Points 3 and 4

    static func paysafe() throws -> (LoopbackEmulator, [String]) { try ServerCommandTests.paysafeEmulator() }

    static let paysafePay = [
        "paysafe", "pay", "--amount", "2345", "--currency", "EUR", "--merchant-ref", "order-s", "--payment-handle", "SCp7iW4xTkmN3Bq",
    ]

    static func payment(_ id: String, _ status: String, amount: Int = 2345) -> String {
        #"{"id":"\#(id)","status":"\#(status)","merchantRefNum":"order-s","amount":\#(amount),"currencyCode":"EUR"}"#
    }

    @Test(
        "paysafe pay: ERROR, FAILURE, DECLINED and lower-case failed exit 75, not 0", arguments: ["ERROR", "FAILURE", "DECLINED", "failed"])
    func paysafeUndocumentedStatus(status: String) throws {
        let (server, common) = try Self.paysafe()
        defer { server.stop() }
        try server.enqueue(LoopbackEmulator.Fault.json(201, Self.payment("p-1", status)).onPath("/paymenthub/v1/payments"))
        let result = try CommandRunner.run(Self.paysafePay + common)
        #expect(result.status == 75 && result.out.isEmpty, "\(status): \(result.err)")
        #expect(result.err.contains("paysafe.paymentUndetermined") && result.err.contains("merchantReference=order-s"), "\(result.err)")
    }

    @Test("paysafe pay after a 409: a FAILED entry listed before a COMPLETED one exits 0 with the completed payment")
    func paysafeConflictLookup() throws {
        let (server, common) = try Self.paysafe()
        defer { server.stop() }
        let path = "/paymenthub/v1/payments"
        try server.enqueue(LoopbackEmulator.Fault.json(409, #"{"error":{"code":"5031","message":"duplicate"}}"#).onPath(path))
        try server.enqueue(
            LoopbackEmulator.Fault.json(200, #"{"payments":[\#(Self.payment("p-1", "FAILED")),\#(Self.payment("p-2", "COMPLETED"))]}"#)
                .onPath(path))
        let result = try CommandRunner.run(Self.paysafePay + common)
        #expect(result.status == 0 && result.out.contains("\"id\":\"p-2\""), "\(result.err)")
    }

    // MARK: Points 6 and 7

    @Test("worldline create-payment: a 2xx naming another amount exits 1 with server.referenceInUse, not 0")
    func worldlineAnotherPayment() throws {
        let server = try ServerCommandTests.emulator("worldline", ["--secret-api-key", ServerCommandTests.worldlineSecret])
        defer { server.stop() }
        let body =
            #"{"payment":{"id":"9_0","status":"CAPTURED","statusOutput":{"statusCategory":"COMPLETED"},"paymentOutput":{"amountOfMoney":{"amount":100,"currencyCode":"EUR"},"references":{"merchantReference":"order-h"}}}}"#
        try server.enqueue(LoopbackEmulator.Fault.json(201, body).onPath("/v2/1234/payments"))
        let common = ["--credentials", try ServerCommandTests.file(Self.worldlineCredentials), "--endpoint", server.baseURL]
        let result = try CommandRunner.run(Self.worldlinePayment + common, input: Self.encrypted)
        #expect(result.status == 1 && result.out.isEmpty && result.err.hasPrefix("Error: server.referenceInUse"), "\(result.err)")
    }

    @Test("worldline: the platform's 8-digit error code prints as sent on stderr; a card number beside it does not")
    func worldlineErrorCodeReadable() throws {
        let server = try ServerCommandTests.emulator("worldline", ["--secret-api-key", ServerCommandTests.worldlineSecret])
        defer { server.stop() }
        let body =
            #"{"errorId":"657b10da-d2f9-4d2f-a2cd-6ea4b4d5d4a4","errors":[{"errorCode":"21000020","id":"INVALID_VALUE","message":"card \#(ServerCommandTests.pan) is invalid"}]}"#
        try server.enqueue(LoopbackEmulator.Fault.json(400, body).onPath("/v2/1234/payments"))
        let common = ["--credentials", try ServerCommandTests.file(Self.worldlineCredentials), "--endpoint", server.baseURL]
        let result = try CommandRunner.run(Self.worldlinePayment + common, input: Self.encrypted)
        #expect(result.status == 1 && result.err.contains("21000020") && !result.err.contains("********"), "\(result.err)")
        ServerCommandTests.checkCanaries(result)
    }

    // MARK: Points 1 and 8, on Apple's own signature (the gala vector)

    static func gala(_ change: (inout [String: Any], inout [String: Any]) -> Void) throws -> [UInt8] {
        var object = try #require(
            try JSONSerialization.jsonObject(with: Data(CLIWalletCommandTests.file("gala/token.json"))) as? [String: Any])
        var header = try #require(object["header"] as? [String: Any])
        change(&object, &header)
        object["header"] = header
        return Array(try JSONSerialization.data(withJSONObject: object))
    }

    @Test(
        "wallet decrypt: an upper-case transactionId prints in its canonical lower-case form; an id split with applicationData, or bytes after the signature, exit 1",
        .enabled(if: TestPaths.sharedVectors != nil, "needs ../shared/vectors/wallets"))
    func appleTokenShapes() throws {
        let decrypt = ["wallet", "decrypt"] + CLIWalletCommandTests.gala + ["--now", "2021-09-01T19:03:06Z"]
        let upper = try Self.gala { _, header in header["transactionId"] = (header["transactionId"] as? String)?.uppercased() }
        let canonical = try CommandRunner.run(decrypt, stdin: upper)
        #expect(canonical.status == 0, "\(canonical.err)")
        #expect(canonical.out.contains("\"transactionId\":\"f7f133694685bab2f44ae3a7b54e2c0d0d39a3bc73fa2e6b14a2baf628d6ce87\""))
        let split = try Self.gala { _, header in
            let id = header["transactionId"] as? String ?? ""
            header["transactionId"] = String(id.prefix(32))
            header["applicationData"] = String(id.dropFirst(32))
        }
        let splitResult = try CommandRunner.run(decrypt, stdin: split)
        #expect(splitResult.status == 1 && splitResult.err.hasPrefix("Error: wallet.malformed"), "\(splitResult.err)")
        let trailing = try Self.gala { object, _ in
            let signature = (try? Base64.decode(object["signature"] as? String ?? "", alphabet: .standard, padding: .required)) ?? []
            object["signature"] = Base64.encode(signature + [0])
        }
        for command in [decrypt, ["wallet", "verify", "--now", "2021-09-01T19:03:06Z"]] {
            let result = try CommandRunner.run(command, stdin: trailing)
            #expect(result.status == 1 && result.err.hasPrefix("Error: wallet.malformed"), "\(command[1]): \(result.err)")
        }
    }
}
