import CSECore
import CSEGateways
@_spi(CustomTransport) import CSEHTTP
import CSEServerAPI
import CSEValidation
import Testing

/// Issue #23, point 5: APS answers are read strictly, and only once their signature verifies.
/// A parameter that is neither a string nor a number (APS signs parameters as their text) is
/// `serverAPI.invalidResponse` naming it; on a PURCHASE it is an unknown outcome with the merchant
/// reference that settles it, never a refusal.
@Suite("APS answers are decoded strictly after the signature: a parameter of the wrong type is an error naming it, never a nil")
struct APSStrictDecodingTests {
    static func credentials() throws -> APSCredentials {
        try APSCredentials(
            accessCode: "zx0IPmPy5jp1vAz8Kpg7", merchantIdentifier: "CycHZxVj", requestPhrase: secret("PASS-request"),
            responsePhrase: secret("PASS-response"))
    }

    static func purchase() throws -> APSPaymentRequest {
        try APSPaymentRequest(
            .purchase, merchantReference: "ORD-0001", amount: 50000, currency: Currency(code: "AED")!, customerEmail: "payer@example.com",
            tokenName: "Op9Vmp")
    }

    /// A PURCHASE answer with `extra` parameters, signed with `phrase`.
    static func answer(_ extra: [(String, JSONValue)], code: String = "14000", phrase: String = "PASS-response") throws -> String {
        var object = JSONObject(
            [
                ("command", .string("PURCHASE")), ("merchant_reference", .string("ORD-0001")), ("response_code", .string(code)),
                ("status", .string(String(code.prefix(2)))),
            ] + extra)
        object["signature"] = .string(try APSSignature.sign(object, phrase: phrase))
        return JSONValue.object(object).serialized
    }

    @Test(
        "a signed PURCHASE answer with a parameter of the wrong type is unknown with the reference, caused by serverAPI.invalidResponse naming it",
        arguments: [
            ("fort_id", JSONValue.bool(true)), ("authorization_code", .bool(false)),
            ("3ds_url", .object(JSONObject([("url", .string("https://3ds.example"))]))),
        ])
    func wrongTypeIsUnknown(member: String, value: JSONValue) async throws {
        let transport = RecordingTransport(status: 200, json: try Self.answer([(member, value)]))
        let payer = try APSPaymentClient(credentials: try Self.credentials(), environment: .apsTest, http: try client(transport))
        guard case .unknown(let keys, let error) = try await payer.pay(try Self.purchase()) else {
            Issue.record("\(member): not unknown")
            return
        }
        #expect(keys == PaymentReconciliation(merchantReference: "ORD-0001"))
        #expect(error.code == .serverOutcomeUnknown && error.context["merchantReference"] == "ORD-0001")
        #expect(error.underlying?.code == .serverAPIInvalidResponse && error.underlying?.context["member"] == member)
        #expect(error.underlying?.context["platform"] == "aps")
    }

    @Test("a parameter written as a number is read as its text; an unsigned answer is a signature error before any field is read")
    func numbersAndSignatureFirst() async throws {
        let numbers = RecordingTransport(status: 200, json: try Self.answer([("fort_id", .number("169996200003400"))]))
        let payer = try APSPaymentClient(credentials: try Self.credentials(), environment: .apsTest, http: try client(numbers))
        #expect(try await payer.pay(try Self.purchase()).get().fortID == "169996200003400")
        let forged = RecordingTransport(status: 200, json: try Self.answer([("fort_id", .bool(true))], phrase: "other-phrase"))
        let unverified = try APSPaymentClient(credentials: try Self.credentials(), environment: .apsTest, http: try client(forged))
        guard case .unknown(_, let error) = try await unverified.pay(try Self.purchase()) else {
            Issue.record("not unknown")
            return
        }
        #expect(error.underlying?.code == .apsResponseSignature)
    }

    /// An SDK_TOKEN answer echoing the request, with a `response_message` of the wrong type.
    static func sdkAnswer(code: String, phrase: String = "PASS-response") throws -> String {
        var object = JSONObject([
            ("access_code", .string("zx0IPmPy5jp1vAz8Kpg7")), ("device_id", .string("device-1")), ("language", .string("en")),
            ("merchant_identifier", .string("CycHZxVj")), ("response_code", .string(code)), ("response_message", .number("5")),
            ("sdk_token", .string("Dwp78q3")), ("service_command", .string("SDK_TOKEN")), ("status", .string(String(code.prefix(2)))),
        ])
        object["signature"] = .string(try APSSignature.sign(object, phrase: phrase))
        return JSONValue.object(object).serialized
    }

    @Test(
        "SDK_TOKEN: a response_message of the wrong type is serverAPI.invalidResponse; on a refusal, APS's code stays with it as the cause")
    func sdkToken() async throws {
        func api(_ body: String) throws -> APSSDKTokenClient {
            try APSSDKTokenClient(
                credentials: try Self.credentials(), environment: .apsTest, http: try client(RecordingTransport(status: 200, json: body)))
        }
        let success = await thrown { try await api(try Self.sdkAnswer(code: "22000")).sdkToken(deviceID: "device-1") }
        #expect(success?.code == .serverAPIInvalidResponse && success?.context["member"] == "response_message")
        let refused = await thrown { try await api(try Self.sdkAnswer(code: "00008")).sdkToken(deviceID: "device-1") }
        #expect(refused?.code == .apsMessage("008") && refused?.context["response_code"] == "00008")
        #expect(refused?.underlying?.code == .serverAPIInvalidResponse && refused?.underlying?.context["member"] == "response_message")
        let forged = await thrown { try await api(try Self.sdkAnswer(code: "22000", phrase: "other")).sdkToken(deviceID: "device-1") }
        #expect(forged?.code == .apsResponseSignature)
    }
}
