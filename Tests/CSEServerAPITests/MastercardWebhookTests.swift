import CSECore
import CSECrypto
import CSEServerAPI
import Foundation
import Testing
import TestSupport

/// Mastercard Gateway webhook notifications (research notes §2.4, V-MC-1): the shared secret of
/// `X-Notification-Secret`, compared in constant time, then the RETRIEVE TRANSACTION body; the
/// deliveries come from the loopback emulator after a real PAY.
@Suite("Mastercard webhook notifications: the secret header once and equal, the id returned, the transaction decoded")
struct MastercardWebhookTests {
    static let secret = "CANARY-mc-notify-secret-6b0d"
    static let arguments = ServerEmulatorTests.mastercardArguments + ["--notification-secret", secret]

    static func configured(_ text: String = secret) -> SecureBytes { SecureBytes(Array(text.utf8)) }

    /// Pays order-1/pay-1 on the emulator, so that it can notify about it.
    static func paid(_ server: LoopbackEmulator) async throws {
        let client = try MastercardTransactionTests.client(server)
        let session = try await MastercardTransactionTests.filledSession(client)
        _ = try await client.perform(try MastercardTransactionTests.pay(session)).get()
    }

    @Test("the emulator's notification of a PAY verifies: id and attempt returned, the transaction decoded and masked")
    func verified() async throws {
        try await withServerEmulator("mastercard", Self.arguments) { server in
            try await Self.paid(server)
            let delivery = try await Delivery.fetch(server, "/test/mastercard-webhook/order-1/pay-1")
            let notification = try MastercardWebhook.verifiedNotification(
                body: delivery.body, headers: delivery.headers, secret: Self.configured())
            #expect(notification.notificationID == delivery.header("X-Notification-Id") && notification.notificationID?.count == 36)
            #expect(notification.attempt == 1)
            #expect(notification.transaction.orderID == "order-1" && notification.transaction.transactionID == "pay-1")
            #expect(notification.transaction.isApproved && notification.transaction.transactionType == "PAYMENT")
            let shown = String(decoding: notification.transaction.maskedJSON, as: UTF8.self) + notification.description
            Canary.check(shown)
            #expect(!shown.contains(Self.secret))
        }
    }

    @Test(
        "a wrong secret is mastercard.webhook.secret; a missing, repeated or comma-joined secret header is mastercard.webhook.header",
        arguments: [
            ("wrong-secret", CSEError.Code.mastercardWebhookSecret), ("no-secret", .mastercardWebhookHeader),
            ("duplicate", .mastercardWebhookHeader), ("joined", .mastercardWebhookHeader),
        ])
    func refusedModes(mode: String, code: CSEError.Code) async throws {
        try await withServerEmulator("mastercard", Self.arguments) { server in
            try await Self.paid(server)
            let delivery = try await Delivery.fetch(server, "/test/mastercard-webhook/order-1/pay-1?mode=\(mode)")
            let error = #expect(throws: CSEError(code, "")) {
                try MastercardWebhook.verifiedNotification(body: delivery.body, headers: delivery.headers, secret: Self.configured())
            }
            #expect(error.map { !"\($0)".contains(Self.secret) && !"\($0)".contains("order-1") } ?? false, "\(mode)")
        }
    }

    static let body = Array(#"{"result":"SUCCESS","order":{"id":"o-1"},"transaction":{"id":"t-1"}}"#.utf8)

    @Test("the secret is compared whole: a prefix, an extension, another case or another configured secret is refused")
    func exactSecret() throws {
        for received in [String(Self.secret.dropLast()), Self.secret + "0", Self.secret.lowercased(), ""] {
            #expect(throws: CSEError(.mastercardWebhookSecret, "")) {
                try MastercardWebhook.verifiedNotification(
                    body: Self.body, headers: [(name: "X-Notification-Secret", value: received)], secret: Self.configured())
            }
        }
        #expect(throws: CSEError(.mastercardWebhookSecret, "")) {
            try MastercardWebhook.verifiedNotification(
                body: Self.body, headers: [(name: "X-Notification-Secret", value: Self.secret)], secret: Self.configured("other"))
        }
        let accepted = try MastercardWebhook.verifiedNotification(
            body: Self.body, headers: [(name: "x-notification-secret", value: " \(Self.secret) ")], secret: Self.configured())
        #expect(accepted.notificationID == nil && accepted.attempt == nil && accepted.transaction.orderID == "o-1")
    }

    @Test("a repeated X-Notification-Id or a malformed attempt is refused; a body that is no transaction is mastercard.webhook.malformed")
    func otherHeadersAndBody() throws {
        let secret = (name: "X-Notification-Secret", value: Self.secret)
        for extra in [
            [(name: "X-Notification-Id", value: "a"), (name: "X-Notification-Id", value: "b")],
            [(name: "X-Notification-Id", value: "a, b")],
            [(name: "X-Notification-Attempt", value: "one")], [(name: "X-Notification-Attempt", value: "0")],
        ] {
            #expect(throws: CSEError(.mastercardWebhookHeader, "")) {
                try MastercardWebhook.verifiedNotification(body: Self.body, headers: [secret] + extra, secret: Self.configured())
            }
        }
        for text in [#"{"order":{"id":"CANARY-VALUE"}}"#, #"{"result":7}"#, "CANARY-VALUE"] {
            let error = #expect(throws: CSEError(.mastercardWebhookMalformed, "")) {
                try MastercardWebhook.verifiedNotification(body: Array(text.utf8), headers: [secret], secret: Self.configured())
            }
            #expect(error.map { !"\($0)".contains("CANARY-VALUE") } ?? false)
        }
        #expect(throws: CSEError(.serverAPINotificationTooLarge, "")) {
            try MastercardWebhook.verifiedNotification(
                body: [UInt8](repeating: 0x20, count: NotificationLimits.maximumBodyByteCount + 1), headers: [secret],
                secret: Self.configured())
        }
    }
}
