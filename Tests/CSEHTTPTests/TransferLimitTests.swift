@_spi(CustomTransport) @testable import CSEHTTP
import CSECore
import Foundation
import Testing
import TestSupport

/// The transport runs at most `CurlTransport.maximumConcurrentTransfers` attempts at once in the
/// process; the others wait their turn (they do not fail), each wait counted against its timeout.
@Suite("CurlTransport: a bounded number of transfers in flight, the rest wait", .tags(.concurrency))
struct TransferLimitTests {
    /// The transfer threads of this process now (named `cse-http`), from /proc/self/task.
    private static func transferThreadCount() -> Int {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []
        return tasks.count { task in
            let name = (try? String(contentsOfFile: "/proc/self/task/\(task)/comm", encoding: .utf8)) ?? ""
            return name.trimmingCharacters(in: .whitespacesAndNewlines) == DedicatedThread.name
        }
    }

    /// A client over a transport with its own gate of the default size, so that filling it does
    /// not hold up the other suites running in parallel (they share the process-wide gate).
    private static func client(gate: TransferGate) throws(CSEError) -> HTTPClient {
        var configuration = HTTPClientConfiguration()
        configuration.requestTimeout = .seconds(60)
        configuration.deadline = .seconds(600)
        configuration.maxRetries = 0
        return try HTTPClient(configuration: configuration, transport: try CurlTransport(gate: gate))
    }

    @Test("every default transport shares one process-wide gate of 32 transfer threads")
    func oneGatePerProcess() throws {
        #expect(CurlTransport.maximumConcurrentTransfers == 32)
        #expect(try CurlTransport().gate === CurlTransport.sharedGate)
        #expect(try CurlTransport(trust: .system).gate === (try CurlTransport()).gate)
        #expect(CurlTransport.sharedGate.limit == 32)
    }

    @Test("200 concurrent calls all succeed with at most 32 in service at the server at once and no thread per call")
    func concurrentCallsAreBounded() async throws {
        let calls = 200
        let limit = CurlTransport.maximumConcurrentTransfers
        let gate = TransferGate(limit: limit)
        try await withEmulator { (server) async throws in
            try server.enqueue(LoopbackEmulator.Fault.delay(milliseconds: 150).times(calls))
            let client = try Self.client(gate: gate)
            let baseline = Self.transferThreadCount()
            // Sampled every 2 ms from a POSIX thread of its own (a task could be starved by the
            // concurrency pool while other suites run).
            let sampler = ThreadCountSampler(count: Self.transferThreadCount)
            let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
                for index in 0..<calls {
                    group.addTask {
                        try await client.send(HTTPRequest(method: .get, url: try HTTPURL(server.baseURL + "/echo/\(index)"))).status
                    }
                }
                return try await group.reduce(into: [Int]()) { $0.append($1) }
            }
            let peakThreads = sampler.stop()
            #expect(statuses == Array(repeating: 200, count: calls))
            #expect(try server.requests().count == calls)
            let peakRequests = try server.peakRequestsInService()
            #expect(peakRequests >= 1 && peakRequests <= limit, "peak requests in service \(peakRequests)")
            // One transfer thread per slot here, plus at most as many for the suites running in
            // parallel (the shared gate) and a few that gave their slot back and are exiting: far
            // below one per call (the old transport ran 200 at once).
            #expect(peakThreads >= 1)
            #expect(peakThreads - baseline <= 2 * limit + 8, "transfer threads: baseline \(baseline), peak \(peakThreads)")
            // At most `limit` at once; whether all 32 slots fill at the same instant depends on how
            // fast the pool starts the tasks (under ThreadSanitizer it peaked at 29), so only the
            // bound and real concurrency are asserted here; `fifoOnFinishingThread` shows the queueing.
            #expect(gate.peakRunning <= limit && gate.peakRunning > 1, "peak running \(gate.peakRunning)")
        }
    }

    /// Submits a job that records its index when it runs, then blocks its thread on `latch`.
    private static func submit(_ gate: TransferGate, _ index: Int, _ log: JobLog, _ latch: ThreadLatch) throws(CSEError) -> (UInt64, Bool) {
        let id = gate.makeID()
        let queued = try gate.submit(
            TransferGate.Job(
                id: id,
                run: {
                    log.append("run \(index)")
                    latch.wait()
                }, withdrawn: { reason in log.append("\(reason) \(index)") }))
        return (id, queued)
    }

    @Test("a full gate queues jobs, and a finishing thread runs the oldest waiting job itself")
    func fifoOnFinishingThread() async throws {
        let gate = TransferGate(limit: 1)
        let log = JobLog(), latch = ThreadLatch()
        #expect(try Self.submit(gate, 0, log, latch).1 == false)
        for index in 1...3 { #expect(try Self.submit(gate, index, log, latch).1 == true) }
        #expect(gate.waitingCount == 3)
        latch.open()
        for _ in 0..<5000 where log.all.count < 4 { try await Task.sleep(for: .milliseconds(1)) }
        #expect(log.all == ["run 0", "run 1", "run 2", "run 3"])
        #expect(gate.peakRunning == 1 && gate.waitingCount == 0)
    }

    @Test("a waiting job withdrawn (timeout or cancellation) never runs and does not hold a thread")
    func withdrawnJobs() async throws {
        let gate = TransferGate(limit: 1)
        let log = JobLog(), latch = ThreadLatch()
        _ = try Self.submit(gate, 0, log, latch)
        let (first, _) = try Self.submit(gate, 1, log, latch)
        let (second, _) = try Self.submit(gate, 2, log, latch)
        gate.withdraw(first, .timedOut)
        gate.withdraw(second, .cancelled)
        gate.withdraw(second, .cancelled)  // no longer waiting: nothing happens
        #expect(gate.waitingCount == 0)
        latch.open()
        for _ in 0..<5000 where !log.all.contains("run 0") { try await Task.sleep(for: .milliseconds(1)) }
        #expect(Set(log.all) == ["timedOut 1", "cancelled 2", "run 0"])
        // The thread gave its slot back and exited: a new job starts at once.
        for _ in 0..<5000 where gate.runningCount > 0 { try await Task.sleep(for: .milliseconds(1)) }
        #expect(gate.runningCount == 0)
        #expect(try Self.submit(gate, 3, log, latch).1 == false)
        for _ in 0..<5000 where !log.all.contains("run 3") { try await Task.sleep(for: .milliseconds(1)) }
        #expect(log.all.last == "run 3")
    }

    @Test("a call that cannot get a transfer thread before its timeout is http.timeout, and a cancelled waiting call is http.cancelled")
    func transportWaitErrors() async throws {
        let gate = TransferGate(limit: 2)
        let transport = try CurlTransport(gate: gate)
        let request = HTTPRequest(method: .get, url: try HTTPURL("http://127.0.0.1:9/never"))
        // Hold both transfer threads, so the calls have to wait.
        let log = JobLog(), latch = ThreadLatch()
        defer { latch.open() }
        #expect(try Self.submit(gate, 0, log, latch).1 == false)
        #expect(try Self.submit(gate, 1, log, latch).1 == false)
        let timedOut = await caught { () async throws(CSEError) in
            try await transport.perform(request, timeout: .milliseconds(50), maxResponseBytes: 1024)
        }
        #expect(timedOut?.code == .httpTimeout)
        #expect(timedOut?.context["maximumConcurrentTransfers"] == "2")
        let waiting = Task { () async -> CSEError? in
            await caught { () async throws(CSEError) in try await transport.perform(request, timeout: .seconds(600), maxResponseBytes: 1024)
            }
        }
        for _ in 0..<2000 where gate.waitingCount < 1 { try await Task.sleep(for: .milliseconds(1)) }
        waiting.cancel()
        #expect(await waiting.value?.code == .httpCancelled)
    }
}

/// What the jobs did, in order (an `NSLock`, which ThreadSanitizer sees, since the jobs run on
/// POSIX threads).
private final class JobLog: @unchecked Sendable {
    private let lock = NSLock()
    private var entries: [String] = []
    func append(_ entry: String) { lock.withLock { entries.append(entry) } }
    var all: [String] { lock.withLock { entries } }
}

/// Blocks transfer threads until opened (a condition variable: the jobs run on POSIX threads).
private final class ThreadLatch: @unchecked Sendable {
    private let condition = NSCondition()
    private var isOpen = false

    func wait() {
        condition.lock()
        while !isOpen { condition.wait() }
        condition.unlock()
    }

    func open() {
        condition.lock()
        isOpen = true
        condition.broadcast()
        condition.unlock()
    }
}

/// Samples a count every 2 ms on its own thread until ``stop()``, which returns the peak.
private final class ThreadCountSampler: @unchecked Sendable {
    private let condition = NSCondition()
    private var stopping = false
    private var stopped = false
    private var peak = 0

    init(count: @escaping @Sendable () -> Int) {
        Thread { [self] in
            while true {
                let now = count()
                condition.lock()
                peak = max(peak, now)
                if stopping {
                    stopped = true
                    condition.broadcast()
                    condition.unlock()
                    return
                }
                condition.unlock()
                usleep(2_000)
            }
        }.start()
    }

    func stop() -> Int {
        condition.lock()
        defer { condition.unlock() }
        stopping = true
        while !stopped { condition.wait() }
        return peak
    }
}
