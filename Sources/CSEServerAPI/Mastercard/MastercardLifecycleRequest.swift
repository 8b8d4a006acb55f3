public import CSECore
public import CSEValidation

/// A CAPTURE, REFUND or VOID on a Mastercard Gateway order: a **new** transaction
/// (`PUT …/order/{orderId}/transaction/{transactionId}` with a transaction id of the merchant's
/// choosing) that never carries a source of funds (payment-lifecycle research notes §2.2).
///
/// Like PAY, the order and transaction ids make the call idempotent: the gateway answers an
/// identical repeat with the first answer and moves no money twice. Use a new transaction id for
/// each operation, and never reuse one for different content.
public struct MastercardLifecycleRequest: Sendable, CustomStringConvertible {
    /// `apiOperation`.
    public struct Operation: Hashable, Sendable, CustomStringConvertible {
        /// The value sent.
        public let name: String
        private init(_ name: String) { self.name = name }
        /// Capture all or part of an authorisation (`transaction.amount`, `transaction.currency`).
        public static let capture = Operation("CAPTURE")
        /// Refund all or part of what was captured (`transaction.amount`, `transaction.currency`).
        public static let refund = Operation("REFUND")
        /// Void an authorisation (`transaction.targetTransactionId`; no amount).
        public static let void = Operation("VOID")
        /// The value sent.
        public var description: String { name }
    }

    /// CAPTURE, REFUND or VOID.
    public let operation: Operation
    /// The order the operation belongs to (the order of the AUTHORIZE or PAY).
    public let orderID: String
    /// The new transaction id of this operation, unique within the order.
    public let transactionID: String
    /// The amount in minor units of ``currency`` (CAPTURE and REFUND; `nil` for VOID).
    public let amount: Int64?
    /// The ISO 4217 currency, the order's (CAPTURE and REFUND; `nil` for VOID).
    public let currency: Currency?
    /// The transaction a VOID cancels (`transaction.targetTransactionId`; `nil` otherwise).
    public let targetTransactionID: String?
    /// `transaction.reference`, the merchant's reference of this operation, when given.
    public let reference: String?
    /// `transaction.amount` in major units, from the ISO 4217 exponent (computed once, here).
    let amountText: String?

    private init(
        _ operation: Operation, orderID: String, transactionID: String, amount: Int64?, currency: Currency?,
        targetTransactionID: String?, reference: String?
    ) throws(CSEError) {
        try MastercardTransactionRequest.checkID(orderID, argument: "orderId")
        try MastercardTransactionRequest.checkID(transactionID, argument: "transactionId")
        if let targetTransactionID {
            try MastercardTransactionRequest.checkID(targetTransactionID, argument: "targetTransactionId")
            guard targetTransactionID != transactionID else {
                throw CSEError(
                    .serverAPIInvalidArgument, "a void is a new transaction: its id differs from the target's",
                    context: ["argument": "transactionId"])
            }
        }
        if let reference { try MastercardTransactionRequest.checkID(reference, argument: "reference") }
        if let amount, let currency {
            guard (1...999_999_999_999).contains(amount) else {
                throw CSEError(
                    .serverAPIInvalidArgument, "the amount is minor units from 1 to 999999999999", context: ["argument": "amount"])
            }
            guard currency.minorUnits != nil else {
                throw CSEError(.serverAPIInvalidArgument, "the currency has no minor unit in ISO 4217", context: ["argument": "currency"])
            }
            amountText = try currency.majorString(fromMinor: amount)
        } else {
            amountText = nil
        }
        self.operation = operation
        self.orderID = orderID
        self.transactionID = transactionID
        self.amount = amount
        self.currency = currency
        self.targetTransactionID = targetTransactionID
        self.reference = reference
    }

    /// CAPTURE: collect `amount` of the order's authorisation (all of it, or a part: several partial
    /// captures may follow each other up to the authorised amount).
    /// - Parameters:
    ///   - orderID: The order of the AUTHORIZE.
    ///   - transactionID: A new transaction id for this capture.
    ///   - amount: Minor units, 1 to 999999999999; sent in major units by the ISO 4217 exponent.
    ///   - currency: The order's currency.
    ///   - reference: An optional `transaction.reference`.
    /// - Throws: ``CSEError/Code/serverAPIInvalidArgument`` naming the argument: an id or reference
    ///   that is not 1–40 identifier characters, an amount out of range, a currency without minor
    ///   units in ISO 4217.
    public static func capture(
        orderID: String, transactionID: String, amount: Int64, currency: Currency, reference: String? = nil
    ) throws(CSEError) -> MastercardLifecycleRequest {
        try MastercardLifecycleRequest(
            .capture, orderID: orderID, transactionID: transactionID, amount: amount, currency: currency, targetTransactionID: nil,
            reference: reference)
    }

    /// REFUND: return `amount` of what the order captured (several partial refunds may follow each
    /// other up to the captured amount).
    /// - Parameters: As ``capture(orderID:transactionID:amount:currency:reference:)``.
    /// - Throws: As ``capture(orderID:transactionID:amount:currency:reference:)``.
    public static func refund(
        orderID: String, transactionID: String, amount: Int64, currency: Currency, reference: String? = nil
    ) throws(CSEError) -> MastercardLifecycleRequest {
        try MastercardLifecycleRequest(
            .refund, orderID: orderID, transactionID: transactionID, amount: amount, currency: currency, targetTransactionID: nil,
            reference: reference)
    }

    /// VOID: cancel the transaction `targetTransactionID` of the order (an authorisation not yet
    /// captured), releasing the hold on the payer's card.
    /// - Parameters:
    ///   - orderID: The order of the AUTHORIZE.
    ///   - transactionID: A new transaction id for this void (not the target's).
    ///   - targetTransactionID: The transaction voided (`transaction.targetTransactionId`).
    ///   - reference: An optional `transaction.reference`.
    /// - Throws: ``CSEError/Code/serverAPIInvalidArgument`` naming the argument: an id or reference
    ///   that is not 1–40 identifier characters, or a transaction id equal to the target's.
    public static func void(
        orderID: String, transactionID: String, targetTransactionID: String, reference: String? = nil
    ) throws(CSEError) -> MastercardLifecycleRequest {
        try MastercardLifecycleRequest(
            .void, orderID: orderID, transactionID: transactionID, amount: nil, currency: nil,
            targetTransactionID: targetTransactionID, reference: reference)
    }

    /// The body: `apiOperation` and `transaction {amount, currency[, reference]}` (the amount a
    /// decimal in major units: 2345 EUR is `"23.45"`), or `transaction {targetTransactionId[,
    /// reference]}` for VOID; never a `sourceOfFunds`.
    package var json: JSONValue {
        var transaction: [(String, JSONValue)] = []
        if let amountText, let currency {
            transaction.append(("amount", .string(amountText)))
            transaction.append(("currency", .string(currency.code)))
        }
        if let targetTransactionID { transaction.append(("targetTransactionId", .string(targetTransactionID))) }
        if let reference { transaction.append(("reference", .string(reference))) }
        return .object(JSONObject([("apiOperation", .string(operation.name)), ("transaction", .object(JSONObject(transaction)))]))
    }

    /// Operation, ids, amount and currency (none of them is a secret).
    public var description: String {
        var parts = ["order: \(orderID)", "transaction: \(transactionID)"]
        if let amount, let currency { parts.append("amount: \(amount) \(currency.code)") }
        if let targetTransactionID { parts.append("target: \(targetTransactionID)") }
        return "MastercardLifecycleRequest(\(operation) " + parts.joined(separator: ", ") + ")"
    }
}
