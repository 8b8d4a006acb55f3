import Synchronization

/// A value built the first time it is read, then shared: the per-key state of the engines that
/// not every caller uses (GMP, IFMA), so importing a key does not pay for them.
///
/// Thread-safe: keys are `Sendable` and shared across threads; the first readers race for the
/// lock, one of them builds the value, and every later read returns the same instance.
final class LazyEngineState<Value: Sendable>: Sendable {
    private let state = Mutex<Value?>(nil)
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
