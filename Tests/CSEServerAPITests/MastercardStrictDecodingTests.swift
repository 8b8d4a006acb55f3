import CSECore
@_spi(CustomTransport) import CSEHTTP
import CSEServerAPI
import CSEValidation
import Testing

/// Issue #23, point 5: Mastercard Gateway answers are read strictly. A member of the wrong JSON
/// type is `serverAPI.invalidResponse` naming it; on PAY it is an unknown outcome with the order
/// and transaction ids that settle it, never a refusal.
@Suite("Mastercard answers are decoded strictly: a member of the wrong type is an error naming it, never a nil")
struct MastercardStrictDecodingTests {
    static func api(_ transport: RecordingTransport) throws -> MastercardSessionClient {
        try MastercardSessionClient(
            credentials: try MastercardCredentials(merchantID: "TEST_12345", apiPassword: secret("s3cr3t-pw")),
            environment: .mastercard(.mtf),
            http: try client(transport))
    }

    static func pay() throws -> MastercardTransactionRequest {
        try MastercardTransactionRequest(
            .pay, orderID: "order-1", transactionID: "pay-1", amount: 2345, currency: Currency(code: "EUR")!,
            source: .session(id: "SESSION0001"))
    }

    @Test(
        "a 2xx transaction with a member of the wrong type is unknown with the ids, caused by serverAPI.invalidResponse naming the member",
        arguments: [
            (#"{"result":1}"#, "result"),
            (#"{"result":"SUCCESS","response":{"gatewayCode":5}}"#, "response.gatewayCode"),
            (#"{"result":"SUCCESS","response":"APPROVED"}"#, "response"),
            (#"{"result":"FAILURE","order":{"id":5123450000000008}}"#, "order.id"),
            (
                #"{"result":"SUCCESS","response":{"gatewayCode":"APPROVED"},"transaction":{"authorizationCode":123456}}"#,
                "transaction.authorizationCode"
            ),
            (#"{"result":"ERROR","error":{"cause":7}}"#, "error.cause"),
        ])
    func wrongTypeIsUnknown(body: String, member: String) async throws {
        guard case .unknown(let keys, let error) = try await Self.api(RecordingTransport(status: 200, json: body)).perform(try Self.pay())
        else {
            Issue.record("\(member): not unknown")
            return
        }
        #expect(keys == PaymentReconciliation(orderID: "order-1", transactionID: "pay-1"))
        #expect(error.code == .serverOutcomeUnknown && error.context["orderId"] == "order-1" && error.context["transactionId"] == "pay-1")
        let cause = error.underlying
        #expect(
            cause?.code == .serverAPIInvalidResponse && cause?.context["member"] == member && cause?.context["platform"] == "mastercard")
        #expect(!error.description.contains("5123450000000008") && !(cause?.description.contains("5123450000000008") ?? true))
    }

    @Test(
        "an error body with a member of the wrong type keeps its status: serverAPI.unexpectedStatus caused by the member; a 5xx stays unknown"
    )
    func errorBodies() async throws {
        let body = #"{"result":"ERROR","error":{"cause":"INVALID_REQUEST","field":3}}"#
        let error = await thrown { try await Self.api(RecordingTransport(status: 400, json: body)).perform(try Self.pay()) }
        #expect(error?.code == .serverAPIUnexpectedStatus && error?.context["status"] == "400")
        #expect(error?.underlying?.code == .serverAPIInvalidResponse && error?.underlying?.context["member"] == "error.field")
        let denied = await thrown { try await Self.api(RecordingTransport(status: 401, json: body)).retrieveSession(id: "S1") }
        #expect(denied?.code == .serverAPIAuthenticationFailed && denied?.underlying?.context["member"] == "error.field")
        guard case .unknown = try await Self.api(RecordingTransport(status: 503, json: body)).perform(try Self.pay()) else {
            Issue.record("503: not unknown")
            return
        }
    }

    @Test(
        "a session with a member of the wrong type throws serverAPI.invalidResponse naming it",
        arguments: [
            (#"{"session":{"id":"S1","authenticationLimit":"5"}}"#, "session.authenticationLimit"),
            (#"{"session":{"id":"S1","version":1}}"#, "session.version"),
            (#"{"session":{"id":7}}"#, "session.id"),
            (#"{"result":false,"session":{"id":"S1"}}"#, "result"),
            (#"{"result":"ERROR","error":{"explanation":["x"]}}"#, "error.explanation"),
        ])
    func session(body: String, member: String) async throws {
        let error = await thrown { try await Self.api(RecordingTransport(status: 201, json: body)).createSession() }
        #expect(error?.code == .serverAPIInvalidResponse && error?.context["member"] == member)
    }

    @Test("RETRIEVE TRANSACTION with a member of the wrong type throws serverAPI.invalidResponse naming it")
    func retrieve() async throws {
        let transport = RecordingTransport(status: 200, json: #"{"result":"SUCCESS","order":{"status":{"value":"CAPTURED"}}}"#)
        let error = await thrown { try await Self.api(transport).retrieveTransaction(orderID: "order-1", transactionID: "pay-1") }
        #expect(error?.code == .serverAPIInvalidResponse && error?.context["member"] == "order.status")
    }
}
