public import CSECore
internal import CSEGateways
@_spi(CustomTransport) internal import CSEHTTP

/// Settles the entries a journal holds open (issue #36, `cse journal settle`): every `open`,
/// `pending` or `unknown` entry of one platform is looked up with the platform's own query and
/// the keys the entry recorded, and what the platform answers is recorded as the entry's outcome.
/// Nothing that may have been processed is ever sent again:
///
/// - Worldline: a payment with a recorded id by GetPayment; a capture or refund by listing the
///   payment's captures or refunds (`captures(ofPayment:)`, `refunds(ofPayment:)`) and finding its
///   merchant reference (none listed: the platform never booked it, `notSent`); a CreatePayment
///   whose id was never read by sending its idempotence key again with an empty body (`{}`,
///   no payment data): a platform that saw the key replays the first answer, which is recorded;
///   one that never saw it refuses the incomplete request (400), which proves the payment was not
///   sent (research notes §1.3). A cancellation is settled when GetPayment shows the payment cancelled.
/// - Mastercard: RETRIEVE TRANSACTION by the recorded order and transaction ids; a transaction the
///   gateway does not know (`mastercard.invalidRequest`) was not sent.
/// - APS: CHECK_STATUS by the merchant reference; an order APS does not know (11036) was not
///   sent. A capture or refund is settled by the order's captured or refunded total: the amounts
///   the journal recorded as succeeded plus this entry's (booked), or without it (not booked:
///   refused when the order's last operation is this command's failure, else not sent); any
///   other total leaves it open. A void is settled when the order's last operation is a void.
/// - Paysafe: the payments, or the settlements, refunds or voids, with the entry's merchant
///   reference (the lookup of its kind); none listed: not sent.
///
/// Entries of calls without such a lookup (the creation of a card-on-file token or saved card)
/// and entries whose lookup fails or cannot decide keep their state. Settle when no process is still
/// sending one of the entries: an entry `open` because its call is still in flight may look
/// unsent to the platform.
public struct JournalSettler: Sendable {
    /// The journal whose entries are settled.
    public let journal: any PaymentJournal

    /// A settler of `journal`'s entries.
    public init(journal: any PaymentJournal) { self.journal = journal }

    /// Settles the open Worldline entries with `client` (GetPayment, the payment's captures and
    /// refunds, and the idempotence-key replay described above).
    /// - Throws: `journal.*` when the journal cannot be read or written.
    public func settle(with client: WorldlineServerClient) async throws(CSEError) -> JournalSettlement {
        try await settle("worldline") { (entry) async throws(CSEError) -> JournalOutcome? in try await client.settlingOutcome(of: entry) }
    }

    /// Settles the open Mastercard entries with `client` (RETRIEVE TRANSACTION).
    /// - Throws: `journal.*` when the journal cannot be read or written.
    public func settle(with client: MastercardSessionClient) async throws(CSEError) -> JournalSettlement {
        try await settle("mastercard") { (entry) async throws(CSEError) -> JournalOutcome? in try await client.settlingOutcome(of: entry) }
    }

    /// Settles the open APS entries with `client` (CHECK_STATUS).
    /// - Throws: `journal.*` when the journal cannot be read or written.
    public func settle(with client: APSPaymentClient) async throws(CSEError) -> JournalSettlement {
        let entries = try journal.entries(matching: JournalFilter(platform: "aps"))
        return try await settle("aps") { (entry) async throws(CSEError) -> JournalOutcome? in
            try await client.settlingOutcome(of: entry, among: entries)
        }
    }

    /// Settles the open Paysafe entries with `client`, on the Payments API or, with `accountID`,
    /// the Card Payments API of that account (the lookups by merchant reference).
    /// - Throws: `journal.*` when the journal cannot be read or written.
    public func settle(with client: PaysafePaymentClient, accountID: String? = nil) async throws(CSEError) -> JournalSettlement {
        try await settle("paysafe") { (entry) async throws(CSEError) -> JournalOutcome? in
            try await client.settlingOutcome(of: entry, accountID: accountID)
        }
    }

    /// Looks up every open entry of `platform` and records what `lookup` learned.
    private func settle(
        _ platform: String, _ lookup: (JournalEntry) async throws(CSEError) -> JournalOutcome?
    ) async throws(CSEError) -> JournalSettlement {
        let open = try journal.entries(matching: JournalFilter(openOnly: true, platform: platform))
        var failures: [JournalEntryID: CSEError] = [:]
        for entry in open {
            do throws(CSEError) {
                if let outcome = try await lookup(entry) { try journal.recordOutcome(entry.id, outcome) }
            } catch  where !error.code.rawValue.hasPrefix("journal.") {
                failures[entry.id] = error
            }
        }
        let ids = Set(open.map(\.id))
        let now = try journal.entries(matching: JournalFilter(platform: platform)).filter { ids.contains($0.id) }
        return JournalSettlement(entries: now.map { JournalSettlement.Result(entry: $0, lookupError: failures[$0.id]) })
    }
}

/// What ``JournalSettler`` did: each entry that was open, as it stands now.
public struct JournalSettlement: Sendable {
    /// One entry that was open.
    public struct Result: Sendable {
        /// The entry after settling.
        public let entry: JournalEntry
        /// Why its lookup failed (a transport failure, a refused query), when it did; the entry
        /// then kept its state.
        public let lookupError: CSEError?
    }

    /// The entries that were open, oldest first.
    public let entries: [Result]

    /// Whether some entry is still `pending` (the payer or the platform must act).
    public var hasPending: Bool { entries.contains { $0.entry.state == .pending } }
    /// Whether some entry's outcome is still not known (`open` or `unknown`).
    public var hasUnknown: Bool { entries.contains { $0.entry.state == .open || $0.entry.state == .unknown } }
}

extension JournalOutcome {
    /// What a journal records of `outcome`: its state, the code of a refusal or of an unknown
    /// outcome's cause, a pending payment's action type, and the ids of its keys and of
    /// `ids(payment)`. The one mapping of ``journaled(_:_:ids:_:)`` and ``JournalSettler``.
    init<Payment>(recording outcome: PaymentOutcome<Payment>, ids: (Payment) -> [String: String]) {
        switch outcome {
        case .succeeded(let payment, let keys):
            self.init(state: .succeeded, platformIDs: keys.journalIDs.merging(ids(payment)) { _, new in new })
        case .refused(let payment, let error):
            self.init(state: .refused, code: error.code.rawValue, platformIDs: payment.map(ids) ?? [:])
        case .pending(let payment, let action, let keys):
            self.init(state: .pending, action: action?.type, platformIDs: keys.journalIDs.merging(ids(payment)) { _, new in new })
        case .unknown(let keys, let error):
            self.init(state: .unknown, code: (error.underlying?.code ?? error.code).rawValue, platformIDs: keys.journalIDs)
        }
    }

    /// The outcome of a call that threw `error`: `notSent` when the error proves nothing was
    /// processed by the platform's own answer, else `refused`.
    init(refusal error: CSEError, notSent: Bool) {
        self.init(state: notSent ? .notSent : .refused, code: error.code.rawValue)
    }
}

extension PaymentReconciliation {
    /// The platform ids of the keys as journal members (`orderId`, `transactionId`,
    /// `paymentId`); the idempotence key and merchant reference have columns of their own.
    var journalIDs: [String: String] {
        var ids: [String: String] = [:]
        if let orderID { ids["orderId"] = orderID }
        if let transactionID { ids["transactionId"] = transactionID }
        if let paymentID { ids["paymentId"] = paymentID }
        return ids
    }

    /// The keys an entry recorded.
    init(entry: JournalEntry) {
        self.init(
            idempotenceKey: entry.intent.idempotenceKey.flatMap { try? IdempotenceKey($0) },
            merchantReference: entry.intent.merchantReference,
            orderID: entry.platformIDs["orderId"], transactionID: entry.platformIDs["transactionId"],
            paymentID: entry.platformIDs["paymentId"])
    }
}

/// Runs `outcome()`; a thrown refusal is recorded as refused with its code, or not sent when it
/// proves nothing was processed.
private func recording<Payment>(
    _ outcome: () throws(CSEError) -> PaymentOutcome<Payment>, ids: (Payment) -> [String: String]
) -> JournalOutcome {
    do throws(CSEError) {
        return JournalOutcome(recording: try outcome(), ids: ids)
    } catch {
        return JournalOutcome(refusal: error, notSent: error.provesRequestNotSent)
    }
}

extension WorldlineServerClient {
    /// What the platform knows of a Worldline entry, or `nil` when it cannot tell.
    func settlingOutcome(of entry: JournalEntry) async throws(CSEError) -> JournalOutcome? {
        let keys = PaymentReconciliation(entry: entry)
        let redactor = SafeText(secrets: [credentials.secretAPIKey])
        switch entry.intent.operation {
        case "capture", "refund":
            guard let paymentID = keys.paymentID, let reference = entry.intent.merchantReference else { return nil }
            let listed =
                entry.intent.operation == "capture" ? try await captures(ofPayment: paymentID) : try await refunds(ofPayment: paymentID)
            guard let operation = listed.first(where: { $0.merchantReference == reference }) else {
                return JournalOutcome(state: .notSent)
            }
            if operation.isUnsuccessful {
                return JournalOutcome(
                    state: .refused, code: Self.refusal(operation, status: 200).code.rawValue, platformIDs: ["operationId": operation.id])
            }
            guard operation.isDetermined else {
                return JournalOutcome(state: .unknown, code: CSEError.Code.worldlinePaymentUndetermined.rawValue)
            }
            return JournalOutcome(state: .succeeded, platformIDs: ["operationId": operation.id])
        case "cancel":
            guard let paymentID = keys.paymentID else { return nil }
            let payment = try await getPayment(id: paymentID)
            return payment.status == "CANCELLED" ? JournalOutcome(state: .succeeded) : nil
        case "createPayment":
            if let paymentID = keys.paymentID {
                let payment = try await getPayment(id: paymentID)
                if payment.isUnsuccessful {
                    return JournalOutcome(state: .refused, code: Self.refusal(payment, status: 200).code.rawValue)
                }
                guard payment.isDetermined else {
                    return JournalOutcome(state: .unknown, code: CSEError.Code.worldlinePaymentUndetermined.rawValue)
                }
                if payment.statusCategory == "PENDING_PAYMENT" || payment.merchantActionType != nil {
                    return JournalOutcome(state: .pending, action: payment.merchantActionType.map { $0.lowercased() })
                }
                return JournalOutcome(state: .succeeded)
            }
            guard let key = keys.idempotenceKey else { return nil }
            // The same key with no payment data: a replay of the first answer, or a refusal of
            // the incomplete request by a platform that never saw the key (research notes §1.3).
            let response = try await send(.post, path: ["payments"], body: .object(JSONObject()), idempotenceKey: key)
            if response.headers["X-GCS-Idempotence-Request-Timestamp"] != nil {
                return recording({ () throws(CSEError) in try Self.outcome(of: response, reconciliation: keys, redactor: redactor) }) {
                    ["paymentId": $0.id]
                }
            }
            return response.status == 400 ? JournalOutcome(state: .notSent) : nil
        default:
            // Token creation and any other call: no lookup here tells (it stays open).
            return nil
        }
    }
}

extension MastercardSessionClient {
    /// What the gateway knows of a Mastercard entry (RETRIEVE TRANSACTION), or `nil` when it
    /// cannot tell.
    func settlingOutcome(of entry: JournalEntry) async throws(CSEError) -> JournalOutcome? {
        // Transactions only (a token's creation has no order): by their order and transaction ids.
        guard let orderID = entry.platformIDs["orderId"], let transactionID = entry.platformIDs["transactionId"] else { return nil }
        let transaction: MastercardTransaction
        do {
            transaction = try await retrieveTransaction(orderID: orderID, transactionID: transactionID)
        } catch  where error.code == .mastercardInvalidRequest {
            // The gateway never received the transaction (retrieveTransaction's documentation).
            return JournalOutcome(state: .notSent)
        }
        if transaction.isApproved || transaction.isPending { return JournalOutcome(state: .succeeded) }
        if let code = transaction.gatewayCode, MastercardTransaction.undeterminedCodes.contains(code) {
            return JournalOutcome(state: .unknown, code: CSEError.Code.mastercardError.rawValue)
        }
        if transaction.result == "FAILURE" || transaction.result == "SUCCESS" {
            return JournalOutcome(state: .refused, code: CSEError.Code.mastercardTransactionDeclined.rawValue)
        }
        return nil
    }
}

extension APSPaymentClient {
    /// A maintenance command's success and failure statuses, and the CHECK_STATUS member that
    /// totals what it moved.
    private static let maintenance: [String: (statuses: Set<String>, total: String?)] = [
        "capture": (["04", "05"], "captured_amount"), "refund": (["06", "07"], "refunded_amount"),
        "void_authorization": (["08", "09"], nil),
    ]

    /// What APS knows of an APS entry (CHECK_STATUS), or `nil` when it cannot tell. `entries`
    /// are the journal's entries of the platform: a capture or refund is settled by comparing the
    /// order's captured or refunded total with the amounts the journal recorded as succeeded.
    func settlingOutcome(of entry: JournalEntry, among entries: [JournalEntry]) async throws(CSEError) -> JournalOutcome? {
        let payment = entry.intent.operation == "purchase" || entry.intent.operation == "authorization"
        guard let reference = entry.intent.merchantReference, payment || Self.maintenance[entry.intent.operation] != nil else { return nil }
        try APSPaymentRequest.checkReference(reference)
        let verified = try await connection.call([
            ("query_command", .string("CHECK_STATUS")), ("merchant_reference", .string(reference)), ("language", .string("en")),
        ])
        let query = try APSTransaction(verified: verified)
        // 11036: APS knows no order with this reference, so nothing was done with it.
        if query.responseCode.status == "11" { return JournalOutcome(state: .notSent) }
        guard query.responseCode.status == "12", verified["transaction_code"] != nil else { throw error(query.responseCode) }
        let order = try APSTransaction(verified: verified, codeMember: "transaction_code")
        let ids = order.journalIDs
        let status = order.responseCode.status
        if let rule = Self.maintenance[entry.intent.operation] {
            if let member = rule.total, let amount = entry.intent.amount, let total = verified[member]?.scalarText.flatMap({ Int64($0) }) {
                let recorded = entries.filter {
                    $0.id != entry.id && $0.intent.merchantReference == reference && $0.intent.operation == entry.intent.operation
                        && $0.state == .succeeded
                }
                .reduce(Int64(0)) { $0 + ($1.intent.amount ?? 0) }
                if total == recorded + amount { return JournalOutcome(state: .succeeded, platformIDs: ids) }
                guard total == recorded else { return nil }
                // Not booked: refused when the order's last operation is this command's failure,
                // else never processed.
                if rule.statuses.contains(status), order.standing == .refused {
                    return JournalOutcome(state: .refused, code: error(order.responseCode).code.rawValue, platformIDs: ids)
                }
                return JournalOutcome(state: .notSent)
            }
            guard rule.statuses.contains(status) else { return nil }
        }
        switch order.standing {
        case .succeeded: return JournalOutcome(state: .succeeded, platformIDs: ids)
        case .pending: return JournalOutcome(state: .pending, action: order.action?.type, platformIDs: ids)
        case .refused: return JournalOutcome(state: .refused, code: error(order.responseCode).code.rawValue, platformIDs: ids)
        case .notProcessed: return JournalOutcome(state: .notSent, code: error(order.responseCode).code.rawValue)
        case .unknown: return JournalOutcome(state: .unknown, code: error(order.responseCode).code.rawValue, platformIDs: ids)
        }
    }
}

extension PaysafePaymentClient {
    /// What Paysafe knows of a Paysafe entry (the lookup of its kind by merchant reference), or
    /// `nil` when it cannot tell.
    func settlingOutcome(of entry: JournalEntry, accountID: String?) async throws(CSEError) -> JournalOutcome? {
        guard let reference = entry.intent.merchantReference else { return nil }
        let keys = PaymentReconciliation(entry: entry)
        let redactor = connection.redactor
        if let kind = PaysafeOperation.Kind(rawValue: entry.intent.operation) {
            let found = try await operations(kind, merchantReference: reference, accountID: accountID)
            let same = found.filter { operation in
                entry.intent.amount.map { amount in operation.amount.map { $0 == amount } ?? true } ?? true
            }
            guard let first = same.first(where: \.isCompleted) ?? same.first(where: \.isPending) ?? same.first else {
                return found.isEmpty ? JournalOutcome(state: .notSent) : nil
            }
            return JournalOutcome(recording: Self.outcome(of: first, keys: keys, redactor: redactor)) { ["id": $0.id] }
        }
        // Payments only (a saved card's creation has no lookup here: it stays open).
        guard entry.intent.operation == "payment" || entry.intent.operation == "authorization" else { return nil }
        let listed = try await payments(merchantReference: reference, accountID: accountID)
        let same = listed.filter { payment in
            (entry.intent.amount.map { amount in payment.amount.map { $0 == amount } ?? true } ?? true)
                && (entry.intent.currency.map { code in payment.currencyCode.map { $0 == code } ?? true } ?? true)
        }
        guard let first = same.first(where: \.isCompleted) ?? same.first(where: \.isPending) ?? same.first else {
            return listed.isEmpty ? JournalOutcome(state: .notSent) : nil
        }
        return JournalOutcome(recording: Self.outcome(of: first, keys: keys, redactor: redactor)) { ["paymentId": $0.id] }
    }
}
