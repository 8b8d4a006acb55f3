internal import CSECore

/// Runs transfers on at most ``limit`` threads in the process; the others wait their turn in
/// arrival order (never failing because every thread is busy).
///
/// A transfer thread that finishes a job takes the oldest waiting one itself, and exits when none
/// waits, so the number of transfer threads never exceeds ``limit`` and a freed slot is used at
/// once, on that thread: no hand-over goes through the Swift concurrency pool, which a busy
/// process can starve for seconds. A waiting job leaves the queue when ``withdraw(_:_:)`` is
/// called for it (its timeout passed, or its task was cancelled); a started job always runs to
/// its end.
///
/// `CurlTransport` passes every attempt through one process-wide gate (docs/CLIENT-API.md,
/// "Transport").
package final class TransferGate: Sendable {
    /// Why a waiting job left the queue without running.
    enum Withdrawal: Sendable {
        case timedOut
        case cancelled
    }

    /// One transfer: `run` on a transfer thread, or `withdrawn` if it leaves the queue first.
    /// Exactly one of the two is called, once.
    struct Job: Sendable {
        let id: UInt64
        let run: @Sendable () -> Void
        let withdrawn: @Sendable (Withdrawal) -> Void
    }

    private struct State {
        var running = 0
        var peak = 0
        var queue: [Job] = []
        var nextID: UInt64 = 0
    }

    /// The most transfer threads at once.
    let limit: Int
    private let state = ThreadLock(State())

    /// A gate with `limit` threads.
    package init(limit: Int) {
        precondition(limit > 0, "a transfer gate needs at least one thread")
        self.limit = limit
    }

    /// The most jobs running at once since the gate was made (tests).
    var peakRunning: Int { state.withLock { $0.peak } }

    /// How many jobs run now (tests).
    var runningCount: Int { state.withLock { $0.running } }

    /// How many jobs wait now (tests).
    var waitingCount: Int { state.withLock { $0.queue.count } }

    /// A fresh job id.
    func makeID() -> UInt64 {
        state.withLock { state in
            state.nextID += 1
            return state.nextID
        }
    }

    /// Runs `job` on a new transfer thread when fewer than ``limit`` run and none waits, else
    /// queues it. Returns whether it was queued.
    /// - Throws: `http.transport` when no thread can be started (the job neither runs nor waits).
    func submit(_ job: Job) throws(CSEError) -> Bool {
        let limit = limit
        let start = state.withLock { state in
            guard state.running < limit && state.queue.isEmpty else {
                state.queue.append(job)
                return false
            }
            state.running += 1
            state.peak = max(state.peak, state.running)
            return true
        }
        guard start else { return true }
        do {
            try DedicatedThread.start { [self] in work(from: job) }
        } catch {
            // Nothing started: give the slot back. Jobs queued meanwhile wait for the next thread
            // that finishes, or for their timeout.
            state.withLock { $0.running -= 1 }
            throw error
        }
        return false
    }

    /// Removes the job `id` from the queue, if it still waits, and tells it why.
    func withdraw(_ id: UInt64, _ reason: Withdrawal) {
        let job: Job? = state.withLock { state in
            guard let index = state.queue.firstIndex(where: { $0.id == id }) else { return nil }
            return state.queue.remove(at: index)
        }
        job?.withdrawn(reason)
    }

    /// A transfer thread: runs `first`, then the oldest waiting job, until none waits.
    private func work(from first: Job) {
        var job = first
        while true {
            job.run()
            let next: Job? = state.withLock { state in
                guard !state.queue.isEmpty else {
                    state.running -= 1
                    return nil
                }
                return state.queue.removeFirst()
            }
            guard let next else { return }
            job = next
        }
    }
}
