internal import CSECore

/// The storage both wallet verification caches share (the Apple Pay chain cache,
/// ``VerifiedChainCache``, and the Google Pay intermediate-key cache,
/// ``VerifiedIntermediateKeyCache``): what a verification proved, by exactly what it read, at most
/// `capacity` entries, the oldest going first when full, and every entry whose proof has ended
/// dropped before a new one is stored. Thread-safe; counts hits and misses for tests and
/// benchmarks.
final class BoundedVerificationCache<Key: Hashable & Sendable, Entry: Sendable>: Sendable {
    private struct State {
        var entries: [Key: Entry] = [:]
        /// Keys, oldest first.
        var order: [Key] = []
        var hits = 0
        var misses = 0
    }

    private let capacity: Int
    /// Whether an entry's proof has ended at a time (it can serve no later token).
    private let hasEnded: @Sendable (Entry, Int64) -> Bool
    private let state = ThreadLock(State())

    /// A cache of at most `capacity` entries; `hasEnded(entry, now)` says when one may go.
    init(capacity: Int, hasEnded: @escaping @Sendable (Entry, Int64) -> Bool) {
        self.capacity = capacity
        self.hasEnded = hasEnded
    }

    /// The entry of the first of `keys` remembered, or `nil` (one miss).
    func entry(forFirstOf keys: some Sequence<Key>) -> Entry? {
        state.withLock { state in
            for key in keys {
                if let found = state.entries[key] {
                    state.hits += 1
                    return found
                }
            }
            state.misses += 1
            return nil
        }
    }

    /// Remembers `entry` under `key` (a key already present keeps its entry), first dropping every
    /// entry ended at `now` and, when full, the oldest.
    func store(_ entry: Entry, for key: Key, now: Int64) {
        state.withLock { state in
            guard state.entries[key] == nil else { return }
            let ended = state.entries.filter { hasEnded($0.value, now) }.map(\.key)
            if !ended.isEmpty {
                for old in ended { state.entries[old] = nil }
                state.order.removeAll { state.entries[$0] == nil }
            }
            if state.order.count >= capacity {
                state.entries[state.order.removeFirst()] = nil
            }
            state.entries[key] = entry
            state.order.append(key)
        }
    }

    /// Changes every entry (tests of the checks a hit still makes).
    func updateEveryEntry(_ change: (inout Entry) -> Void) {
        state.withLock { state in
            for key in state.entries.keys { change(&state.entries[key]!) }
        }
    }

    /// The number of entries, and the hits and misses so far.
    var statistics: (count: Int, hits: Int, misses: Int) {
        state.withLock { ($0.entries.count, $0.hits, $0.misses) }
    }

    /// Forgets every entry.
    func removeAll() {
        state.withLock { state in
            state.entries = [:]
            state.order = []
        }
    }
}
