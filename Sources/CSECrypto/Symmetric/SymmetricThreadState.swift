internal import CSECore
internal import COpenSSL

/// The reusable OpenSSL contexts of one thread.
///
/// OpenSSL contexts are not thread-safe, and creating one per call costs an allocation and a provider
/// context set-up (perf-notes.md: AES-256-CBC with a reused context ≈ 0.9 µs for a 292-byte payload).
/// So each thread owns one instance, kept by ``PerThread`` and freed when the thread exits.
/// The symmetric functions are synchronous and never call user code while they hold a context, so a
/// context is never used re-entrantly; `async` callers are safe because a task only changes threads
/// at a suspension point.
final class SymmetricThreadState {
    /// A cipher context slot: one per AES mode, key size and direction, so that a context is always
    /// re-initialised with the cipher it was set up for (OpenSSL then keeps its provider context).
    enum CipherSlot: Int, CaseIterable {
        case cbc128Encrypt, cbc192Encrypt, cbc256Encrypt
        case cbc128Decrypt, cbc192Decrypt, cbc256Decrypt
        case gcm128Encrypt, gcm192Encrypt, gcm256Encrypt
        case gcm128Decrypt, gcm192Decrypt, gcm256Decrypt
    }

    /// Byte size of ``zeroKey``: the longest AES key.
    private static let zeroKeyByteCount = 32

    private var cipherContexts: [OpaquePointer?]
    /// 32 zero bytes that nothing writes, the key that ``scrub(_:encrypt:)`` installs.
    private let zeroKey: UnsafeMutablePointer<UInt8>

    fileprivate init() {
        cipherContexts = Array(repeating: nil, count: CipherSlot.allCases.count)
        zeroKey = UnsafeMutablePointer<UInt8>.allocate(capacity: Self.zeroKeyByteCount)
        zeroKey.initialize(repeating: 0, count: Self.zeroKeyByteCount)
    }

    deinit {
        for context in cipherContexts where context != nil { EVP_CIPHER_CTX_free(context) }
        zeroKey.deallocate()
    }

    /// The calling thread's state, created on first use.
    static func current() -> SymmetricThreadState { symmetricThreadState.current }

    /// The cipher context for `slot`. On first use it is bound to `cipher` with OpenSSL's padding
    /// off (CBC pads itself); later calls re-initialise it with a `NULL` cipher, which keeps the
    /// provider context, so callers pass only key and IV.
    func cipherContext(
        _ slot: CipherSlot, cipher: FetchedAlgorithm, encrypt: Bool
    ) throws(CSEError) -> OpaquePointer {
        if let context = cipherContexts[slot.rawValue] { return context }
        let evpCipher = try cipher.get()
        guard let context = EVP_CIPHER_CTX_new() else { throw SymmetricError.backend("EVP_CIPHER_CTX_new") }
        guard EVP_CipherInit_ex2(context, evpCipher, nil, nil, encrypt ? 1 : 0, nil) == 1,
            EVP_CIPHER_CTX_set_padding(context, 0) == 1
        else {
            EVP_CIPHER_CTX_free(context)
            throw SymmetricError.backend("EVP_CipherInit_ex2 \(cipher.name)")
        }
        cipherContexts[slot.rawValue] = context
        return context
    }

    /// Overwrites the key schedule a cipher context keeps after an operation by re-keying it with
    /// zeros. A GCM re-key also clears the GHASH and keystream state (`CRYPTO_gcm128_init` zeroes its
    /// context). CBC contexts never hold plaintext: they run without OpenSSL padding on whole blocks,
    /// so nothing is buffered (``AES/CBC`` pads in the output buffer and encrypts in place).
    ///
    /// Measured cost on a reused context (release build, shared 2-core EPYC): ≈ 0.1 µs for
    /// AES-256-CBC and ≈ 0.2 µs for AES-256-GCM, against ≈ 2.1 µs for a whole A256CBC-HS512 seal of
    /// 292 bytes: a price worth paying for not leaving a CEK's key schedule in memory.
    func scrub(_ context: OpaquePointer, encrypt: Bool) {
        if EVP_CipherInit_ex2(context, nil, zeroKey, nil, encrypt ? 1 : 0, nil) != 1 { ERR_clear_error() }
    }
}

/// Each thread's ``SymmetricThreadState``; releasing it at thread exit frees the contexts and
/// cleanses the scratch memory.
private let symmetricThreadState = PerThread { SymmetricThreadState() }
