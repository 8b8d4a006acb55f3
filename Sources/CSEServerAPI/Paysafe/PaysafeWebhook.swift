public import CSECore
public import CSECrypto

/// A Paysafe webhook whose `Signature` verified: the event JSON, with card numbers masked.
///
/// Paysafe's payloads are minimal and link to the resource that changed (research notes §4.4),
/// and the event members are not documented for every API, so only `id` and `eventType` are
/// typed; fetch the linked resource before acting.
public struct PaysafeNotification: Sendable, CustomStringConvertible {
    /// The event's `id` (a string, or a number written as its digits), when present.
    public let id: String?
    /// `eventType`, for example `PAYMENT_COMPLETED`, when present.
    public let eventType: String?
    /// The body as a value, card numbers masked and security codes removed (the CLI writes it).
    package let maskedValue: JSONValue

    /// The body as compact UTF-8 JSON text, with card numbers masked (first 6 and last 4 digits)
    /// and security codes removed.
    public var maskedJSON: [UInt8] { maskedValue.serializedBytes }

    /// Id and event type.
    public var description: String { "PaysafeNotification(id: \(id ?? "-"), eventType: \(eventType ?? "-"))" }
}

/// Verification of Paysafe webhooks: the `Signature` header is base64 of HMAC-SHA256 of the raw
/// body, keyed with the webhook key's **bytes**, which Paysafe hands over as base64 text
/// (developer.paysafe.com "Webhooks" and "Request signing"; research notes §4.4, known answers
/// V-PS-1, V-PS-1b, V-PS-2).
public enum PaysafeWebhook {
    /// The header carrying the signature.
    public static let signatureHeader = "Signature"

    /// The HMAC key from the base64 text Paysafe's console shows (V-PS-2: the text itself is not
    /// the key).
    /// - Parameter base64: The key as padded standard base64 (RFC 4648 §4), in a wiping buffer.
    /// - Returns: The decoded key bytes.
    /// - Throws: ``CSEError/Code/serverAPICredentials`` (member `key`) when the text is not
    ///   padded base64 of at least 16 bytes; the text is never quoted.
    public static func key(base64: SecureBytes) throws(CSEError) -> SecureBytes {
        let decoded = base64.withUnsafeBytes { (text) -> [UInt8]? in try? Base64.decode(text, alphabet: .standard, padding: .required) }
        guard var bytes = decoded else {
            throw CSEError(.serverAPICredentials, "the webhook key is not padded base64", context: ["member": "key"])
        }
        defer { secureZero(&bytes) }
        guard bytes.count >= 16 else {
            throw CSEError(.serverAPICredentials, "the webhook key is shorter than 16 bytes", context: ["member": "key"])
        }
        return SecureBytes(bytes)
    }

    /// Checks a signature over a body in constant time.
    /// - Parameters:
    ///   - signature: The received `Signature` value.
    ///   - body: The raw body exactly as received (a re-serialized body has another MAC, V-PS-1b).
    ///   - key: The webhook key's bytes (``key(base64:)``).
    /// - Returns: `true` when the signature is the padded base64 of the 32-byte HMAC of the body;
    ///   any other value is simply invalid.
    /// - Throws: ``CSEError/Code/serverAPICredentials`` for an empty key, or a backend error.
    public static func isValid(signature: String, body: some Collection<UInt8>, key: SecureBytes) throws(CSEError) -> Bool {
        guard key.count > 0 else {
            throw CSEError(.serverAPICredentials, "the webhook key is empty", context: ["member": "key"])
        }
        let trimmed = signature.utf8.count <= 128 ? NotificationHeaders.trimmed(signature) : ""
        guard var tag = try? Base64.decode(trimmed, alphabet: .standard, padding: .required), tag.count == 32 else {
            return false
        }
        defer { secureZero(&tag) }
        let message = Array(body)
        return try HMAC.isValidAuthenticationCode(tag.span.bytes, algorithm: .sha256, key: key, message: message.span.bytes)
    }

    /// Verifies a body against its `Signature` and decodes it; nothing is read from the body
    /// before the signature verifies.
    /// - Parameters:
    ///   - signature: The received `Signature` value.
    ///   - body: The raw body, at most ``NotificationLimits/maximumBodyByteCount`` bytes.
    ///   - key: The webhook key's bytes (``key(base64:)``).
    /// - Returns: The notification.
    /// - Throws: ``CSEError/Code/serverAPINotificationTooLarge``;
    ///   ``CSEError/Code/paysafeWebhookSignature`` when the signature does not verify;
    ///   ``CSEError/Code/paysafeWebhookMalformed`` when the signed body is not a JSON object (or
    ///   its `id` or `eventType` is not a string); ``CSEError/Code/serverAPICredentials`` for an
    ///   empty key.
    public static func verifiedNotification(
        signature: String, body: some Collection<UInt8>, key: SecureBytes
    ) throws(CSEError) -> PaysafeNotification {
        try NotificationLimits.check(body)
        guard try isValid(signature: signature, body: body, key: key) else {
            throw CSEError(.paysafeWebhookSignature, "the webhook signature does not match the body under the key")
        }
        do throws(CSEError) {
            let object = try JSONObject.parse(body, what: "a Paysafe webhook")
            let reader = ServerResponseReader(platform: "paysafe")
            return PaysafeNotification(
                id: try reader.identifier(object, "id"), eventType: try reader.optionalString(object, "eventType"),
                maskedValue: MastercardSession.mask(.object(object), path: []))
        } catch {
            throw CSEError(
                .paysafeWebhookMalformed, "the signed webhook body is not a Paysafe event",
                context: error.context["member"].map { ["member": $0] } ?? [:], underlying: error)
        }
    }
}
