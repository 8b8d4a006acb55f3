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
    /// - unknown: the `Error: server.outcomeUnknown …` line and a line naming the keys verbatim,
    ///   ``ExitCode/outcomeUnknown`` (75), with `settle`: how to settle it on this platform.
    static func finish<Payment>(
        _ outcome: PaymentOutcome<Payment>, settle: String, id: (Payment) -> String?,
        status: (Payment) -> String?, json: (Payment) -> JSONValue
    ) -> Int32 {
        switch outcome {
        case .succeeded(let payment, let keys):
            var object = json(payment).objectValue ?? JSONObject()
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
            return ExitCode.success
        case .refused(_, let error):
            return StandardStreams.report(error)
        case .unknown(let keys, let error):
            _ = StandardStreams.report(error)
            StandardStreams.err("cse: the outcome is unknown; \(settle): \(verbatim(keys))\n")
            return ExitCode.outcomeUnknown
        }
    }

    /// The keys as `name=value` pairs, not passed through the digit-run redaction of error lines
    /// (an order number or a key may hold 12 digits, and a redacted key reconciles nothing); only
    /// control and bidirectional-format characters are replaced (``SafeEcho/withoutControls(_:)``).
    private static func verbatim(_ keys: PaymentReconciliation) -> String {
        keys.members.map { name, value in name + "=" + SafeEcho.withoutControls(value) }.joined(separator: ", ")
    }
}
