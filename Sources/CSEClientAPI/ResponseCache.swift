import CSECore

/// How long answers are kept and how many (WL-Android `CacheManager`: 30 minutes, 100 entries).
public struct CachePolicy: Hashable, Sendable {
    /// How long an answer is served from the cache.
    public var timeToLive: Duration
    /// The most answers kept per cache; when full, the oldest is dropped.
    public var capacity: Int

    /// Creates a policy. `capacity` 0 (or a non-positive TTL) disables caching.
    public init(timeToLive: Duration = .seconds(30 * 60), capacity: Int = 100) {
        self.timeToLive = timeToLive
        self.capacity = capacity
    }

    /// 30 minutes, 100 entries.
    public static let `default` = CachePolicy()
    /// No caching.
    public static let disabled = CachePolicy(timeToLive: .zero, capacity: 0)
}

/// A bounded, thread-safe TTL cache of good answers only: a failed call never writes to it, so a
/// later error never replaces (poisons) a cached answer. When full, the entry stored first is
/// dropped (WL-Android's "oldest evicted").
final class ResponseCache<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    private struct Entry {
        let value: Value
        let expires: Duration
        let sequence: UInt64
    }

    private struct State {
        var entries: [Key: Entry] = [:]
        var sequence: UInt64 = 0
    }

    private let state = ThreadLock(State())
    private let policy: CachePolicy
    /// The time source: a monotonic offset (injectable for tests).
    private let now: @Sendable () -> Duration

    init(policy: CachePolicy, now: @escaping @Sendable () -> Duration) {
        self.policy = policy
        self.now = now
    }

    private var enabled: Bool { policy.capacity > 0 && policy.timeToLive > .zero }

    /// The unexpired answer for `key`.
    func value(for key: Key) -> Value? {
        guard enabled else { return nil }
        let time = now()
        return state.withLock { state in
            guard let entry = state.entries[key] else { return nil }
            guard entry.expires > time else {
                state.entries[key] = nil
                return nil
            }
            return entry.value
        }
    }

    /// Stores a good answer.
    func store(_ value: Value, for key: Key) {
        guard enabled else { return }
        let expires = now() + policy.timeToLive
        state.withLock { state in
            state.sequence += 1
            state.entries[key] = Entry(value: value, expires: expires, sequence: state.sequence)
            while state.entries.count > policy.capacity {
                guard let oldest = state.entries.min(by: { $0.value.sequence < $1.value.sequence })?.key else { break }
                state.entries[oldest] = nil
            }
        }
    }

    /// Drops every entry.
    func removeAll() {
        state.withLock { $0.entries.removeAll() }
    }

    /// The number of entries (expired ones included until they are read).
    var count: Int { state.withLock { $0.entries.count } }
}

/// A monotonic clock offset for the caches.
enum MonotonicClock {
    private static let origin = ContinuousClock.now
    /// The time since the first call.
    static func now() -> Duration { ContinuousClock.now - origin }
}
