@testable import CSEClientAPI
import CSECore
import CSEHTTP
import CSEPayments
import Synchronization
import Testing
import TestSupport

/// Concurrent first uses of a session's public key share one `GET crypto/publickey`.
@Suite("The public key is fetched once for concurrent callers", .tags(.concurrency))
struct PublicKeyFetchTests {
    /// A gate the test opens: `wait()` suspends until `open()`.
    private final class Latch: Sendable {
        private let state = Mutex<(open: Bool, waiters: [CheckedContinuation<Void, Never>])>((false, []))

        func wait() async {
            await withCheckedContinuation { continuation in
                let proceed = state.withLock { state in
                    if state.open { return true }
                    state.waiters.append(continuation)
                    return false
                }
                if proceed { continuation.resume() }
            }
        }

        func open() {
            let waiters = state.withLock { state in
                state.open = true
                defer { state.waiters = [] }
                return state.waiters
            }
            for waiter in waiters { waiter.resume() }
        }
    }

    private final class Counter: Sendable {
        private let value = Atomic<Int>(0)
        func increment() { value.add(1, ordering: .relaxed) }
        var count: Int { value.load(ordering: .relaxed) }
    }

    /// A fetch that counts its calls and, once `latch` opens, returns `value` or throws `error`.
    private static func blockedFetch(
        _ latch: Latch, _ fetches: Counter, returning value: Int = 0, throwing error: CSEError? = nil
    ) -> @Sendable () async throws(CSEError) -> Int {
        { () async throws(CSEError) -> Int in
            fetches.increment()
            await latch.wait()
            if let error { throw error }
            return value
        }
    }

    /// Polls until `fetch` has `count` waiters: at most 5,000 polls of 1 ms.
    private func waitForWaiters(_ fetch: SharedFetch<Int>, _ count: Int) async throws {
        for _ in 0..<5000 where fetch.waitingCount < count { try await Task.sleep(for: .milliseconds(1)) }
        #expect(fetch.waitingCount == count)
    }

    @Test(
        "16 concurrent encrypt calls on a session with no key make exactly one public-key request to the emulator",
        .enabled(if: EmulatorAvailability.available, EmulatorAvailability.reason))
    func concurrentEncryptFetchesOnce() async throws {
        let server = try ClientAPIEmulator()
        defer { server.stop() }
        let session = try server.session()
        let context = try PaymentContext(amount: 1000, currencyCode: "EUR", countryCode: "NL")
        var request = PaymentRequest(product: try await session.paymentProduct(id: "1", for: context))
        try request.setValue(canaryPAN, forField: "cardNumber")
        try request.setValue("12/2030", forField: "expiryDate")
        try request.setValue("123", forField: "cvv")
        try request.setValue("Ada Lovelace", forField: "cardholderName")
        let keyPath = "/client/v1/\(ClientAPIEmulator.customerID)/crypto/publickey"
        // The key answer is slow, so every call arrives while the first fetch is in flight.
        try server.emulator.enqueue(LoopbackEmulator.Fault.delay(milliseconds: 400).onPath(keyPath))
        let sealed = try await withThrowingTaskGroup(of: SealedPaymentRequest.self) { [request] group in
            for _ in 0..<16 { group.addTask { try await session.encrypt(request) } }
            return try await group.reduce(into: [SealedPaymentRequest]()) { $0.append($1) }
        }
        #expect(sealed.count == 16)
        #expect(try server.emulator.requests().filter { $0.path == keyPath }.count == 1)
        let verdict = try await server.checkPayment(try #require(sealed.last), expectedProductID: 1)
        #expect(verdict["ok"] == .bool(true), "\(verdict.serialized)")
    }

    @Test("callers that arrive during a fetch wait for it: one fetch, one value for all")
    func waitersShareOneFetch() async throws {
        let fetch = SharedFetch<Int>()
        let latch = Latch(), fetches = Counter()
        let load = Self.blockedFetch(latch, fetches, returning: 42)
        try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<8 { group.addTask { try await fetch.value(fetch: load) } }
            try await waitForWaiters(fetch, 7)
            latch.open()
            #expect(try await group.reduce(into: [Int]()) { $0.append($1) } == Array(repeating: 42, count: 8))
        }
        #expect(fetches.count == 1)
        #expect(fetch.cached == 42)
        #expect(try await fetch.value(fetch: load) == 42 && fetches.count == 1)
        fetch.drop()
        #expect(fetch.cached == nil)
    }

    @Test("a cancelled waiter stops waiting with http.cancelled; the fetch goes on and is kept for the others")
    func cancelledWaiter() async throws {
        let fetch = SharedFetch<Int>()
        let latch = Latch(), fetches = Counter()
        let load = Self.blockedFetch(latch, fetches, returning: 7)
        let fetcher = Task { try await fetch.value(fetch: load) }
        for _ in 0..<5000 where fetches.count == 0 { try await Task.sleep(for: .milliseconds(1)) }
        let waiter = Task { () async -> CSEError? in await caught { () async throws(CSEError) in try await fetch.value(fetch: load) } }
        try await waitForWaiters(fetch, 1)
        waiter.cancel()
        #expect(await waiter.value?.code == .httpCancelled)
        latch.open()
        #expect(try await fetcher.value == 7)
        #expect(fetches.count == 1 && fetch.cached == 7)
    }

    @Test("when the fetching task is cancelled, a waiter fetches again itself; any other failure fails every waiter and nothing is kept")
    func fetcherCancelledOrFailing() async throws {
        let fetch = SharedFetch<Int>()
        let latch = Latch(), fetches = Counter()
        let cancelledFetch = Self.blockedFetch(latch, fetches, throwing: CSEError(.httpCancelled, "cancelled"))
        let secondFetch: @Sendable () async throws(CSEError) -> Int = { () async throws(CSEError) -> Int in
            fetches.increment()
            return 9
        }
        let fetcher = Task { await caught { () async throws(CSEError) in try await fetch.value(fetch: cancelledFetch) } }
        for _ in 0..<5000 where fetches.count == 0 { try await Task.sleep(for: .milliseconds(1)) }
        let waiter = Task { try await fetch.value(fetch: secondFetch) }
        try await waitForWaiters(fetch, 1)
        latch.open()
        #expect(await fetcher.value?.code == .httpCancelled)
        #expect(try await waiter.value == 9)
        #expect(fetches.count == 2)

        let failing = SharedFetch<Int>()
        let gate = Latch(), attempts = Counter()
        let broken = Self.blockedFetch(gate, attempts, throwing: CSEError(.httpTimeout, "slow platform"))
        let codes = await withTaskGroup(of: CSEError.Code?.self) { group in
            for _ in 0..<4 { group.addTask { await caught { () async throws(CSEError) in try await failing.value(fetch: broken) }?.code } }
            for _ in 0..<5000 where failing.waitingCount < 3 { try? await Task.sleep(for: .milliseconds(1)) }
            gate.open()
            return await group.reduce(into: [CSEError.Code?]()) { $0.append($1) }
        }
        #expect(codes == Array(repeating: .httpTimeout, count: 4))
        #expect(attempts.count == 1 && failing.cached == nil)
        #expect(try await failing.value(fetch: secondFetch) == 9)
    }
}
