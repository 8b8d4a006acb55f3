public import CSECore

/// A CapturePayment request (`POST /v2/{merchantId}/payments/{paymentId}/capture`,
/// `CapturePaymentRequest`; research notes §1.2): all or part of an authorised payment.
public struct WorldlineCaptureRequest: Sendable, CustomStringConvertible {
    /// The amount to capture in minor units, or `nil` for the whole amount still authorised
    /// ("if left empty, the full amount will be captured and the request will be final").
    public let amount: Int64?
    /// Whether this is the last capture (`isFinal`): the rest of the authorisation is released.
    /// Always `true` without an ``amount``.
    public let isFinal: Bool
    /// The merchant's reference of this capture (`operationReferences.merchantReference`).
    public let merchantReference: String?

    /// Creates a capture.
    /// - Throws: ``CSEError/Code/serverAPIInvalidArgument`` for an amount outside
    ///   1…999,999,999,999 or a reference that is not 1 to 40 printable characters.
    public init(amount: Int64? = nil, isFinal: Bool = false, merchantReference: String? = nil) throws(CSEError) {
        if let amount { try WorldlineOperationRules.checkAmount(amount) }
        try WorldlineOperationRules.checkReference(merchantReference)
        self.amount = amount
        self.isFinal = amount == nil || isFinal
        self.merchantReference = merchantReference
    }

    /// `{"amount", "isFinal", "operationReferences": {"merchantReference"}}`.
    package var json: JSONValue {
        var members: [(String, JSONValue)] = []
        if let amount { members.append(("amount", .number(String(amount)))) }
        members.append(("isFinal", .bool(isFinal)))
        WorldlineOperationRules.appendReference(merchantReference, to: &members)
        return .object(JSONObject(members))
    }

    /// Amount and finality only.
    public var description: String { "WorldlineCaptureRequest(amount: \(amount.map(String.init) ?? "all"), isFinal: \(isFinal))" }
}

/// A RefundPayment request (`POST /v2/{merchantId}/payments/{paymentId}/refund`,
/// `RefundRequest`; research notes §1.2): all or part of what was captured.
public struct WorldlineRefundRequest: Sendable, CustomStringConvertible {
    /// The amount to refund in minor units.
    public let amount: Int64
    /// The ISO 4217 code: the payment's currency.
    public let currencyCode: String
    /// Whether this is the last refund (`isFinal`).
    public let isFinal: Bool
    /// The merchant's reference of this refund (`operationReferences.merchantReference`).
    public let merchantReference: String?

    /// Creates a refund.
    /// - Throws: ``CSEError/Code/serverAPIInvalidArgument`` for an amount outside
    ///   1…999,999,999,999, a currency that is not an ISO 4217 code with minor units, or a
    ///   reference that is not 1 to 40 printable characters.
    public init(amount: Int64, currencyCode: String, isFinal: Bool = false, merchantReference: String? = nil) throws(CSEError) {
        try WorldlineOperationRules.checkAmount(amount)
        try WorldlinePaymentRequest.checkOrder(amount: amount, currencyCode: currencyCode, merchantReference: merchantReference)
        self.amount = amount
        self.currencyCode = currencyCode
        self.isFinal = isFinal
        self.merchantReference = merchantReference
    }

    /// `{"amountOfMoney": {"amount", "currencyCode"}, "isFinal", "operationReferences": {"merchantReference"}}`.
    package var json: JSONValue {
        var members: [(String, JSONValue)] = [
            ("amountOfMoney", WorldlineOperationRules.money(amount: amount, currencyCode: currencyCode)), ("isFinal", .bool(isFinal)),
        ]
        WorldlineOperationRules.appendReference(merchantReference, to: &members)
        return .object(JSONObject(members))
    }

    /// Amount and currency only.
    public var description: String { "WorldlineRefundRequest(amount: \(amount), currencyCode: \(currencyCode))" }
}

/// A CancelPayment request (`POST /v2/{merchantId}/payments/{paymentId}/cancel`,
/// `CancelPaymentRequest`; research notes §1.2): releases all or part of an authorisation not
/// yet captured.
public struct WorldlineCancelRequest: Sendable, CustomStringConvertible {
    /// The amount to release in minor units, or `nil` to cancel the whole authorisation.
    public let amount: Int64?
    /// The ISO 4217 code of ``amount`` (the payment's currency), given with it.
    public let currencyCode: String?
    /// Whether this is the last cancellation (`isFinal`): nothing stays authorised.
    public let isFinal: Bool
    /// The merchant's reference of this cancellation (`operationReferences.merchantReference`).
    public let merchantReference: String?

    /// Creates a cancellation.
    /// - Throws: ``CSEError/Code/serverAPIInvalidArgument`` for an amount without a currency or
    ///   a currency without an amount, an amount outside 1…999,999,999,999, a currency that is
    ///   not an ISO 4217 code with minor units, or a reference that is not 1 to 40 printable characters.
    public init(
        amount: Int64? = nil, currencyCode: String? = nil, isFinal: Bool = false, merchantReference: String? = nil
    )
        throws(CSEError)
    {
        guard (amount == nil) == (currencyCode == nil) else {
            throw CSEError(
                .serverAPIInvalidArgument, "a partial cancellation names both the amount and the currency",
                context: ["argument": amount == nil ? "amount" : "currencyCode"])
        }
        if let amount, let currencyCode {
            try WorldlineOperationRules.checkAmount(amount)
            try WorldlinePaymentRequest.checkOrder(amount: amount, currencyCode: currencyCode, merchantReference: nil)
        }
        try WorldlineOperationRules.checkReference(merchantReference)
        self.amount = amount
        self.currencyCode = currencyCode
        self.isFinal = isFinal
        self.merchantReference = merchantReference
    }

    /// `{"amountOfMoney": {"amount", "currencyCode"}, "isFinal", "operationReferences": {"merchantReference"}}`;
    /// `amountOfMoney` only for a partial cancellation.
    package var json: JSONValue {
        var members: [(String, JSONValue)] = []
        if let amount, let currencyCode {
            members.append(("amountOfMoney", WorldlineOperationRules.money(amount: amount, currencyCode: currencyCode)))
        }
        members.append(("isFinal", .bool(isFinal)))
        WorldlineOperationRules.appendReference(merchantReference, to: &members)
        return .object(JSONObject(members))
    }

    /// Amount and currency only.
    public var description: String {
        "WorldlineCancelRequest(amount: \(amount.map(String.init) ?? "all"), currencyCode: \(currencyCode ?? "-"))"
    }
}

/// The argument rules the three operation requests share.
enum WorldlineOperationRules {
    /// An operation moves at least one minor unit and at most the platform's 12 digits.
    static func checkAmount(_ amount: Int64) throws(CSEError) {
        guard (1...WorldlinePaymentRequest.maximumAmount).contains(amount) else {
            throw CSEError(.serverAPIInvalidArgument, "the amount is minor units from 1 to 999999999999", context: ["argument": "amount"])
        }
    }

    /// A reference is 1 to 40 printable characters, as CreatePayment's.
    static func checkReference(_ reference: String?) throws(CSEError) {
        try WorldlinePaymentRequest.checkOrder(amount: 0, currencyCode: "EUR", merchantReference: reference)
    }

    /// `{"amount", "currencyCode"}`.
    static func money(amount: Int64, currencyCode: String) -> JSONValue {
        .object(JSONObject([("amount", .number(String(amount))), ("currencyCode", .string(currencyCode))]))
    }

    /// Appends `"operationReferences": {"merchantReference"}` when there is a reference.
    static func appendReference(_ reference: String?, to members: inout [(String, JSONValue)]) {
        guard let reference else { return }
        members.append(("operationReferences", .object(JSONObject([("merchantReference", .string(reference))]))))
    }
}
