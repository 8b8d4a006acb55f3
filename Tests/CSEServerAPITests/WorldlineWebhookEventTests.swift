import CSECore
import CSECrypto
import CSEServerAPI
import Foundation
import Testing
import TestSupport

/// Worldline webhook events (research notes §1.4): the delivery's signature first, then the typed
/// event, from deliveries the loopback emulator signs with Python's hmac.
@Suite("Worldline webhook events: verified, then decoded into the payment's id, status, category and amount")
struct WorldlineWebhookEventTests {
    static let secret = "CANARY-wl-webhook-secret-8e21"
    static let arguments = ["--webhook-secret", secret]

    static func secrets(_ keyID: String) -> SecureBytes? { keyID == "dummy-key-id" ? SecureBytes(Array(secret.utf8)) : nil }

    @Test(
        "each lifecycle event of the emulator decodes to its type, the payment id, status, category, code and amount",
        arguments: [
            ("payment.captured", WorldlineWebhookEvent.EventType.paymentCaptured, "CAPTURED", "COMPLETED", 9),
            ("payment.refunded", .paymentRefunded, "REFUNDED", "REFUNDED", 8),
            ("payment.cancelled", .paymentCancelled, "CANCELLED", "UNSUCCESSFUL", 6),
            ("payment.rejected_capture", .paymentRejectedCapture, "REJECTED_CAPTURE", "UNSUCCESSFUL", 93),
        ])
    func lifecycleEvents(type: String, expected: WorldlineWebhookEvent.EventType, status: String, category: String, code: Int) async throws
    {
        try await withServerEmulator("worldline", Self.arguments) { server in
            let delivery = try await Delivery.fetch(server, "/test/worldline-webhook/3066019730_0?type=\(type)")
            let event = try WorldlineWebhook.verifiedEvent(body: delivery.body, headers: delivery.headers, secrets: Self.secrets)
            #expect(event.type == expected && event.type.rawValue == type && event.merchantID == "1234")
            #expect(event.paymentID == "3066019730_0" && event.payment?.status == status)
            #expect(event.payment?.statusCategory == category && event.payment?.statusCode == code)
            #expect(event.payment?.amount == 2345 && event.payment?.currencyCode == "EUR" && event.payment?.merchantReference == "order-1")
            Canary.check(event.description)
            #expect(!event.description.contains(Self.secret))
        }
    }

    @Test("a tampered body, a wrong secret and a bad signature are worldline.webhook.signature; missing or repeated headers are refused")
    func refusals() async throws {
        try await withServerEmulator("worldline", Self.arguments) { server in
            let delivery = try await Delivery.fetch(server, "/test/worldline-webhook/3066019730_0")
            var tampered = delivery.body
            tampered[tampered.count / 2] ^= 0x01
            let wrongSecret: (String) -> SecureBytes? = { _ in SecureBytes(Array("another-secret".utf8)) }
            let bad = try await Delivery.fetch(server, "/test/worldline-webhook/3066019730_0?mode=bad-signature")
            for (body, headers, secrets) in [
                (tampered, delivery.headers, Self.secrets), (delivery.body, delivery.headers, wrongSecret),
                (bad.body, bad.headers, Self.secrets),
            ] {
                let error = #expect(throws: CSEError(.worldlineWebhookSignature, "")) {
                    try WorldlineWebhook.verifiedEvent(body: body, headers: headers, secrets: secrets)
                }
                #expect(error.map { !"\($0)".contains("3066019730") && !"\($0)".contains(Self.secret) } ?? false)
            }
            let signature = try #require(delivery.header("X-GCS-Signature"))
            #expect(throws: CSEError(.worldlineWebhookHeader, "")) {
                try WorldlineWebhook.verifiedEvent(
                    body: delivery.body, headers: delivery.headers + [(name: "x-gcs-signature", value: signature)], secrets: Self.secrets)
            }
            #expect(throws: CSEError(.worldlineWebhookHeader, "")) {
                try WorldlineWebhook.verifiedEvent(
                    body: delivery.body, headers: delivery.headers.filter { $0.name != "X-GCS-KeyId" }, secrets: Self.secrets)
            }
        }
    }

    /// base64 HMAC-SHA256 of `body` under the test secret.
    static func sign(_ body: [UInt8]) throws -> String {
        Base64.encode(try HMAC.authenticationCode(.sha256, key: SecureBytes(Array(secret.utf8)), message: body.span.bytes))
    }

    @Test("a correctly signed body that is not an event is worldline.webhook.malformed naming the member, never its value")
    func malformed() throws {
        for (text, member) in [
            (
                #"{"id":"e-1","type":"payment.captured","payment":{"id":"CANARY-VALUE","statusOutput":{"statusCode":"nine"}}}"#,
                "payment.statusOutput.statusCode"
            ),
            (#"{"id":"e-1","payment":{"id":"CANARY-VALUE"}}"#, "type"), (#"["CANARY-VALUE"]"#, nil),
        ] {
            let body = Array(text.utf8)
            let error = #expect(throws: CSEError(.worldlineWebhookMalformed, "")) {
                try WorldlineWebhook.verifiedEvent(signature: try Self.sign(body), body: body, secret: SecureBytes(Array(Self.secret.utf8)))
            }
            #expect(error?.context["member"] == member)
            #expect(error.map { !"\($0)".contains("CANARY-VALUE") } ?? false)
        }
    }

    @Test("a body over 1 MiB is refused before it is hashed")
    func bounded() throws {
        let body = [UInt8](repeating: 0x20, count: NotificationLimits.maximumBodyByteCount + 1)
        #expect(throws: CSEError(.serverAPINotificationTooLarge, "")) {
            try WorldlineWebhook.verifiedEvent(signature: "x", body: body, secret: SecureBytes(Array(Self.secret.utf8)))
        }
    }
}
