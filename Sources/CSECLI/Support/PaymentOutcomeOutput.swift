import CSECore
import CSEServerAPI

/// How every `cse` command that moves money reports its ``PaymentOutcome`` (issue #26): the one
/// place that maps the three outcomes to exit statuses and makes sure the reconciliation keys
/// reach the caller even when standard output cannot be written.
enum PaymentOutcomeOutput {
    /// Prints `outcome` and returns the exit status:
    /// - succeeded: the payment's JSON (from `json`, with the `idempotenceKey` of the outcome's
    ///   references, which the client made when the command gave none, added) on
    ///   stdout, 0; if stdout cannot be written (a full disk, a closed stdout, a reader that has
    ///   gone: SIGPIPE is ignored for this write), one `cse: … created …` line with the payment's
    ///   id, status and references on stderr first (the exit status is then 1, from
    ///   ``StandardStreams/finish(_:)``);
    /// - refused: the refusal as an `Error:` line, 1;
    /// - pending (issue #34): the payment's JSON with `"outcome":"pending"` and, when the payer must
    ///   act, `"action"`, on stdout (the same fallback to stderr), a line naming how to resume and
    ///   the keys on stderr, ``ExitCode/pending`` (3); `resume` says how on this platform (`settle`
    ///   when `nil`);
    /// - unknown: the `Error: server.outcomeUnknown …` line and a line naming the keys verbatim,
    ///   ``ExitCode/outcomeUnknown`` (75), with `settle`: how to settle it on this platform.
    ///
    /// The keys include the journal entry (`journalEntry=ID`) when the command journals.
    static func finish<Payment>(
        _ outcome: PaymentOutcome<Payment>, settle: String, resume: String? = nil, id: (Payment) -> String?,
        status: (Payment) -> String?, json: (Payment) -> JSONValue
    ) -> Int32 {
        switch outcome {
        case .succeeded(let payment, let keys):
            write(json(payment), payment: payment, keys: keys, id: id, status: status)
            return ExitCode.success
        case .pending(let payment, let action, let keys):
            var object = json(payment).objectValue ?? JSONObject()
            object["outcome"] = .string("pending")
            if let action { object["action"] = action.json }
            write(.object(object), payment: payment, keys: keys, id: id, status: status)
            let waiting = action == nil ? "the platform decides later" : "the payer must act (action: \(action?.type ?? ""))"
            StandardStreams.err("cse: the payment is pending: \(waiting); \(resume ?? settle): \(verbatim(keys))\n")
            journalLine(keys)
            return ExitCode.pending
        case .refused(_, let error):
            return StandardStreams.report(error)
        case .unknown(let keys, let error):
            _ = StandardStreams.report(error)
            StandardStreams.err("cse: the outcome is unknown; \(settle): \(verbatim(keys))\n")
            journalLine(keys)
            return ExitCode.outcomeUnknown
        }
    }

    /// Writes the payment's JSON, with the idempotence key the client made when the command gave
    /// none; if stdout cannot be written (a full disk, a closed stdout, a reader that has gone:
    /// SIGPIPE is ignored for this write), one `cse: … created …` line with the payment's id,
    /// status and references goes to stderr.
    private static func write<Payment>(
        _ value: JSONValue, payment: Payment, keys: PaymentReconciliation, id: (Payment) -> String?, status: (Payment) -> String?
    ) {
        var object = value.objectValue ?? JSONObject()
        if let key = keys.idempotenceKey { object["idempotenceKey"] = .string(key.text) }
        // A closed pipe must not end cse before the ids below reach stderr.
        StandardStreams.reportBrokenPipeAsFailure()
        JSONLine.write(.object(object))
        if StandardStreams.outputFailed {
            var keys = keys
            keys.paymentID = id(payment)
            let state = status(payment).map { " with status " + SafeEcho.text($0, limit: 64) } ?? ""
            StandardStreams.err("cse: the payment was created\(state), but standard output failed: \(verbatim(keys))\n")
        }
    }

    /// `cse: journal entry ID …` when the call was journaled (issue #36).
    private static func journalLine(_ keys: PaymentReconciliation) {
        guard let entry = keys.journalEntry else { return }
        StandardStreams.err("cse: journal entry \(entry) records this call; `cse journal settle` settles it\n")
    }

    /// The keys as `name=value` pairs, not passed through the digit-run redaction of error lines
    /// (an order number or a key may hold 12 digits, and a redacted key reconciles nothing); only
    /// control and bidirectional-format characters are replaced (``SafeEcho/withoutControls(_:)``).
    private static func verbatim(_ keys: PaymentReconciliation) -> String {
        keys.members.map { name, value in name + "=" + SafeEcho.withoutControls(value) }.joined(separator: ", ")
    }
}
