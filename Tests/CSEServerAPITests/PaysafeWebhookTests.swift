import CSECore
import CSECrypto
import CSEServerAPI
import Foundation
import Testing
import TestSupport

/// Paysafe webhooks (research notes §4.4): `Signature` over the raw body with the decoded key,
/// from deliveries the loopback emulator signs with Python's hmac.
@Suite("Paysafe webhooks: Signature over the raw body with the base64-decoded key; the event masked")
struct PaysafeWebhookTests {
    /// The key as Paysafe's console shows it: base64 text of 48 bytes (the text is a canary).
    static let keyText = Base64.encode(Array("CANARY-ps-webhook-key-0123456789abcdefghijklmnop".utf8))
    static let arguments = ["--webhook-key", keyText]

    static func key() throws -> SecureBytes { try PaysafeWebhook.key(base64: SecureBytes(Array(keyText.utf8))) }

    @Test("the emulator's event verifies with the decoded key; id and eventType typed; the card number masked")
    func verified() async throws {
        try await withServerEmulator("paysafe", Self.arguments) { server in
            let delivery = try await Delivery.fetch(server, "/test/paysafe-webhook/ev-1?eventType=SETTLEMENT_COMPLETED")
            let signature = try #require(delivery.header(PaysafeWebhook.signatureHeader))
            let notification = try PaysafeWebhook.verifiedNotification(signature: signature, body: delivery.body, key: try Self.key())
            #expect(notification.id == "ev-1" && notification.eventType == "SETTLEMENT_COMPLETED")
            let shown = String(decoding: notification.maskedJSON, as: UTF8.self)
            #expect(shown.contains("411111******1111") && shown.contains("pay-ev-1"))
            Canary.check(shown + notification.description)
            #expect(!shown.contains(Self.keyText))
        }
    }

    @Test("a bad signature (the text as key), a re-indented body, a tampered body or another key is paysafe.webhook.signature")
    func refusals() async throws {
        try await withServerEmulator("paysafe", Self.arguments) { server in
            let good = try await Delivery.fetch(server, "/test/paysafe-webhook/ev-2")
            var tampered = good.body
            tampered[tampered.count / 2] ^= 0x01
            var cases: [(Delivery, SecureBytes)] = [(Delivery(headers: good.headers, body: tampered), try Self.key())]
            cases.append((good, SecureBytes(Array("0123456789abcdef".utf8))))
            for mode in ["bad-signature", "pretty-body"] {
                cases.append((try await Delivery.fetch(server, "/test/paysafe-webhook/ev-2?mode=\(mode)"), try Self.key()))
            }
            for (delivery, key) in cases {
                let signature = try #require(delivery.header("Signature"))
                let error = #expect(throws: CSEError(.paysafeWebhookSignature, "")) {
                    try PaysafeWebhook.verifiedNotification(signature: signature, body: delivery.body, key: key)
                }
                #expect(error.map { !"\($0)".contains("ev-2") && !"\($0)".contains(Self.keyText) } ?? false)
            }
        }
    }

    @Test("a signed body that is not a JSON object is paysafe.webhook.malformed; a body over 1 MiB is refused unread")
    func malformedAndBounded() throws {
        let key = try Self.key()
        let body = Array(#"["CANARY-VALUE"]"#.utf8)
        let signature = Base64.encode(try HMAC.authenticationCode(.sha256, key: key, message: body.span.bytes))
        let error = #expect(throws: CSEError(.paysafeWebhookMalformed, "")) {
            try PaysafeWebhook.verifiedNotification(signature: signature, body: body, key: key)
        }
        #expect(error.map { !"\($0)".contains("CANARY-VALUE") } ?? false)
        #expect(throws: CSEError(.serverAPINotificationTooLarge, "")) {
            try PaysafeWebhook.verifiedNotification(
                signature: signature, body: [UInt8](repeating: 0x20, count: NotificationLimits.maximumBodyByteCount + 1), key: key)
        }
    }
}
