package import CSECore
internal import COpenSSL

extension CSEError.Code {
    /// An elliptic-curve key agreement (ECDH, SEC 1 §3.3.1) failed for a reason other than a
    /// refused key: OpenSSL could not derive, or returned a secret of the wrong length.
    package static let keyAgreementFailed = Self("crypto.keyAgreementFailed")
    /// A key derivation (HKDF, the single-step KDF) refused its parameters (an output length out
    /// of range) or OpenSSL could not run it.
    package static let keyDerivationFailed = Self("crypto.keyDerivationFailed")
}

/// Error factories for the elliptic-curve keys. Reasons never contain key bytes.
enum ECKeyError {
    /// A key that is not a P-256 key (another curve, another algorithm, explicit curve parameters).
    @inline(never)
    static func notP256(_ what: String) -> CSEError {
        ERR_clear_error()
        return CSEError(.keyUnsupportedType, "\(what) is not a P-256 (secp256r1) key with the named-curve OID")
    }

    /// A P-256 key whose encoding or point OpenSSL refuses (wrong length, not on the curve).
    @inline(never)
    static func malformed(_ what: String) -> CSEError {
        ERR_clear_error()
        return CSEError(.keyMalformed, "\(what) is not a valid P-256 key")
    }
}
