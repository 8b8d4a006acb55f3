public import CSECore
internal import COpenSSL

/// The randomness of the retry backoff's jitter: 64 bits from OpenSSL's CSPRNG, `RAND_bytes`
/// called through the COpenSSL system target (CSEHTTP already links libcrypto for the transport's
/// TLS hook), so the transport needs nothing of CSECrypto (issue #31, point 2). It fails closed:
/// a `RAND_bytes` failure is ``CSEError/Code/randomFailure``, never a weaker source.
enum RetryJitter {
    /// 64 random bits.
    /// - Throws: ``CSEError/Code/randomFailure`` when OpenSSL reports a failure.
    static func random64() throws(CSEError) -> UInt64 {
        var bytes: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) = (0, 0, 0, 0, 0, 0, 0, 0)
        let status = withUnsafeMutableBytes(of: &bytes) { buffer in
            RAND_bytes(buffer.baseAddress!.assumingMemoryBound(to: UInt8.self), Int32(buffer.count))
        }
        guard status == 1 else {
            throw CSEError(.randomFailure, "OpenSSL RAND_bytes failed; refusing to continue without a CSPRNG")
        }
        return withUnsafeBytes(of: &bytes) { $0.reduce(UInt64(0)) { $0 << 8 | UInt64($1) } }
    }
}
