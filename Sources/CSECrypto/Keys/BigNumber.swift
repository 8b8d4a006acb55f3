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

    /// What a pooled context of this key is set up for.
    enum ContextPurpose: Equatable {
        /// RSA-OAEP decryption with this digest for OAEP and MGF1.
        case oaepDecrypt(digest: OpaquePointer)
        /// Key agreement (`EVP_PKEY_derive_init` done; each use sets its own peer).
        case derive
        /// Signature verification of a digest (`EVP_PKEY_verify_init` done).
        case verify
    }

    /// Configured contexts of this key, reused across calls: each is taken out under the lock,
    /// used by one thread, and put back. They hold a reference to the key, so they live and die
    /// with this object (no key material outlives its owner in a cache). Guarded by CSEKit's one
    /// lock type, `ThreadLock` (a pthread mutex, which ThreadSanitizer understands). Each context
    /// is only ever used by the one thread that took it out.
    ///
    /// Making a context costs a provider fetch and its set-up on every call otherwise: ≈ 30,000
    /// instructions for a P-256 derivation or verification (Benchmarks/README.md, round three).
    private let pool = ThreadLock<[(purpose: ContextPurpose, context: OpaquePointer)]>([])

    /// The most contexts kept per key (one per thread of a busy batch is plenty).
    private static let pooledContextLimit = 16

    /// Takes ownership of `pointer`.
    init(taking pointer: OpaquePointer) { self.pointer = pointer }

    /// A context of this key set up for `purpose`, from the pool or new; `nil` if OpenSSL cannot
    /// make one. Give it back with ``returnContext(_:for:)``.
    func takeContext(for purpose: ContextPurpose) -> OpaquePointer? {
        let pooled = pool.withLock { pool in
            pool.firstIndex(where: { $0.purpose == purpose }).map { pool.remove(at: $0).context }
        }
        if let pooled { return pooled }
        guard let ctx = EVP_PKEY_CTX_new_from_pkey(nil, pointer, nil) else { return nil }
        let ready: Bool
        switch purpose {
        case .oaepDecrypt(let digest):
            ready =
                EVP_PKEY_decrypt_init(ctx) == 1
                && EVP_PKEY_CTX_set_rsa_padding(ctx, RSA_PKCS1_OAEP_PADDING) == 1
                && EVP_PKEY_CTX_set_rsa_oaep_md(ctx, digest) == 1
                && EVP_PKEY_CTX_set_rsa_mgf1_md(ctx, digest) == 1
        case .derive:
            ready = EVP_PKEY_derive_init(ctx) == 1
        case .verify:
            ready = EVP_PKEY_verify_init(ctx) == 1
        }
        guard ready else {
            EVP_PKEY_CTX_free(ctx)
            return nil
        }
        return ctx
    }

    /// Returns a context taken with ``takeContext(for:)``. A failed OpenSSL call leaves a
    /// context's set-up unchanged (the caller clears OpenSSL's error queue), so contexts come back
    /// after a failed use too: freeing only failed OAEP contexts made the call after a bad OAEP
    /// padding measurably slower (issue #13 F08).
    func returnContext(_ context: OpaquePointer, for purpose: ContextPurpose) {
        let kept = pool.withLock { pool in
            guard pool.count < Self.pooledContextLimit else { return false }
            pool.append((purpose, context))
            return true
        }
        if !kept { EVP_PKEY_CTX_free(context) }
    }

    /// The number of OAEP decryption contexts in the pool (tests only).
    var pooledOAEPContextCount: Int {
        pool.withLock { pool in
            pool.count { if case .oaepDecrypt = $0.purpose { true } else { false } }
        }
    }

    deinit {
        pool.withLock { pool in
            for entry in pool { EVP_PKEY_CTX_free(entry.context) }
        }
        EVP_PKEY_free(pointer)
    }
}
