#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A value guarded by a `pthread_mutex_t`: CSEKit's one lock type for state shared between
/// threads or tasks (issue #23, point 5).
///
/// `Synchronization.Mutex` would do, but on Linux it locks with futex system calls that
/// ThreadSanitizer cannot see, so state handed between two threads under it is reported as a race
/// (CI's ThreadSanitizer pass found this in `SharedFetch`); a pthread mutex is intercepted. The
/// mutex is allocated once and never moves, so its address stays stable.
package final class ThreadLock<Value>: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private var value: Value

    /// A lock guarding `value`.
    package init(_ value: Value) {
        self.value = value
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    /// Runs `body` with the value, holding the lock; what `body` throws is rethrown, typed.
    package func withLock<Result, Failure: Error>(_ body: (inout Value) throws(Failure) -> Result) throws(Failure) -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&value)
    }
}
