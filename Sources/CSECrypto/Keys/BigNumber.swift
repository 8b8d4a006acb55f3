internal import CSECore
internal import COpenSSL

/// Owns one OpenSSL `BIGNUM`, cleared and freed in `deinit`. Immutable after construction.
final class BigNumber: @unchecked Sendable {
    let pointer: OpaquePointer

    /// Creates a `BIGNUM` from big-endian magnitude bytes (possibly secret: no copy is made).
    /// - Throws: ``CSEError/Code/keyOperationFailed`` on allocation failure.
    init(bigEndian bytes: ArraySlice<UInt8>) throws(CSEError) {
        let made = bytes.withUnsafeBufferPointer { buffer in
            BN_bin2bn(buffer.baseAddress, Int32(buffer.count), nil)
        }
        guard let made else { throw CSEError(.keyOperationFailed, "OpenSSL could not allocate a BIGNUM") }
        pointer = made
    }

    /// Creates a `BIGNUM` from big-endian magnitude bytes.
    convenience init(bigEndian bytes: [UInt8]) throws(CSEError) {
        try self.init(bigEndian: bytes[...])
    }

    /// A new `BIGNUM` holding zero, for results.
    convenience init() throws(CSEError) {
        try self.init(bigEndian: ArraySlice<UInt8>())
    }

    deinit { BN_clear_free(pointer) }
}

/// Owns one OpenSSL `BN_MONT_CTX` for a fixed odd modulus, created once at key import so each
/// public operation skips the setup. Immutable after construction; OpenSSL only reads it during
/// `BN_mod_mul_montgomery` and friends, so one context can serve many threads.
final class MontgomeryContext: @unchecked Sendable {
    let pointer: OpaquePointer

    /// - Parameter modulus: An odd modulus.
    /// - Throws: ``CSEError/Code/keyOperationFailed`` on allocation failure or an even modulus.
    init(modulus: BigNumber) throws(CSEError) {
        guard let mont = BN_MONT_CTX_new() else {
            throw CSEError(.keyOperationFailed, "OpenSSL could not allocate a Montgomery context")
        }
        let ctx = BN_CTX_new()
        defer { BN_CTX_free(ctx) }
        guard let ctx, BN_MONT_CTX_set(mont, modulus.pointer, ctx) == 1 else {
            BN_MONT_CTX_free(mont)
            ERR_clear_error()
            throw CSEError(.keyOperationFailed, "OpenSSL could not set up a Montgomery context")
        }
        pointer = mont
    }

    deinit { BN_MONT_CTX_free(pointer) }
}

/// Owns one OpenSSL `EVP_PKEY`, freed in `deinit`. Immutable after construction; OpenSSL keys may
/// be used from several threads at once when nobody modifies them.
final class EVPKey: @unchecked Sendable {
    let pointer: OpaquePointer

    /// Takes ownership of `pointer`.
    init(taking pointer: OpaquePointer) { self.pointer = pointer }

    deinit { EVP_PKEY_free(pointer) }
}
