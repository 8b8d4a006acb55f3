import CSECore
@_spi(CustomTransport) import CSEHTTP
import CSEServerAPI
import Testing

/// Issue #23, point 5: Worldline answers are read strictly. A member of the wrong JSON type is
/// `serverAPI.invalidResponse` naming it, never a missing value; on CreatePayment it is an
/// unknown outcome with the keys that settle it, never a refusal.
@Suite("Worldline answers are decoded strictly: a member of the wrong type is an error naming it, never a nil")
struct WorldlineStrictDecodingTests {
    static let jwe = "eyJhbGciOiJSU0EtT0FFUC0yNTYiLCJlbmMiOiJBMjU2R0NNIn0.a2V5.aXY.Y2lwaGVy.dGFn"

    static func api(_ transport: RecordingTransport) throws -> WorldlineServerClient {
        WorldlineServerClient(
            credentials: try WorldlineServerCredentials(merchantID: "1234", apiKeyID: "k", secretAPIKey: secret("s")),
            environment: .worldlinePreproduction, http: try client(transport))
    }

    static func payment() throws -> WorldlinePaymentRequest {
        try WorldlinePaymentRequest(encryptedCustomerInput: jwe, amount: 2345, currencyCode: "EUR", merchantReference: "order-1")
    }

    @Test(
        "a 2xx payment with a member of the wrong type is unknown with its keys, caused by serverAPI.invalidResponse naming the member",
        arguments: [
            (#""statusOutput":{"isAuthorized":"true"}"#, "payment.statusOutput.isAuthorized"),
            (#""statusOutput":{"statusCode":"5"}"#, "payment.statusOutput.statusCode"),
            (#""statusOutput":{"statusCategory":["UNSUCCESSFUL"]}"#, "payment.statusOutput.statusCategory"),
            (#""statusOutput":"PENDING""#, "payment.statusOutput"),
            (#""paymentOutput":{"amountOfMoney":{"amount":"2345","currencyCode":"EUR"}}"#, "payment.paymentOutput.amountOfMoney.amount"),
            (#""paymentOutput":{"amountOfMoney":{"amount":23.45}}"#, "payment.paymentOutput.amountOfMoney.amount"),
            (#""paymentOutput":{"references":{"merchantReference":1}}"#, "payment.paymentOutput.references.merchantReference"),
            (
                #""paymentOutput":{"cardPaymentMethodSpecificOutput":{"card":{"cardNumber":4111111111111111}}}"#,
                "payment.paymentOutput.cardPaymentMethodSpecificOutput.card.cardNumber"
            ),
        ])
    func wrongTypeIsUnknown(members: String, member: String) async throws {
        let transport = RecordingTransport(status: 201, json: #"{"payment":{"id":"1_0","status":"PENDING_CAPTURE",\#(members)}}"#)
        let key = try IdempotenceKey("order-1-attempt-1")
        guard case .unknown(let keys, let error) = try await Self.api(transport).createPayment(try Self.payment(), idempotenceKey: key)
        else {
            Issue.record("\(member): not unknown")
            return
        }
        #expect(keys == PaymentReconciliation(idempotenceKey: key, merchantReference: "order-1"))
        #expect(error.code == .serverOutcomeUnknown && error.context["idempotenceKey"] == "order-1-attempt-1")
        #expect(error.underlying?.code == .serverAPIInvalidResponse && error.underlying?.context["member"] == member)
        #expect(error.underlying?.context["platform"] == "worldline")
        #expect(!error.description.contains("4111111111111111") && !(error.underlying?.description.contains("4111111111111111") ?? true))
    }

    @Test("merchantAction.actionType that is not a string is an unknown outcome too; null counts as absent")
    func merchantActionAndNull() async throws {
        let wrong = RecordingTransport(
            status: 201, json: #"{"merchantAction":{"actionType":1},"payment":{"id":"1_0","status":"PENDING_CAPTURE"}}"#)
        guard case .unknown(_, let error) = try await Self.api(wrong).createPayment(try Self.payment()) else {
            Issue.record("not unknown")
            return
        }
        #expect(error.underlying?.context["member"] == "merchantAction.actionType")
        let nulls = RecordingTransport(
            status: 201,
            json:
                #"{"merchantAction":null,"payment":{"id":"1_0","status":"PENDING_CAPTURE","statusOutput":{"isAuthorized":null},"paymentOutput":null}}"#
        )
        let payment = try await Self.api(nulls).createPayment(try Self.payment()).get()
        #expect(payment.isAuthorized == nil && payment.amount == nil && payment.merchantActionType == nil)
    }

    @Test("GetPayment with a member of the wrong type throws serverAPI.invalidResponse naming it")
    func getPayment() async throws {
        let transport = RecordingTransport(status: 200, json: #"{"id":"1_0","status":"CAPTURED","statusOutput":{"isAuthorized":1}}"#)
        let error = await thrown { try await Self.api(transport).getPayment(id: "1_0") }
        #expect(error?.code == .serverAPIInvalidResponse && error?.context["member"] == "payment.statusOutput.isAuthorized")
    }

    @Test(
        "an error body with a member of the wrong type keeps its status: serverAPI.unexpectedStatus (401: authenticationFailed) caused by the member",
        arguments: [
            (
                400, #"{"errorId":"e","errors":[{"id":"X","propertyName":5}]}"#, CSEError.Code.serverAPIUnexpectedStatus,
                "errors[0].propertyName"
            ),
            (400, #"{"errorId":7,"errors":[]}"#, .serverAPIUnexpectedStatus, "errorId"),
            (400, #"{"errorId":"e","errors":["X"]}"#, .serverAPIUnexpectedStatus, "errors[0]"),
            (
                402, #"{"errorId":"e","paymentResult":{"payment":{"id":"1_0","status":9}}}"#, .serverAPIUnexpectedStatus,
                "paymentResult.payment.status"
            ),
            (401, #"{"errorId":"e","errors":[{"id":false}]}"#, .serverAPIAuthenticationFailed, "errors[0].id"),
        ])
    func errorBodies(status: Int, body: String, code: CSEError.Code, member: String) async throws {
        let error = await thrown { try await Self.api(RecordingTransport(status: status, json: body)).createPayment(try Self.payment()) }
        #expect(error?.code == code && error?.context["status"] == String(status))
        #expect(error?.underlying?.code == .serverAPIInvalidResponse && error?.underlying?.context["member"] == member)
    }

    @Test("an error code sent as a number is still read (ids are polymorphic on the wire)")
    func numericErrorCode() async throws {
        let transport = RecordingTransport(status: 400, json: #"{"errorId":"e","errors":[{"errorCode":4005,"id":"UNKNOWN"}]}"#)
        let error = await thrown { try await Self.api(transport).createPayment(try Self.payment()) }
        #expect(error?.code == .worldlineAPIError && error?.context["code"] == "4005")
    }

    @Test("a 409 or 5xx whose errors cannot be read is unknown, not thrown: it may be the first attempt still running, or processed")
    func unreadableConflictAndServerError() async throws {
        for (status, body) in [
            (409, #"{"errorId":"e","errors":[{"id":409}]}"#), (503, #"{"errorId":"e","errors":[{"id":"X","retriable":"yes"}]}"#),
        ] {
            guard
                case .unknown(let keys, let error) = try await Self.api(RecordingTransport(status: status, json: body)).createPayment(
                    try Self.payment())
            else {
                Issue.record("\(status): not unknown")
                continue
            }
            #expect(keys.merchantReference == "order-1" && keys.idempotenceKey != nil)
            #expect(error.underlying?.code == .serverAPIUnexpectedStatus && error.underlying?.underlying?.code == .serverAPIInvalidResponse)
        }
    }

    @Test(
        "a 409 whose body names no other conflict (a proxy's HTML page, an empty body, {}, errors without an id) is unknown with its keys"
    )
    func conflictWithoutAConflict() async throws {
        for (body, type) in [
            ("<html><body>409 Conflict</body></html>", "text/html"), ("", "text/plain"), ("{}", "application/json"),
            (#"{"errorId":"e","errors":[{"message":"busy"}]}"#, "application/json"),
        ] {
            let transport = RecordingTransport([
                .success(HTTPResponse(status: 409, headers: ["Content-Type": type], body: Array(body.utf8)))
            ])
            guard case .unknown(let keys, let error) = try await Self.api(transport).createPayment(try Self.payment()) else {
                Issue.record("409 \(body): not unknown")
                continue
            }
            #expect(keys.merchantReference == "order-1" && keys.idempotenceKey != nil && error.code == .serverOutcomeUnknown, "\(body)")
        }
    }
}
