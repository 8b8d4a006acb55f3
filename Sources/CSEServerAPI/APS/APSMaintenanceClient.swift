public import CSECore
import CSEGateways
@_spi(CustomTransport) import CSEHTTP
import CSEValidation

extension APSTransaction {
    /// `authorized_amount` in minor units, as CHECK_STATUS reports the order (research notes,
    /// payment calls §2.5); `nil` when the answer has none.
    public var authorizedAmount: Int64? { minorUnits("authorized_amount") }
    /// `captured_amount` in minor units, as CHECK_STATUS reports the order; `nil` when absent.
    public var capturedAmount: Int64? { minorUnits("captured_amount") }
    /// `refunded_amount` in minor units, as CHECK_STATUS reports the order; `nil` when absent.
    public var refundedAmount: Int64? { minorUnits("refunded_amount") }

    private func minorUnits(_ name: String) -> Int64? {
        guard let text = parameters[name]?.scalarText, text.utf8.allSatisfy({ $0.isASCIIDigit }) else { return nil }
        return Int64(text)
    }
}

extension APSPaymentClient {
    /// Sends a CAPTURE, REFUND or VOID_AUTHORIZATION (research notes, lifecycle §3.2), signed with
    /// the SHA request phrase; the answer is read only once its signature verifies.
    ///
    /// APS documents no idempotence for maintenance, so a lost answer is never settled by sending
    /// the operation again: a capture or refund first asks CHECK_STATUS for the order's captured
    /// and refunded amounts, and when the answer is lost, asks again. The outcome:
    /// - ``PaymentOutcome/succeeded(_:_:)``: status `04`, `06` or `08` (capture, refund, void
    ///   done), or `19` (pending: processed, the outcome follows in the feedback); or, after a lost answer, CHECK_STATUS shows the operation booked (its last
    ///   operation has that status and the captured or refunded amount grew by exactly the
    ///   request's amount): the order as CHECK_STATUS reports it;
    /// - ``PaymentOutcome/refused(_:_:)``: status `05`, `07` or `09` (the operation failed), as
    ///   ``CSEError/Code/serverAmountExceedsRemaining`` (message 042, 048),
    ///   ``CSEError/Code/serverOperationNotAllowed`` (034) or ``CSEError/Code/serverUnknownPayment``
    ///   (036) with APS's `aps.message.NNN` as the cause, or that `aps.message.NNN` itself;
    /// - ``PaymentOutcome/unknown(_:_:)``: no verified answer (lost, an HTTP error status, a bad
    ///   signature), status 15 or 10, messages 006, 051, 071, or a maintenance reference APS has
    ///   seen before (066, 007, 047: the earlier refund may be this one), and CHECK_STATUS does
    ///   not show the operation booked. The error's context names what CHECK_STATUS must show
    ///   (`expectedCapturedAmount`, `expectedRefundedAmount`); settle with
    ///   ``checkStatus(merchantReference:)`` before anything is sent again.
    /// - Throws: ``CSEError/Code/serverReferenceInUse`` for a signed answer that names another
    ///   command, amount, currency, reference or `fort_id` than the request; status `00` with
    ///   another message (nothing processed), mapped as for a refusal; the errors of the first
    ///   CHECK_STATUS or a transport error before sending (nothing was sent).
    public func perform(_ request: APSMaintenanceRequest) async throws(CSEError) -> PaymentOutcome<APSTransaction> {
        let intent = JournalIntent(
            platform: "aps", operation: request.command.name.lowercased(), amount: request.amount, currency: request.currency?.code,
            merchantReference: request.merchantReference,
            platformIDs: ["fortId": request.fortID, "maintenanceReference": request.maintenanceReference].compactMapValues { $0 })
        return try await journaled(connection.http, intent, ids: \.journalIDs) { () async throws(CSEError) in try await performOnce(request)
        }
    }

    /// ``perform(_:)`` itself, without the journal.
    private func performOnce(_ request: APSMaintenanceRequest) async throws(CSEError) -> PaymentOutcome<APSTransaction> {
        let keys = PaymentReconciliation(merchantReference: request.merchantReference, paymentID: request.fortID)
        var before: APSTransaction?
        if request.command != .voidAuthorization { before = try await checkStatus(merchantReference: request.merchantReference) }
        let body = try connection.signed(request.parameters)
        let response: HTTPResponse
        do {
            response = try await ServerRequest.send(connection.http, .post, url: connection.url, body: .object(body))
        } catch {
            if error.provesRequestNotSent { throw error }
            return await settle(request, before: before, keys, cause: error)
        }
        let transaction: APSTransaction
        do {
            transaction = try APSTransaction(verified: try connection.verified(response))
        } catch {
            return await settle(request, before: before, keys, cause: error)
        }
        if let member = Self.mismatch(transaction, request) {
            let expected = ExpectedAnswer(amount: request.amount ?? 0, currencyCode: request.currency?.code ?? "")
            throw expected.referenceInUseError(member: member, platform: "aps", keys: keys)
        }
        let code = transaction.responseCode
        // 19, "Transaction pending": processed, the outcome follows in the feedback (research
        // notes, payment calls §2.5), as a capture requested is on the other platforms.
        if code.status == request.command.successStatus || code.status == "19" { return .succeeded(transaction, keys) }
        if ["066", "007", "047"].contains(code.message) {
            return await settle(request, before: before, keys, cause: error(code))
        }
        if code.status == request.command.failureStatus { return .refused(transaction, refusal(code, keys)) }
        if code.status == "00" && !["006", "051", "071"].contains(code.message) {
            return try notProcessed(refusal(code, keys), after: response, keys)
        }
        return await settle(request, before: before, keys, cause: error(code))
    }

    /// The member of a signed answer that names another operation than `request`, or `nil`
    /// (``ExpectedAnswer``: a member the answer leaves out is not held against it).
    static func mismatch(_ answer: APSTransaction, _ request: APSMaintenanceRequest) -> String? {
        func text(_ name: String) -> String? { answer.parameters[name]?.scalarText }
        var identifiers: [(name: String, value: String)] = [("command", request.command.name)]
        if let fortID = request.fortID { identifiers.append(("fort_id", fortID)) }
        if let reference = request.maintenanceReference { identifiers.append(("maintenance_reference", reference)) }
        let expected = ExpectedAnswer(
            amount: request.amount ?? 0, currencyCode: request.currency?.code ?? "", merchantReference: request.merchantReference,
            identifiers: identifiers)
        var answered: [String: String] = [:]
        for (name, _) in identifiers { answered[name] = text(name) }
        // A void names no amount; any amount in its answer is another operation's.
        if request.amount == nil, text("amount") != nil { return "amount" }
        let amount = request.amount == nil ? nil : text("amount").map { Int64($0) ?? -1 }
        return expected.mismatch(
            amount: amount, currencyCode: request.currency == nil ? nil : text("currency"), merchantReference: answer.merchantReference,
            identifiers: answered)
    }

    /// The error of a failed or refused maintenance answer: the shared code where APS's message
    /// tells the case apart (042, 048; 034; 036), with APS's own code as the cause.
    func refusal(_ code: APSResponseCode, _ keys: PaymentReconciliation) -> CSEError {
        let own = error(code)
        let shared: (CSEError.Code, String)? =
            switch code.message {
            case "042", "048": (.serverAmountExceedsRemaining, "the amount is over what is left to capture or refund")
            case "034": (.serverOperationNotAllowed, "the order's state does not allow the operation")
            case "036": (.serverUnknownPayment, "APS does not know the order")
            default: nil
            }
        guard let (shared, reason) = shared else { return own }
        var context = ["platform": "aps", "response_code": code.description]
        for (name, value) in keys.members { context[name] = value }
        return CSEError(shared, reason + "; nothing was processed", context: context, underlying: own)
    }

    /// After a lost or undecided answer: CHECK_STATUS again, and the operation succeeded when the
    /// order shows it booked; unknown otherwise, naming what CHECK_STATUS must show.
    private func settle(
        _ request: APSMaintenanceRequest, before: APSTransaction?, _ keys: PaymentReconciliation, cause: CSEError
    ) async -> PaymentOutcome<APSTransaction> {
        let expected: (member: String, amount: Int64)? =
            switch request.command {
            case .capture: ("captured_amount", (before?.capturedAmount ?? 0) + (request.amount ?? 0))
            case .refund: ("refunded_amount", (before?.refundedAmount ?? 0) + (request.amount ?? 0))
            default: nil
            }
        if let after = try? await checkStatus(merchantReference: request.merchantReference),
            after.responseCode.status == request.command.successStatus,
            request.fortID == nil || after.fortID == request.fortID,
            expected.map({ after.parameters[$0.member]?.scalarText == String($0.amount) }) ?? true
        {
            return .succeeded(after, keys)
        }
        var context: [String: String] = ["platform": "aps", "command": request.command.name]
        for (name, value) in keys.members { context[name] = value }
        if let reference = request.maintenanceReference { context["maintenanceReference"] = reference }
        if let expected {
            context[expected.member == "captured_amount" ? "expectedCapturedAmount" : "expectedRefundedAmount"] = String(expected.amount)
        }
        return .unknown(
            keys,
            CSEError(
                .serverOutcomeUnknown,
                "no verified answer decides the \(request.command.name) and CHECK_STATUS does not show it booked; settle it with "
                    + "CHECK_STATUS before sending anything again",
                context: context, underlying: cause))
    }
}
