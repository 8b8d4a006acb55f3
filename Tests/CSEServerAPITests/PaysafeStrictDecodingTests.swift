import CSECore
@_spi(CustomTransport) import CSEHTTP
import CSEServerAPI
import CSEValidation
import Testing

/// Issue #23, point 5: Paysafe answers are read strictly. A member of the wrong JSON type is
/// `serverAPI.invalidResponse` naming it; on a payment it is an unknown outcome with the merchant
/// reference that settles it, never a refusal.
@Suite("Paysafe answers are decoded strictly: a member of the wrong type is an error naming it, never a nil")
struct PaysafeStrictDecodingTests {
    static func payments(_ transport: RecordingTransport) throws -> PaysafePaymentClient {
        PaysafePaymentClient(
            credentials: try PaysafeCredentials(apiKey: secret("dXNlcjpwYXNz")), environment: .paysafeTest, http: try client(transport))
    }

    static func tokens(_ transport: RecordingTransport) throws -> PaysafeTokenClient {
        PaysafeTokenClient(
            credentials: try PaysafeCredentials(apiKey: secret("dXNlcjpwYXNz")), environment: .paysafeTest, http: try client(transport))
    }

    static func payment() throws -> PaysafePaymentRequest {
        try PaysafePaymentRequest(
            merchantReference: "order-1", amount: 2345, currency: Currency(code: "EUR")!, source: .paymentHandle("SCp7iW4xTkmN3Bq"))
    }

    @Test(
        "a 2xx payment with a member of the wrong type is unknown with the reference, caused by serverAPI.invalidResponse naming the member",
        arguments: [
            (#""amount":"2345""#, "amount"),
            (#""amount":23.45"#, "amount"),
            (#""currencyCode":978"#, "currencyCode"),
            (#""merchantRefNum":["order-1"]"#, "merchantRefNum"),
            (#""card":{"lastDigits":1111}"#, "card.lastDigits"),
            (#""gatewayResponse":{"authCode":111111}"#, "gatewayResponse.authCode"),
            (#""gatewayResponse":"approved""#, "gatewayResponse"),
        ])
    func wrongTypeIsUnknown(members: String, member: String) async throws {
        let transport = RecordingTransport(status: 201, json: #"{"id":"p-1","status":"COMPLETED",\#(members)}"#)
        guard case .unknown(let keys, let error) = try await Self.payments(transport).pay(try Self.payment()) else {
            Issue.record("\(member): not unknown")
            return
        }
        #expect(keys == PaymentReconciliation(merchantReference: "order-1"))
        #expect(error.code == .serverOutcomeUnknown && error.context["merchantReference"] == "order-1")
        #expect(error.underlying?.code == .serverAPIInvalidResponse && error.underlying?.context["member"] == member)
        #expect(error.underlying?.context["platform"] == "paysafe")
    }

    @Test("a 402 declined payment with a member of the wrong type keeps its status and names the member; a well-typed one is refused")
    func declined() async throws {
        let wrong = RecordingTransport(status: 402, json: #"{"id":"p-1","status":"FAILED","amount":"2345","error":{"code":"3009"}}"#)
        let error = await thrown { try await Self.payments(wrong).pay(try Self.payment()) }
        #expect(error?.code == .serverAPIUnexpectedStatus && error?.context["status"] == "402")
        #expect(error?.underlying?.code == .serverAPIInvalidResponse && error?.underlying?.context["member"] == "amount")
        let right = RecordingTransport(status: 402, json: #"{"id":"p-1","status":"FAILED","amount":2345,"error":{"code":3009}}"#)
        guard case .refused(let payment?, let refusal) = try await Self.payments(right).pay(try Self.payment()) else {
            Issue.record("not refused with the payment")
            return
        }
        #expect(payment.amount == 2345 && refusal.code == .paysafePaymentDeclined && refusal.context["paysafeCode"] == "3009")
    }

    @Test("an error body with a member of the wrong type keeps its status: serverAPI.unexpectedStatus caused by the member")
    func errorBodies() async throws {
        let body = #"{"error":{"code":"5068","message":"Field error(s)","fieldErrors":[{"field":7,"error":"invalid"}]}}"#
        let error = await thrown { try await Self.payments(RecordingTransport(status: 400, json: body)).pay(try Self.payment()) }
        #expect(error?.code == .serverAPIUnexpectedStatus && error?.context["status"] == "400")
        #expect(
            error?.underlying?.code == .serverAPIInvalidResponse && error?.underlying?.context["member"] == "error.fieldErrors[0].field")
        guard case .unknown = try await Self.payments(RecordingTransport(status: 500, json: body)).pay(try Self.payment()) else {
            Issue.record("500: not unknown")
            return
        }
    }

    @Test("a lookup by reference names the entry whose member has the wrong type")
    func lookup() async throws {
        let transport = RecordingTransport(status: 200, json: #"{"payments":[{"id":"p-1","status":"COMPLETED"},{"id":"p-2","status":4}]}"#)
        let error = await thrown { try await Self.payments(transport).payments(merchantReference: "order-1") }
        #expect(error?.code == .serverAPIInvalidResponse && error?.context["member"] == "payments[1].status")
    }

    @Test(
        "a single-use token with a member of the wrong type throws serverAPI.invalidResponse naming it; card digits may be numbers",
        arguments: [
            (#""id":5"#, "id"),
            (#""card":{"cardExpiry":{"month":"12","year":2030}}"#, "card.cardExpiry.month"),
            (#""card":{"cardType":{"code":"VI"}}"#, "card.cardType"),
            (#""card":{"cardBin":true}"#, "card.cardBin"),
        ])
    func singleUseToken(members: String, member: String) async throws {
        let transport = RecordingTransport(status: 201, json: #"{"paymentToken":"SCtoken","timeToLiveSeconds":899,\#(members)}"#)
        let card = JSONObject([
            ("cardNum", .string("4111111111111111")),
            ("cardExpiry", .object(JSONObject([("month", .number("12")), ("year", .number("2030"))]))),
        ])
        let error = await thrown { try await Self.tokens(transport).createSingleUseToken(card: card) }
        #expect(error?.code == .serverAPIInvalidResponse && error?.context["member"] == member)
        let digits = RecordingTransport(
            status: 201, json: #"{"paymentToken":"SCtoken","timeToLiveSeconds":899,"card":{"cardBin":411111,"lastDigits":"1111"}}"#)
        #expect(try await Self.tokens(digits).createSingleUseToken(card: card).maskedCard == "411111******1111")
    }
}
