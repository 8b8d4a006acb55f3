public import CSECore

/// How a payment uses a saved card: the Payments API's `storedCredential {type, occurrence,
/// initialTransactionId}` (PS-PHP `src/Model/Common/StoredCredential.php`; lifecycle research
/// notes §4.3; issue #35). The value choices are recorded in docs/COMPATIBILITY.md.
public struct PaysafeStoredCredential: Sendable, Hashable, CustomStringConvertible {
    /// `type`: why the saved card is used.
    public enum Kind: String, Sendable, CaseIterable {
        /// `ADHOC`: a payment the payer makes with the saved card (Paysafe's default).
        case adhoc = "ADHOC"
        /// `RECURRING`: a payment of a recurring agreement (subscriptions; instalments).
        case recurring = "RECURRING"
        /// `TOPUP`: an unscheduled payment the merchant initiates (a top-up).
        case topUp = "TOPUP"
    }

    /// `occurrence`: whether this payment sets the use up or follows one.
    public enum Occurrence: String, Sendable, CaseIterable {
        /// `INITIAL`: the first payment, with the payer present, that sets the agreement up.
        case initial = "INITIAL"
        /// `SUBSEQUENT`: a later payment under the agreement.
        case subsequent = "SUBSEQUENT"
    }

    /// A payment the merchant initiates with a saved card, without the payer.
    public enum MerchantInitiated: String, Sendable, CaseIterable {
        /// A payment of a schedule (a subscription): `RECURRING`, `SUBSEQUENT`.
        case recurring
        /// A payment at no fixed time (a top-up, usage billing): `TOPUP`, `SUBSEQUENT`.
        case unscheduled
        /// A payment of an instalment plan: `RECURRING`, `SUBSEQUENT` (Paysafe has no instalment type).
        case instalment
    }

    /// `type`.
    public let type: Kind
    /// `occurrence`.
    public let occurrence: Occurrence
    /// `initialTransactionId`: the id of the payment that set the agreement up (a subsequent payment only).
    public let initialTransactionID: String?

    /// Checks and creates a stored credential.
    /// - Throws: ``CSEError/Code/serverAPIInvalidArgument``: an `initialTransactionID` with an
    ///   `INITIAL` occurrence (the first payment has no earlier one), or one that is not 1–64
    ///   letters, digits, `-`, `_` or `.`.
    public init(type: Kind = .adhoc, occurrence: Occurrence, initialTransactionID: String? = nil) throws(CSEError) {
        if let initialTransactionID {
            guard occurrence == .subsequent else {
                throw CSEError(
                    .serverAPIInvalidArgument, "an initial payment has no initial transaction id",
                    context: ["argument": "initialTransactionId"])
            }
            try PaysafeOperationRequest.checkIdentifier(initialTransactionID, argument: "initialTransactionId")
        }
        self.type = type
        self.occurrence = occurrence
        self.initialTransactionID = initialTransactionID
    }

    /// The stored credential of a payment the merchant initiates: always `SUBSEQUENT` (the first
    /// payment, with the payer, sets the agreement up), `RECURRING` for a schedule or instalments,
    /// `TOPUP` for an unscheduled payment.
    /// - Throws: The errors of ``init(type:occurrence:initialTransactionID:)``.
    public init(merchantInitiated: MerchantInitiated, initialTransactionID: String? = nil) throws(CSEError) {
        let type: Kind
        switch merchantInitiated {
        case .recurring, .instalment: type = .recurring
        case .unscheduled: type = .topUp
        }
        try self.init(type: type, occurrence: .subsequent, initialTransactionID: initialTransactionID)
    }

    /// `{"type","occurrence","initialTransactionId"}`.
    package var json: JSONValue {
        var members: [(String, JSONValue)] = [("type", .string(type.rawValue)), ("occurrence", .string(occurrence.rawValue))]
        if let initialTransactionID { members.append(("initialTransactionId", .string(initialTransactionID))) }
        return .object(JSONObject(members))
    }

    /// Type, occurrence and the initial transaction.
    public var description: String { "\(type.rawValue)/\(occurrence.rawValue)" + (initialTransactionID.map { " after \($0)" } ?? "") }
}
