internal import CSECore

/// A Google Pay `PaymentMethodToken`, read strictly: exactly the documented members, every
/// signed string kept exactly as received.
///
/// The signatures cover the *decoded* value of each JSON string (`signedMessage`, `signedKey`),
/// as UTF-8: the JSON escapes of the token document itself (`\u003d`, `\"`, even escaped member
/// names) are undone by the JSON reader, but the text inside, which is itself JSON with its own
/// escapes, is never re-serialised. Lengths in the signed strings are UTF-8 byte counts.
struct GooglePayToken {
    let protocolVersion: GooglePayProtocolVersion
    /// The outer `signature` (base64 text; decoded only when checked, so that a token with an
    /// unreadable signature is refused as a bad signature, like one that does not verify).
    let signature: String
    /// The decoded `signedMessage` string.
    let signedMessage: String
    /// ECv2 and ECv2SigningOnly only.
    let intermediate: IntermediateSigningKey?

    struct IntermediateSigningKey {
        /// The decoded `signedKey` string.
        let signedKey: String
        /// The `signatures`, base64 text.
        let signatures: [String]
    }

    /// Reads a token document.
    /// - Parameter accepted: The configured protocol versions.
    /// - Throws: `wallet.malformed` for a document that is not a token of the documented shape;
    ///   `wallet.unsupportedVersion` for a `protocolVersion` outside `accepted`.
    init(_ document: some Collection<UInt8>, accepted: Set<GooglePayProtocolVersion>) throws(CSEError) {
        let object = try GooglePayFields.object(document, what: "token")
        let versionText = try GooglePayFields.string(object, "protocolVersion", in: "token")
        guard let version = GooglePayProtocolVersion(versionText), accepted.contains(version) else {
            throw CSEError(
                .walletUnsupportedVersion,
                "Google Pay: the token's protocolVersion is not one of the accepted "
                    + accepted.map(\.rawValue).sorted().joined(separator: ", "),
                context: ["protocolVersion": SecretMasking.echoName(versionText)])
        }
        protocolVersion = version
        if version.hasIntermediateKey {
            try GooglePayFields.requireMembers(
                object, ["protocolVersion", "signature", "intermediateSigningKey", "signedMessage"], in: "token")
            guard let key = object["intermediateSigningKey"]?.objectValue else {
                throw GooglePayFields.malformed("token.intermediateSigningKey is not a JSON object")
            }
            try GooglePayFields.requireMembers(key, ["signedKey", "signatures"], in: "intermediateSigningKey")
            guard let signatures = key["signatures"]?.arrayValue, !signatures.isEmpty else {
                throw GooglePayFields.malformed("intermediateSigningKey.signatures is not a non-empty array")
            }
            // Each signature costs an ECDSA verification per root key before any other check;
            // Google sends one. The cap bounds that work (docs/SECURITY.md, bounds).
            guard signatures.count <= Self.maximumIntermediateSignatures else {
                throw GooglePayFields.malformed(
                    "intermediateSigningKey.signatures holds more than \(Self.maximumIntermediateSignatures) signatures")
            }
            var texts: [String] = []
            for signature in signatures {
                guard let text = signature.stringValue else {
                    throw GooglePayFields.malformed("intermediateSigningKey.signatures holds a non-string")
                }
                texts.append(text)
            }
            intermediate = IntermediateSigningKey(
                signedKey: try GooglePayFields.string(key, "signedKey", in: "intermediateSigningKey"), signatures: texts)
        } else {
            try GooglePayFields.requireMembers(object, ["protocolVersion", "signature", "signedMessage"], in: "token")
            intermediate = nil
        }
        signature = try GooglePayFields.string(object, "signature", in: "token")
        signedMessage = try GooglePayFields.string(object, "signedMessage", in: "token")
    }

    /// The most `intermediateSigningKey.signatures` read: Google sends one per intermediate key;
    /// a few allow for a rotation of Google's root keys.
    static let maximumIntermediateSignatures = 8

    /// The bytes a Google signature covers: each part as a 4-byte little-endian UTF-8 byte length
    /// followed by its UTF-8 bytes ("Payment data cryptography for merchants", "Verify the
    /// signature").
    static func signedBytes(_ parts: String...) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(parts.reduce(0) { $0 + 4 + $1.utf8.count })
        for part in parts {
            let count = UInt32(truncatingIfNeeded: part.utf8.count)
            bytes.append(contentsOf: [
                UInt8(truncatingIfNeeded: count), UInt8(truncatingIfNeeded: count >> 8),
                UInt8(truncatingIfNeeded: count >> 16), UInt8(truncatingIfNeeded: count >> 24),
            ])
            bytes.append(contentsOf: part.utf8)
        }
        return bytes
    }
}

/// The verified `signedKey` of an ECv2 token: the intermediate key and its expiry.
struct GooglePaySignedKey {
    let keyValue: [UInt8]
    let expiration: Int64

    /// Reads the two members Google documents. Further members are allowed, as Tink allows them
    /// "so we can extend the protocol": `signedKey` is signed by a root key, so they are Google's.
    init(_ signedKey: String) throws(CSEError) {
        let object = try GooglePayFields.object(signedKey.utf8, what: "signedKey")
        keyValue = try GooglePayFields.base64(
            try GooglePayFields.string(object, "keyValue", in: "signedKey"), member: "signedKey.keyValue")
        expiration = try GooglePayFields.milliseconds(
            try GooglePayFields.string(object, "keyExpiration", in: "signedKey"), member: "signedKey.keyExpiration")
    }
}

/// The verified `signedMessage` of an encrypted token (ECv1, ECv2).
struct GooglePayEncryptedMessage {
    let encryptedMessage: [UInt8]
    let ephemeralPublicKey: [UInt8]
    let tag: [UInt8]

    init(_ signedMessage: String) throws(CSEError) {
        let object = try GooglePayFields.object(signedMessage.utf8, what: "signedMessage")
        try GooglePayFields.requireMembers(object, ["encryptedMessage", "ephemeralPublicKey", "tag"], in: "signedMessage")
        encryptedMessage = try GooglePayFields.base64(
            try GooglePayFields.string(object, "encryptedMessage", in: "signedMessage"), member: "signedMessage.encryptedMessage")
        ephemeralPublicKey = try GooglePayFields.base64(
            try GooglePayFields.string(object, "ephemeralPublicKey", in: "signedMessage"),
            member: "signedMessage.ephemeralPublicKey")
        tag = try GooglePayFields.base64(try GooglePayFields.string(object, "tag", in: "signedMessage"), member: "signedMessage.tag")
    }
}
