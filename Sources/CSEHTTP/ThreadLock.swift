#if canImport(Glibc)
internal import Glibc
#elseif canImport(Musl)
internal import Musl
#endif

/// A value guarded by a `pthread_mutex_t`, for state shared with the transfer threads.
///
/// `Synchronization.Mutex` would do, but on Linux it locks with futex system calls that
/// ThreadSanitizer cannot see, so state handed between two POSIX threads under it is reported as
/// a race; a pthread mutex is intercepted (as in `cse`'s batch runner).
final class ThreadLock<Value>: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private var value: Value

    init(_ value: Value) {
        self.value = value
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    /// Runs `body` with the value, holding the lock.
    func withLock<Result>(_ body: (inout Value) -> Result) -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return body(&value)
    }
}
