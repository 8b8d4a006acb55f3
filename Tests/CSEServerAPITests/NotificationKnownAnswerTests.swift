import CSECore
import CSECrypto
import CSEGateways
import CSEServerAPI
import Foundation
import Testing
import TestSupport

/// The known answers of the notification verifiers (research notes §5), read from
/// `Vectors/notifications/notification-signatures.json`.
@Suite("Notification known answers: V-WL-1, V-PS-1, V-PS-1b, V-PS-2, V-PS-3 and V-APS-1…4, 7…11")
struct NotificationKnownAnswerTests {
    static func key(_ key: NotificationVectors.Key) throws -> SecureBytes {
        if let text = key.utf8 { return SecureBytes(Array(text.utf8)) }
        return try PaysafeWebhook.key(base64: SecureBytes(Array(try #require(key.base64).utf8)))
    }

    @Test("each webhook HMAC vector verifies exactly when the source says it does, and a flipped body byte never does")
    func webhookHMACs() throws {
        let vectors = try NotificationVectors.load().webhookHMACs
        #expect(Set(vectors.map(\.id)) == ["V-WL-1", "V-PS-1", "V-PS-1b", "V-PS-2", "V-PS-3"])
        for vector in vectors {
            let key = try Self.key(vector.key)
            var body = Array(vector.body.utf8)
            func isValid(_ body: [UInt8]) throws -> Bool {
                vector.platform == "worldline"
                    ? try WorldlineWebhook.isValid(signature: vector.signature, body: body, secret: key)
                    : try PaysafeWebhook.isValid(signature: vector.signature, body: body, key: key)
            }
            #expect(try isValid(body) == vector.valid, "\(vector.id) (\(vector.source))")
            body[body.count / 2] ^= 0x01
            #expect(try !isValid(body), "\(vector.id) tampered")
        }
    }

    @Test("V-WL-1: the Java SDK's 168-byte body verifies and decodes to a payment.paid event of merchant 20000")
    func worldlineKnownAnswerDecodes() throws {
        let vector = try #require(try NotificationVectors.load().webhookHMACs.first { $0.id == "V-WL-1" })
        #expect(vector.body.utf8.count == 168)
        let event = try WorldlineWebhook.verifiedEvent(
            body: Array(vector.body.utf8),
            headers: [(name: "X-GCS-Signature", value: vector.signature), (name: "X-GCS-KeyId", value: "dummy-key-id")],
            secrets: { $0 == "dummy-key-id" ? SecureBytes(Array("hello+world".utf8)) : nil })
        #expect(event.id == "8ee793f6-4553-4749-85dc-f2ef095c5ab0" && event.type == .paymentPaid && event.merchantID == "20000")
        #expect(event.created == "2017-02-02T11:24:14.040+0100" && event.apiVersion == "v1" && event.payment == nil)
    }

    @Test("V-PS-1 and V-PS-2: the key is the base64-decoded 256 bytes; the base64 text as the key gives another MAC")
    func paysafeKeyIsDecoded() throws {
        let vector = try #require(try NotificationVectors.load().webhookHMACs.first { $0.id == "V-PS-1" })
        let text = try #require(vector.key.base64)
        #expect(try PaysafeWebhook.key(base64: SecureBytes(Array(text.utf8))).count == 256)
        let asText = SecureBytes(Array(text.utf8))
        #expect(try !PaysafeWebhook.isValid(signature: vector.signature, body: Array(vector.body.utf8), key: asText))
        for bad in ["not base64!", "QUJD", ""] {
            #expect(throws: CSEError(.serverAPICredentials, "")) { try PaysafeWebhook.key(base64: SecureBytes(Array(bad.utf8))) }
        }
    }

    @Test("V-APS-1…4 (the .NET SDK's maintenance tests) and V-APS-7…11 (derived) are APSSignature's SHA-256 signatures")
    func apsSignatures() throws {
        let vectors = try NotificationVectors.load().apsSignatures
        #expect(vectors.map(\.id) == ["V-APS-1", "V-APS-2", "V-APS-3", "V-APS-4", "V-APS-7", "V-APS-8", "V-APS-9", "V-APS-10", "V-APS-11"])
        for vector in vectors {
            let parameters = JSONObject(vector.parameters.sorted { $0.key < $1.key }.map { ($0.key, JSONValue.string($0.value)) })
            let signature = try APSSignature.sign(parameters, phrase: vector.phrase, algorithm: .sha256)
            #expect(signature == vector.signature, "\(vector.id) (\(vector.source))")
            #expect(try APSSignature.isValid(vector.signature, for: parameters, phrase: vector.phrase, algorithm: .sha256))
        }
    }

    /// A feedback form of `parameters` signed with `phrase` (as APS posts it).
    static func signedForm(_ parameters: [String: String], phrase: String) throws -> [UInt8] {
        let object = JSONObject(parameters.sorted { $0.key < $1.key }.map { ($0.key, JSONValue.string($0.value)) })
        let signature = try APSSignature.sign(object, phrase: phrase, algorithm: .sha256)
        let pairs = (parameters.sorted { $0.key < $1.key } + [("signature", signature)]).map { name, value in
            name + "=" + (value.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? value)
        }
        return Array(pairs.joined(separator: "&").utf8)
    }

    static func credentials(responsePhrase: String) throws -> APSCredentials {
        try APSCredentials(
            accessCode: "zx0IPmPy5jp1vAz8Kpg7", merchantIdentifier: "CycHZxVj", requestPhrase: secret("ReqPhrase"),
            responsePhrase: secret(responsePhrase))
    }

    @Test("V-APS-11, a CAPTURE answer posted as feedback: its signature verifies and it stands as succeeded, not unknown")
    func captureAnswerAsFeedback() throws {
        let vector = try #require(try NotificationVectors.load().apsSignatures.first { $0.id == "V-APS-11" })
        let body = try Self.signedForm(vector.parameters, phrase: vector.phrase)
        #expect(String(decoding: body, as: UTF8.self).contains("signature=" + vector.signature))
        let transaction = try APSPaymentClient.verifyFeedback(body, credentials: try Self.credentials(responsePhrase: vector.phrase))
        #expect(transaction.responseCode.description == "04000" && transaction.command == "CAPTURE")
        #expect(transaction.standing == .succeeded)
    }

    @Test(
        "signed maintenance feedback: 04, 06, 08 succeeded; 05, 07, 09 refused; 19, 20, 40 as before",
        arguments: [
            ("04", "04000", "succeeded"), ("06", "06000", "succeeded"), ("08", "08000", "succeeded"), ("05", "05042", "refused"),
            ("07", "07048", "refused"), ("09", "09034", "refused"), ("19", "19000", "succeeded"), ("20", "20064", "succeeded"),
            ("40", "40000", "succeeded"),
        ])
    func maintenanceStatuses(status: String, code: String, standing: String) throws {
        var parameters = try #require(try NotificationVectors.load().apsSignatures.first { $0.id == "V-APS-11" }).parameters
        parameters["status"] = status
        parameters["response_code"] = code
        let body = try Self.signedForm(parameters, phrase: "RespPhrase")
        let transaction = try APSPaymentClient.verifyFeedback(body, credentials: try Self.credentials(responsePhrase: "RespPhrase"))
        #expect(transaction.standing.rawValue == standing, "\(code)")
        #expect(throws: CSEError(.apsFeedbackSignature, "")) {
            try APSPaymentClient.verifyFeedback(body, credentials: try Self.credentials(responsePhrase: "OtherPhrase"))
        }
    }
}
