#if canImport(Glibc)
internal import Glibc
#elseif canImport(Musl)
internal import Musl
#endif
internal import CSECore
internal import CCSEShims

/// A per-thread block of OpenSSL CSPRNG output that serves small draws (CEKs, IVs, OAEP seeds,
/// nonces) without one `RAND_bytes` call each.
///
/// A `RAND_bytes` call has a fixed cost (the thread's DRBG, its reseed and fork checks, and the
/// CTR-DRBG update after every request) of ≈ 0.7 µs for a JWE's 100 bytes, while the output itself
/// costs about a nanosecond a byte; one call per ``blockByteCount`` bytes serves about 40 JWEs.
///
/// Rules (docs/SECURITY.md, "Randomness"):
/// - **Only OpenSSL's CSPRNG.** The block is filled by `RAND_bytes`; no other source, no mixing.
/// - **Fails closed.** A failed refill cleanses the whole block, leaves it empty and throws; the
///   next draw tries `RAND_bytes` again.
/// - **Served bytes leave the block.** Bytes are copied out and their place in the block is
///   cleansed at once, so no byte is ever served twice and memory keeps only bytes not yet used.
/// - **Fork-safe.** The block remembers the process id it was filled in; a draw in another process
///   (a `fork` child) cleanses and refills it first, so parent and child never share output.
/// - **Per thread.** Threads never share a block; the block is cleansed and freed at thread exit.
final class RandomPool {
    /// The bytes one refill draws.
    static let blockByteCount = 4096
    /// Draws larger than this go straight to `RAND_bytes` (a pool would not save a call).
    static let largestPooledDraw = 512

    private let block: UnsafeMutableRawPointer
    /// Unused bytes are `block[offset..<blockByteCount]`; everything before `offset` is zero.
    private var offset: Int
    /// The process that filled the block.
    private var owner: pid_t
    private let processID: () -> pid_t

    /// - Parameter processID: The current process id (a parameter so tests can simulate a fork).
    init(processID: @escaping () -> pid_t = { getpid() }) {
        block = UnsafeMutableRawPointer.allocate(byteCount: Self.blockByteCount, alignment: 16)
        block.initializeMemory(as: UInt8.self, repeating: 0, count: Self.blockByteCount)
        offset = Self.blockByteCount
        owner = 0
        self.processID = processID
    }

    deinit {
        secureZero(UnsafeMutableRawBufferPointer(start: block, count: Self.blockByteCount))
        block.deallocate()
    }

    /// The calling thread's pool.
    static func current() -> RandomPool { randomPool.current }

    /// Fills `buffer` (at most ``largestPooledDraw`` bytes) with unused CSPRNG bytes.
    /// - Throws: ``CSEError/Code/randomFailure`` when a refill fails; `buffer` is then cleansed.
    func fill(_ buffer: UnsafeMutableRawBufferPointer) throws(CSEError) {
        let count = buffer.count
        let pid = processID()
        if pid != owner || Self.blockByteCount - offset < count {
            try refill(pid)
        }
        let source = block + offset
        buffer.baseAddress!.copyMemory(from: source, byteCount: count)
        secureZero(UnsafeMutableRawBufferPointer(start: source, count: count))
        offset += count
    }

    /// Cleanses the block and draws a new one for process `pid`.
    private func refill(_ pid: pid_t) throws(CSEError) {
        secureZero(UnsafeMutableRawBufferPointer(start: block, count: Self.blockByteCount))
        offset = Self.blockByteCount
        guard CCSEShims_RAND_bytes(block, Self.blockByteCount) == 1 else {
            secureZero(UnsafeMutableRawBufferPointer(start: block, count: Self.blockByteCount))
            throw CSEError(.randomFailure, "OpenSSL RAND_bytes failed; refusing to continue without a CSPRNG")
        }
        offset = 0
        owner = pid
    }

    /// The number of unused bytes in the block (tests only).
    var unusedByteCount: Int { Self.blockByteCount - offset }
}

/// Each thread's ``RandomPool``; releasing it at thread exit cleanses the block.
private let randomPool = PerThread { RandomPool() }
