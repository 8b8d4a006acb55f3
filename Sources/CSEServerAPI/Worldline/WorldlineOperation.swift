public import CSECore

/// A capture or a refund of a Worldline payment: the `CaptureResponse` of CapturePayment, the
/// `RefundResponse` of RefundPayment, or one entry of the captures and refunds lists (research
/// notes §1.2). Each operation has its own id: the payment id's first part and the next
/// `_operationid` suffix (capture `3066019730_1`, refund `3066019730_2`).
public struct WorldlineOperation: Hashable, Sendable, CustomStringConvertible {
    /// What the operation is.
    public enum Kind: String, Hashable, Sendable {
        /// CapturePayment (`captureOutput`).
        case capture
        /// RefundPayment (`refundOutput`).
        case refund
    }

    /// Capture or refund.
    public let kind: Kind
    /// The operation's id, for example `3066019730_1`.
    public let id: String
    /// The status, for example `CAPTURE_REQUESTED`, `CAPTURED`, `REFUND_REQUESTED`, `REFUNDED`,
    /// `REJECTED_CAPTURE`.
    public let status: String
    /// `statusOutput.statusCategory`, if present.
    public let statusCategory: String?
    /// `statusOutput.statusCode`, if present.
    public let statusCode: Int?
    /// `amountOfMoney.amount` of the output, in minor units.
    public let amount: Int64?
    /// `amountOfMoney.currencyCode` of the output.
    public let currencyCode: String?
    /// `operationReferences.merchantReference` of the output (the operation's own reference).
    public let merchantReference: String?

    /// Decodes a `CaptureResponse` or `RefundResponse`.
    /// - Throws: ``CSEError/Code/serverAPIInvalidResponse`` naming the member when `id` or
    ///   `status` is missing or empty, or a member read has the wrong JSON type.
    init(_ object: JSONObject, kind: Kind, reader: ServerResponseReader) throws(CSEError) {
        self.kind = kind
        id = try reader.nonEmptyString(object, "id")
        status = try reader.nonEmptyString(object, "status")
        let (statusOutput, statusReader) = try reader.child(object, "statusOutput")
        statusCategory = try statusReader.optionalString(statusOutput, "statusCategory")
        statusCode = try statusReader.optionalInt(statusOutput, "statusCode")
        let (output, outputReader) = try reader.child(object, kind == .capture ? "captureOutput" : "refundOutput")
        let (money, moneyReader) = try outputReader.child(output, "amountOfMoney")
        amount = try moneyReader.optionalInt64(money, "amount")
        currencyCode = try moneyReader.optionalString(money, "currencyCode")
        let (references, referencesReader) = try outputReader.child(output, "operationReferences")
        merchantReference = try referencesReader.optionalString(references, "merchantReference")
    }

    /// Whether the platform refused the operation: `statusCategory` `UNSUCCESSFUL`, or, without a
    /// category, `REJECTED`, `REJECTED_CAPTURE`, `REJECTED_CREDIT` or `CANCELLED` (as
    /// ``WorldlinePayment/isUnsuccessful``).
    public var isUnsuccessful: Bool {
        if let statusCategory { return statusCategory == "UNSUCCESSFUL" }
        return WorldlinePayment.unsuccessfulStatuses.contains(status)
    }

    /// Whether the answer says how the operation stands: a documented category (or status), and
    /// no `statusCode` 92 ("uncertain").
    var isDetermined: Bool {
        if statusCode == 52 || statusCode == 92 { return false }
        if let statusCategory { return WorldlinePayment.knownCategories.contains(statusCategory) }
        return WorldlinePayment.knownStatuses.contains(status)
    }

    /// The operation id, status, category and code, made safe for an error's context.
    var statusContext: [String: String] {
        var context = ["operationId": SafeText.identifier(id), "operationStatus": SafeText.of(status, limit: 64)]
        if let statusCategory { context["statusCategory"] = SafeText.of(statusCategory, limit: 64) }
        if let statusCode { context["statusCode"] = String(statusCode) }
        return context
    }

    /// The fields as JSON (an operation carries no card data).
    package var json: JSONValue {
        var members: [(String, JSONValue)] = [("kind", .string(kind.rawValue)), ("id", .string(id)), ("status", .string(status))]
        if let statusCategory { members.append(("statusCategory", .string(statusCategory))) }
        if let statusCode { members.append(("statusCode", .number(String(statusCode)))) }
        if let amount { members.append(("amount", .number(String(amount)))) }
        if let currencyCode { members.append(("currencyCode", .string(currencyCode))) }
        if let merchantReference { members.append(("merchantReference", .string(merchantReference))) }
        return .object(JSONObject(members))
    }

    /// Kind, id and status.
    public var description: String { "WorldlineOperation(kind: \(kind.rawValue), id: \(id), status: \(status))" }
}
