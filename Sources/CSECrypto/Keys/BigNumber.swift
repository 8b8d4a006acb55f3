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
    /// Configured RSA-OAEP decryption contexts for this key, reused across calls: each is taken
    /// out under the lock, used by one thread, and put back. They hold a reference to the key, so
    /// they live and die with this object (no key material outlives its owner in a cache).
    /// Guarded by CSEKit's one lock type, `ThreadLock` (a pthread mutex, which ThreadSanitizer
    /// understands). Each context is only ever used by the one thread that took it out.
    private let pool = ThreadLock<[(digest: OpaquePointer, context: OpaquePointer)]>([])

    /// Takes ownership of `pointer`.
    init(taking pointer: OpaquePointer) { self.pointer = pointer }

    /// A decryption context configured for OAEP with `digest` (padding and both hashes set), from
    /// the pool or new; `nil` if OpenSSL cannot make one.
    func takeOAEPDecryptContext(digest: OpaquePointer) -> OpaquePointer? {
        let pooled = pool.withLock { pool in
            pool.firstIndex(where: { $0.digest == digest }).map { pool.remove(at: $0).context }
        }
        if let pooled { return pooled }
        guard let ctx = EVP_PKEY_CTX_new_from_pkey(nil, pointer, nil) else { return nil }
        guard EVP_PKEY_decrypt_init(ctx) == 1,
            EVP_PKEY_CTX_set_rsa_padding(ctx, RSA_PKCS1_OAEP_PADDING) == 1,
            EVP_PKEY_CTX_set_rsa_oaep_md(ctx, digest) == 1,
            EVP_PKEY_CTX_set_rsa_mgf1_md(ctx, digest) == 1
        else {
            EVP_PKEY_CTX_free(ctx)
            return nil
        }
        return ctx
    }

    /// Returns a context taken with ``takeOAEPDecryptContext(digest:)``, after a successful use
    /// and after a failed one alike: a failed `EVP_PKEY_decrypt` leaves the context's settings
    /// unchanged (the caller clears OpenSSL's error queue), and freeing only failed contexts made
    /// the call after a bad OAEP padding measurably slower (issue #13 F08).
    func returnOAEPDecryptContext(_ context: OpaquePointer, digest: OpaquePointer) {
        let kept = pool.withLock { pool in
            guard pool.count < 16 else { return false }
            pool.append((digest, context))
            return true
        }
        if !kept { EVP_PKEY_CTX_free(context) }
    }

    /// The number of contexts in the pool (tests only).
    var pooledOAEPContextCount: Int {
        pool.withLock { $0.count }
    }

    deinit {
        pool.withLock { pool in
            for entry in pool { EVP_PKEY_CTX_free(entry.context) }
        }
        EVP_PKEY_free(pointer)
    }
}
