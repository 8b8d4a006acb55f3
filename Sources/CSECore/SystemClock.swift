#if canImport(Glibc)
internal import Glibc
#elseif canImport(Musl)
internal import Musl
#endif

/// The system's real-time clock (`CLOCK_REALTIME`, POSIX `clock_gettime`): the one place the
/// package reads the wall clock. Everything that decides by the time takes its reading through a
/// clock it can be given instead (`WalletClock`, `ValidationContext`, the HTTP client's
/// environment); their defaults come here.
package enum SystemClock {
    /// Milliseconds since the Unix epoch (1970-01-01T00:00:00Z).
    package static func unixMilliseconds() -> Int64 {
        var time = timespec()
        clock_gettime(CLOCK_REALTIME, &time)
        return Int64(time.tv_sec) * 1000 + Int64(time.tv_nsec) / 1_000_000
    }

    /// Whole seconds since the Unix epoch.
    package static func unixSeconds() -> Int64 {
        var time = timespec()
        clock_gettime(CLOCK_REALTIME, &time)
        return Int64(time.tv_sec)
    }
}
