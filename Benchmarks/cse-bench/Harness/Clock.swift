#if canImport(Glibc)
import Glibc
#endif

/// Monotonic nanoseconds.
@inline(__always)
func nowNanoseconds() -> UInt64 {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return UInt64(ts.tv_sec) * 1_000_000_000 + UInt64(ts.tv_nsec)
}

/// Keeps a value alive so the optimiser cannot delete the work that produced it
/// (package-benchmark's `blackHole`).
@_optimize(none)
func blackHole<T>(_ value: T) {}
