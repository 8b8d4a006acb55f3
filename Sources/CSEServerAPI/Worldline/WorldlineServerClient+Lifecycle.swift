public import CSECore
import CSECrypto
@_spi(CustomTransport) import CSEHTTP

/// CapturePayment, RefundPayment and CancelPayment, and the lists of a payment's captures and
/// refunds (research notes §1.2; issue #33). Each money-moving call carries a signed
/// `X-GCS-Idempotence-Key` and keeps CreatePayment's contract: its outcome is never lost.
extension WorldlineServerClient {
    /// CapturePayment: `POST /v2/{merchantId}/payments/{paymentId}/capture`, all or part of an
    /// authorised payment, with an `X-GCS-Idempotence-Key` on every attempt.
    ///
    /// Outcomes as CreatePayment's (``createPayment(_:idempotenceKey:)-(WorldlinePaymentRequest,_)``):
    /// ``PaymentOutcome/succeeded(_:_:)`` for a 2xx capture that is not unsuccessful (status
    /// `CAPTURE_REQUESTED` is the normal course for cards: "in the queue to be captured");
    /// ``PaymentOutcome/refused(_:_:)`` for `REJECTED_CAPTURE` (`worldline.paymentRejected`);
    /// ``PaymentOutcome/unknown(_:_:)`` for a lost or unreadable answer, a 5xx that is not
    /// `retriable`, or a 409 in progress (or naming no conflict): call again with the same key.
    /// - Parameters:
    ///   - paymentID: The authorised payment, for example `3066019730_0`.
    ///   - request: The amount (or all of it) and the capture's reference.
    ///   - idempotenceKey: The key of this capture; a new one when `nil`. To settle an unknown
    ///     outcome, pass the key it was first sent with.
    /// - Throws: Only when nothing was processed: an invalid argument; a transport error before
    ///   anything was sent; ``CSEError/Code/serverUnknownPayment`` (404 `UNKNOWN_PAYMENT_ID`),
    ///   ``CSEError/Code/serverOperationNotAllowed`` (`ACTION_NOT_ALLOWED_ON_TARGET`),
    ///   ``CSEError/Code/serverReferenceInUse`` (the key's answer names another capture), or
    ///   the platform's own error (``CSEError/Code/worldlineAPIError``, for example a 400
    ///   `INVALID_VALUE` on `amount` for a capture over what is left, which Worldline does not
    ///   tell apart).
    public func capturePayment(
        _ paymentID: String, _ request: WorldlineCaptureRequest,
        idempotenceKey: IdempotenceKey? = nil
    ) async throws(CSEError) -> PaymentOutcome<WorldlineOperation> {
        let expected = ExpectedAnswer(amount: request.amount ?? 0, currencyCode: "", merchantReference: request.merchantReference)
        return try await operation(
            paymentID, "capture", body: request.json, amount: request.amount, currencyCode: nil, reference: request.merchantReference,
            idempotenceKey: idempotenceKey
        ) { (response, keys) throws(CSEError) in
            try Self.operationOutcome(
                of: response, kind: .capture, reconciliation: keys, redactor: SafeText(secrets: [credentials.secretAPIKey])
            ) { (operation) throws(CSEError) in
                try Self.check(
                    operation, paymentID: paymentID, expected: expected, amount: request.amount == nil ? nil : operation.amount,
                    currencyCode: nil, keys: keys)
            }
        }
    }

    /// RefundPayment: `POST /v2/{merchantId}/payments/{paymentId}/refund`, all or part of what
    /// was captured, with an `X-GCS-Idempotence-Key` on every attempt.
    ///
    /// Outcomes as ``capturePayment(_:_:idempotenceKey:)``; `REFUND_REQUESTED` is the normal
    /// course. A 402 with a `refundResult` (the SDKs' `DeclinedRefundException`), or a 2xx
    /// refund whose status is unsuccessful (`REJECTED_CREDIT`), is a refusal
    /// (`worldline.paymentRejected`, naming the refund's id and status).
    /// - Parameters:
    ///   - paymentID: The captured payment.
    ///   - request: The amount, currency and the refund's reference.
    ///   - idempotenceKey: The key of this refund; a new one when `nil`.
    /// - Throws: As ``capturePayment(_:_:idempotenceKey:)``: a refund of a payment not captured
    ///   is ``CSEError/Code/serverOperationNotAllowed``.
    public func refundPayment(
        _ paymentID: String, _ request: WorldlineRefundRequest, idempotenceKey: IdempotenceKey? = nil
    ) async throws(CSEError) -> PaymentOutcome<WorldlineOperation> {
        let expected = ExpectedAnswer(
            amount: request.amount, currencyCode: request.currencyCode, merchantReference: request.merchantReference)
        return try await operation(
            paymentID, "refund", body: request.json, amount: request.amount, currencyCode: request.currencyCode,
            reference: request.merchantReference, idempotenceKey: idempotenceKey
        ) { (response, keys) throws(CSEError) in
            try Self.operationOutcome(
                of: response, kind: .refund, reconciliation: keys, redactor: SafeText(secrets: [credentials.secretAPIKey])
            ) { (operation) throws(CSEError) in
                try Self.check(
                    operation, paymentID: paymentID, expected: expected, amount: operation.amount,
                    currencyCode: operation.currencyCode, keys: keys)
            }
        }
    }

    /// CancelPayment: `POST /v2/{merchantId}/payments/{paymentId}/cancel`, releasing all or part
    /// of an authorisation not yet captured, with an `X-GCS-Idempotence-Key` on every attempt.
    ///
    /// The answer is the payment (`CancelPaymentResponse.payment`): `CANCELLED` after a full
    /// cancellation (a success here, although its category is `UNSUCCESSFUL`), still
    /// `PENDING_CAPTURE` after a partial one. Unknown outcomes as ``capturePayment(_:_:idempotenceKey:)``.
    /// - Parameters:
    ///   - paymentID: The authorised payment.
    ///   - request: All of it, or an amount and currency; the cancellation's reference.
    ///   - idempotenceKey: The key of this cancellation; a new one when `nil`.
    /// - Throws: As ``capturePayment(_:_:idempotenceKey:)``: a cancellation after a capture is
    ///   ``CSEError/Code/serverOperationNotAllowed``.
    public func cancelPayment(
        _ paymentID: String, _ request: WorldlineCancelRequest,
        idempotenceKey: IdempotenceKey? = nil
    ) async throws(CSEError) -> PaymentOutcome<WorldlinePayment> {
        try await operation(
            paymentID, "cancel", body: request.json, amount: request.amount, currencyCode: request.currencyCode,
            reference: request.merchantReference, idempotenceKey: idempotenceKey
        ) { (response, keys) throws(CSEError) in
            try Self.cancelOutcome(
                of: response, paymentID: paymentID, reconciliation: keys, redactor: SafeText(secrets: [credentials.secretAPIKey]))
        }
    }

    /// `GET /v2/{merchantId}/payments/{paymentId}/captures`: every capture of the payment
    /// (`CapturesResponse.captures`), to settle a capture whose outcome was unknown.
    /// - Throws: ``CSEError/Code/serverAPIInvalidArgument`` for an id a path cannot carry;
    ///   ``CSEError/Code/serverUnknownPayment`` for 404 `UNKNOWN_PAYMENT_ID`; the errors of
    ///   ``getPayment(id:)``.
    public func captures(ofPayment paymentID: String) async throws(CSEError) -> [WorldlineOperation] {
        try await list(paymentID, "captures", kind: .capture)
    }

    /// `GET /v2/{merchantId}/payments/{paymentId}/refunds`: every refund of the payment
    /// (`RefundsResponse.refunds`), to settle a refund whose outcome was unknown.
    /// - Throws: As ``captures(ofPayment:)``.
    public func refunds(ofPayment paymentID: String) async throws(CSEError) -> [WorldlineOperation] {
        try await list(paymentID, "refunds", kind: .refund)
    }

    // MARK: Shared steps

    /// Sends one operation, inside the client's journal, and classifies its answer: a failure
    /// after the request may have left is an unknown outcome with the keys (the idempotence key,
    /// the operation's reference and the payment id).
    private func operation<Result>(
        _ paymentID: String, _ action: String, body: JSONValue, amount: Int64?, currencyCode: String?, reference: String?,
        idempotenceKey: IdempotenceKey?,
        classify: (HTTPResponse, PaymentReconciliation) throws(CSEError) -> PaymentOutcome<Result>
    ) async throws(CSEError) -> PaymentOutcome<Result> {
        try Self.checkPaymentID(paymentID)
        let key = try IdempotenceKey(orNew: idempotenceKey)
        let keys = PaymentReconciliation(idempotenceKey: key, merchantReference: reference, paymentID: paymentID)
        let intent = JournalIntent(
            platform: "worldline", operation: action, amount: amount, currency: currencyCode, merchantReference: reference,
            idempotenceKey: key.text, platformIDs: ["paymentId": paymentID])
        return try await journaled(http, intent) { () async throws(CSEError) -> PaymentOutcome<Result> in
            let response: HTTPResponse
            do throws(CSEError) {
                response = try await send(.post, path: ["payments", paymentID, action], body: body, idempotenceKey: key)
            } catch {
                if error.provesRequestNotSent { throw error }
                return .unknown(keys, outcomeUnknownError("no answer was read; the \(action) may have been processed", keys, cause: error))
            }
            return try classify(response, keys)
        }
    }

    /// A payment id a path can carry: 1 to 64 letters, digits, `-`, `_` or `.`, not `.` or `..`.
    static func checkPaymentID(_ id: String) throws(CSEError) {
        guard !id.isEmpty, id.utf8.count <= 64, id.utf8.allSatisfy({ ServerIdentifier.isIdentifierByte($0) }),
            !HTTPURL.isUnsafePathSegment(id)
        else {
            throw CSEError(
                .serverAPIInvalidArgument, "a payment id is 1 to 64 letters, digits, '-', '_' or '.'", context: ["argument": "paymentId"])
        }
    }

    /// The part of a payment or operation id before its last `_` (`3066019730` of `3066019730_1`):
    /// every operation of a payment shares it.
    static func base(of id: String) -> Substring {
        guard let underscore = id.lastIndex(of: "_") else { return id[...] }
        return id[..<underscore]
    }

    /// Refuses an answer that names another operation: another payment, amount, currency or reference.
    static func check(
        _ operation: WorldlineOperation, paymentID: String, expected: ExpectedAnswer, amount: Int64?, currencyCode: String?,
        keys: PaymentReconciliation
    ) throws(CSEError) {
        if base(of: operation.id) != base(of: paymentID) {
            throw expected.referenceInUseError(member: "paymentId", platform: "worldline", keys: keys)
        }
        if let member = expected.mismatch(amount: amount, currencyCode: currencyCode, merchantReference: operation.merchantReference) {
            throw expected.referenceInUseError(member: member, platform: "worldline", keys: keys)
        }
    }

    /// The outcome of a CapturePayment or RefundPayment answer.
    static func operationOutcome(
        of response: HTTPResponse, kind: WorldlineOperation.Kind, reconciliation: PaymentReconciliation, redactor: SafeText,
        check: (WorldlineOperation) throws(CSEError) -> Void
    ) throws(CSEError) -> PaymentOutcome<WorldlineOperation> {
        let reader = ServerResponseReader(platform: "worldline")
        if response.isSuccess {
            let operation: WorldlineOperation
            do {
                operation = try WorldlineOperation(try ServerResponse.object(response, platform: "worldline"), kind: kind, reader: reader)
            } catch {
                return .unknown(
                    reconciliation,
                    outcomeUnknownError("the platform's 2xx answer is not a readable \(kind.rawValue)", reconciliation, cause: error))
            }
            try check(operation)
            if operation.isUnsuccessful { return .refused(operation, refusal(operation, status: response.status)) }
            guard operation.isDetermined else {
                return .unknown(
                    reconciliation,
                    outcomeUnknownError(
                        "the \(kind.rawValue) was booked but its result is not determined; poll the payment's \(kind.rawValue)s",
                        reconciliation,
                        cause: CSEError(
                            .worldlinePaymentUndetermined, "the platform does not know the result yet", context: operation.statusContext)))
            }
            return .succeeded(operation, reconciliation)
        }
        // A declined refund: 402 with `refundResult` (RefundErrorResponse; the SDKs'
        // DeclinedRefundException). The refund was booked and refused.
        if response.status == 402, kind == .refund, let object = ServerResponse.errorObject(response),
            let result = try? reader.optionalObject(object, "refundResult")
        {
            let operation: WorldlineOperation
            do { operation = try WorldlineOperation(result, kind: .refund, reader: reader.under("refundResult")) } catch {
                return .unknown(
                    reconciliation, outcomeUnknownError("the platform's refusal names no readable refund", reconciliation, cause: error))
            }
            try check(operation)
            return .refused(operation, refusal(operation, status: response.status))
        }
        return try failureOutcome(of: response, reconciliation: reconciliation, redactor: redactor, action: kind.rawValue)
    }

    /// The outcome of a CancelPayment answer.
    static func cancelOutcome(
        of response: HTTPResponse, paymentID: String, reconciliation: PaymentReconciliation, redactor: SafeText
    ) throws(CSEError) -> PaymentOutcome<WorldlinePayment> {
        guard response.isSuccess else {
            return try failureOutcome(of: response, reconciliation: reconciliation, redactor: redactor, action: "cancellation")
        }
        let payment: WorldlinePayment
        do { payment = try WorldlinePayment(response: try ServerResponse.object(response, platform: "worldline")) } catch {
            return .unknown(
                reconciliation, outcomeUnknownError("the platform's 2xx answer is not a readable payment", reconciliation, cause: error))
        }
        guard payment.id == paymentID else {
            throw ExpectedAnswer(amount: 0, currencyCode: "").referenceInUseError(
                member: "paymentId", platform: "worldline", keys: reconciliation)
        }
        guard payment.isDetermined else {
            return .unknown(
                reconciliation,
                outcomeUnknownError(
                    "the cancellation was booked but the payment's status is not determined; poll GetPayment", reconciliation,
                    cause: CSEError(
                        .worldlinePaymentUndetermined, "the platform does not know the result yet", context: payment.statusContext)))
        }
        return .succeeded(payment, reconciliation)
    }

    /// The outcome of a non-2xx answer to an operation, as CreatePayment's: a 409 naming no other
    /// conflict and a 5xx that is not `retriable` are unknown; everything else processed nothing
    /// (unless an earlier attempt may have been processed), with the shared refusal codes where
    /// the platform's error id tells them apart.
    private static func failureOutcome<Result>(
        of response: HTTPResponse, reconciliation: PaymentReconciliation, redactor: SafeText, action: String
    ) throws(CSEError) -> PaymentOutcome<Result> {
        let (error, body) = failure(of: response, redactor: redactor)
        if response.status == 409 {
            let namesAnotherConflict =
                body?.isRequestInProgress == false && body?.errors?.contains(where: { $0.id != nil || $0.code != nil }) == true
            guard namesAnotherConflict else {
                return .unknown(
                    reconciliation,
                    outcomeUnknownError("the first attempt with this idempotence key is still running", reconciliation, cause: error))
            }
        } else if response.status >= 500, body?.isRetriable != true {
            return .unknown(
                reconciliation,
                outcomeUnknownError(
                    "the platform answered a server error; the \(action) may have been processed", reconciliation, cause: error))
        }
        return try notProcessed(
            lifecycleRefusal(error, body), after: response, reconciliation, provesNothingProcessed: isRetriableServerError)
    }

    /// The shared refusal code of an error id Worldline documents (issue #33), with the
    /// platform's error as the cause; the platform's error itself for any other id (Worldline
    /// does not publish an id for an amount over what is left: research notes §7.1).
    static func lifecycleRefusal(_ error: CSEError, _ body: WorldlineErrorBody?) -> CSEError {
        guard error.code == .worldlineAPIError, let id = body?.errors?.first?.id else { return error }
        let code: CSEError.Code
        let reason: String
        switch id {
        case "UNKNOWN_PAYMENT_ID":
            (code, reason) = (.serverUnknownPayment, "the platform knows no payment with this id")
        case "ACTION_NOT_ALLOWED_ON_TARGET":
            (code, reason) = (.serverOperationNotAllowed, "the payment's state does not allow this operation")
        default:
            return error
        }
        return CSEError(code, reason, context: ["platform": "worldline", "id": SafeText.of(id, limit: 64)], underlying: error)
    }

    /// `worldline.paymentRejected` for an operation the platform refused.
    static func refusal(_ operation: WorldlineOperation, status: Int) -> CSEError {
        var context = operation.statusContext
        context["status"] = String(status)
        context["operation"] = operation.kind.rawValue
        return CSEError(.worldlinePaymentRejected, "the platform refused the \(operation.kind.rawValue)", context: context)
    }

    /// A list of captures or refunds.
    private func list(
        _ paymentID: String, _ member: String, kind: WorldlineOperation.Kind
    ) async throws(CSEError)
        -> [WorldlineOperation]
    {
        try Self.checkPaymentID(paymentID)
        let response = try await send(.get, path: ["payments", paymentID, member], body: nil, retry: .idempotent)
        guard response.isSuccess else {
            let (error, body) = Self.failure(of: response, redactor: SafeText(secrets: [credentials.secretAPIKey]))
            throw Self.lifecycleRefusal(error, body)
        }
        let object = try ServerResponse.object(response, platform: "worldline")
        let reader = ServerResponseReader(platform: "worldline")
        var operations: [WorldlineOperation] = []
        for (index, element) in (try reader.optionalArray(object, member) ?? []).enumerated() {
            let name = "\(member)[\(index)]"
            operations.append(try WorldlineOperation(try reader.object(element, member: name), kind: kind, reader: reader.under(name)))
        }
        return operations
    }
}
