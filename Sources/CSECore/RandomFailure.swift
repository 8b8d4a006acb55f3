extension CSEError.Code {
    /// OpenSSL's CSPRNG could not produce bytes. The operation fails; there is no fallback.
    ///
    /// Declared in the core because two layers draw from `RAND_bytes` and fail with it: CSECrypto
    /// (`SecureRandom`: keys, IVs, nonces) and CSEHTTP (the retry jitter), which does not depend
    /// on CSECrypto.
    public static let randomFailure = Self("crypto.randomFailure")
}
