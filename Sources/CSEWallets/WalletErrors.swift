public import CSECore

/// The stable codes of a refused wallet payment token (Apple Pay, Google Pay).
///
/// Every refusal of `CSEWallets` carries one of these codes and nothing more precise: no error
/// says which byte or which step of a decryption failed, so a refusal is no oracle.
extension CSEError.Code {
    /// The token is not of the documented shape: bad JSON, a missing or extra member, bad base64 or
    /// hex, an unreadable CMS structure or key.
    public static let walletMalformed = Self("wallet.malformed")
    /// The token's `version` (Apple) or `protocolVersion` (Google) is not in the configured set.
    public static let walletUnsupportedVersion = Self("wallet.unsupportedVersion")
    /// A signature does not verify: the CMS signature of an Apple token, or the intermediate-key or
    /// message signature of a Google token (check the recipient id and the test or production keys).
    public static let walletSignatureInvalid = Self("wallet.signatureInvalid")
    /// The Apple certificate chain is not trusted: it does not end at the pinned root, a marker OID
    /// is missing, or a certificate is not valid at the signing time.
    public static let walletUntrustedCertificate = Self("wallet.untrustedCertificate")
    /// The Apple CMS signing time is outside the acceptance window around the clock.
    public static let walletSigningTimeOutOfWindow = Self("wallet.signingTimeOutOfWindow")
    /// A Google root or intermediate signing key has expired at the clock.
    public static let walletKeyExpired = Self("wallet.keyExpired")
    /// A Google message has expired at the clock (`messageExpiration`).
    public static let walletMessageExpired = Self("wallet.messageExpired")
    /// No configured merchant or recipient key matches the token.
    public static let walletNoMatchingKey = Self("wallet.noMatchingKey")
    /// Decryption failed (key agreement, tag, or the decrypted payload). One code for every cause.
    public static let walletDecryptionFailed = Self("wallet.decryptionFailed")
    /// The replay guard has seen this transaction or message id within the acceptance window.
    public static let walletReplayed = Self("wallet.replayed")
}

extension CSEError.Code {
    /// The card of a decrypted token is not one a platform can be paid with: a member is missing,
    /// of the wrong JSON type or out of range (a device PAN that is not 12–19 digits, a month
    /// outside 1–12, an ECI outside 0–99). The context's `argument` names the member; never its
    /// value.
    public static let walletInvalidCard = Self("wallet.invalidCard")
}
