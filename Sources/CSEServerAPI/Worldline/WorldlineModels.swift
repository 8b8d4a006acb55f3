public import CSECore
import CSEValidation
import CSEWallets

/// A CreatePayment request with client-side encrypted card data.
public struct WorldlinePaymentRequest: Sendable, CustomStringConvertible {
    /// The compact JWE from sealing (`cse seal`, ``PaymentRequestSealer``).
    public let encryptedCustomerInput: String
    /// The amount in minor units of the currency (for example 2345 for EUR 23.45).
    public let amount: Int64
    /// The ISO 4217 alphabetic currency code.
    public let currencyCode: String
    /// The merchant's reference for the order, if any (at most 40 characters).
    public let merchantReference: String?
    /// For a Google Pay token sealed into ``encryptedCustomerInput`` (product 320): the 3-D Secure
    /// return URL, sent as `mobilePaymentMethodSpecificInput.paymentProduct320SpecificInput` beside
    /// it ("required for payments with product 320"; research notes §1.5, route 1).
    public let googlePayReturnURL: String?
    /// How the payment is authorised (`cardPaymentMethodSpecificInput.authorizationMode`, or
    /// `mobilePaymentMethodSpecificInput.authorizationMode` beside a Google Pay return URL); the
    /// merchant's configured default when `nil`.
    public let authorizationMode: WorldlineAuthorizationMode?
    /// The 3-D Secure input (`cardPaymentMethodSpecificInput.threeDSecure`; for a sealed Google
    /// Pay token, `paymentProduct320SpecificInput.threeDSecure` beside ``googlePayReturnURL``).
    public let threeDSecure: WorldlineThreeDSecure?
    /// `cardPaymentMethodSpecificInput.tokenize`: save the card; the answer's
    /// ``WorldlinePayment/tokenization`` says whether a token was made (not when a challenge
    /// redirected the payer).
    public let tokenize: Bool
    /// The first payment of a series the merchant will charge later without the payer
    /// (``WorldlineCardOnFile/Sequence/first``), with ``tokenize``.
    public let cardOnFile: WorldlineCardOnFile?

    /// The largest amount the platform takes (12 digits).
    package static let maximumAmount: Int64 = 999_999_999_999

    /// Creates a request.
    /// - Throws: ``CSEError/Code/serverAPIInvalidArgument`` for an input that is not a compact
    ///   JWE (five base64url parts), an amount outside 0…999,999,999,999, a currency that is not
    ///   an ISO 4217 code with minor units (the embedded table), or a reference longer than 40
    ///   characters or with control characters.
    ///   A ``cardOnFile`` that is not a ``WorldlineCardOnFile/Sequence/first`` payment with
    ///   ``tokenize``, or beside a Google Pay token, is refused (`argument` `cardOnFile`).
    public init(
        encryptedCustomerInput: String, amount: Int64, currencyCode: String, merchantReference: String? = nil,
        googlePayReturnURL: String? = nil, authorizationMode: WorldlineAuthorizationMode? = nil,
        threeDSecure: WorldlineThreeDSecure? = nil, tokenize: Bool = false, cardOnFile: WorldlineCardOnFile? = nil
    ) throws(CSEError) {
        try Self.checkJWE(encryptedCustomerInput)
        try Self.checkOrder(amount: amount, currencyCode: currencyCode, merchantReference: merchantReference)
        if let googlePayReturnURL { try WorldlineWalletPaymentRequest.checkReturnURL(googlePayReturnURL) }
        if let cardOnFile, cardOnFile.sequence != .first || !tokenize || googlePayReturnURL != nil {
            throw CSEError(
                .serverAPIInvalidArgument,
                "a card payment that sets up a series is the first of it, saves the card (tokenize) and is not a wallet payment",
                context: ["argument": "cardOnFile"])
        }
        self.encryptedCustomerInput = encryptedCustomerInput
        self.amount = amount
        self.currencyCode = currencyCode
        self.merchantReference = merchantReference
        self.googlePayReturnURL = googlePayReturnURL
        self.authorizationMode = authorizationMode
        self.threeDSecure = threeDSecure
        self.tokenize = tokenize
        self.cardOnFile = cardOnFile
    }

    /// A compact JWE: five base64url parts, at most 64 KiB.
    static func checkJWE(_ text: String) throws(CSEError) {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 5, text.utf8.count <= 64 * 1024, text.utf8.allSatisfy(ServerIdentifier.isIdentifierByte) else {
            throw CSEError(
                .serverAPIInvalidArgument, "encryptedCustomerInput must be a compact JWE (five base64url parts)",
                context: ["argument": "encryptedCustomerInput"])
        }
    }

    /// The order rules of every CreatePayment: an amount in 0…999,999,999,999 minor units, a
    /// currency of three upper-case letters, a reference of 1–40 printable characters.
    static func checkOrder(amount: Int64, currencyCode: String, merchantReference: String?) throws(CSEError) {
        guard (0...Self.maximumAmount).contains(amount) else {
            throw CSEError(.serverAPIInvalidArgument, "the amount is minor units from 0 to 999999999999", context: ["argument": "amount"])
        }
        guard currencyCode.utf8.count == 3, currencyCode.utf8.allSatisfy({ $0 >= 0x41 && $0 <= 0x5A }),
            Currency(code: currencyCode)?.minorUnits != nil
        else {
            throw CSEError(
                .serverAPIInvalidArgument, "the currency is an ISO 4217 code with minor units", context: ["argument": "currencyCode"])
        }
        if let merchantReference {
            guard !merchantReference.isEmpty, merchantReference.unicodeScalars.count <= 40,
                merchantReference.unicodeScalars.allSatisfy({ $0.value >= 0x20 && $0.value != 0x7F })
            else {
                throw CSEError(
                    .serverAPIInvalidArgument, "the merchant reference is 1 to 40 printable characters",
                    context: ["argument": "merchantReference"])
            }
        }
    }

    /// `{"amountOfMoney": {"amount", "currencyCode"}, "references": {"merchantReference"}}`.
    static func order(amount: Int64, currencyCode: String, merchantReference: String?) -> JSONValue {
        var order: [(String, JSONValue)] = [
            ("amountOfMoney", .object(JSONObject([("amount", .number(String(amount))), ("currencyCode", .string(currencyCode))])))
        ]
        if let merchantReference {
            order.append(("references", .object(JSONObject([("merchantReference", .string(merchantReference))]))))
        }
        return .object(JSONObject(order))
    }

    /// The request body: `{"encryptedCustomerInput", "cardPaymentMethodSpecificInput":
    /// {"authorizationMode"}, "order": {"amountOfMoney": {"amount", "currencyCode"}, "references":
    /// {"merchantReference"}}}`.
    package var json: JSONValue {
        var members: [(String, JSONValue)] = [("encryptedCustomerInput", .string(encryptedCustomerInput))]
        let mode = authorizationMode.map { [("authorizationMode", JSONValue.string($0.rawValue))] } ?? []
        if let googlePayReturnURL {
            let input = JSONObject(
                mode + [
                    ("paymentProductId", .number(String(Wallet.googlePay.worldlinePaymentProductID))),
                    WorldlineWalletPaymentRequest.googlePayInput(returnURL: googlePayReturnURL, threeDSecure: threeDSecure),
                ])
            members.append(("mobilePaymentMethodSpecificInput", .object(input)))
        } else {
            var card = mode
            if let threeDSecure { card.append(("threeDSecure", threeDSecure.json)) }
            if tokenize { card.append(("tokenize", .bool(true))) }
            if let cardOnFile { card += cardOnFile.members }
            if !card.isEmpty { members.append(("cardPaymentMethodSpecificInput", .object(JSONObject(card)))) }
        }
        members.append(("order", Self.order(amount: amount, currencyCode: currencyCode, merchantReference: merchantReference)))
        return .object(JSONObject(members))
    }

    /// Amount and currency only.
    public var description: String { "WorldlinePaymentRequest(amount: \(amount), currencyCode: \(currencyCode))" }
}

/// The payment that CreatePayment created (`CreatePaymentResponse.payment`).
public struct WorldlinePayment: Hashable, Sendable, CustomStringConvertible {
    /// The payment id, for example `3066019730_0`.
    public let id: String
    /// The status, for example `PENDING_CAPTURE`, `CAPTURED`, `REJECTED`.
    public let status: String
    /// `statusOutput.statusCategory`, for example `PENDING_MERCHANT`, if present.
    public let statusCategory: String?
    /// `statusOutput.statusCode`, if present.
    public let statusCode: Int?
    /// Whether the platform reports the payment authorised (`statusOutput.isAuthorized`).
    public let isAuthorized: Bool?
    /// `paymentOutput.amountOfMoney.amount`, in minor units.
    public let amount: Int64?
    /// `paymentOutput.amountOfMoney.currencyCode`.
    public let currencyCode: String?
    /// `paymentOutput.references.merchantReference`.
    public let merchantReference: String?
    /// The card number the platform echoes (`cardPaymentMethodSpecificOutput.card.cardNumber`,
    /// or a wallet's `mobilePaymentMethodSpecificOutput.paymentData.dpan`), already masked with
    /// ``SecretMasking/maskPAN(_:)`` whatever the platform sent.
    public let maskedCardNumber: String?
    /// The `merchantAction.actionType` when the payer must act (for example `REDIRECT` for 3-D Secure).
    public let merchantActionType: String?
    /// `merchantAction` when the payer must act: the redirect (URL and `RETURNMAC`) or the mobile
    /// 3-D Secure challenge parameters (research notes §1.1).
    public let merchantAction: WorldlineMerchantAction?
    /// `cardPaymentMethodSpecificOutput.threeDSecureResults`: version, flow, ECI, liability, exemption.
    public let threeDSecureResults: WorldlineThreeDSecureResults?
    /// `creationOutput` of a payment that asked to save the card: the token, `isNewToken` and
    /// `tokenizationSucceeded` (read also when a challenge left no token).
    public let tokenization: WorldlineTokenization?

    /// Decodes a `CreatePaymentResponse` (or a `paymentResult` of an error body).
    /// - Throws: ``CSEError/Code/serverAPIInvalidResponse`` naming the member when `payment.id`
    ///   or `payment.status` is missing or empty, or a member read has the wrong JSON type (for
    ///   example `statusOutput.isAuthorized` that is not a Boolean).
    package init(response: JSONObject) throws(CSEError) {
        try self.init(response: response, reader: ServerResponseReader(platform: "worldline"))
    }

    /// Decodes a `CreatePaymentResponse` with `reader` naming the members (under `paymentResult.`
    /// for the payment of an error body).
    init(response: JSONObject, reader: ServerResponseReader) throws(CSEError) {
        let payment = try reader.requiredObject(response, "payment")
        let members = reader.under("payment")
        id = try members.nonEmptyString(payment, "id")
        status = try members.nonEmptyString(payment, "status")
        let (statusOutput, statusReader) = try members.child(payment, "statusOutput")
        statusCategory = try statusReader.optionalString(statusOutput, "statusCategory")
        statusCode = try statusReader.optionalInt(statusOutput, "statusCode")
        isAuthorized = try statusReader.optionalBool(statusOutput, "isAuthorized")
        let (output, outputReader) = try members.child(payment, "paymentOutput")
        let (money, moneyReader) = try outputReader.child(output, "amountOfMoney")
        amount = try moneyReader.optionalInt64(money, "amount")
        currencyCode = try moneyReader.optionalString(money, "currencyCode")
        let (references, referencesReader) = try outputReader.child(output, "references")
        merchantReference = try referencesReader.optionalString(references, "merchantReference")
        maskedCardNumber = try Self.cardNumber(output, outputReader).map(SecretMasking.maskPAN)
        let (action, actionReader) = try reader.child(response, "merchantAction")
        merchantActionType = try actionReader.optionalString(action, "actionType")
        merchantAction = try WorldlineMerchantAction(action, actionReader)
        let (cardOutput, cardOutputReader) = try outputReader.child(output, "cardPaymentMethodSpecificOutput")
        let (results, resultsReader) = try cardOutputReader.child(cardOutput, "threeDSecureResults")
        threeDSecureResults = try WorldlineThreeDSecureResults(results, resultsReader)
        let (creation, creationReader) = try reader.child(response, "creationOutput")
        tokenization = try WorldlineTokenization(creation, creationReader)
    }

    /// The card number the platform echoes, unmasked: `cardPaymentMethodSpecificOutput.card.cardNumber`,
    /// else a wallet's `mobilePaymentMethodSpecificOutput.paymentData.dpan`.
    private static func cardNumber(_ output: JSONObject, _ reader: ServerResponseReader) throws(CSEError) -> String? {
        let (cardOutput, cardOutputReader) = try reader.child(output, "cardPaymentMethodSpecificOutput")
        let (card, cardReader) = try cardOutputReader.child(cardOutput, "card")
        if let number = try cardReader.optionalString(card, "cardNumber") { return number }
        let (mobile, mobileReader) = try reader.child(output, "mobilePaymentMethodSpecificOutput")
        let (data, dataReader) = try mobileReader.child(mobile, "paymentData")
        return try dataReader.optionalString(data, "dpan")
    }

    /// The statuses `statusOutput.statusCategory` `UNSUCCESSFUL` groups (the Direct API's
    /// status list): the payment was refused or cancelled and will not go on.
    static let unsuccessfulStatuses: [String] = ["CANCELLED", "REJECTED", "REJECTED_CAPTURE", "REJECTED_CREDIT"]

    /// Whether the platform refused or cancelled the payment, whatever the HTTP status said:
    /// `statusOutput.statusCategory` is `UNSUCCESSFUL`, or, when the platform sent no category,
    /// `status` is `CANCELLED`, `REJECTED`, `REJECTED_CAPTURE` or `REJECTED_CREDIT`. The category decides when present (new
    /// statuses get added; the Direct documentation says to use the category for logic).
    public var isUnsuccessful: Bool {
        if let statusCategory { return statusCategory == "UNSUCCESSFUL" }
        return Self.unsuccessfulStatuses.contains(status)
    }

    /// The eight `statusCategory` values of the Direct API (research notes §1.7).
    static let knownCategories: Set<String> = [
        "CREATED", "UNSUCCESSFUL", "PENDING_PAYMENT", "PENDING_MERCHANT", "PENDING_CONNECT_OR_3RD_PARTY", "COMPLETED", "REVERSED",
        "REFUNDED",
    ]

    /// The statuses those categories group, for an answer without a category.
    static let knownStatuses: Set<String> = [
        "CREATED", "PENDING_PAYMENT", "REDIRECTED", "PENDING_APPROVAL", "PENDING_COMPLETION", "PENDING_CAPTURE",
        "PENDING_FRAUD_APPROVAL", "AUTHORIZATION_REQUESTED", "CAPTURE_REQUESTED", "PAYOUT_REQUESTED", "REFUND_REQUESTED", "CAPTURED",
        "PAID", "ACCOUNT_CREDITED", "CHARGEBACK_NOTIFICATION", "CANCELLED", "REJECTED", "REJECTED_CAPTURE", "REJECTED_CREDIT",
        "CHARGEBACKED", "REVERSED", "REFUNDED",
    ]

    /// Whether the answer says how the payment stands: its category (or, without one, its status)
    /// is one the Direct API documents, and `statusCode` is not 52 ("authorisation not known") or
    /// 92 ("payment uncertain"), which the platform sends when the result is not determined. A
    /// payment that is not determined is an unknown outcome: poll GetPayment until it moves
    /// (research notes §1.7: "decode unknown categories as unknown, never as success").
    package var isDetermined: Bool {
        if statusCode == 52 || statusCode == 92 { return false }
        if let statusCategory { return Self.knownCategories.contains(statusCategory) }
        return Self.knownStatuses.contains(status)
    }

    /// The statuses that wait for the merchant's or the platform's approval: pending although
    /// their category (`PENDING_MERCHANT`) also holds `PENDING_CAPTURE`, an authorisation (issue #34).
    static let approvalStatuses: Set<String> = ["PENDING_APPROVAL", "PENDING_FRAUD_APPROVAL"]

    /// Whether the payment is processed but not decided (issue #34, section 1): its status
    /// category is `PENDING_PAYMENT` (for example `REDIRECTED`: the payer is away on a 3-D Secure
    /// challenge; without a category, the status `PENDING_PAYMENT` or `REDIRECTED`), or it awaits
    /// the merchant's or the platform's approval (`PENDING_APPROVAL`, `PENDING_FRAUD_APPROVAL`).
    public var isPending: Bool {
        if Self.approvalStatuses.contains(status) { return true }
        if let statusCategory { return statusCategory == "PENDING_PAYMENT" }
        return status == "PENDING_PAYMENT" || status == "REDIRECTED"
    }

    /// What the payer must do, from `merchantAction`: a `REDIRECT` (GET, with the `RETURNMAC`) or
    /// a `MOBILE_THREEDS_CHALLENGE` (the challenge parameters); `nil` for no action or another type.
    public var action: PaymentAction? {
        guard let merchantAction else { return nil }
        switch merchantAction.actionType {
        case "REDIRECT":
            return merchantAction.redirectURL.map { .redirect(url: $0, method: "GET", returnMAC: merchantAction.returnMAC) }
        case "MOBILE_THREEDS_CHALLENGE":
            return merchantAction.mobileChallengeParameters.map { .mobileChallenge(parameters: $0) }
        default:
            return nil
        }
    }

    /// The payment id, status, category and code, made safe for an error's context.
    package var statusContext: [String: String] {
        var context = ["paymentId": SafeText.identifier(id), "paymentStatus": SafeText.of(status, limit: 64)]
        if let statusCategory { context["statusCategory"] = SafeText.of(statusCategory, limit: 64) }
        if let statusCode { context["statusCode"] = String(statusCode) }
        return context
    }

    /// The fields as JSON, card number masked; a token the payment saved is in `creationOutput`
    /// (the command's result is the one place it is printed).
    package var json: JSONValue {
        var members: [(String, JSONValue)] = [("id", .string(id)), ("status", .string(status))]
        if let statusCategory { members.append(("statusCategory", .string(statusCategory))) }
        if let statusCode { members.append(("statusCode", .number(String(statusCode)))) }
        if let isAuthorized { members.append(("isAuthorized", .bool(isAuthorized))) }
        if let amount { members.append(("amount", .number(String(amount)))) }
        if let currencyCode { members.append(("currencyCode", .string(currencyCode))) }
        if let merchantReference { members.append(("merchantReference", .string(merchantReference))) }
        if let maskedCardNumber { members.append(("cardNumber", .string(maskedCardNumber))) }
        if let merchantActionType { members.append(("merchantActionType", .string(merchantActionType))) }
        if let threeDSecureResults { members.append(("threeDSecureResults", threeDSecureResults.json)) }
        if let tokenization { members.append(("creationOutput", tokenization.json)) }
        return .object(JSONObject(members))
    }

    /// Id and status.
    public var description: String { "WorldlinePayment(id: \(id), status: \(status))" }
}
