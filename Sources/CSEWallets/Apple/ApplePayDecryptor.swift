public import CSECore
internal import CSECrypto

/// Verifies and decrypts Apple Pay payment tokens on the merchant's server (Apple, "Payment token
/// format reference" and "Restoring the symmetric key").
///
/// Every check Apple requires runs before anything is decrypted: the CMS signature read from BER;
/// the leaf and intermediate picked by their marker OIDs; the chain to the pinned root; every
/// certificate valid at the signing time; the leaf as the signer over the exact signed content
/// (`applicationData` included); and the signing time inside ``signingWindow`` at ``clock``.
/// Decryption then selects the merchant pair by `publicKeyHash`. See `docs/WALLETS.md`.
///
///     let decryptor = try ApplePayDecryptor(
///         merchantIdentities: [try ApplePayMerchantIdentity(certificatePEM: cert, privateKeyPEM: key)],
///         merchantIdentifier: "merchant.com.example")
///     let payment = try decryptor.decrypt(tokenJSON)
///
/// The value is immutable and `Sendable`.
public struct ApplePayDecryptor: Sendable {
    /// The merchant pairs, in the order given.
    public let merchantIdentities: [ApplePayMerchantIdentity]
    /// The merchant identifier every pair was checked against, if one was given.
    public let merchantIdentifier: String?
    /// The root every chain must end at.
    public let trustedRoot: ApplePayTrustedRoot
    /// The accepted distance between the signing time and the clock.
    public let signingWindow: ApplePaySigningWindow
    /// The accepted formats.
    public let acceptedVersions: Set<ApplePayVersion>
    /// The clock every time check reads.
    public let clock: WalletClock
    /// The replay guard consulted after a successful decryption, if any.
    public let replayGuard: (any WalletReplayGuard)?

    /// Configures a decryptor.
    /// - Parameters:
    ///   - merchantIdentities: The Payment Processing pairs; several for key rotation; none to
    ///     only ``verify(_:)``.
    ///   - merchantIdentifier: When given, every pair's certificate must carry this merchant
    ///     identifier's hash (extension 1.2.840.113635.100.6.32).
    ///   - trustedRoot: Apple Root CA - G3 by default.
    ///   - signingWindow: 5 minutes in the past, 1 minute in the future by default.
    ///   - acceptedVersions: `EC_v1` and `RSA_v1` by default.
    ///   - clock: The system clock by default.
    ///   - replayGuard: None by default.
    /// - Throws: `wallet.noMatchingKey` when a pair's certificate belongs to another merchant
    ///   identifier.
    public init(
        merchantIdentities: [ApplePayMerchantIdentity] = [],
        merchantIdentifier: String? = nil,
        trustedRoot: ApplePayTrustedRoot = .appleRootCAG3,
        signingWindow: ApplePaySigningWindow = .default,
        acceptedVersions: Set<ApplePayVersion> = [.ecV1, .rsaV1],
        clock: WalletClock = .system,
        replayGuard: (any WalletReplayGuard)? = nil
    ) throws(CSEError) {
        if let merchantIdentifier {
            for identity in merchantIdentities where !identity.belongs(to: merchantIdentifier) {
                throw WalletError.noMatchingKey("a merchant certificate belongs to another merchant identifier")
            }
        }
        self.merchantIdentities = merchantIdentities
        self.merchantIdentifier = merchantIdentifier
        self.trustedRoot = trustedRoot
        self.signingWindow = signingWindow
        self.acceptedVersions = acceptedVersions
        self.clock = clock
        self.replayGuard = replayGuard
    }

    /// Checks the signature, the chain and the signing time of a token, without decrypting
    /// (no merchant key is needed).
    /// - Parameter token: The JSON of the `paymentData` object, a whole `PKPaymentToken`, or
    ///   Apple Pay JS's `{"token":{…}}`.
    /// - Throws: `wallet.malformed`, `wallet.unsupportedVersion`, `wallet.untrustedCertificate`,
    ///   `wallet.signatureInvalid` or `wallet.signingTimeOutOfWindow`.
    public func verify(_ token: some Collection<UInt8>) throws(CSEError) -> ApplePayVerification {
        try verify(parsed: ApplePayToken(json: token, accepting: acceptedVersions))
    }

    /// Verifies (as ``verify(_:)``) and decrypts a token, then records it with the replay guard.
    ///
    /// The guard is keyed on what the signature fixes, `apple-pay:` and the lower-case hex of
    /// SHA-256 over the signed content (the key member ‖ `data` ‖ `transactionId` ‖
    /// `applicationData`, decoded), so the same token presented again in another spelling (hex
    /// of the other case, another JSON envelope) is the same sighting.
    /// - Throws: the errors of ``verify(_:)``, then `wallet.noMatchingKey` (no configured pair
    ///   has the token's `publicKeyHash` and version), `wallet.decryptionFailed` (one code for
    ///   every cause) or `wallet.replayed`.
    public func decrypt(_ token: some Collection<UInt8>) throws(CSEError) -> ApplePayPayment {
        let parsed = try ApplePayToken(json: token, accepting: acceptedVersions)
        let verification = try verify(parsed: parsed)
        guard
            let identity = merchantIdentities.first(where: { identity in
                identity.publicKeyHash == parsed.publicKeyHash && identity.opens(parsed.version)
            })
        else { throw WalletError.noMatchingKey("no configured Payment Processing certificate has the token's publicKeyHash") }
        let plaintext = try Self.decrypt(parsed, with: identity)
        let paymentData = try ApplePayPaymentData(json: plaintext)
        if let replayGuard {
            let expiry = signingWindow.acceptanceEnd(signingTime: verification.signingTimeUnixMilliseconds)
            guard replayGuard.recordFirstSighting(of: try Self.replayKey(parsed), until: expiry, now: clock.unixMilliseconds())
            else { throw WalletError.replayed() }
        }
        return ApplePayPayment(verification: verification, paymentData: paymentData, decryptedJSON: plaintext)
    }

    private func verify(parsed: ApplePayToken) throws(CSEError) -> ApplePayVerification {
        let signingTime = try ApplePaySignatureVerifier.verify(
            signature: parsed.signature, content: parsed.signedContent, root: trustedRoot.certificate)
        guard signingWindow.contains(signingTime: signingTime, now: clock.unixMilliseconds()) else {
            throw WalletError.signingTimeOutOfWindow(past: signingWindow.pastSeconds, future: signingWindow.futureSeconds)
        }
        return ApplePayVerification(
            version: parsed.version, transactionId: parsed.transactionId, signingTimeUnixMilliseconds: signingTime,
            applicationData: parsed.applicationData)
    }

    /// `apple-pay:` and the lower-case hex of SHA-256 over the signed content.
    static func replayKey(_ token: ApplePayToken) throws(CSEError) -> String {
        "apple-pay:" + Base16.encode(try DigestAlgorithm.sha256.hash(token.signedContent))
    }

    /// The symmetric key, then AES-GCM with the 16-byte zero IV and the last 16 bytes of `data` as
    /// the tag. Every failure is the one `wallet.decryptionFailed`.
    static func decrypt(_ token: ApplePayToken, with identity: ApplePayMerchantIdentity) throws(CSEError) -> SecureBytes {
        do {
            let key = try symmetricKey(token, identity)
            let ciphertext = Array(token.data.dropLast(16)), tag = Array(token.data.suffix(16))
            let iv = [UInt8](repeating: 0, count: 16)
            return try AES.GCM.open(
                ciphertext: ciphertext.span.bytes, key: key, iv128: iv.span.bytes, aad: [UInt8]().span.bytes,
                tag: tag.span.bytes)
        } catch {
            throw WalletError.decryptionFailed()
        }
    }

    /// EC_v1: K = SSKDF-SHA-256(Z, 0x0D ‖ "id-aes256-GCM" ‖ "Apple" ‖ PartyV), 32 bytes.
    /// RSA_v1: K = RSA-OAEP-SHA-256/MGF1-SHA-256⁻¹(wrappedKey), 16 bytes.
    static func symmetricKey(_ token: ApplePayToken, _ identity: ApplePayMerchantIdentity) throws(CSEError) -> SecureBytes {
        switch identity.privateKey {
        case .ec(let privateKey):
            let z = try privateKey.sharedSecret(withSubjectPublicKeyInfo: token.keyMaterial)
            return try KeyDerivation.singleStepSHA256(
                sharedSecret: z, otherInfo: otherInfo(identity.merchantIdentifierHash), outputByteCount: 32)
        case .rsa(let privateKey):
            let unwrapped = token.keyMaterial.withUnsafeBytes { buffer in
                Result { () throws(CSEError) in try privateKey.decryptOAEP(buffer, hash: .sha256) }
            }
            let key = try unwrapped.get()
            guard key.count == 16 else { throw WalletError.decryptionFailed() }
            return key
        }
    }

    /// The KDF's OtherInfo: AlgorithmID (length 0x0D, "id-aes256-GCM") ‖ PartyUInfo "Apple" ‖
    /// PartyVInfo SHA-256(merchant identifier).
    static func otherInfo(_ merchantIdentifierHash: [UInt8]) -> [UInt8] {
        [0x0D] + Array("id-aes256-GCM".utf8) + Array("Apple".utf8) + merchantIdentifierHash
    }
}

extension ApplePayMerchantIdentity {
    /// Whether this pair's key kind opens `version` (EC for EC_v1, RSA for RSA_v1).
    func opens(_ version: ApplePayVersion) -> Bool {
        switch (privateKey, version) {
        case (.ec, .ecV1), (.rsa, .rsaV1): true
        default: false
        }
    }
}
