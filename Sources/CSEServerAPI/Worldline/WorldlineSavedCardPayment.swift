public import CSECore

/// How a Worldline card payment belongs to a series the merchant charges with a saved card
/// (research notes §1.3; `CardPaymentMethodSpecificInput` of the Direct API): a scheduled series
/// (`isRecurring` with `recurring.recurringPaymentSequenceIndicator`) or unscheduled card-on-file
/// payments (`unscheduledCardOnFileRequestor`, `unscheduledCardOnFileSequenceIndicator`, "not
/// allowed if isRecurring is true"). docs/COMPATIBILITY.md records the value choices.
public struct WorldlineCardOnFile: Hashable, Sendable {
    /// The kind of series.
    public enum Kind: String, Hashable, Sendable, CaseIterable {
        /// A scheduled series (subscriptions): `isRecurring` `true`.
        case recurring
        /// Charges at no fixed schedule (top-ups, no-shows): the unscheduled card-on-file indicators.
        case unscheduled
        /// A fixed number of scheduled payments: `isRecurring` `true`, as a recurring series (the
        /// Direct API has no separate instalment indicator on cards).
        case instalment
    }

    /// Where the payment stands in its series.
    public enum Sequence: String, Hashable, Sendable {
        /// The payer-present payment that sets up the series (and saves the card).
        case first
        /// A payment the merchant initiates later with the saved card, without the payer.
        case subsequent
    }

    /// The kind of series.
    public let kind: Kind
    /// The first payment or a later one.
    public let sequence: Sequence
    /// `initialSchemeTransactionId`: the scheme's transaction id of the first payment ("strongly
    /// advised" on a subsequent one), when the merchant kept it.
    public let initialSchemeTransactionID: String?

    /// Creates the marking.
    /// - Throws: ``CSEError/Code/serverAPIInvalidArgument`` for an initial scheme transaction id
    ///   on a first payment, or one that is not 1 to 64 printable characters.
    public init(kind: Kind, sequence: Sequence, initialSchemeTransactionID: String? = nil) throws(CSEError) {
        if let initialSchemeTransactionID {
            guard sequence == .subsequent, !initialSchemeTransactionID.isEmpty, initialSchemeTransactionID.utf8.count <= 64,
                initialSchemeTransactionID.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value < 0x7F })
            else {
                throw CSEError(
                    .serverAPIInvalidArgument, "an initial scheme transaction id is 1 to 64 printable characters, on a later payment",
                    context: ["argument": "initialSchemeTransactionId"])
            }
        }
        self.kind = kind
        self.sequence = sequence
        self.initialSchemeTransactionID = initialSchemeTransactionID
    }

    /// The `cardPaymentMethodSpecificInput` members that mark the payment.
    var members: [(String, JSONValue)] {
        var members: [(String, JSONValue)]
        switch kind {
        case .recurring, .instalment:
            let indicator = sequence == .first ? "first" : "recurring"
            members = [
                ("isRecurring", .bool(true)),
                ("recurring", .object(JSONObject([("recurringPaymentSequenceIndicator", .string(indicator))]))),
            ]
        case .unscheduled:
            members = [
                ("unscheduledCardOnFileRequestor", .string(sequence == .first ? "cardholderInitiated" : "merchantInitiated")),
                ("unscheduledCardOnFileSequenceIndicator", .string(sequence == .first ? "first" : "subsequent")),
            ]
        }
        if let initialSchemeTransactionID { members.append(("initialSchemeTransactionId", .string(initialSchemeTransactionID))) }
        return members
    }

    /// `{"type","sequence"}`: how the output says which series a payment set up or belongs to.
    package var json: JSONValue {
        .object(JSONObject([("type", .string(kind.rawValue)), ("sequence", .string(sequence.rawValue))]))
    }
}

/// A CreatePayment with a saved card (`cardPaymentMethodSpecificInput.token`; research notes §1.3):
/// the payer paying again with a card on file (with 3-D Secure as any payer-made payment), or the
/// merchant charging it later in a series (``WorldlineCardOnFile/Sequence/subsequent``: 3-D Secure
/// is skipped, as the Direct API says for such payments).
public struct WorldlineTokenPaymentRequest: Sendable, CustomStringConvertible {
    /// The saved card's token.
    public let token: String
    /// The sealed input carrying the CVV, when the product needs it (`encryptedCustomerInput`).
    public let encryptedCustomerInput: String?
    /// The amount in minor units.
    public let amount: Int64
    /// The ISO 4217 currency code.
    public let currencyCode: String
    /// The merchant reference.
    public let merchantReference: String?
    /// How the payment is authorised; the merchant's default when `nil`.
    public let authorizationMode: WorldlineAuthorizationMode?
    /// The 3-D Secure input of a payer-made payment.
    public let threeDSecure: WorldlineThreeDSecure?
    /// The series a merchant-initiated payment belongs to.
    public let cardOnFile: WorldlineCardOnFile?

    /// Creates a request.
    /// - Throws: ``CSEError/Code/serverAPIInvalidArgument``: a token that is not 1 to 128 letters,
    ///   digits, `-`, `_` or `.`; an input that is not a compact JWE; the order rules of
    ///   ``WorldlinePaymentRequest``; a ``cardOnFile`` that is a first payment (a series starts with
    ///   the card itself and ``WorldlinePaymentRequest/tokenize``); a merchant-initiated payment
    ///   with 3-D Secure choices other than skipping it (the payer is not there to authenticate).
    public init(
        token: String, encryptedCustomerInput: String? = nil, amount: Int64, currencyCode: String, merchantReference: String? = nil,
        authorizationMode: WorldlineAuthorizationMode? = nil, threeDSecure: WorldlineThreeDSecure? = nil,
        cardOnFile: WorldlineCardOnFile? = nil
    ) throws(CSEError) {
        try WorldlineServerClient.checkToken(token)
        if let encryptedCustomerInput { try WorldlinePaymentRequest.checkJWE(encryptedCustomerInput) }
        try WorldlinePaymentRequest.checkOrder(amount: amount, currencyCode: currencyCode, merchantReference: merchantReference)
        if let cardOnFile {
            guard cardOnFile.sequence == .subsequent else {
                throw CSEError(
                    .serverAPIInvalidArgument, "a series starts with the card itself (tokenize), not with a saved card",
                    context: ["argument": "cardOnFile"])
            }
            if let threeDSecure,
                threeDSecure.returnURL != nil || threeDSecure.challengeIndicator != nil || threeDSecure.exemptionRequest != nil
                    || threeDSecure.deviceChannel != nil
            {
                throw CSEError(
                    .serverAPIInvalidArgument, "a merchant-initiated payment has no payer to authenticate: 3-D Secure is skipped",
                    context: ["argument": "threeDSecure"])
            }
        }
        self.token = token
        self.encryptedCustomerInput = encryptedCustomerInput
        self.amount = amount
        self.currencyCode = currencyCode
        self.merchantReference = merchantReference
        self.authorizationMode = authorizationMode
        self.threeDSecure = cardOnFile == nil ? threeDSecure : try WorldlineThreeDSecure(skipAuthentication: true)
        self.cardOnFile = cardOnFile
    }

    /// `{"encryptedCustomerInput", "cardPaymentMethodSpecificInput": {"authorizationMode", "token",
    /// "threeDSecure", the series' members}, "order"}`.
    package var json: JSONValue {
        var members: [(String, JSONValue)] = []
        if let encryptedCustomerInput { members.append(("encryptedCustomerInput", .string(encryptedCustomerInput))) }
        var card: [(String, JSONValue)] = []
        if let authorizationMode { card.append(("authorizationMode", .string(authorizationMode.rawValue))) }
        card.append(("token", .string(token)))
        if let threeDSecure { card.append(("threeDSecure", threeDSecure.json)) }
        if let cardOnFile { card += cardOnFile.members }
        members.append(("cardPaymentMethodSpecificInput", .object(JSONObject(card))))
        members.append(
            ("order", WorldlinePaymentRequest.order(amount: amount, currencyCode: currencyCode, merchantReference: merchantReference)))
        return .object(JSONObject(members))
    }

    /// Amount and currency; never the token.
    public var description: String { "WorldlineTokenPaymentRequest(amount: \(amount), currencyCode: \(currencyCode))" }
}

extension WorldlineServerClient {
    /// CreatePayment with a saved card (`cardPaymentMethodSpecificInput.token`). Outcomes, the
    /// idempotence key and the errors as in ``createPayment(_:idempotenceKey:)-(WorldlinePaymentRequest,_)``;
    /// a token the platform does not know (deleted) is ``CSEError/Code/serverUnknownPayment``
    /// (nothing was charged). The token is redacted by value from platform text.
    public func createPayment(
        _ request: WorldlineTokenPaymentRequest, idempotenceKey: IdempotenceKey? = nil
    ) async throws(CSEError) -> PaymentOutcome<WorldlinePayment> {
        try await createPayment(
            body: request.json,
            expected: ExpectedAnswer(
                amount: request.amount, currencyCode: request.currencyCode, merchantReference: request.merchantReference),
            idempotenceKey: idempotenceKey, values: [request.token])
    }
}
