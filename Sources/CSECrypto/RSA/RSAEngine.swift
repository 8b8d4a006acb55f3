public import CSECore

extension CSEError.Code {
    /// An RSA public operation failed inside OpenSSL or GMP (allocation failure), or its input was
    /// not smaller than the modulus.
    public static let rsaOperationFailed = Self("rsa.operationFailed")
}

/// Which implementation computes the RSA public operation `c = m^e mod n` (RFC 8017 §5.1.1 RSAEP).
///
/// CSEKit carries three independent implementations so each checks the others:
/// - ``openSSL``: OpenSSL `BIGNUM` Montgomery arithmetic with the key's cached `BN_MONT_CTX`; for
///   e = 65537 a hand-written chain of 16 Montgomery squarings and one multiplication.
/// - ``gmp``: GMP `mpz_powm` over the key's modulus and exponent.
/// - ``ifma``: CSEKit's own AVX-512 IFMA Montgomery kernel for e = 65537 (52-bit digits in zmm
///   registers); for keys or CPUs it does not cover, the ``openSSL`` operation.
///
/// An open struct, not an enum, so engines can be added without a breaking change.
@usableFromInline
package struct RSAEngine: Hashable, Sendable, CustomStringConvertible {
    enum Backing: Hashable, Sendable { case openSSL, gmp, ifma }

    let backing: Backing

    /// OpenSSL Montgomery arithmetic with a per-key cached context (the faster one here).
    @usableFromInline
    package static let openSSL = RSAEngine(backing: .openSSL)
    /// GMP `mpz_powm`.
    @usableFromInline
    package static let gmp = RSAEngine(backing: .gmp)
    /// The AVX-512 IFMA kernel where ``isIFMAAvailable`` and the key qualify
    /// (`RSAPublicKey/hasIFMAKernel`), otherwise exactly ``openSSL``.
    @usableFromInline
    package static let ifma = RSAEngine(backing: .ifma)
    /// Whether this CPU (and OS) supports AVX-512F and AVX-512 IFMA.
    @usableFromInline
    package static var isIFMAAvailable: Bool { IFMAPublicOperation.isAvailable }
    /// The engine used when none is named: ``ifma`` on CPUs with AVX-512 IFMA, else ``openSSL``,
    /// the faster of the others (Benchmarks/README.md has the numbers).
    @usableFromInline
    package static let `default` = isIFMAAvailable ? ifma : openSSL

    /// `openSSL`, `gmp` or `ifma`.
    @usableFromInline
    package var description: String {
        switch backing {
        case .openSSL: "openSSL"
        case .gmp: "gmp"
        case .ifma: "ifma"
        }
    }
}

/// The public-operation state an engine keeps per key, built once (at key import for OpenSSL, on
/// first use for GMP and IFMA).
protocol RSAPublicOperation: Sendable {
    /// Computes `input^e mod n` into `output`. Both buffers hold exactly k bytes (the modulus
    /// length); `input` is big-endian and must be less than n; `output` is left-padded with zeros.
    func apply(_ input: UnsafeRawBufferPointer, into output: UnsafeMutableRawBufferPointer) throws(CSEError)
}
