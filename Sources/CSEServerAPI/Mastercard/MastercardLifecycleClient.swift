public import CSECore
@_spi(CustomTransport) import CSEHTTP
import CSEValidation

extension MastercardSessionClient {
    /// CAPTURE, REFUND or VOID: `PUT …/order/{orderId}/transaction/{transactionId}` with a new
    /// transaction id on the order (payment-lifecycle research notes §2.2).
    ///
    /// The answer is read as PAY's (research notes §3.3): approved or pending (the output names the
    /// gateway code) is ``PaymentOutcome/succeeded(_:_:)``; `FAILURE`, or `SUCCESS` with another
    /// gateway code, is ``PaymentOutcome/refused(_:_:)`` (`mastercard.transactionDeclined`); no
    /// answer read, an unreadable 2xx, a 5xx, `result` `UNKNOWN`, an undetermined gateway code or
    /// `SERVER_BUSY`/`SERVER_FAILED` is ``PaymentOutcome/unknown(_:_:)``, settled by the identical
    /// request (the same ids replay the first answer) or by RETRIEVE TRANSACTION. An answer naming
    /// another order, transaction, amount, currency, operation or target transaction is
    /// `server.referenceInUse`. A 409 whose body names no gateway error is unknown (a 409 naming
    /// no conflict, classed as CreatePayment's on Worldline).
    ///
    /// The gateway refuses a capture, refund or void it will not take with one cause,
    /// `INVALID_REQUEST`, whatever the reason. When nothing was processed, this call reads the
    /// order (RETRIEVE ORDER, a GET) to name the reason with the code every platform shares, the
    /// gateway's error as its cause: `server.unknownPayment` (no such order, or no such target
    /// transaction), `server.referenceInUse` (the transaction id is already on the order, for
    /// other content), `server.operationNotAllowed` (a capture of a sale or of a voided order, a
    /// refund of nothing captured, a void of a captured or voided order or of a transaction that is
    /// not an authorisation), `server.amountExceedsRemaining` (a capture over the authorised
    /// amount not yet captured, a refund over the captured amount not yet refunded). Otherwise the
    /// gateway's `mastercard.invalidRequest` is thrown as it came.
    /// - Throws: When nothing was processed: the codes above, a transport error before sending,
    ///   401/403 (`server.authenticationFailed`), `ERROR` with `REQUEST_REJECTED`; a 4xx after an
    ///   earlier attempt that may have been processed is ``PaymentOutcome/unknown(_:_:)`` instead.
    public func perform(_ request: MastercardLifecycleRequest) async throws(CSEError) -> PaymentOutcome<MastercardTransaction> {
        let intent = JournalIntent(
            platform: "mastercard", operation: request.operation.name.lowercased(), amount: request.amount,
            currency: request.currency?.code,
            merchantReference: request.reference,
            platformIDs: [
                "orderId": request.orderID, "transactionId": request.transactionID, "targetTransactionId": request.targetTransactionID,
            ]
            .compactMapValues { $0 })
        return try await journaled(http, intent) { () async throws(CSEError) in try await performOnce(request) }
    }

    /// ``perform(_:)`` itself, without the journal.
    private func performOnce(_ request: MastercardLifecycleRequest) async throws(CSEError) -> PaymentOutcome<MastercardTransaction> {
        let keys = PaymentReconciliation(orderID: request.orderID, transactionID: request.transactionID)
        let response: HTTPResponse
        do {
            response = try await ServerRequest.send(
                http, .put, url: try baseURL.appending(pathSegments: ["order", request.orderID, "transaction", request.transactionID]),
                headers: ["Authorization": credentials.basicAuthorization()], body: request.json, retry: .idempotent)
        } catch {
            if error.provesRequestNotSent { throw error }
            return .unknown(keys, outcomeUnknownError("no answer was read; the operation may have been processed", keys, cause: error))
        }
        var expected: ExpectedAnswer?
        if let amount = request.amount, let currency = request.currency {
            expected = ExpectedAnswer(
                amount: amount, currencyCode: currency.code,
                identifiers: [("orderId", request.orderID), ("transactionId", request.transactionID)])
        }
        let outcome: PaymentOutcome<MastercardTransaction>
        do {
            outcome = try Self.outcome(of: response, keys: keys, redactor: SafeText(secrets: [credentials.apiPassword]), expected: expected)
        } catch {
            // Thrown only when nothing was processed (`notProcessed` turned every other case unknown).
            guard error.code == .mastercardInvalidRequest else { throw error }
            throw await refusal(of: request, cause: error)
        }
        switch outcome {
        case .succeeded(let transaction, _), .refused(.some(let transaction), _), .pending(let transaction, _, _):
            if let member = Self.mismatch(of: transaction, with: request) {
                throw Self.answeredAnother(member: member, keys: keys)
            }
        case .refused, .unknown:
            break
        }
        return outcome
    }

    /// Whether the answer is a gateway `ERROR` naming its `error.cause` (a 409 without one names
    /// no conflict, and is an unknown outcome, as Worldline's CreatePayment classes it).
    static func namesGatewayError(_ response: HTTPResponse) -> Bool {
        guard let object = ServerResponse.errorObject(response), let detail = try? MastercardErrorDetail(object) else { return false }
        return detail.cause != nil
    }

    /// The first member of an answer that names another operation than `request`: `order.id`,
    /// `transaction.id`, `transaction.type` (CAPTURE, REFUND, VOID_…) or
    /// `transaction.targetTransactionId`; the amount and currency are checked by ``ExpectedAnswer``.
    static func mismatch(of transaction: MastercardTransaction, with request: MastercardLifecycleRequest) -> String? {
        if let id = transaction.orderID, id != request.orderID { return "orderId" }
        if let id = transaction.transactionID, id != request.transactionID { return "transactionId" }
        if let type = transaction.transactionType {
            let agrees = request.operation == .void ? type.hasPrefix("VOID") : type == request.operation.name
            if !agrees { return "transaction.type" }
        }
        if let target = request.targetTransactionID,
            let answered = transaction.json["transaction"]?["targetTransactionId"]?.stringValue, answered != target
        {
            return "targetTransactionId"
        }
        return nil
    }

    /// `server.referenceInUse`: the answer replays another operation under these ids.
    static func answeredAnother(member: String, keys: PaymentReconciliation) -> CSEError {
        var context = ["platform": "mastercard", "member": member]
        for (name, value) in keys.members { context[name] = value }
        return CSEError(
            .serverReferenceInUse,
            "the gateway answered with another operation (its \(member) differs from the request): the ids were used for "
                + "another transaction, and this request took nothing",
            context: context)
    }

    /// The shared refusal code for an `INVALID_REQUEST` answer to `request`, read from the order
    /// as it stands (RETRIEVE ORDER); `cause` itself when the order does not explain it.
    func refusal(of request: MastercardLifecycleRequest, cause: CSEError) async -> CSEError {
        func refused(_ code: CSEError.Code, _ reason: String) -> CSEError {
            var context = ["platform": "mastercard", "orderId": request.orderID, "transactionId": request.transactionID]
            if let target = request.targetTransactionID { context["targetTransactionId"] = target }
            return CSEError(code, reason + "; nothing was processed", context: context, underlying: cause)
        }
        let order: JSONObject
        do {
            order = try await get(["order", request.orderID])
        } catch {
            return error.code == .mastercardInvalidRequest ? refused(.serverUnknownPayment, "the gateway holds no such order") : cause
        }
        var types: [String: String] = [:]
        for element in order["transaction"]?.arrayValue ?? [] {
            if let id = element["id"]?.stringValue { types[id] = element["type"]?.stringValue ?? "" }
        }
        if types[request.transactionID] != nil {
            return refused(.serverReferenceInUse, "the transaction id is already used on the order for another operation")
        }
        let isCancelled = order["status"]?.stringValue == "CANCELLED"
        let exponent = (order["currency"]?.stringValue).flatMap { Currency(code: $0)?.minorUnits }
        func total(_ name: String) -> Int64? {
            guard let exponent, let text = order[name]?.scalarText else { return nil }
            return ExpectedAnswer.minorUnits(fromMajorNumber: text, exponent: exponent)
        }
        let authorized = total("totalAuthorizedAmount"), captured = total("totalCapturedAmount")
        let refunded = total("totalRefundedAmount") ?? 0
        let sameCurrency = request.currency?.code == order["currency"]?.stringValue
        switch request.operation {
        case .void:
            guard let target = request.targetTransactionID, let type = types[target] else {
                return refused(.serverUnknownPayment, "the order has no transaction with the target id")
            }
            if isCancelled || (captured ?? 0) > 0 || type != "AUTHORIZATION" {
                return refused(.serverOperationNotAllowed, "only an authorisation with nothing captured can be voided")
            }
        case .capture:
            if isCancelled || types.values.contains("PAYMENT") {
                return refused(.serverOperationNotAllowed, "the order is voided or a sale (PAY): there is nothing to capture")
            }
            if sameCurrency, let amount = request.amount, let authorized, let captured, amount > authorized - captured {
                return refused(.serverAmountExceedsRemaining, "the capture is over the authorised amount not yet captured")
            }
        default:
            if captured == 0 {
                return refused(.serverOperationNotAllowed, "nothing was captured on the order: there is nothing to refund")
            }
            if sameCurrency, let amount = request.amount, let captured, amount > captured - refunded {
                return refused(.serverAmountExceedsRemaining, "the refund is over the captured amount not yet refunded")
            }
        }
        return cause
    }
}
