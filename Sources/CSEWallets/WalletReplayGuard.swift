internal import CSECore

/// Remembers the ids of accepted tokens (Apple `transactionId`, Google `messageId`) so that a
/// second sighting within the acceptance window is refused with `wallet.replayed`.
///
/// Implementations must be safe to call from several threads at once.
public protocol WalletReplayGuard: Sendable {
    /// Records `id` until `expiry` (milliseconds since the epoch) and returns `true`, or returns
    /// `false` when `id` is already recorded and has not expired at `now`.
    func recordFirstSighting(of id: String, until expiry: Int64, now: Int64) -> Bool
}

/// The default ``WalletReplayGuard``: an in-memory set of at most ``capacity`` ids, each kept
/// until its expiry (the end of the token's acceptance window, after which the token is refused
/// as stale anyway).
///
/// When the set is full of unexpired ids, the id with the earliest expiry is forgotten to make
/// room, so memory stays bounded (`capacity` entries); size the capacity above the number of
/// tokens accepted per window. Use a shared store (a database) when several processes accept
/// tokens.
public final class InMemoryWalletReplayGuard: WalletReplayGuard, @unchecked Sendable {
    /// The most ids remembered at once.
    public let capacity: Int
    /// The remembered ids and their expiries, under CSEKit's one lock type.
    private let expiries = ThreadLock<[String: Int64]>([:])

    /// A guard remembering at most `capacity` ids (at least 1; 65,536 by default).
    public init(capacity: Int = 65_536) {
        self.capacity = max(1, capacity)
    }

    public func recordFirstSighting(of id: String, until expiry: Int64, now: Int64) -> Bool {
        expiries.withLock { expiries in
            if let known = expiries[id], known >= now { return false }
            if expiries.count >= capacity {
                expiries = expiries.filter { $0.value >= now }
                if expiries.count >= capacity, let earliest = expiries.min(by: { $0.value < $1.value }) {
                    expiries[earliest.key] = nil
                }
            }
            expiries[id] = expiry
            return true
        }
    }

    /// The number of ids currently remembered (expired ones included until they are swept).
    public var count: Int {
        expiries.withLock { $0.count }
    }
}
