import CSECore
import CSEHTTP

/// One value fetched once and kept, with concurrent first fetches merged: while a fetch runs,
/// every other caller waits for its result instead of starting its own request.
///
/// The first caller fetches on its own task, so cancelling it cancels the request. A waiter that
/// is cancelled stops waiting (`http.cancelled`) and the fetch goes on for the others; a waiter
/// whose fetcher was cancelled fetches again itself. Any other failure is every waiter's failure,
/// and nothing is kept: the next call fetches again.
final class SharedFetch<Value: Sendable>: Sendable {
    private struct State {
        var value: Value?
        var fetching = false
        var waiters: [UInt64: CheckedContinuation<Result<Value, CSEError>, Never>] = [:]
        var nextID: UInt64 = 0
    }

    private enum Role {
        case cached(Value)
        case fetcher
        case waiter(UInt64)
    }

    private let state = ThreadLock(State())

    init() {}

    /// The kept value, if any; never waits.
    var cached: Value? { state.withLock { $0.value } }

    /// How many callers wait for the fetch in flight (tests).
    var waitingCount: Int { state.withLock { $0.waiters.count } }

    /// Forgets the kept value; a fetch in flight still completes and keeps its result.
    func drop() { state.withLock { $0.value = nil } }

    /// The kept value, or the result of one fetch shared by every concurrent caller.
    func value(fetch: () async throws(CSEError) -> Value) async throws(CSEError) -> Value {
        while true {
            let role: Role = state.withLock { state in
                if let value = state.value { return .cached(value) }
                if !state.fetching {
                    state.fetching = true
                    return .fetcher
                }
                state.nextID += 1
                return .waiter(state.nextID)
            }
            switch role {
            case .cached(let value):
                return value
            case .fetcher:
                let result: Result<Value, CSEError>
                do { result = .success(try await fetch()) } catch { result = .failure(error) }
                let waiters = state.withLock { state in
                    state.fetching = false
                    if case .success(let value) = result { state.value = value }
                    defer { state.waiters = [:] }
                    return state.waiters
                }
                for waiter in waiters.values { waiter.resume(returning: result) }
                return try result.get()
            case .waiter(let id):
                let result = await wait(id)
                // The fetcher's task was cancelled, not this one: fetch again (or wait for a new fetcher).
                if case .failure(let error) = result, error.code == .httpCancelled, !Task.isCancelled { continue }
                return try result.get()
            }
        }
    }

    private func wait(_ id: UInt64) async -> Result<Value, CSEError> {
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                // Under the lock: a cancellation whose handler found no waiter yet is seen here.
                let cancelled = state.withLock { state in
                    if Task.isCancelled { return true }
                    state.waiters[id] = continuation
                    return false
                }
                if cancelled { continuation.resume(returning: .failure(Self.cancelledError)) }
            }
        } onCancel: {
            let waiter = state.withLock { $0.waiters.removeValue(forKey: id) }
            waiter?.resume(returning: .failure(Self.cancelledError))
        }
    }

    private static var cancelledError: CSEError {
        CSEError(.httpCancelled, "the task was cancelled while waiting for a shared fetch")
    }
}
