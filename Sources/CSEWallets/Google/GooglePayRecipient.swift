public import CSECore
internal import CSECrypto

/// The recipient of Google Pay tokens: verifies and decrypts `PaymentMethodToken`s made for one
/// recipient id, with the checks and in the order of Google's reference implementation (Tink's
/// `PaymentMethodTokenRecipient`; Google, "Payment data cryptography for merchants"):
///
/// 1. the token's members, exactly the documented set for its `protocolVersion`, which must be
///    one of ``protocols``;
/// 2. ECv2, ECv2SigningOnly: a signature of the intermediate `signedKey` valid under a root key of
///    the token's protocol version that has not expired; then the intermediate key's
///    `keyExpiration` (`wallet.keyExpired`);
/// 3. the message signature for ``recipientID``, under the intermediate key (ECv1: under a root
///    key directly);
/// 4. ECv1, ECv2: the HMAC-SHA-256 tag, in constant time, under each configured private key in
///    turn, and AES-CTR only under the key whose tag matched;
/// 5. `messageExpiration` (`wallet.messageExpired`);
/// 6. with a ``WalletReplayGuard``, the first sighting of the `messageId` (`wallet.replayed`).
///
/// Every time check reads the injected ``WalletClock``, once per token.
public struct GooglePayRecipient: Sendable {
    /// The recipient id the message signature must cover: `merchant:<merchantId>` or
    /// `gateway:<gatewayId>` as the payment request named it (Google's TEST environment signs for
    /// `merchant:12345678901234567890`).
    public let recipientID: String
    /// The accepted protocol versions.
    public let protocols: Set<GooglePayProtocolVersion>
    /// The sender id of the signed strings: `Google` for Google Pay, `GooglePayPasses` for
    /// Google Wallet pass callbacks.
    public let senderID: String
    /// The trusted root signing keys.
    public let rootKeys: GooglePayRootKeys
    /// The clock of every time check.
    let clock: WalletClock
    /// The replay guard, if any.
    let replayGuard: (any WalletReplayGuard)?
    let privateKeys: [P256PrivateKey]
    /// Intermediate keys verified before (process-wide unless a test gives its own).
    var intermediateKeys = VerifiedIntermediateKeyCache.shared

    /// How long a `messageId` is remembered when the message has no `messageExpiration`:
    /// 7 days, in milliseconds.
    static let replayRetentionWithoutExpiration: Int64 = 7 * 24 * 3_600_000

    /// A recipient.
    /// - Parameters:
    ///   - recipientID: `merchant:<merchantId>` or `gateway:<gatewayId>`; not empty.
    ///   - privateKeysPEM: The recipient's P-256 private keys, PEM (PKCS #8 or SEC 1, with or
    ///     without an `EC PARAMETERS` block), tried in order: several keys are key rotation. May be
    ///     empty for a recipient that only verifies.
    ///   - rootKeys: Google's root signing keys of the environment (test or production).
    ///   - protocols: The accepted protocol versions (default: ECv2 only).
    ///   - senderID: `Google` (default) or `GooglePayPasses`.
    ///   - clock: The clock of every time check.
    ///   - replayGuard: Refuses a second sighting of a `messageId` when set.
    /// - Throws: `wallet.malformed` for an empty recipient id, sender id or protocol set; a key's
    ///   own `pem.*`/`crypto.*` error for a private key that is not a P-256 key in PEM.
    public init(
        recipientID: String, privateKeysPEM: [String], rootKeys: GooglePayRootKeys,
        protocols: Set<GooglePayProtocolVersion> = GooglePayProtocolVersion.defaultAccepted,
        senderID: String = "Google", clock: WalletClock = .system, replayGuard: (any WalletReplayGuard)? = nil
    ) throws(CSEError) {
        guard !recipientID.isEmpty else { throw GooglePayFields.malformed("the recipient id is empty") }
        guard !senderID.isEmpty else { throw GooglePayFields.malformed("the sender id is empty") }
        guard !protocols.isEmpty else { throw GooglePayFields.malformed("no protocol version is accepted") }
        var keys: [P256PrivateKey] = []
        for pem in privateKeysPEM { keys.append(try P256PrivateKey(pem: pem)) }
        self.recipientID = recipientID
        self.protocols = protocols
        self.senderID = senderID
        self.rootKeys = rootKeys
        self.clock = clock
        self.replayGuard = replayGuard
        self.privateKeys = keys
    }

    /// The same recipient trusting `rootKeys` (for example a set freshly fetched by
    /// `GooglePayRootKeyFetcher`).
    public func replacingRootKeys(_ rootKeys: GooglePayRootKeys) -> GooglePayRecipient {
        GooglePayRecipient(copying: self, rootKeys: rootKeys)
    }

    private init(copying other: GooglePayRecipient, rootKeys: GooglePayRootKeys) {
        recipientID = other.recipientID
        protocols = other.protocols
        senderID = other.senderID
        self.rootKeys = rootKeys
        clock = other.clock
        replayGuard = other.replayGuard
        privateKeys = other.privateKeys
        intermediateKeys = other.intermediateKeys
    }

    /// Verifies and decrypts a token (ECv2SigningOnly: verifies it and returns its signed message).
    /// - Parameter token: The `PaymentMethodToken` JSON document (`paymentMethodData.tokenizationData.token`).
    /// - Returns: The message.
    /// - Throws: One of the `wallet.*` codes: `malformed`, `unsupportedVersion`,
    ///   `signatureInvalid`, `keyExpired`, `noMatchingKey` (no private key configured),
    ///   `decryptionFailed`, `messageExpired`, `replayed`.
    public func decrypt(_ token: some Collection<UInt8>) throws(CSEError) -> GooglePayMessage {
        let now = clock.unixMilliseconds()
        let verified = try verifiedToken(token, now: now)
        let plaintext: SecureBytes
        if verified.token.protocolVersion.isEncrypted {
            let message = try GooglePayEncryptedMessage(verified.token.signedMessage)
            guard !privateKeys.isEmpty else {
                throw CSEError(.walletNoMatchingKey, "Google Pay: no recipient private key is configured")
            }
            plaintext = try GooglePayDecryption.decrypt(message, privateKeys: privateKeys, version: verified.token.protocolVersion)
        } else {
            plaintext = SecureBytes(verified.token.signedMessage.utf8)
        }
        let object = plaintext.withUnsafeBytes { try? JSONValue.parse($0).objectValue } ?? nil
        let message = try GooglePayMessage(protocolVersion: verified.token.protocolVersion, plaintext: plaintext, object: object)
        if let expiration = message.messageExpiration, now >= expiration {
            throw CSEError(
                .walletMessageExpired, "Google Pay: the message expired (messageExpiration) before the clock's time",
                context: ["messageExpiration": String(expiration)])
        }
        if let replayGuard, let id = message.messageID,
            !replayGuard.recordFirstSighting(
                of: "google-pay:" + id, until: message.messageExpiration ?? now + Self.replayRetentionWithoutExpiration, now: now)
        {
            throw CSEError(.walletReplayed, "Google Pay: this messageId was already accepted within its acceptance window")
        }
        return message
    }

    /// Verifies a token's signatures and key expiry without decrypting it (no private key needed).
    /// - Returns: The protocol version and, for ECv2 and ECv2SigningOnly, the intermediate key's expiry.
    /// - Throws: `wallet.malformed`, `unsupportedVersion`, `signatureInvalid` or `keyExpired`.
    public func verify(_ token: some Collection<UInt8>) throws(CSEError) -> GooglePayVerification {
        let verified = try verifiedToken(token, now: clock.unixMilliseconds())
        return GooglePayVerification(
            protocolVersion: verified.token.protocolVersion, intermediateKeyExpiration: verified.intermediateKeyExpiration)
    }

    /// Steps 1 to 3.
    func verifiedToken(
        _ document: some Collection<UInt8>, now: Int64
    ) throws(CSEError) -> (token: GooglePayToken, intermediateKeyExpiration: Int64?) {
        let token = try GooglePayToken(document, accepted: protocols)
        let version = token.protocolVersion
        guard let roots = rootKeys.usableEntries(for: version, now: now) else {
            throw CSEError(
                .walletKeyExpired, "Google Pay: every root signing key of \(version) has expired; refresh the root keys")
        }
        guard !roots.isEmpty else {
            throw signatureFailure("no root signing key of \(version) is configured")
        }
        var messageKeys = roots.map(\.key)
        var intermediateKeyExpiration: Int64? = nil
        if let intermediate = token.intermediate {
            let remembered = try intermediateKey(intermediate, version: version, roots: roots, now: now)
            messageKeys = [remembered.key]
            intermediateKeyExpiration = remembered.expiration
        }
        let signed = GooglePayToken.signedBytes(senderID, recipientID, version.rawValue, token.signedMessage)
        guard let signature = try? GooglePayFields.base64(token.signature, member: "signature"),
            messageKeys.contains(where: { $0.isValidECDSASignature(signature, forSHA256Of: signed) })
        else { throw signatureFailure("the message signature does not verify for the configured recipient id") }
        return (token, intermediateKeyExpiration)
    }

    /// Step 2 for ECv2 and ECv2SigningOnly: the intermediate key, verified by a root key, then its
    /// expiry at `now`. A key verified before under the same signed bytes, signature and root
    /// (``VerifiedIntermediateKeyCache``) skips the verification, the parse and the import, never
    /// the expiry check; so a token is refused with the same code on a warm and a cold cache.
    private func intermediateKey(
        _ intermediate: GooglePayToken.IntermediateSigningKey, version: GooglePayProtocolVersion,
        roots: [GooglePayRootKeys.Entry], now: Int64
    ) throws(CSEError) -> VerifiedIntermediateKeyCache.Entry {
        let signed = GooglePayToken.signedBytes(senderID, version.rawValue, intermediate.signedKey)
        // A signature that is not base64 never verifies (it is skipped, not refused).
        let signatures = intermediate.signatures.compactMap { try? GooglePayFields.base64($0, member: "signatures") }
        if let remembered = intermediateKeys.entry(signedBytes: signed, signatures: signatures, roots: roots) {
            try Self.checkExpiry(of: remembered.expiration, now: now)
            return remembered
        }
        var proof: VerifiedIntermediateKeyCache.Key?
        search: for signature in signatures {
            for root in roots where root.key.isValidECDSASignature(signature, forSHA256Of: signed) {
                proof = VerifiedIntermediateKeyCache.Key(signedBytes: signed, signature: signature, root: root.subjectPublicKeyInfo)
                break search
            }
        }
        guard let proof else { throw signatureFailure("the intermediate signing key's signature does not verify") }
        let signedKey = try GooglePaySignedKey(intermediate.signedKey)
        try Self.checkExpiry(of: signedKey.expiration, now: now)
        let key: P256PublicKey
        do { key = try P256PublicKey(subjectPublicKeyInfo: signedKey.keyValue) } catch {
            throw GooglePayFields.malformed("signedKey.keyValue is not a P-256 public key")
        }
        let verified = VerifiedIntermediateKeyCache.Entry(expiration: signedKey.expiration, key: key)
        intermediateKeys.store(verified, for: proof, now: now)
        return verified
    }

    /// `wallet.keyExpired` unless the intermediate key's `keyExpiration` is after `now`.
    private static func checkExpiry(of expiration: Int64, now: Int64) throws(CSEError) {
        guard now < expiration else {
            throw CSEError(
                .walletKeyExpired, "Google Pay: the intermediate signing key expired (keyExpiration) before the clock's time",
                context: ["keyExpiration": String(expiration)])
        }
    }

    private func signatureFailure(_ what: String) -> CSEError {
        CSEError(
            .walletSignatureInvalid,
            "Google Pay: \(what). Check the recipient id (merchant:<merchantId> or gateway:<gatewayId>, "
                + "exactly as in the payment request) and that the root keys are Google's test keys for a TEST-environment "
                + "token or its production keys for a PRODUCTION one")
    }
}

/// What ``GooglePayRecipient/verify(_:)`` established about a token.
public struct GooglePayVerification: Sendable, Hashable {
    /// The token's protocol version.
    public let protocolVersion: GooglePayProtocolVersion
    /// The intermediate signing key's `keyExpiration` (ECv2, ECv2SigningOnly), in milliseconds
    /// since the Unix epoch.
    public let intermediateKeyExpiration: Int64?
}
