internal import CSECore

/// The clock every time check of `CSEWallets` reads: certificate validity, the Apple signing-time
/// window, Google key and message expiry, and the replay guard's memory.
///
/// No check reads the system clock directly. Inject ``fixed(unixMilliseconds:)`` to examine an old
/// token at its own time (every public test vector is years old), or keep ``system``.
public struct WalletClock: Sendable {
    private let read: @Sendable () -> Int64

    /// A clock that answers `now()` with milliseconds since the Unix epoch.
    public init(_ now: @escaping @Sendable () -> Int64) { self.read = now }

    /// Milliseconds since the Unix epoch (1970-01-01T00:00:00Z), as this clock reads them.
    public func unixMilliseconds() -> Int64 { read() }

    /// The system's real-time clock (`CLOCK_REALTIME`).
    public static let system = WalletClock { SystemClock.unixMilliseconds() }

    /// A clock stopped at `unixMilliseconds`.
    public static func fixed(unixMilliseconds: Int64) -> WalletClock { WalletClock { unixMilliseconds } }
}
