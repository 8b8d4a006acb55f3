internal import CSECore
public import CSECrypto

/// A verified (and, for ECv1 and ECv2, decrypted) Google Pay message.
///
/// ``plaintext`` is the message exactly as Google wrote it; the typed members are read from it
/// when it is a JSON object (Google Pay payment messages always are; Tink's test messages are
/// bare strings, for which the typed members are `nil`). The card number and cryptogram are
/// masked in ``description``; ``plaintext`` is zeroed when its last copy is released.
public struct GooglePayMessage: Sendable, CustomStringConvertible {
    /// The token's protocol version.
    public let protocolVersion: GooglePayProtocolVersion
    /// The decrypted message (for ECv2SigningOnly, the signed message), byte for byte.
    public let plaintext: SecureBytes
    /// `messageId`: Google's unique id of the message, for replay detection and support.
    public let messageID: String?
    /// `messageExpiration`, in milliseconds since the Unix epoch (checked against the clock).
    /// Every decrypted (ECv1, ECv2) JSON message has one: one without it is `wallet.malformed`.
    /// It is `nil` for an ECv2SigningOnly message without it, and for a message that is not a
    /// JSON object (Tink's test messages).
    public let messageExpiration: Int64?
    /// `gatewayMerchantId`, when the token was made for a gateway: a gateway checks it is its
    /// merchant's.
    public let gatewayMerchantID: String?
    /// `paymentMethod`: `CARD` (ECv1 also `TOKENIZED_CARD`).
    public let paymentMethod: String?
    /// `paymentMethodDetails`, when the message has them.
    public let card: GooglePayCard?

    init(protocolVersion: GooglePayProtocolVersion, plaintext: SecureBytes, object: JSONObject?) throws(CSEError) {
        self.protocolVersion = protocolVersion
        self.plaintext = plaintext
        messageID = try Self.optionalString(object, "messageId")
        gatewayMerchantID = try Self.optionalString(object, "gatewayMerchantId")
        paymentMethod = try Self.optionalString(object, "paymentMethod")
        messageExpiration = try Self.optionalString(object, "messageExpiration").map {
            (text) throws(CSEError) in try GooglePayFields.milliseconds(text, member: "messageExpiration")
        }
        // Google's step 6 needs the current time before messageExpiration, and Google always sends
        // it in a payment message; without it the message would never expire and the replay
        // guard's 7 days would be the only bound, so a decrypted JSON message without it is refused
        // (docs/WALLETS.md). ECv2SigningOnly carries other messages (passes callbacks).
        if protocolVersion.isEncrypted, object != nil, messageExpiration == nil {
            throw GooglePayFields.malformed("the message has no messageExpiration")
        }
        if let details = object?["paymentMethodDetails"] {
            guard let details = details.objectValue else { throw GooglePayFields.malformed("paymentMethodDetails is not a JSON object") }
            card = try GooglePayCard(details)
        } else {
            card = nil
        }
    }

    static func optionalString(_ object: JSONObject?, _ name: String) throws(CSEError) -> String? {
        guard let value = object?[name] else { return nil }
        guard let string = value.stringValue else { throw GooglePayFields.malformed("\(name) is not a string") }
        return string
    }

    /// The message as UTF-8 text (a copy that is not zeroed: keep it no longer than needed).
    public var plaintextString: String { plaintext.withUnsafeBytes { String(decoding: $0, as: UTF8.self) } }

    /// The protocol version, message id and expiry, and the card with its number and cryptogram
    /// masked; never the plaintext.
    public var description: String {
        var parts = ["protocolVersion: \(protocolVersion)"]
        if let messageID { parts.append("messageId: \(messageID)") }
        if let messageExpiration { parts.append("messageExpiration: \(messageExpiration)") }
        if let gatewayMerchantID { parts.append("gatewayMerchantId: \(gatewayMerchantID)") }
        if let paymentMethod { parts.append("paymentMethod: \(paymentMethod)") }
        if let card { parts.append("card: \(card)") }
        parts.append("plaintext: \(plaintext.count) bytes")
        return "GooglePayMessage(\(parts.joined(separator: ", ")))"
    }
}

/// The `paymentMethodDetails` of a Google Pay message: the card (FPAN) or device token (DPAN).
public struct GooglePayCard: Sendable, CustomStringConvertible {
    /// `authMethod`: `PAN_ONLY` (a card on file: no cryptogram) or `CRYPTOGRAM_3DS` (a device
    /// token with a cryptogram); ECv1 `TOKENIZED_CARD` messages say `3DS`.
    public let authMethod: String?
    /// The card number (`pan`) or device PAN (ECv1 `dpan`). Masked in every description.
    public let pan: String?
    /// `expirationMonth`, 1–12.
    public let expirationMonth: Int?
    /// `expirationYear`, four digits.
    public let expirationYear: Int?
    /// The 3-D Secure cryptogram (`cryptogram`; ECv1 `3dsCryptogram`). Masked in every description.
    public let cryptogram: String?
    /// The electronic commerce indicator (`eciIndicator`; ECv1 `3dsEciIndicator`), when present.
    public let eciIndicator: String?

    init(_ details: JSONObject) throws(CSEError) {
        func string(_ names: String...) throws(CSEError) -> String? {
            for name in names {
                if let value = details[name] {
                    guard let string = value.stringValue else {
                        throw GooglePayFields.malformed("paymentMethodDetails.\(name) is not a string")
                    }
                    return string
                }
            }
            return nil
        }
        func int(_ name: String) throws(CSEError) -> Int? {
            guard let value = details[name] else { return nil }
            guard let int = value.intValue ?? value.stringValue.flatMap({ Int($0) }) else {
                throw GooglePayFields.malformed("paymentMethodDetails.\(name) is not an integer")
            }
            return int
        }
        authMethod = try string("authMethod")
        pan = try string("pan", "dpan")
        expirationMonth = try int("expirationMonth")
        expirationYear = try int("expirationYear")
        cryptogram = try string("cryptogram", "3dsCryptogram")
        eciIndicator = try string("eciIndicator", "3dsEciIndicator")
    }

    /// The card with its number masked to at most its first 6 and last 4 digits and the
    /// cryptogram redacted.
    public var description: String {
        var parts: [String] = []
        if let authMethod { parts.append("authMethod: \(authMethod)") }
        if let pan { parts.append("pan: \(SecretMasking.maskPAN(pan))") }
        if let expirationMonth, let expirationYear { parts.append("expiry: \(expirationMonth)/\(expirationYear)") }
        if let cryptogram { parts.append("cryptogram: \(SecretMasking.redact(cryptogram))") }
        if let eciIndicator { parts.append("eci: \(eciIndicator)") }
        return "GooglePayCard(\(parts.joined(separator: ", ")))"
    }
}
