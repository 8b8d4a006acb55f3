#if canImport(Glibc)
import Glibc
#endif
import CSECore
@testable import CSECrypto
import Testing

/// The per-thread CSPRNG block behind ``SecureRandom`` (docs/SECURITY.md, "Randomness").
@Suite("RandomPool")
struct RandomPoolTests {
    private func draw(_ pool: RandomPool, _ count: Int) throws -> [UInt8] {
        var out = [UInt8](repeating: 0, count: count)
        try out.withUnsafeMutableBytes { buffer in try pool.fill(buffer) }
        return out
    }

    @Test("a draw takes bytes out of the block: many blocks' worth of draws are all distinct")
    func drawsNeverRepeat() throws {
        let pool = RandomPool()
        var seen = Set<[UInt8]>()
        // 100-byte draws (a JWE's CEK, IV and OAEP seed) across 25 refills.
        for _ in 0..<1_000 {
            let bytes = try draw(pool, 100)
            #expect(seen.insert(bytes).inserted, "a 100-byte draw repeated")
            #expect(bytes.contains { $0 != 0 })
        }
        #expect(seen.count == 1_000)
    }

    @Test("the unused part of the block shrinks by each draw, and a draw that does not fit refills")
    func accounting() throws {
        let pool = RandomPool()
        #expect(pool.unusedByteCount == 0, "a new pool holds no bytes")
        _ = try draw(pool, 16)
        #expect(pool.unusedByteCount == RandomPool.blockByteCount - 16)
        _ = try draw(pool, RandomPool.blockByteCount - 20)
        #expect(pool.unusedByteCount == 4)
        _ = try draw(pool, 16)
        #expect(pool.unusedByteCount == RandomPool.blockByteCount - 16, "the 4 leftover bytes were discarded")
    }

    @Test("a changed process id (a fork child) discards the inherited block before serving")
    func forkDiscardsTheBlock() throws {
        // The pid is read through a box the test changes, as fork() changes getpid().
        let process = FakeProcess()
        let pool = RandomPool(processID: { process.id })
        _ = try draw(pool, 100)
        #expect(pool.unusedByteCount == RandomPool.blockByteCount - 100)
        process.id = 1001
        _ = try draw(pool, 100)
        #expect(pool.unusedByteCount == RandomPool.blockByteCount - 100, "the child refilled instead of using the parent's bytes")
        _ = try draw(pool, 100)
        #expect(pool.unusedByteCount == RandomPool.blockByteCount - 200, "same process: served from the block")
    }

    @Test("a real fork: parent and child draw different bytes after the fork")
    func realFork() throws {
        // The pool of this thread now holds bytes the child inherits.
        _ = try SecureRandom.bytes(16)
        let ends = UnsafeMutablePointer<Int32>.allocate(capacity: 2)
        defer { ends.deallocate() }
        try #require(pipe(ends) == 0)
        let childBytes = UnsafeMutableRawBufferPointer.allocate(byteCount: 32, alignment: 8)
        defer { childBytes.deallocate() }
        childBytes.initializeMemory(as: UInt8.self, repeating: 0)
        let child = fork()
        if child == 0 { Self.drawInChild(into: childBytes, writingTo: ends[1]) }
        close(ends[1])
        let parentBytes = try SecureRandom.bytes(32)
        // Bounded wait: 10 s for the child's answer, then it is killed and the test fails.
        var poller = pollfd(fd: ends[0], events: Int16(POLLIN), revents: 0)
        let ready = poll(&poller, 1, 10_000)
        var count = -1
        if ready == 1 { count = read(ends[0], childBytes.baseAddress, 32) } else { kill(child, SIGKILL) }
        close(ends[0])
        var status: Int32 = 0
        _ = waitpid(child, &status, 0)
        #expect(child > 0)
        #expect(count == 32, "the child drew its bytes")
        #expect(Array(childBytes) != parentBytes, "parent and child must not share pooled bytes")
    }

    /// The fork child: one draw, write(2), _exit(2); the buffer was allocated before the fork.
    private static func drawInChild(into buffer: UnsafeMutableRawBufferPointer, writingTo fd: Int32) -> Never {
        let ok = (try? SecureRandom.fill(buffer)) != nil
        _ = write(fd, buffer.baseAddress, ok ? 32 : 0)
        _exit(ok ? 0 : 1)
    }

    @Test("draws over the pooled size go straight to RAND_bytes")
    func largeDrawsBypass() throws {
        let bytes = try SecureRandom.bytes(RandomPool.largestPooledDraw + 1)
        #expect(bytes.count == RandomPool.largestPooledDraw + 1)
        #expect(bytes.contains { $0 != 0 })
    }
}

/// A process id the test can change, as fork() changes getpid().
private final class FakeProcess: @unchecked Sendable {
    var id: pid_t = 1000
}
