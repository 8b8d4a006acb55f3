import CSECore
import CSECrypto
import CSEGateways
@_spi(CustomTransport) import CSEHTTP
import CSEServerAPI
import Foundation
import Testing

@Suite("APS SDK_TOKEN: the signed request, the response verified before any field is trusted, the codes mapped")
struct APSSDKTokenTests {
    static let deviceID = "ffffffff-a9fa-0b44-7b27-29e70033c587"

    static func credentials() throws -> APSCredentials {
        try APSCredentials(
            accessCode: "zx0IPmPy5jp1vAz8Kpg7", merchantIdentifier: "CycHZxVj",
            requestPhrase: secret("PASS-request"), responsePhrase: secret("PASS-response"))
    }

    static func api(_ transport: RecordingTransport) throws -> APSSDKTokenClient {
        try APSSDKTokenClient(credentials: try credentials(), environment: .apsTest, http: try client(transport))
    }

    /// A response echoing the request, with the given codes, signed with `phrase` (the existing
    /// APS signing, itself checked against OpenSSL in CSEGatewaysTests).
    static func response(
        code: String, status: String, token: String? = "Dwp78q3", deviceID: String = deviceID,
        phrase: String = "PASS-response"
    ) throws -> String {
        var object = JSONObject([
            ("access_code", .string("zx0IPmPy5jp1vAz8Kpg7")), ("device_id", .string(deviceID)), ("language", .string("en")),
            ("merchant_identifier", .string("CycHZxVj")), ("response_code", .string(code)), ("response_message", .string("msg")),
            ("service_command", .string("SDK_TOKEN")), ("status", .string(status)),
        ])
        if let token { object["sdk_token"] = .string(token) }
        object["signature"] = .string(try APSSignature.sign(object, phrase: phrase))
        return JSONValue.object(object).serialized
    }

    @Test("the request carries the five parameters and the signature under the request phrase (Python hashlib known answer)")
    func requestSignature() throws {
        let parameters = try Self.api(RecordingTransport([])).requestParameters(deviceID: Self.deviceID)
        #expect(
            parameters.keys.sorted() == ["access_code", "device_id", "language", "merchant_identifier", "service_command", "signature"])
        #expect(parameters["signature"]?.stringValue == "10fd5a6ca4e240fa336eee2822d057b288f6c48070eb17ac3da7524bcd0c6451")
    }

    @Test("a response signed with the response phrase (Python hashlib known answer) gives the token")
    func success() async throws {
        let body =
            #"{"access_code":"zx0IPmPy5jp1vAz8Kpg7","device_id":"ffffffff-a9fa-0b44-7b27-29e70033c587","language":"en","merchant_identifier":"CycHZxVj","response_code":"22000","response_message":"Success","sdk_token":"Dwp78q3","service_command":"SDK_TOKEN","signature":"d7262e07b67dcbdcdbadf4f2061a2705c9af77021a48e6b2a1271cee469bed97","status":"22"}"#
        let transport = RecordingTransport(status: 200, json: body)
        let token = try await Self.api(transport).sdkToken(deviceID: Self.deviceID)
        #expect(token.token == "Dwp78q3" && token.responseCode.description == "22000")
        #expect(!token.description.contains("Dwp78q3"))
        let request = try #require(transport.requests.first)
        #expect(request.url.absoluteString == "https://sbpaymentservices.payfort.com/FortAPI/paymentApi" && request.method == .post)
        let sent = try JSONValue.parse(request.body)
        #expect(sent["service_command"]?.stringValue == "SDK_TOKEN" && sent["signature"]?.stringValue?.count == 64)
    }

    @Test("a wrong, missing or tampered response signature is an error and the token is never returned")
    func badSignatures() async throws {
        let good = try Self.response(code: "22000", status: "22")
        let signedWithRequestPhrase = try Self.response(code: "22000", status: "22", phrase: "PASS-request")
        let tampered = good.replacingOccurrences(of: "Dwp78q3", with: "Evil999")
        let unsigned =
            try JSONValue.parse(good).objectValue.map { object -> String in
                var copy = object
                copy["signature"] = nil
                return JSONValue.object(copy).serialized
            } ?? ""
        // A failure response whose signature is wrong is rejected for its signature, not mapped.
        let forgedFailure = try Self.response(code: "00008", status: "00", phrase: "wrong")
        for body in [signedWithRequestPhrase, tampered, unsigned, forgedFailure] {
            do {
                let token = try await Self.api(RecordingTransport(status: 200, json: body)).sdkToken(deviceID: Self.deviceID)
                Issue.record("returned a token: \(token)")
            } catch let error as CSEError {
                #expect(error.code == .apsResponseSignature)
                #expect(!error.description.contains("Evil999") && !error.description.contains("Dwp78q3"))
            }
        }
    }

    @Test(
        "documented failures map to aps.message.NNN naming the message",
        arguments: [
            ("00008", "00", CSEError.Code.apsMessage("008")), ("21001", "21", .apsMessage("001")),
            ("21010", "21", .apsMessage("010")), ("21009", "21", .apsMessage("009")),
            ("21068", "21", .apsMessage("068")), ("21070", "21", .apsMessage("070")),
            ("21032", "21", .apsMessage("032")), ("21006", "21", .apsMessage("006")),
            ("21051", "21", .apsMessage("051")), ("21002", "21", .apsMessage("002")),
            ("22013", "22", .apsMessage("013")),
        ])
    func failures(code: String, status: String, expected: CSEError.Code) async throws {
        do {
            _ = try await Self.api(RecordingTransport(status: 200, json: try Self.response(code: code, status: status, token: nil)))
                .sdkToken(deviceID: Self.deviceID)
            Issue.record("accepted \(code)")
        } catch let error as CSEError {
            #expect(error.code == expected)
            #expect(error.context["response_code"] == code)
        }
    }

    @Test("an undocumented message, disagreeing status, a missing token or a response for another device is an error")
    func malformed() async throws {
        let cases: [(String, CSEError.Code)] = [
            (try Self.response(code: "21999", status: "21"), .apsUndocumentedMessage),
            (try Self.response(code: "22000", status: "21"), .apsResponseMalformed),
            (try Self.response(code: "22000", status: "22", token: nil), .apsResponseMalformed),
            (try Self.response(code: "22000", status: "22", deviceID: "another-device"), .apsResponseMismatch),
            ("[1]", .serverAPIInvalidResponse),
        ]
        for (body, code) in cases {
            do {
                _ = try await Self.api(RecordingTransport(status: 200, json: body)).sdkToken(deviceID: Self.deviceID)
                Issue.record("accepted \(body)")
            } catch let error as CSEError {
                #expect(error.code == code)
            }
        }
    }

    @Test("a device id or language outside the APS rules is refused before any request")
    func arguments() async throws {
        for (device, language) in [("bad device!", "en"), (Self.deviceID, "fr"), (String(repeating: "a", count: 101), "en")] {
            let transport = RecordingTransport([])
            await #expect(throws: CSEError(.serverAPIInvalidArgument, "")) {
                _ = try await Self.api(transport).sdkToken(deviceID: device, language: language)
            }
            #expect(transport.requests.isEmpty)
        }
    }
}
