public import CSECore
@_spi(CustomTransport) import CSEHTTP

/// Settlements, refunds and void authorisations of Paysafe payments, with lookups and
/// cancellation (issue #33; lifecycle research notes §4.2), on the Payments API, or on the Card
/// Payments API when the request names an account.
///
/// Paysafe has no idempotence header: the merchant reference (with `dupCheck`) makes a repeat a
/// duplicate Paysafe refuses (HTTP 409), and a lookup by reference settles an unknown outcome:
/// ``operations(_:merchantReference:accountID:)``. POSTs are never repeated by the transport.
extension PaysafePaymentClient {
    /// Sends a settlement, refund or void authorisation.
    ///
    /// The outcome:
    /// - ``PaymentOutcome/succeeded(_:_:)``: an operation that is `COMPLETED`, or in a documented
    ///   status that completes later (``PaysafeOperation/isPending``: a settlement stays `PENDING`
    ///   until batched);
    /// - ``PaymentOutcome/refused(_:_:)``: HTTP 402 (the operation with its `error`) or an
    ///   operation that is `FAILED`, `CANCELLED` or `EXPIRED` (`paysafe.operationDeclined`);
    /// - ``PaymentOutcome/unknown(_:_:)``: no answer read after sending, a 5xx, a 2xx that is not
    ///   a readable operation, a status Paysafe does not document (`paysafe.operationUndetermined`),
    ///   or a 409 whose lookup finds nothing; the reconciliation names the merchant reference (and
    ///   the payment id of a settlement or void).
    ///
    /// A 409 (the reference was used before) is decided by the operations listed under the
    /// reference, as ``pay(_:)`` decides a payment's.
    /// - Throws: When nothing was processed: a transport error before sending;
    ///   ``CSEError/Code/serverUnknownPayment`` for a 404 (the payment or settlement does not
    ///   exist); ``CSEError/Code/serverReferenceInUse`` when the answer, or every operation listed
    ///   under a reused reference, has another amount or reference; ``CSEError/Code/paysafeAPIError``
    ///   with Paysafe's code for any other 4xx (Paysafe's answer does not tell an amount over what
    ///   is left from a state that allows no operation: docs/COMPATIBILITY.md); 401 and 403 as
    ///   ``CSEError/Code/serverAPIAuthenticationFailed``.
    public func submit(_ request: PaysafeOperationRequest) async throws(CSEError) -> PaymentOutcome<PaysafeOperation> {
        let intent = JournalIntent(
            platform: "paysafe", operation: request.kind.rawValue, amount: request.amount, merchantReference: request.merchantReference,
            platformIDs: ["targetId": request.targetID])
        return try await journaled(connection.http, intent, ids: { ["id": $0.id] }) { () async throws(CSEError) in
            try await submitOnce(request)
        }
    }

    /// ``submit(_:)`` itself, without the journal.
    private func submitOnce(_ request: PaysafeOperationRequest) async throws(CSEError) -> PaymentOutcome<PaysafeOperation> {
        // A refund's target is a settlement, not a payment: only the reference names it.
        let keys = PaymentReconciliation(
            merchantReference: request.merchantReference, paymentID: request.kind == .refund ? nil : request.targetID)
        let redactor = connection.redactor
        let response: HTTPResponse
        switch try await connection.postMovingMoney(
            path: request.path, body: request.json, keys: keys, lost: "the \(request.kind) may have been made")
        {
        case .success(let answer): response = answer
        case .failure(let error): return .unknown(keys, error)
        }
        if response.status == 409 {
            let conflict = PaysafeTokenClient.error(of: response, redactor: redactor)
            let earlier = try? await operations(request.kind, merchantReference: request.merchantReference, accountID: request.accountID)
            guard let earlier, !earlier.isEmpty else {
                return .unknown(
                    keys,
                    outcomeUnknownError("the reference was used before, and no \(request.kind) with it was found", keys, cause: conflict))
            }
            return try Self.outcome(ofEarlier: earlier, for: request, keys: keys, redactor: redactor)
        }
        // A 402 body with an `id` is the declined operation; without one, an error body (below).
        if response.status == 402, let object = ServerResponse.errorObject(response), object["id"] != nil {
            let operation: PaysafeOperation
            let detail: PaysafeErrorDetail?
            do {
                operation = try PaysafeOperation(kind: request.kind, response: object)
                detail = try PaysafeErrorDetail(object)
            } catch {
                return .unknown(keys, outcomeUnknownError("Paysafe's 402 answer is not a readable operation", keys, cause: error))
            }
            if let member = Self.mismatch(operation, request) {
                throw Self.expected(request).referenceInUseError(member: member, platform: "paysafe", keys: keys)
            }
            return .refused(operation, Self.declined(operation, keys: keys, code: detail?.code, redactor: redactor))
        }
        guard response.isSuccess else {
            let error = PaysafeTokenClient.error(of: response, redactor: redactor)
            if response.status >= 500 {
                return .unknown(
                    keys, outcomeUnknownError("Paysafe answered a server error; the \(request.kind) may have been made", keys, cause: error)
                )
            }
            if response.status == 404 {
                var context = ["platform": "paysafe", "targetId": SafeText.identifier(request.targetID)]
                if let code = error.context["paysafeCode"] { context["paysafeCode"] = code }
                let unknown = CSEError(
                    .serverUnknownPayment, "Paysafe knows no \(request.kind == .refund ? "settlement" : "payment") with this id",
                    context: context, underlying: error)
                return try notProcessed(unknown, after: response, keys)
            }
            return try notProcessed(error, after: response, keys)
        }
        let operation: PaysafeOperation
        do {
            operation = try PaysafeOperation(kind: request.kind, response: try ServerResponse.object(response, platform: "paysafe"))
        } catch {
            return .unknown(keys, outcomeUnknownError("Paysafe's 2xx answer is not a readable \(request.kind)", keys, cause: error))
        }
        if let member = Self.mismatch(operation, request) {
            throw Self.expected(request).referenceInUseError(member: member, platform: "paysafe", keys: keys)
        }
        return Self.outcome(of: operation, keys: keys, redactor: redactor)
    }

    /// The operations of `kind` with a merchant reference, as Paysafe lists them: `GET
    /// /paymenthub/v1/{settlements|refunds|voidauths}?merchantRefNum=…`, or with an account
    /// `GET /cardpayments/v1/accounts/{accountID}/…?merchantRefNum=…` (lifecycle research notes §4.2).
    /// - Throws: ``CSEError/Code/serverAPIInvalidArgument`` for a reference that is not 1–255
    ///   printable ASCII characters or an account that is not digits; Paysafe's and the
    ///   transport's errors; ``CSEError/Code/serverAPIInvalidResponse`` for a list that is not one.
    public func operations(
        _ kind: PaysafeOperation.Kind, merchantReference: String, accountID: String? = nil
    ) async throws(CSEError) -> [PaysafeOperation] {
        try PaysafePaymentRequest.checkReference(merchantReference)
        if let accountID { try PaysafePaymentRequest.checkAccount(accountID) }
        let response = try await connection.send(
            .get, path: PaysafeOperationRequest.root(accountID: accountID) + [kind.collection],
            query: [("merchantRefNum", merchantReference)], body: nil, retry: .idempotent)
        guard response.isSuccess else { throw PaysafeTokenClient.error(of: response, redactor: connection.redactor) }
        let object = try ServerResponse.object(response, platform: "paysafe")
        let reader = ServerResponseReader(platform: "paysafe")
        let list = kind.listMember
        guard let entries = try reader.optionalArray(object, list) else { throw reader.malformed("\(list) is missing", member: list) }
        var operations: [PaysafeOperation] = []
        for (index, entry) in entries.enumerated() {
            let name = "\(list)[\(index)]"
            operations.append(
                try PaysafeOperation(kind: kind, response: try reader.object(entry, member: name), reader: reader.under(name)))
        }
        return operations
    }

    /// Cancels a settlement or a refund Paysafe has not batched yet: `PUT
    /// …/{settlements|refunds}/{id}` with `{"status":"CANCELLED"}` (lifecycle research notes §4.2).
    /// A cancellation is safe to send again, so the transport may repeat it.
    /// - Returns: The operation as Paysafe now holds it (`CANCELLED`).
    /// - Throws: ``CSEError/Code/serverAPIInvalidArgument`` for a void authorisation (it cannot be
    ///   cancelled) or an id or account that cannot be sent; ``CSEError/Code/serverUnknownPayment``
    ///   for a 404; ``CSEError/Code/paysafeAPIError`` with Paysafe's code when it refuses (for
    ///   example an operation already batched); ``CSEError/Code/paysafeOperationUndetermined``
    ///   when the answer is not `CANCELLED`.
    public func cancel(_ kind: PaysafeOperation.Kind, id: String, accountID: String? = nil) async throws(CSEError) -> PaysafeOperation {
        guard kind != .voidAuthorization else {
            throw CSEError(.serverAPIInvalidArgument, "only a settlement or a refund can be cancelled", context: ["argument": "kind"])
        }
        try PaysafeOperationRequest.checkIdentifier(id, argument: "id")
        if let accountID { try PaysafePaymentRequest.checkAccount(accountID) }
        let response = try await connection.send(
            .put, path: PaysafeOperationRequest.root(accountID: accountID) + [kind.collection, id],
            body: .object(JSONObject([("status", .string("CANCELLED"))])), retry: .idempotent)
        guard response.isSuccess else {
            let error = PaysafeTokenClient.error(of: response, redactor: connection.redactor)
            guard response.status == 404 else { throw error }
            throw CSEError(
                .serverUnknownPayment, "Paysafe knows no \(kind) with this id",
                context: ["platform": "paysafe", "targetId": SafeText.identifier(id)], underlying: error)
        }
        let operation = try PaysafeOperation(kind: kind, response: try ServerResponse.object(response, platform: "paysafe"))
        guard operation.id == id, operation.status == "CANCELLED" else {
            throw CSEError(
                .paysafeOperationUndetermined, "Paysafe's answer to the cancellation is not the operation, cancelled",
                context: ["operationStatus": connection.redactor.of(operation.status, limit: 32)])
        }
        return operation
    }

    /// What the answer must repeat: the amount and the reference (a Paysafe operation request
    /// carries no currency: the payment's is fixed, so no currency is held against the answer).
    static func expected(_ request: PaysafeOperationRequest) -> ExpectedAnswer {
        ExpectedAnswer(amount: request.amount, currencyCode: "", merchantReference: request.merchantReference)
    }

    /// The member of `operation` that names another operation than `request`, or `nil`.
    static func mismatch(_ operation: PaysafeOperation, _ request: PaysafeOperationRequest) -> String? {
        expected(request).mismatch(amount: operation.amount, currencyCode: nil, merchantReference: operation.merchantReference)
    }

    /// `COMPLETED` and the pending statuses succeed, the declined ones are refused, any other
    /// status is unknown.
    static func outcome(
        of operation: PaysafeOperation, keys: PaymentReconciliation, redactor: SafeText
    ) -> PaymentOutcome<PaysafeOperation> {
        if operation.isCompleted || operation.isPending { return .succeeded(operation, keys) }
        if operation.isDeclined { return .refused(operation, declined(operation, keys: keys, code: nil, redactor: redactor)) }
        let cause = CSEError(
            .paysafeOperationUndetermined, "Paysafe answered an operation status it does not document",
            context: ["operation": operation.kind.rawValue, "operationStatus": redactor.of(operation.status, limit: 32)])
        return .unknown(keys, outcomeUnknownError("the \(operation.kind)'s status decides nothing; look it up", keys, cause: cause))
    }

    /// The outcome of a request whose reference Paysafe already holds (a 409), from the
    /// operations listed under it: only those of the request's amount count (none: the reference
    /// belongs to another operation, `server.referenceInUse`); a completed, else a pending one is
    /// the earlier attempt (succeeded); refused only when every one is declined; otherwise unknown.
    static func outcome(
        ofEarlier operations: [PaysafeOperation], for request: PaysafeOperationRequest, keys: PaymentReconciliation,
        redactor: SafeText
    ) throws(CSEError) -> PaymentOutcome<PaysafeOperation> {
        let same = operations.filter { mismatch($0, request) == nil }
        guard let deciding = PaysafeOperation.deciding(same) else { throw referenceInUse(request.merchantReference, platform: "paysafe") }
        // A pending operation is accepted and completes in the normal course: the earlier attempt.
        if deciding.isCompleted || deciding.isPending { return .succeeded(deciding, keys) }
        return outcome(of: deciding, keys: keys, redactor: redactor)
    }

    /// `paysafe.operationDeclined`, with Paysafe's `error.code` when the body had one.
    static func declined(_ operation: PaysafeOperation, keys: PaymentReconciliation, code: String?, redactor: SafeText) -> CSEError {
        var context = [
            "operation": operation.kind.rawValue, "operationId": SafeText.identifier(operation.id),
            "operationStatus": redactor.of(operation.status, limit: 32),
        ]
        if let code { context["paysafeCode"] = redactor.of(code, limit: 16) }
        for (name, value) in keys.members { context[name] = value }
        return CSEError(.paysafeOperationDeclined, "Paysafe declined the \(operation.kind)", context: context)
    }
}
