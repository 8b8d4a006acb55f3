internal import CSECore
@_spi(CustomTransport) internal import CSEHTTP
#if DEBUG && canImport(Glibc)
import Glibc
#endif

/// Runs one money-moving call inside the client's ``PaymentJournal`` (issue #36): the one way
/// every payment, capture, refund, void, saved-card payment and token creation of every platform
/// records itself.
///
/// - Before `call` runs, `intent` is recorded durably; when that fails, `call` never runs and the
///   journal's error (`journal.*`) is thrown: nothing is sent.
/// - After it, the outcome is recorded: succeeded, refused (with the error's code), pending (with
///   the action's type), unknown (with the cause's code), and the ids `ids` reads from the
///   platform's answer together with those of the outcome's references. A thrown error is
///   `notSent` when it proves the request never left (``CSEError/provesRequestNotSent``), else
///   `refused` (the call throws only when nothing was processed).
/// - The outcome's references name the entry (``PaymentReconciliation/journalEntry``), so an
///   unknown or pending outcome's keys lead to it.
///
/// A failure to record the outcome does not hide it: the outcome is returned, and the entry stays
/// `open`, for `cse journal settle` to settle with the recorded keys.
///
/// Without a journal in the client's configuration, `call` runs alone.
func journaled<Payment>(
    _ http: HTTPClient, _ intent: @autoclosure () -> JournalIntent, ids: (Payment) -> [String: String] = { _ in [:] },
    _ call: () async throws(CSEError) -> PaymentOutcome<Payment>
) async throws(CSEError) -> PaymentOutcome<Payment> {
    guard let journal = http.configuration.journal else { return try await call() }
    let entry = try journal.recordIntent(intent())
    JournalFaultPoint.reach(.afterIntent)
    let outcome: PaymentOutcome<Payment>
    do {
        outcome = try await call()
    } catch {
        JournalFaultPoint.reach(.beforeOutcome)
        try? journal.recordOutcome(entry, JournalOutcome(refusal: error, notSent: error.provesRequestNotSent))
        throw error
    }
    JournalFaultPoint.reach(.beforeOutcome)
    var result = outcome
    switch outcome {
    case .succeeded(let payment, var keys):
        keys.journalEntry = entry
        result = .succeeded(payment, keys)
    case .pending(let payment, let action, var keys):
        keys.journalEntry = entry
        result = .pending(payment, action, keys)
    case .unknown(var keys, let error):
        keys.journalEntry = entry
        result = .unknown(keys, error)
    case .refused:
        break
    }
    try? journal.recordOutcome(entry, JournalOutcome(recording: outcome, ids: ids))
    return result
}

/// Points where a test build can end the process with SIGKILL, to prove the journal survives the
/// death of the process at each step of a call (issue #36, crash tests): the environment variable
/// `CSE_TEST_KILL_AT` names the point (`after-intent`, `before-outcome`). Compiled only into
/// debug builds (the test builds); a release build has no such point.
enum JournalFaultPoint: String {
    /// The intent is on disk; the request has not left.
    case afterIntent = "after-intent"
    /// The answer (or the transport's failure) is in; its outcome is not recorded yet.
    case beforeOutcome = "before-outcome"

    /// Ends the process here when a debug build was asked to.
    @inline(__always)
    static func reach(_ point: JournalFaultPoint) {
        #if DEBUG && canImport(Glibc)
        if let value = getenv("CSE_TEST_KILL_AT"), String(cString: value) == point.rawValue {
            _ = kill(getpid(), SIGKILL)
        }
        #endif
    }
}
