public import CSECore
public import CSECrypto

/// A Mastercard Gateway webhook notification whose `X-Notification-Secret` matched: the
/// transaction it carries, and the headers that tell deliveries apart.
public struct MastercardNotification: Sendable, CustomStringConvertible {
    /// `X-Notification-Id`: the same for every delivery of one notification, so a merchant
    /// deduplicates on it; `nil` when the gateway sent none.
    public let notificationID: String?
    /// `X-Notification-Attempt`: 1 for the first delivery, then counting the retries; `nil` when
    /// the gateway sent none.
    public let attempt: Int?
    /// The body: the RETRIEVE TRANSACTION JSON of the transaction the notification is about.
    /// Card numbers are shown only through its masking accessors.
    public let transaction: MastercardTransaction

    /// The notification id, the attempt and the transaction's summary.
    public var description: String {
        "MastercardNotification(id: \(notificationID ?? "-"), attempt: \(attempt.map(String.init) ?? "-"), \(transaction))"
    }
}

/// Verification of Mastercard Gateway webhook notifications: the gateway posts the RETRIEVE
/// TRANSACTION JSON with `X-Notification-Secret` set to the notification secret of Merchant
/// Administration; there is no signature (the gateway's "Webhook Notifications" page; research
/// notes §2.4, V-MC-1).
public enum MastercardWebhook {
    /// The header carrying the notification secret.
    public static let secretHeader = "X-Notification-Secret"
    /// The header carrying the notification's id, for deduplication.
    public static let idHeader = "X-Notification-Id"
    /// The header counting delivery attempts.
    public static let attemptHeader = "X-Notification-Attempt"

    /// Checks a delivery and decodes its transaction.
    ///
    /// `X-Notification-Secret` must occur exactly once, hold one value (not a comma-joined list)
    /// and equal `secret` byte for byte; the comparison takes the same time whatever the value
    /// and its length (both sides are MACed under the secret and the MACs compared with
    /// `CRYPTO_memcmp`). `X-Notification-Id` and `X-Notification-Attempt` are optional, at most
    /// once each. Header names are matched case-insensitively (RFC 9110 §5.1); the body is read
    /// only after the secret matched.
    /// - Parameters:
    ///   - body: The raw body, at most ``NotificationLimits/maximumBodyByteCount`` bytes.
    ///   - headers: Every header field of the delivery as received.
    ///   - secret: The notification secret configured in Merchant Administration.
    /// - Returns: The notification.
    /// - Throws: ``CSEError/Code/serverAPINotificationTooLarge``;
    ///   ``CSEError/Code/mastercardWebhookHeader`` (naming the header) for a missing secret
    ///   header, a repeated or comma-joined one, or a malformed id or attempt;
    ///   ``CSEError/Code/mastercardWebhookSecret`` when the secret does not match;
    ///   ``CSEError/Code/mastercardWebhookMalformed`` when the body is not a transaction;
    ///   ``CSEError/Code/serverAPICredentials`` for an empty configured secret.
    public static func verifiedNotification(
        body: some Collection<UInt8>, headers: some Sequence<(name: String, value: String)>, secret: SecureBytes
    ) throws(CSEError) -> MastercardNotification {
        guard secret.count > 0 else {
            throw CSEError(.serverAPICredentials, "the notification secret is empty", context: ["member": "secret"])
        }
        try NotificationLimits.check(body)
        let fields = Array(headers)
        let lookup = NotificationHeaders { name, problem in
            CSEError(.mastercardWebhookHeader, "the notification header \(problem)", context: ["header": name])
        }
        guard let received = try lookup.value(secretHeader, in: fields, single: true) else {
            throw lookup.problem(secretHeader, "is missing")
        }
        guard try matches(received, secret) else {
            throw CSEError(.mastercardWebhookSecret, "the notification secret does not match the configured secret")
        }
        let id = try lookup.value(idHeader, in: fields, single: true)
        if let id, !(1...128).contains(id.utf8.count) || !id.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) {
            throw lookup.problem(idHeader, "is not 1 to 128 visible ASCII characters")
        }
        var attempt: Int?
        if let text = try lookup.value(attemptHeader, in: fields, single: true) {
            guard (1...6).contains(text.utf8.count), text.utf8.allSatisfy({ $0.isASCIIDigit }), let number = Int(text), number > 0 else {
                throw lookup.problem(attemptHeader, "is not a positive number")
            }
            attempt = number
        }
        let transaction: MastercardTransaction
        do throws(CSEError) {
            transaction = try MastercardTransaction(response: try JSONObject.parse(body, what: "a Mastercard notification"))
        } catch {
            throw CSEError(
                .mastercardWebhookMalformed, "the notification body is not a transaction",
                context: error.context["member"].map { ["member": $0] } ?? [:], underlying: error)
        }
        return MastercardNotification(notificationID: id, attempt: attempt, transaction: transaction)
    }

    /// Whether `received` is the secret: HMAC-SHA256 under the secret of each, compared in
    /// constant time, so neither the content nor the length of the secret shows in the timing.
    static func matches(_ received: String, _ secret: SecureBytes) throws(CSEError) -> Bool {
        var copy = secret.unsafeCopyToArray()
        var value = Array(received.utf8)
        defer {
            secureZero(&copy)
            secureZero(&value)
        }
        var mine = try HMAC.authenticationCode(.sha256, key: secret, message: copy.span.bytes)
        var theirs = try HMAC.authenticationCode(.sha256, key: secret, message: value.span.bytes)
        defer {
            secureZero(&mine)
            secureZero(&theirs)
        }
        return ConstantTime.equals(mine, theirs)
    }
}
