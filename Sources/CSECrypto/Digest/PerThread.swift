#if canImport(Glibc)
internal import Glibc
#elseif canImport(Musl)
internal import Musl
#endif

/// One lazily created value per thread, kept in POSIX thread-specific storage and released when the
/// thread exits.
///
/// OpenSSL contexts (`EVP_MD_CTX`, `BN_CTX`) and GMP scratch integers are not thread-safe but are
/// expensive to create, so hot paths keep one set per thread instead of a shared mutable one.
///
/// - Important: A value must not be used re-entrantly. Each user takes ``current`` at the start of
///   one self-contained operation and does not call another user of the same value while holding it.
final class PerThread<Value: AnyObject>: Sendable {
    private let key: pthread_key_t?
    private let make: @Sendable () -> Value

    /// - Parameter make: Creates the value for a thread on first use.
    init(_ make: @escaping @Sendable () -> Value) {
        var key = pthread_key_t()
        let status = pthread_key_create(&key) { raw in
            guard let raw else { return }
            Unmanaged<AnyObject>.fromOpaque(raw).release()
        }
        // If the process ran out of keys (PTHREAD_KEYS_MAX) we stay correct, only slower: every
        // access then creates a fresh value.
        self.key = status == 0 ? key : nil
        self.make = make
    }

    /// The calling thread's value, created on first use.
    var current: Value {
        guard let key else { return make() }
        if let raw = pthread_getspecific(key) {
            return Unmanaged<Value>.fromOpaque(raw).takeUnretainedValue()
        }
        let value = make()
        let raw = Unmanaged.passRetained(value as AnyObject).toOpaque()
        if pthread_setspecific(key, raw) != 0 {
            Unmanaged<AnyObject>.fromOpaque(raw).release()
        }
        return value
    }
}
