import CSECore
@_spi(CustomTransport) import CSEHTTP
import CSEServerAPI
import Testing
import TestSupport

/// Issue #33, Worldline: how each answer to CapturePayment, RefundPayment and CancelPayment is
/// classified, read from scripted answers (research notes §1.2, "outcome classes: as
/// CreatePayment"): a refusal only when the answer proves it, an unknown outcome with the keys
/// whenever the operation may have been booked.
@Suite("Worldline capture, refund and cancel answers: succeeded, refused or unknown, as CreatePayment's")
struct WorldlineLifecycleOutcomeTests {
    enum Expected: Equatable { case succeeded, refused, unknown, thrown(String) }

    static func client(_ transport: RecordingTransport, retries: Int = 0) throws -> WorldlineServerClient {
        var configuration = HTTPClientConfiguration()
        configuration.maxRetries = retries
        configuration.backoffBase = .milliseconds(1)
        configuration.maxBackoff = .milliseconds(2)
        configuration.deadline = .seconds(600)
        return WorldlineServerClient(
            credentials: try WorldlineServerCredentials(merchantID: "1", apiKeyID: "k", secretAPIKey: secret("s")),
            environment: .worldlinePreproduction, http: try HTTPClient(configuration: configuration, transport: transport))
    }

    static func response(_ status: Int, _ body: String) -> Result<HTTPResponse, CSEError> {
        .success(HTTPResponse(status: status, headers: ["Content-Type": "application/json"], body: Array(body.utf8)))
    }

    static func classify<T>(_ call: () async throws(CSEError) -> PaymentOutcome<T>) async -> Expected {
        do {
            switch try await call() {
            case .succeeded: return .succeeded
            case .refused: return .refused
            case .pending: return .thrown("pending")
            case .unknown(let keys, let error):
                #expect(keys.idempotenceKey?.text == "op-key" && keys.paymentID == "3066019730_0" && error.code == .serverOutcomeUnknown)
                return .unknown
            }
        } catch {
            Canary.check(error.description)
            return .thrown(error.code.rawValue)
        }
    }

    static let capture =
        #"{"id":"3066019730_1","status":"CAPTURE_REQUESTED","statusOutput":{"statusCode":91,"statusCategory":"PENDING_CONNECT_OR_3RD_PARTY"},"captureOutput":{"amountOfMoney":{"amount":500,"currencyCode":"EUR"}}}"#

    @Test(
        "capture: each answer's outcome",
        arguments: [
            (201, capture, Expected.succeeded),
            (201, #"{"id":"3066019730_1","status":"REJECTED_CAPTURE","statusOutput":{"statusCategory":"UNSUCCESSFUL"}}"#, .refused),
            (201, #"{"id":"3066019730_1","status":"CAPTURED","statusOutput":{"statusCode":92}}"#, .unknown),
            (201, #"{"id":"3066019730_1","status":"CAPTURED","statusOutput":{"statusCode":"nine"}}"#, .unknown),
            (201, "not json", .unknown),
            (201, #"{"id":"4000000000_1","status":"CAPTURED"}"#, .thrown("server.referenceInUse")),
            (
                201, #"{"id":"3066019730_1","status":"CAPTURED","captureOutput":{"amountOfMoney":{"amount":501}}}"#,
                .thrown("server.referenceInUse")
            ),
            (409, #"{"errorId":"e","errors":[{"id":"DUPLICATE_REQUEST_IN_PROGRESS"}]}"#, .unknown),
            (409, "", .unknown),
            (409, #"{"errorId":"e","errors":[{"id":"ACTION_NOT_ALLOWED_ON_TARGET"}]}"#, .thrown("server.operationNotAllowed")),
            (404, #"{"errorId":"e","errors":[{"id":"UNKNOWN_PAYMENT_ID","errorCode":"1002"}]}"#, .thrown("server.unknownPayment")),
            (400, #"{"errorId":"e","errors":[{"id":"INVALID_VALUE","propertyName":"amount"}]}"#, .thrown("worldline.apiError")),
            (500, "<html>oops</html>", .unknown),
            (503, #"{"errorId":"e","errors":[{"id":"X","retriable":true}]}"#, .thrown("worldline.apiError")),
        ])
    func captureOutcome(status: Int, body: String, expected: Expected) async throws {
        let client = try Self.client(RecordingTransport([Self.response(status, body)]))
        let outcome = await Self.classify { () throws(CSEError) in
            try await client.capturePayment(
                "3066019730_0", try WorldlineCaptureRequest(amount: 500), idempotenceKey: try IdempotenceKey("op-key"))
        }
        #expect(outcome == expected, "\(status) \(body)")
    }

    @Test(
        "refund: a 402 with refundResult is refused with the refund; REJECTED_CREDIT on a 2xx too; a refund of another currency is another refund"
    )
    func refundOutcome() async throws {
        let declined =
            #"{"errorId":"e","errors":[{"id":"REFUND_DECLINED"}],"refundResult":{"id":"3066019730_2","status":"REJECTED","refundOutput":{"amountOfMoney":{"amount":500,"currencyCode":"EUR"}}}}"#
        let cases: [(Int, String, Expected)] = [
            (402, declined, .refused),
            (201, #"{"id":"3066019730_2","status":"REJECTED_CREDIT"}"#, .refused),
            (
                201,
                #"{"id":"3066019730_2","status":"REFUND_REQUESTED","refundOutput":{"amountOfMoney":{"amount":500,"currencyCode":"USD"}}}"#,
                .thrown("server.referenceInUse")
            ),
            (201, #"{"id":"3066019730_2","status":"REFUNDED","statusOutput":{"statusCategory":"REFUNDED","statusCode":8}}"#, .succeeded),
        ]
        for (status, body, expected) in cases {
            let client = try Self.client(RecordingTransport([Self.response(status, body)]))
            let outcome = await Self.classify { () throws(CSEError) in
                try await client.refundPayment(
                    "3066019730_0", try WorldlineRefundRequest(amount: 500, currencyCode: "EUR"),
                    idempotenceKey: try IdempotenceKey("op-key"))
            }
            #expect(outcome == expected, "\(status) \(body)")
        }
    }

    @Test("cancel: CANCELLED is a success; an answer for another payment is refused as another payment's")
    func cancelOutcome() async throws {
        for (body, expected) in [
            (
                #"{"payment":{"id":"3066019730_0","status":"CANCELLED","statusOutput":{"statusCategory":"UNSUCCESSFUL","statusCode":6}}}"#,
                Expected.succeeded
            ),
            (#"{"payment":{"id":"3066019731_0","status":"CANCELLED"}}"#, .thrown("server.referenceInUse")),
            (#"{"payment":{}}"#, .unknown),
        ] {
            let client = try Self.client(RecordingTransport([Self.response(200, body)]))
            let outcome = await Self.classify { () throws(CSEError) in
                try await client.cancelPayment("3066019730_0", try WorldlineCancelRequest(), idempotenceKey: try IdempotenceKey("op-key"))
            }
            #expect(outcome == expected, "\(body)")
        }
    }

    @Test("a later 4xx never hides an earlier attempt that may have been booked: a 503 without retriable, then 404, is unknown")
    func retryThenRefusal() async throws {
        let transport = RecordingTransport([
            Self.response(503, #"{"errorId":"e","errors":[{"id":"BUSY"}]}"#),
            Self.response(404, #"{"errorId":"e","errors":[{"id":"UNKNOWN_PAYMENT_ID"}]}"#),
        ])
        let client = try Self.client(transport, retries: 2)
        let outcome = await Self.classify { () throws(CSEError) in
            try await client.capturePayment("3066019730_0", try WorldlineCaptureRequest(), idempotenceKey: try IdempotenceKey("op-key"))
        }
        #expect(outcome == .unknown && transport.requests.count == 2)
        #expect(transport.requests.allSatisfy { $0.headers["X-GCS-Idempotence-Key"] == "op-key" })
        #expect(transport.requests.first?.url.path == "/v2/1/payments/3066019730_0/capture")
    }

    @Test("an id a path cannot carry is refused before anything is sent")
    func pathSafety() async throws {
        let transport = RecordingTransport([])
        let client = try Self.client(transport)
        for id in ["", "..", ".", "a/b", String(repeating: "1", count: 65)] {
            let outcome = await Self.classify { () throws(CSEError) in
                try await client.cancelPayment(id, try WorldlineCancelRequest(), idempotenceKey: try IdempotenceKey("op-key"))
            }
            #expect(outcome == .thrown("serverAPI.invalidArgument"), "\(id)")
        }
        #expect(transport.requests.isEmpty)
    }
}
