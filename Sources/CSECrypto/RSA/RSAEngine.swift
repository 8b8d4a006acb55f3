public import CSECore

extension CSEError.Code {
    /// An RSA public operation failed inside OpenSSL or GMP (allocation failure), or its input was
    /// not smaller than the modulus.
    public static let rsaOperationFailed = Self("rsa.operationFailed")
}

/// Which implementation computes the RSA public operation `c = m^e mod n` (RFC 8017 §5.1.1 RSAEP).
///
/// CSEKit carries two independent implementations so each checks the other:
/// - ``openSSL``: OpenSSL `BIGNUM` Montgomery arithmetic with the key's cached `BN_MONT_CTX`; for
///   e = 65537 a hand-written chain of 16 Montgomery squarings and one multiplication.
/// - ``gmp``: GMP `mpz_powm` over the key's modulus and exponent.
///
/// An open struct, not an enum, so engines can be added without a breaking change.
public struct RSAEngine: Hashable, Sendable, CustomStringConvertible {
    enum Backing: Hashable, Sendable { case openSSL, gmp }

    let backing: Backing

    /// OpenSSL Montgomery arithmetic with a per-key cached context (the faster one here).
    public static let openSSL = RSAEngine(backing: .openSSL)
    /// GMP `mpz_powm`.
    public static let gmp = RSAEngine(backing: .gmp)
    /// The engine used when none is named: currently ``openSSL`` (see Benchmarks for the numbers).
    public static let `default` = openSSL

    /// `openSSL` or `gmp`.
    public var description: String {
        switch backing {
        case .openSSL: "openSSL"
        case .gmp: "gmp"
        }
    }
}

/// The public-operation state an engine keeps per key, built once at key import.
protocol RSAPublicOperation: Sendable {
    /// Computes `input^e mod n` into `output`. Both buffers hold exactly k bytes (the modulus
    /// length); `input` is big-endian and must be less than n; `output` is left-padded with zeros.
    func apply(_ input: UnsafeRawBufferPointer, into output: UnsafeMutableRawBufferPointer) throws(CSEError)
}
