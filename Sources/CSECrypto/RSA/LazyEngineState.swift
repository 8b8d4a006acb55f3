internal import CSECore

/// A value built the first time it is read, then shared: the per-key state of the engines that
/// not every caller uses (GMP, IFMA), so importing a key does not pay for them.
///
/// Thread-safe: keys are `Sendable` and shared across threads; the first readers race for the
/// lock, one of them builds the value, and every later read returns the same instance. The lock is a
/// ``ThreadLock`` (a pthread mutex) so that ThreadSanitizer sees the hand-over of the built value: under
/// `Synchronization.Mutex` CI's TSan pass reported the GMP operation's reads as races.
final class LazyEngineState<Value: Sendable>: Sendable {
    private let state = ThreadLock<Value?>(nil)
    private let build: @Sendable () -> Value

    /// `build` runs at most once, under the lock.
    init(_ build: @escaping @Sendable () -> Value) {
        self.build = build
    }

    /// The value, built on the first call.
    var value: Value {
        state.withLock { stored in
            if let stored { return stored }
            let built = build()
            stored = built
            return built
        }
    }
}
