internal import Synchronization

/// At most ``limit`` transfers in flight in the process; the others wait their turn in arrival
/// order (never failing because the gate is full). A wait ends early when its timeout passes or
/// its task is cancelled; a slot freed by ``leave()`` goes straight to the oldest waiter.
///
/// `CurlTransport` passes every attempt through one process-wide gate, so the number of transfer
/// threads and open sockets stays at most ``limit`` whatever the number of concurrent calls
/// (docs/CLIENT-API.md, "Transport").
package final class TransferGate: Sendable {
    /// How a wait ended.
    enum Admission: Sendable, Equatable {
        /// The caller holds a slot and must call ``leave()`` exactly once.
        case admitted
        /// The timeout passed first; the caller holds no slot.
        case timedOut
        /// The task was cancelled first; the caller holds no slot.
        case cancelled
    }

    private struct Waiter {
        let id: UInt64
        let continuation: CheckedContinuation<Admission, Never>
    }

    private struct State {
        var inFlight = 0
        var peak = 0
        var waiters: [Waiter] = []
        var nextID: UInt64 = 0

        mutating func admit() {
            inFlight += 1
            peak = max(peak, inFlight)
        }
    }

    /// The most transfers in flight at once.
    let limit: Int
    private let state = Mutex(State())

    /// A gate with `limit` slots.
    package init(limit: Int) {
        precondition(limit > 0, "a transfer gate needs at least one slot")
        self.limit = limit
    }

    /// The most slots held at once since the gate was made (tests).
    var peakInFlight: Int { state.withLock { $0.peak } }

    /// How many callers are waiting now (tests).
    var waitingCount: Int { state.withLock { $0.waiters.count } }

    /// Takes a slot, waiting at most `timeout` for one.
    func enter(timeout: Duration) async -> Admission {
        let limit = limit
        let waiting: UInt64? = state.withLock { state in
            if state.inFlight < limit && state.waiters.isEmpty {
                state.admit()
                return nil
            }
            state.nextID += 1
            return state.nextID
        }
        guard let id = waiting else { return .admitted }
        let expiry = ContinuousClock.now + timeout
        let timer = Task { [self] in
            try? await Task.sleep(until: expiry, clock: .continuous)
            withdraw(id, .timedOut)
        }
        defer { timer.cancel() }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                // Under the lock, so that a cancellation or an expiry that found no waiter yet is
                // seen here instead: the flag and the clock are set before their handlers run.
                let settled: Admission? = state.withLock { state in
                    if Task.isCancelled { return .cancelled }
                    if ContinuousClock.now >= expiry { return .timedOut }
                    if state.inFlight < limit && state.waiters.isEmpty {
                        state.admit()
                        return .admitted
                    }
                    state.waiters.append(Waiter(id: id, continuation: continuation))
                    return nil
                }
                if let settled { continuation.resume(returning: settled) }
            }
        } onCancel: {
            withdraw(id, .cancelled)
        }
    }

    /// Gives a slot back: to the oldest waiter if there is one.
    func leave() {
        let next: Waiter? = state.withLock { state in
            guard !state.waiters.isEmpty else {
                state.inFlight -= 1
                return nil
            }
            return state.waiters.removeFirst()  // the slot passes on; inFlight is unchanged
        }
        next?.continuation.resume(returning: .admitted)
    }

    /// Ends the wait of `id`, if it is still waiting.
    private func withdraw(_ id: UInt64, _ reason: Admission) {
        let waiter: Waiter? = state.withLock { state in
            guard let index = state.waiters.firstIndex(where: { $0.id == id }) else { return nil }
            return state.waiters.remove(at: index)
        }
        waiter?.continuation.resume(returning: reason)
    }
}
