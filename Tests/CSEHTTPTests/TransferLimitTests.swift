@testable import CSEHTTP
import CSECore
import Foundation
import Synchronization
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

    @Test("every default transport shares one process-wide gate of 64 slots")
    func oneGatePerProcess() throws {
        #expect(CurlTransport.maximumConcurrentTransfers == 64)
        #expect(try CurlTransport().gate === CurlTransport.sharedGate)
        #expect(try CurlTransport(trust: .system).gate === (try CurlTransport()).gate)
        #expect(CurlTransport.sharedGate.limit == 64)
    }

    @Test("200 concurrent calls all succeed with at most 64 in service at the server at once and no thread per call")
    func concurrentCallsAreBounded() async throws {
        let calls = 200
        let limit = CurlTransport.maximumConcurrentTransfers
        let gate = TransferGate(limit: limit)
        try await withEmulator { (server) async throws in
            try server.enqueue(LoopbackEmulator.Fault.delay(milliseconds: 150).times(calls))
            let client = try Self.client(gate: gate)
            let baseline = Self.transferThreadCount()
            let finished = Atomic<Bool>(false)
            let sampler = Task.detached {
                var peak = 0
                while !finished.load(ordering: .relaxed) {
                    peak = max(peak, Self.transferThreadCount())
                    try? await Task.sleep(for: .milliseconds(5))
                }
                return peak
            }
            let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
                for index in 0..<calls {
                    group.addTask {
                        try await client.send(HTTPRequest(method: .get, url: try HTTPURL(server.baseURL + "/echo/\(index)"))).status
                    }
                }
                return try await group.reduce(into: [Int]()) { $0.append($1) }
            }
            finished.store(true, ordering: .relaxed)
            let peakThreads = await sampler.value
            #expect(statuses == Array(repeating: 200, count: calls))
            #expect(try server.requests().count == calls)
            let peakRequests = try server.peakRequestsInService()
            #expect(peakRequests >= 1 && peakRequests <= limit, "peak requests in service \(peakRequests)")
            // One transfer thread per slot here, plus at most as many for the suites running in
            // parallel (the shared gate) and a few that gave their slot back and are exiting: far
            // below one per call (the old transport ran 200 at once).
            #expect(peakThreads >= 1)
            #expect(peakThreads - baseline <= 2 * limit + 8, "transfer threads: baseline \(baseline), peak \(peakThreads)")
            #expect(gate.peakInFlight == limit)
        }
    }

    @Test("a full gate admits the oldest waiter first when a slot is freed")
    func fifoAdmission() async throws {
        let gate = TransferGate(limit: 1)
        #expect(await gate.enter(timeout: .seconds(60)) == .admitted)
        let order = AdmissionOrder()
        var waiters: [Task<TransferGate.Admission, Never>] = []
        for index in 0..<3 {
            waiters.append(
                Task {
                    let admission = await gate.enter(timeout: .seconds(600))
                    order.append(index)
                    gate.leave()
                    return admission
                })
            // Let this waiter queue before the next one starts: at most 2,000 polls of 1 ms.
            for _ in 0..<2000 where gate.waitingCount < index + 1 { try await Task.sleep(for: .milliseconds(1)) }
            #expect(gate.waitingCount == index + 1)
        }
        gate.leave()
        for waiter in waiters { #expect(await waiter.value == .admitted) }
        #expect(order.all == [0, 1, 2])
        #expect(gate.peakInFlight == 1)
    }

    @Test("a wait ends with timedOut when the timeout passes, and with cancelled on task cancellation; neither holds a slot")
    func waitEnds() async throws {
        let gate = TransferGate(limit: 1)
        #expect(await gate.enter(timeout: .seconds(60)) == .admitted)
        #expect(await gate.enter(timeout: .milliseconds(20)) == .timedOut)
        let waiter = Task { await gate.enter(timeout: .seconds(600)) }
        for _ in 0..<2000 where gate.waitingCount < 1 { try await Task.sleep(for: .milliseconds(1)) }
        waiter.cancel()
        #expect(await waiter.value == .cancelled)
        let cancelledFirst = await withTaskGroup(of: TransferGate.Admission.self) { group in
            group.cancelAll()  // the child below starts cancelled
            group.addTask { await gate.enter(timeout: .seconds(600)) }
            return await group.next()
        }
        #expect(cancelledFirst == .cancelled)
        #expect(gate.waitingCount == 0)
        gate.leave()
        // The slot is free again: the next caller is admitted at once.
        #expect(await gate.enter(timeout: .milliseconds(1)) == .admitted)
        gate.leave()
    }

    @Test("a call that cannot get a slot before its timeout is http.timeout, and a cancelled waiting call is http.cancelled")
    func transportWaitErrors() async throws {
        let gate = TransferGate(limit: 2)
        let transport = try CurlTransport(gate: gate)
        let request = HTTPRequest(method: .get, url: try HTTPURL("http://127.0.0.1:9/never"))
        // Hold every slot, so the calls have to wait.
        #expect(await gate.enter(timeout: .seconds(1)) == .admitted)
        #expect(await gate.enter(timeout: .seconds(1)) == .admitted)
        defer {
            gate.leave()
            gate.leave()
        }
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

/// The order in which waiters were admitted.
private final class AdmissionOrder: Sendable {
    private let indices = Mutex<[Int]>([])
    func append(_ index: Int) { indices.withLock { $0.append(index) } }
    var all: [Int] { indices.withLock { $0 } }
}
