public import CSECore
public import CSECrypto

/// Verification of Worldline webhook deliveries: `X-GCS-Signature` is base64 of HMAC-SHA256 of the
/// raw request body under the webhook secret named by `X-GCS-KeyId` (the Worldline server SDKs'
/// `SignatureValidator`; research notes §1.4, known answer V-WL-1). ``verifiedEvent(body:headers:secrets:)``
/// also decodes the event the body carries, once the signature verifies.
public enum WorldlineWebhook {
    /// The header carrying the signature.
    public static let signatureHeader = "X-GCS-Signature"
    /// The header naming the secret's key id.
    public static let keyIDHeader = "X-GCS-KeyId"

    /// Checks a signature over a body in constant time.
    /// - Parameters:
    ///   - signature: The received `X-GCS-Signature` value.
    ///   - body: The raw body exactly as received (no re-encoding, no line-ending changes).
    ///   - secret: The webhook secret's UTF-8 bytes.
    /// - Returns: `true` when the signature is the base64 HMAC of the body. A signature that is not
    ///   padded base64 of 32 bytes is simply invalid.
    /// - Throws: ``CSEError/Code/serverAPICredentials`` for an empty secret, or a backend error.
    public static func isValid(signature: String, body: some Collection<UInt8>, secret: SecureBytes) throws(CSEError) -> Bool {
        guard secret.count > 0 else {
            throw CSEError(.serverAPICredentials, "the webhook secret is empty", context: ["member": "secret"])
        }
        let trimmed = signature.utf8.count <= 128 ? signature : ""
        guard var tag = try? Base64.decode(trimmed, alphabet: .standard, padding: .required), tag.count == 32 else {
            return false
        }
        defer { secureZero(&tag) }
        let message = Array(body)
        return try HMAC.isValidAuthenticationCode(tag.span.bytes, algorithm: .sha256, key: secret, message: message.span.bytes)
    }

    /// Checks a delivery: finds the two headers (case-insensitively, each exactly once), looks up
    /// the secret for the key id and verifies the body.
    /// - Parameters:
    ///   - body: The raw body.
    ///   - headers: The request's header fields.
    ///   - secrets: The secret for a key id, or `nil` when none is configured.
    /// - Returns: Whether the signature is valid.
    /// - Throws: ``CSEError/Code/worldlineWebhookHeader`` when a header is missing or repeated,
    ///   ``CSEError/Code/worldlineWebhookUnknownKey`` when no secret exists for the key id.
    public static func isValid(
        body: some Collection<UInt8>, headers: some Sequence<(name: String, value: String)>,
        secrets: (String) -> SecureBytes?
    ) throws(CSEError) -> Bool {
        var signature: String?
        var keyID: String?
        for (name, value) in headers {
            let lower = name.lowercased()
            if lower == signatureHeader.lowercased() {
                guard signature == nil else { throw header(signatureHeader, "is repeated") }
                signature = value
            } else if lower == keyIDHeader.lowercased() {
                guard keyID == nil else { throw header(keyIDHeader, "is repeated") }
                keyID = value
            }
        }
        guard let signature else { throw header(signatureHeader, "is missing") }
        guard let keyID else { throw header(keyIDHeader, "is missing") }
        guard let secret = secrets(keyID) else {
            throw CSEError(
                .worldlineWebhookUnknownKey, "no webhook secret is configured for the key id",
                context: ["keyId": SecretMasking.echoName(keyID, limit: 64)])
        }
        return try isValid(signature: signature, body: body, secret: secret)
    }

    /// Verifies a body against its `X-GCS-Signature` and decodes the event it carries; nothing is
    /// read from the body before the signature verifies.
    /// - Parameters:
    ///   - signature: The received `X-GCS-Signature` value.
    ///   - body: The raw body exactly as received, at most ``NotificationLimits/maximumBodyByteCount``
    ///     bytes.
    ///   - secret: The webhook secret's UTF-8 bytes.
    /// - Returns: The event.
    /// - Throws: ``CSEError/Code/serverAPINotificationTooLarge``;
    ///   ``CSEError/Code/worldlineWebhookSignature`` when the signature does not verify;
    ///   ``CSEError/Code/worldlineWebhookMalformed`` when the signed body is not an event;
    ///   ``CSEError/Code/serverAPICredentials`` for an empty secret.
    public static func verifiedEvent(
        signature: String, body: some Collection<UInt8>, secret: SecureBytes
    ) throws(CSEError) -> WorldlineWebhookEvent {
        try NotificationLimits.check(body)
        guard try isValid(signature: signature, body: body, secret: secret) else {
            throw CSEError(.worldlineWebhookSignature, "the webhook signature does not match the body under the secret")
        }
        return try WorldlineWebhookEvent(verified: body)
    }

    /// Verifies a delivery (the two headers found case-insensitively, each exactly once; the
    /// secret of the key id) and decodes the event it carries.
    /// - Parameters:
    ///   - body: The raw body, at most ``NotificationLimits/maximumBodyByteCount`` bytes.
    ///   - headers: The request's header fields.
    ///   - secrets: The secret for a key id, or `nil` when none is configured.
    /// - Returns: The event.
    /// - Throws: The errors of ``isValid(body:headers:secrets:)`` and of
    ///   ``verifiedEvent(signature:body:secret:)``.
    public static func verifiedEvent(
        body: some Collection<UInt8>, headers: some Sequence<(name: String, value: String)>,
        secrets: (String) -> SecureBytes?
    ) throws(CSEError) -> WorldlineWebhookEvent {
        try NotificationLimits.check(body)
        guard try isValid(body: body, headers: headers, secrets: secrets) else {
            throw CSEError(.worldlineWebhookSignature, "the webhook signature does not match the body under the secret")
        }
        return try WorldlineWebhookEvent(verified: body)
    }

    private static func header(_ name: String, _ problem: String) -> CSEError {
        CSEError(.worldlineWebhookHeader, "the webhook header \(problem)", context: ["header": name])
    }
}
