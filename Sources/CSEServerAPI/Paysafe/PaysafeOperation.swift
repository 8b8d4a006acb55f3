public import CSECore

extension CSEError.Code {
    /// Paysafe declined a settlement, refund or void authorisation: HTTP 402 (the body is the
    /// operation with an `error`), or an operation whose `status` is `FAILED`, `CANCELLED` or
    /// `EXPIRED` (issue #33). The context names the operation, its status, the Paysafe code and the
    /// merchant reference.
    public static let paysafeOperationDeclined = Self("paysafe.operationDeclined")
    /// Paysafe answered a settlement, refund or void authorisation in a `status` it does not
    /// document, or, after a 409, listed operations under the reference whose outcomes disagree:
    /// the cause of an unknown outcome, never a success (issue #33). The context names the status.
    public static let paysafeOperationUndetermined = Self("paysafe.operationUndetermined")
}

/// A Paysafe operation on an authorised payment: a settlement (capture), a refund of a
/// settlement, or a void authorisation (lifecycle research notes §4.2; Payments API
/// `Settlement`, `Refund`, `VoidAuthorization`; Card Payments API the same objects under an account).
public struct PaysafeOperation: Sendable, CustomStringConvertible, PaysafeStatus {
    /// What an operation does, and so where it is sent and listed.
    public enum Kind: String, Sendable, CaseIterable, CustomStringConvertible {
        /// A settlement of an authorisation (`POST …/payments/{id}/settlements`; Card Payments
        /// `…/auths/{id}/settlements`).
        case settlement
        /// A refund of a settlement (`POST …/settlements/{id}/refunds`).
        case refund
        /// A void authorisation, which releases all or part of the authorised amount
        /// (`POST …/payments/{id}/voidauths`; Card Payments `…/auths/{id}/voidauths`).
        case voidAuthorization

        /// The collection the operation lives in (`settlements`, `refunds`, `voidauths`).
        var collection: String {
            switch self {
            case .settlement: return "settlements"
            case .refund: return "refunds"
            case .voidAuthorization: return "voidauths"
            }
        }

        /// The member of a lookup's answer that lists the operations (`settlements`, `refunds`,
        /// `voidAuths`; PS-PHP `SettlementList`, `RefundList`, `VoidAuthorizationsList`).
        package var listMember: String {
            switch self {
            case .settlement: return "settlements"
            case .refund: return "refunds"
            case .voidAuthorization: return "voidAuths"
            }
        }

        /// The collection an operation's target lives in: payments (or Card Payments auths) for a
        /// settlement or a void, settlements for a refund.
        func targetCollection(accountID: String?) -> String {
            switch self {
            case .settlement, .voidAuthorization: return accountID == nil ? "payments" : "auths"
            case .refund: return "settlements"
            }
        }

        /// `settlement`, `refund` or `voidAuthorization`.
        public var description: String { rawValue }
    }

    /// What the operation is.
    public let kind: Kind
    /// The operation's id (a settlement's id is what a refund targets).
    public let id: String
    /// `status`, for example `PENDING`, `COMPLETED`, `FAILED`.
    public let status: String
    /// `merchantRefNum`.
    public let merchantReference: String?
    /// `amount`, in minor units.
    public let amount: Int64?
    /// `currencyCode`, when the answer gives it.
    public let currencyCode: String?
    /// `availableToRefund` of a settlement, in minor units.
    public let availableToRefund: Int64?

    /// Decodes an operation of `kind`, with `reader` naming the members.
    /// - Throws: ``CSEError/Code/serverAPIInvalidResponse`` naming the member when `id` or
    ///   `status` is missing, empty or not a string, or a member read has the wrong JSON type.
    init(kind: Kind, response: JSONObject, reader: ServerResponseReader = ServerResponseReader(platform: "paysafe")) throws(CSEError) {
        self.kind = kind
        id = try reader.nonEmptyString(response, "id")
        status = try reader.nonEmptyString(response, "status")
        merchantReference = try reader.optionalString(response, "merchantRefNum")
        amount = try reader.optionalInt64(response, "amount")
        currencyCode = try reader.optionalString(response, "currencyCode")
        availableToRefund = try reader.optionalInt64(response, "availableToRefund")
    }

    /// Whether the operation is done (`COMPLETED`).
    public var isCompleted: Bool { status == "COMPLETED" }
    /// Whether the operation was accepted and completes later in the normal course (`RECEIVED`,
    /// `INITIATED`, `PENDING`, `PROCESSING`, `HELD`: a settlement stays `PENDING` until Paysafe
    /// batches it).
    public var isPending: Bool { PaysafePayment.pendingStatuses.contains(status) }
    /// Whether the operation was refused for good (`FAILED`, `CANCELLED`, `EXPIRED`).
    public var isDeclined: Bool { PaysafePayment.declinedStatuses.contains(status) }
    /// Whether the status is one Paysafe documents: completed, pending or declined.
    public var isDocumentedStatus: Bool { isCompleted || isPending || isDeclined }

    /// The fields as JSON, with the kind (an operation carries no card data).
    package var json: JSONValue {
        var members: [(String, JSONValue)] = [("kind", .string(kind.rawValue)), ("id", .string(id)), ("status", .string(status))]
        if let merchantReference { members.append(("merchantRefNum", .string(merchantReference))) }
        if let amount { members.append(("amount", .number(String(amount)))) }
        if let currencyCode { members.append(("currencyCode", .string(currencyCode))) }
        if let availableToRefund { members.append(("availableToRefund", .number(String(availableToRefund)))) }
        return .object(JSONObject(members))
    }

    /// Kind, id, status and reference.
    public var description: String {
        "PaysafeOperation(kind: \(kind), id: \(id), status: \(status), merchantRefNum: \(merchantReference ?? "-"))"
    }
}

/// A settlement, refund or void authorisation to send to Paysafe (lifecycle research notes §4.2).
public struct PaysafeOperationRequest: Sendable, CustomStringConvertible {
    /// What the request does.
    public let kind: PaysafeOperation.Kind
    /// The id the operation acts on: the payment (Card Payments: the auth) for a settlement or a
    /// void, the settlement for a refund.
    public let targetID: String
    /// The merchant's reference, unique per operation: with `dupCheck` (always on) it makes a
    /// retry safe, and a lookup finds the operation by it.
    public let merchantReference: String
    /// The amount in minor units (less than what is left: a partial settlement, refund or void).
    public let amount: Int64
    /// The Card Payments API account, or `nil` for the Payments API.
    public let accountID: String?

    /// Checks and creates a request.
    /// - Throws: ``CSEError/Code/serverAPIInvalidArgument`` naming the argument: a target id that
    ///   is not 1–64 letters, digits, `-`, `_` or `.` (nor `.` or `..`), a reference that is not
    ///   1–255 printable ASCII characters, an amount outside 1…999,999,999,999, or an account id
    ///   that is not 1–20 digits.
    public init(
        kind: PaysafeOperation.Kind, targetID: String, merchantReference: String, amount: Int64, accountID: String? = nil
    ) throws(CSEError) {
        try Self.checkIdentifier(targetID, argument: "targetId")
        try PaysafePaymentRequest.checkReference(merchantReference)
        guard (1...999_999_999_999).contains(amount) else {
            throw CSEError(.serverAPIInvalidArgument, "the amount is minor units from 1 to 999999999999", context: ["argument": "amount"])
        }
        if let accountID { try PaysafePaymentRequest.checkAccount(accountID) }
        self.kind = kind
        self.targetID = targetID
        self.merchantReference = merchantReference
        self.amount = amount
        self.accountID = accountID
    }

    /// Refuses an id that cannot be one path segment.
    static func checkIdentifier(_ id: String, argument: String) throws(CSEError) {
        guard !id.isEmpty, id.utf8.count <= 64, id != ".", id != "..", id.utf8.allSatisfy({ ServerIdentifier.isIdentifierByte($0) })
        else {
            throw CSEError(
                .serverAPIInvalidArgument, "an id is 1 to 64 letters, digits, '-', '_' or '.'", context: ["argument": argument])
        }
    }

    /// The path segments of the API's root: `paymenthub/v1`, or `cardpayments/v1/accounts/{id}`.
    static func root(accountID: String?) -> [String] {
        guard let accountID else { return ["paymenthub", "v1"] }
        return ["cardpayments", "v1", "accounts", accountID]
    }

    /// `…/{payments|auths|settlements}/{targetID}/{settlements|refunds|voidauths}`.
    var path: [String] {
        Self.root(accountID: accountID) + [kind.targetCollection(accountID: accountID), targetID, kind.collection]
    }

    /// `{"merchantRefNum","amount","dupCheck":true}` (`dupCheck` never false: it is what refuses a
    /// second operation with the reference; a void authorisation takes no `dupCheck` in PS-PHP's
    /// `VoidAuthorizationRequest`, and gets none).
    var json: JSONValue {
        var members: [(String, JSONValue)] = [("merchantRefNum", .string(merchantReference)), ("amount", .number(String(amount)))]
        if kind != .voidAuthorization { members.append(("dupCheck", .bool(true))) }
        return .object(JSONObject(members))
    }

    /// Kind, target, reference, amount and API.
    public var description: String {
        "PaysafeOperationRequest(kind: \(kind), targetId: \(targetID), merchantRefNum: \(merchantReference), amount: \(amount), "
            + "account: \(accountID ?? "-"))"
    }
}

/// A payment or operation Paysafe lists under a merchant reference, by its status.
package protocol PaysafeStatus {
    /// `COMPLETED`.
    var isCompleted: Bool { get }
    /// Accepted, not decided yet.
    var isPending: Bool { get }
    /// Refused.
    var isDeclined: Bool { get }
    /// One of the statuses Paysafe documents.
    var isDocumentedStatus: Bool { get }
}

extension PaysafeStatus {
    /// The entry that decides a list under one reference (a 409's earlier attempts, or `lookup`):
    /// a `COMPLETED` one, else a pending one; the first when every one is declined; else one with
    /// a status Paysafe does not document. `nil` for an empty list.
    package static func deciding(_ entries: [Self]) -> Self? {
        guard let first = entries.first else { return nil }
        if let taken = entries.first(where: \.isCompleted) ?? entries.first(where: \.isPending) { return taken }
        if entries.allSatisfy(\.isDeclined) { return first }
        return entries.first { !$0.isDocumentedStatus } ?? first
    }
}
