internal import CSECore
internal import COpenSSL

/// The refusals of `CSEWallets`, one factory per `wallet.*` code. Reasons name the rule that was
/// broken, never a byte of the token, a key or a decrypted value, and every decryption failure
/// has one message whatever its cause.
enum WalletError {
    static func malformed(_ reason: String) -> CSEError {
        CSEError(.walletMalformed, "the wallet token is malformed: \(reason)")
    }

    static func unsupportedVersion(_ version: String) -> CSEError {
        CSEError(
            .walletUnsupportedVersion, "the token's version is not accepted",
            context: ["version": SecretMasking.echoName(version)])
    }

    static func signatureInvalid(_ reason: String) -> CSEError {
        ERR_clear_error()
        return CSEError(.walletSignatureInvalid, "the token's signature does not verify: \(reason)")
    }

    static func untrustedCertificate(_ reason: String) -> CSEError {
        ERR_clear_error()
        return CSEError(.walletUntrustedCertificate, "the token's certificates are not trusted: \(reason)")
    }

    static func signingTimeOutOfWindow(past: Int64, future: Int64) -> CSEError {
        CSEError(
            .walletSigningTimeOutOfWindow, "the signing time is outside the accepted window around the clock",
            context: ["pastSeconds": String(past), "futureSeconds": String(future)])
    }

    static func noMatchingKey(_ reason: String) -> CSEError {
        CSEError(.walletNoMatchingKey, reason)
    }

    /// The one decryption failure: the same code and message for every cause.
    static func decryptionFailed() -> CSEError {
        ERR_clear_error()
        return CSEError(.walletDecryptionFailed, "the payment data could not be decrypted")
    }

    static func replayed() -> CSEError {
        CSEError(.walletReplayed, "this transaction id was already seen within the acceptance window")
    }

    /// OpenSSL could not allocate or run a structure; not caused by the token.
    static func backend() -> CSEError {
        ERR_clear_error()
        return CSEError(.walletMalformed, "OpenSSL could not process the token")
    }
}
