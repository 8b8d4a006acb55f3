public import CSECore
@_spi(CustomTransport) import CSEHTTP
import CSECrypto
public import CSEValidation
public import CSEWallets

extension CSEError.Code {
    /// The Mastercard Gateway declined the transaction: `result` `FAILURE`, or `SUCCESS` with a
    /// `response.gatewayCode` that is not an approval. The context gives `result`, `gatewayCode`
    /// and the order and transaction ids.
    public static let mastercardTransactionDeclined = Self("mastercard.transactionDeclined")
}

/// Where the money of a PAY or AUTHORIZE comes from (research notes §3.2).
public enum MastercardFundingSource: Sendable, CustomStringConvertible {
    /// The card the mobile SDK put into this session (`session.id`).
    case session(id: String)
    /// A wallet token the gateway decrypts: `sourceOfFunds.provided.card.devicePayment.paymentToken`
    /// (the token's JSON text) with `order.walletProvider` (`APPLE_PAY`: the token is
    /// `PKPaymentToken.paymentData`; `GOOGLE_PAY`: `paymentMethodData.tokenizationData.token`, made
    /// with gateway `mpgs`). Needs API version ``MastercardTransactionRequest/minimumWalletAPIVersion``.
    case walletToken(Wallet, token: String)
    /// Device data the merchant decrypted (research notes §3.2, route 3; member names of medium
    /// confidence, see docs/GATEWAYS.md): `sourceOfFunds.provided.card.number` (the DPAN) and
    /// `expiry`, and `devicePayment {cryptogramFormat 3DSECURE, onlinePaymentCryptogram, eciIndicator}`
    /// when the wallet gave a cryptogram, with `order.walletProvider`.
    case decryptedDevicePayment(WalletCard)
    /// A card on file: `sourceOfFunds.token`, a token of the gateway's repository
    /// (``MastercardSessionClient/createToken(sessionID:)``; research notes §2.3).
    case token(String)

    /// The kind of source, never the token or card data.
    public var description: String {
        switch self {
        case .session: return "session"
        case .token: return "token"
        case .walletToken(let wallet, _): return "walletToken(\(wallet.mastercardWalletProvider))"
        case .decryptedDevicePayment(let card): return "decryptedDevicePayment(\(card.wallet))"
        }
    }

    /// Card data in the body that a platform's error text must never repeat.
    var secrets: [String] {
        switch self {
        case .decryptedDevicePayment(let card): return card.secrets
        case .token(let token): return [token]
        case .session, .walletToken: return []
        }
    }
}

/// An agreement between the payer and the merchant for payments the merchant initiates later with
/// the stored card (`agreement {id, type}`; docs/COMPATIBILITY.md records the sources).
public struct MastercardAgreement: Hashable, Sendable, CustomStringConvertible {
    /// `agreement.type`.
    public struct Kind: Hashable, Sendable, CustomStringConvertible {
        /// The value sent.
        public let name: String
        private init(_ name: String) { self.name = name }
        /// Payments at regular intervals (a subscription): `RECURRING`.
        public static let recurring = Kind("RECURRING")
        /// Payments when something happens, not on a schedule (a top-up): `UNSCHEDULED`.
        public static let unscheduled = Kind("UNSCHEDULED")
        /// One purchase paid in a fixed number of parts: `INSTALLMENT`.
        public static let instalment = Kind("INSTALLMENT")
        /// The value sent.
        public var description: String { name }
    }

    /// `agreement.id`: the merchant's id of the agreement (1 to 40 letters, digits, `-`, `_`, `.`).
    public let id: String
    /// `agreement.type`.
    public let kind: Kind

    /// Checks and creates an agreement.
    /// - Throws: ``CSEError/Code/serverAPIInvalidArgument`` for an id that is not 1 to 40 letters,
    ///   digits, `-`, `_` or `.`.
    public init(id: String, kind: Kind) throws(CSEError) {
        try MastercardTransactionRequest.checkID(id, argument: "agreementId")
        self.id = id
        self.kind = kind
    }

    /// Id and type (neither is a secret).
    public var description: String { "MastercardAgreement(\(id), \(kind))" }
}

/// Who starts a payment under an agreement (the gateway's credential-on-file rules, API version
/// 74 and later; docs/COMPATIBILITY.md).
public enum MastercardAgreementUse: Hashable, Sendable, CustomStringConvertible {
    /// The first payment, with the payer present, that sets up the agreement: `transaction.source`
    /// `INTERNET`, `agreement`, and `sourceOfFunds.provided.card.storedOnFile` `TO_BE_STORED`
    /// (a session's card) or `STORED` (a token).
    case setUp(MastercardAgreement)
    /// A later payment the merchant initiates without the payer, with a stored card (a token):
    /// `transaction.source` `MERCHANT`, `agreement`, `storedOnFile` `STORED`; never with 3-D Secure.
    case merchantInitiated(MastercardAgreement)

    /// The agreement.
    public var agreement: MastercardAgreement {
        switch self {
        case .setUp(let agreement), .merchantInitiated(let agreement): return agreement
        }
    }

    /// The use and the agreement.
    public var description: String {
        switch self {
        case .setUp(let agreement): return "setUp(\(agreement))"
        case .merchantInitiated(let agreement): return "merchantInitiated(\(agreement))"
        }
    }
}

/// A PAY (authorise and capture) or AUTHORIZE transaction: `PUT …/order/{orderId}/transaction/{transactionId}`.
///
/// The order and transaction ids are the merchant's and make the call idempotent: the gateway
/// answers a repeat of the identical request with the first response and moves no money twice
/// (research notes §3.4). Never reuse a transaction id for different content.
public struct MastercardTransactionRequest: Sendable, CustomStringConvertible {
    /// The lowest API version that takes a wallet token or decrypted wallet card in a transaction
    /// (Google Pay needs 47; research notes §3.1).
    public static let minimumWalletAPIVersion = 47
    /// The lowest API version that takes the credential-on-file fields of an agreement
    /// (`agreement`, `transaction.source`, `storedOnFile`): 74.
    public static let minimumAgreementAPIVersion = 74

    /// `apiOperation`.
    public struct Operation: Hashable, Sendable, CustomStringConvertible {
        /// The value sent.
        public let name: String
        private init(_ name: String) { self.name = name }
        /// Authorise and capture.
        public static let pay = Operation("PAY")
        /// Authorise only.
        public static let authorize = Operation("AUTHORIZE")
        /// The value sent.
        public var description: String { name }
    }

    /// PAY or AUTHORIZE.
    public let operation: Operation
    /// The merchant's order id (1–40 letters, digits, `-`, `_`, `.`).
    public let orderID: String
    /// The merchant's transaction id, unique within the order.
    public let transactionID: String
    /// The amount in minor units of ``currency``.
    public let amount: Int64
    /// The ISO 4217 currency.
    public let currency: Currency
    /// Where the money comes from.
    public let source: MastercardFundingSource
    /// The transaction id of a 3-D Secure authentication on this order (`authentication.transactionId`).
    public let authenticationTransactionID: String?
    /// The agreement this payment sets up or is made under, if any.
    public let agreementUse: MastercardAgreementUse?
    /// Whether ``MastercardSessionClient/perform(_:)-(MastercardTransactionRequest)`` also pays
    /// after an authentication the gateway reports unavailable or not supported with the
    /// recommendation `PROCEED`: the payment is then not authenticated, and the merchant keeps the
    /// liability. A recommendation not to proceed is refused even then.
    public let allowsUnauthenticated: Bool
    /// `order.amount`: the amount in major units, from the ISO 4217 exponent (computed once, here).
    let amountText: String

    /// Checks and creates a request.
    /// - Throws: ``CSEError/Code/serverAPIInvalidArgument`` naming the argument: an id that is not
    ///   1–40 identifier characters (or is `.`/`..`), a negative or too large amount, a currency
    ///   without minor units in ISO 4217, an empty session id, or a wallet token that is not JSON
    ///   text of at most 64 KiB, a token that is not 1 to 40 letters, digits, `-`, `_` or `.`; a
    ///   merchant-initiated payment without a token or with an authentication transaction (the
    ///   payer is not there), an agreement with a wallet.
    public init(
        _ operation: Operation, orderID: String, transactionID: String, amount: Int64, currency: Currency,
        source: MastercardFundingSource, authenticationTransactionID: String? = nil, agreementUse: MastercardAgreementUse? = nil,
        allowsUnauthenticated: Bool = false
    ) throws(CSEError) {
        try Self.checkID(orderID, argument: "orderId")
        try Self.checkID(transactionID, argument: "transactionId")
        if let authenticationTransactionID {
            try Self.checkID(authenticationTransactionID, argument: "authenticationTransactionId")
            guard authenticationTransactionID != transactionID else {
                throw CSEError(
                    .serverAPIInvalidArgument, "the payment is a new transaction: its id differs from the authentication's",
                    context: ["argument": "transactionId"])
            }
        } else if allowsUnauthenticated {
            throw CSEError(
                .serverAPIInvalidArgument, "allowing an unauthenticated payment needs the authentication transaction it checks",
                context: ["argument": "allowsUnauthenticated"])
        }
        guard (0...999_999_999_999).contains(amount) else {
            throw CSEError(.serverAPIInvalidArgument, "the amount is minor units from 0 to 999999999999", context: ["argument": "amount"])
        }
        guard currency.minorUnits != nil else {
            throw CSEError(.serverAPIInvalidArgument, "the currency has no minor unit in ISO 4217", context: ["argument": "currency"])
        }
        switch source {
        case .session(let id):
            try MastercardSessionClient.checkSessionID(id)
        case .walletToken(_, let token):
            guard token.utf8.count <= 64 * 1024, (try? JSONValue.parse(Array(token.utf8))) != nil else {
                throw CSEError(
                    .serverAPIInvalidArgument, "a wallet token is the token's JSON text, at most 64 KiB",
                    context: ["argument": "paymentToken"])
            }
        case .decryptedDevicePayment:
            break  // A WalletCard is checked when it is made.
        case .token(let token):
            try Self.checkID(token, argument: "token")
        }
        switch (agreementUse, source) {
        case (nil, _), (.setUp, .session), (.setUp, .token):
            break
        case (.merchantInitiated, .token):
            guard authenticationTransactionID == nil else {
                throw CSEError(
                    .serverAPIInvalidArgument, "a merchant-initiated payment has no payer to authenticate: no 3-D Secure transaction",
                    context: ["argument": "authenticationTransactionId"])
            }
        case (.merchantInitiated, _):
            throw CSEError(
                .serverAPIInvalidArgument, "a merchant-initiated payment charges a stored card: pay with a token",
                context: ["argument": "source"])
        case (.setUp, _):
            throw CSEError(
                .serverAPIInvalidArgument, "an agreement is set up with a card the payer gives (a session) or a token, not a wallet",
                context: ["argument": "source"])
        }
        amountText = try currency.majorString(fromMinor: amount)
        self.operation = operation
        self.orderID = orderID
        self.transactionID = transactionID
        self.amount = amount
        self.currency = currency
        self.source = source
        self.authenticationTransactionID = authenticationTransactionID
        self.agreementUse = agreementUse
        self.allowsUnauthenticated = allowsUnauthenticated
    }

    package static func checkID(_ id: String, argument: String) throws(CSEError) {
        guard !HTTPURL.isUnsafePathSegment(id), id.utf8.count <= 40, id.utf8.allSatisfy({ ServerIdentifier.isIdentifierByte($0) })
        else {
            throw CSEError(
                .serverAPIInvalidArgument, "an order or transaction id is 1 to 40 letters, digits, '-', '_' or '.', and not '.' or '..'",
                context: ["argument": argument])
        }
    }

    /// The body: `apiOperation`, `order {amount, currency[, walletProvider]}` with the amount a
    /// decimal in major units (converted with the ISO 4217 exponent, never through floating point:
    /// 2345 EUR is `"23.45"`, 2345 JPY `"2345"`, 2345 KWD `"2.345"`), `sourceOfFunds`, and
    /// `session` or the device payment token, and `authentication.transactionId`.
    package var json: JSONValue {
        var order: [(String, JSONValue)] = [
            ("amount", .string(amountText)), ("currency", .string(currency.code)),
        ]
        var sourceOfFunds: [(String, JSONValue)] = [("type", .string("CARD"))]
        var members: [(String, JSONValue)] = [("apiOperation", .string(operation.name))]
        if let agreementUse {
            let agreement = agreementUse.agreement
            members.append(
                ("agreement", .object(JSONObject([("id", .string(agreement.id)), ("type", .string(agreement.kind.name))]))))
        }
        switch source {
        case .session(let id):
            members.append(("session", .object(JSONObject([("id", .string(id))]))))
            if case .setUp = agreementUse {
                sourceOfFunds.append(
                    ("provided", .object(JSONObject([("card", .object(JSONObject([("storedOnFile", .string("TO_BE_STORED"))])))]))))
            }
        case .token(let token):
            sourceOfFunds.append(("token", .string(token)))
            if agreementUse != nil {
                sourceOfFunds.append(
                    ("provided", .object(JSONObject([("card", .object(JSONObject([("storedOnFile", .string("STORED"))])))]))))
            }
        case .walletToken(let wallet, let token):
            order.append(("walletProvider", .string(wallet.mastercardWalletProvider)))
            let devicePayment = JSONValue.object(JSONObject([("paymentToken", .string(token))]))
            sourceOfFunds.append(
                ("provided", .object(JSONObject([("card", .object(JSONObject([("devicePayment", devicePayment)])))]))))
        case .decryptedDevicePayment(let card):
            order.append(("walletProvider", .string(card.wallet.mastercardWalletProvider)))
            var members: [(String, JSONValue)] = [
                ("number", .string(card.accountNumber)),
                (
                    "expiry",
                    .object(JSONObject([("month", .string(card.expiryMonthText)), ("year", .string(card.expiryYearText))]))
                ),
            ]
            if let cryptogram = card.cryptogram {
                var device: [(String, JSONValue)] = [
                    ("cryptogramFormat", .string("3DSECURE")), ("onlinePaymentCryptogram", .string(cryptogram)),
                ]
                if let eci = card.eciText { device.append(("eciIndicator", .string(eci))) }
                members.append(("devicePayment", .object(JSONObject(device))))
            }
            sourceOfFunds.append(("provided", .object(JSONObject([("card", .object(JSONObject(members)))]))))
        }
        members.append(("order", .object(JSONObject(order))))
        members.append(("sourceOfFunds", .object(JSONObject(sourceOfFunds))))
        if let authenticationTransactionID {
            members.append(("authentication", .object(JSONObject([("transactionId", .string(authenticationTransactionID))]))))
        }
        switch agreementUse {
        case .setUp: members.append(("transaction", .object(JSONObject([("source", .string("INTERNET"))]))))
        case .merchantInitiated: members.append(("transaction", .object(JSONObject([("source", .string("MERCHANT"))]))))
        case nil: break
        }
        return .object(JSONObject(members))
    }

    /// Operation, ids, amount and currency; never the token.
    public var description: String {
        "MastercardTransactionRequest(\(operation) order: \(orderID), transaction: \(transactionID), amount: \(amount) \(currency), source: \(source))"
    }
}

/// A transaction as the gateway answers it (PAY, AUTHORIZE or RETRIEVE TRANSACTION).
public struct MastercardTransaction: Sendable, CustomStringConvertible {
    /// `result`: `SUCCESS`, `FAILURE`, `PENDING` or `UNKNOWN`.
    public let result: String
    /// `response.gatewayCode`, for example `APPROVED`, `DECLINED`, `SUBMITTED`.
    public let gatewayCode: String?
    /// `order.id`.
    public let orderID: String?
    /// `order.status`, for example `CAPTURED` or `AUTHORIZED`.
    public let orderStatus: String?
    /// `transaction.id`.
    public let transactionID: String?
    /// `transaction.type`, for example `PAYMENT` or `AUTHORIZATION`.
    public let transactionType: String?
    /// `transaction.authorizationCode`.
    public let authorizationCode: String?
    /// The 3-D Secure authentication that ``MastercardSessionClient/perform(_:)-(MastercardTransactionRequest)``
    /// retrieved and checked before sending this payment, when the request named one.
    public package(set) var verifiedAuthentication: MastercardAuthentication?
    /// The whole body as received; show it through `maskedValue`.
    package let json: JSONValue

    /// The gateway codes that approve: "any other code represents a declined or failed transaction"
    /// (research notes §3.3), except the two of a transaction still on its way.
    static let approvedCodes: Set<String> = ["APPROVED", "APPROVED_AUTO", "APPROVED_PENDING_SETTLEMENT", "PARTIALLY_APPROVED"]
    /// The gateway codes of a transaction submitted whose answer is not in yet.
    static let pendingCodes: Set<String> = ["SUBMITTED", "PENDING"]
    /// The gateway codes that leave the outcome open: the acquirer's answer did not come
    /// (`UNKNOWN`, `TIMED_OUT`, `ACQUIRER_SYSTEM_ERROR`, `SYSTEM_ERROR`), or another transaction
    /// on the order was still running (`LOCK_FAILURE`, which the identical resend of a cut
    /// request can meet while the first attempt runs). The research notes' table says to retrieve
    /// the transaction for these (§3.3, §7), not to read them as a decline.
    static let undeterminedCodes: Set<String> = ["UNKNOWN", "TIMED_OUT", "ACQUIRER_SYSTEM_ERROR", "SYSTEM_ERROR", "LOCK_FAILURE"]

    /// Decodes a transaction response.
    /// - Throws: ``CSEError/Code/serverAPIInvalidResponse`` naming the member when `result` is
    ///   missing, empty or not a string, or a member read below has the wrong JSON type.
    package init(response: JSONObject) throws(CSEError) {
        let reader = ServerResponseReader(platform: "mastercard")
        result = try reader.nonEmptyString(response, "result")
        let (gateway, gatewayReader) = try reader.child(response, "response")
        gatewayCode = try gatewayReader.optionalString(gateway, "gatewayCode")
        let (order, orderReader) = try reader.child(response, "order")
        orderID = try orderReader.optionalString(order, "id")
        orderStatus = try orderReader.optionalString(order, "status")
        let (transaction, transactionReader) = try reader.child(response, "transaction")
        transactionID = try transactionReader.optionalString(transaction, "id")
        transactionType = try transactionReader.optionalString(transaction, "type")
        authorizationCode = try transactionReader.optionalString(transaction, "authorizationCode")
        json = .object(response)
    }

    /// The first member of this answer that names another transaction than `expected`:
    /// `transaction.amount` (major units, by the currency's exponent) and `transaction.currency`
    /// (else `order.amount` and `order.currency`), `order.id`, `transaction.id`; `nil` when all
    /// that the answer gives agrees.
    func mismatch(_ expected: ExpectedAnswer) -> String? {
        let object = json.objectValue
        let transaction = object?["transaction"]?.objectValue, order = object?["order"]?.objectValue
        let amountValue = transaction?["amount"] ?? order?["amount"]
        let currency = transaction?["currency"]?.stringValue ?? order?["currency"]?.stringValue
        var amount: Int64?
        if let amountValue {
            var text = amountValue.stringValue
            if case .number(let number) = amountValue { text = number }
            guard let text, let exponent = Currency(code: expected.currencyCode)?.minorUnits,
                let minor = ExpectedAnswer.minorUnits(fromMajorNumber: text, exponent: exponent)
            else { return "amount" }
            amount = minor
        }
        var identifiers: [String: String] = [:]
        if let orderID { identifiers["orderId"] = orderID }
        if let transactionID { identifiers["transactionId"] = transactionID }
        return expected.mismatch(amount: amount, currencyCode: currency, merchantReference: nil, identifiers: identifiers)
    }

    /// Whether the gateway approved the transaction: `result` `SUCCESS` with an approving gateway code.
    public var isApproved: Bool { result == "SUCCESS" && gatewayCode.map(Self.approvedCodes.contains) == true }

    /// Whether the transaction was submitted and its result is not known yet (`result` `PENDING`,
    /// or gateway code `SUBMITTED`/`PENDING`): follow it with a retrieve.
    public var isPending: Bool { result == "PENDING" || gatewayCode.map(Self.pendingCodes.contains) == true }

    /// The body with card numbers masked and security codes removed (``MastercardSession/maskedJSON``'s
    /// rules), as compact UTF-8 JSON text.
    public var maskedJSON: [UInt8] { maskedValue.serializedBytes }

    /// ``maskedJSON`` as a value (the CLI writes it into its own lines).
    package var maskedValue: JSONValue { MastercardSession.mask(json, path: []) }

    /// Result, gateway code and ids.
    public var description: String {
        "MastercardTransaction(result: \(result), gatewayCode: \(gatewayCode ?? "-"), order: \(orderID ?? "-"), transaction: \(transactionID ?? "-"))"
    }
}

extension MastercardSessionClient {
    /// PAY or AUTHORIZE: `PUT …/order/{orderId}/transaction/{transactionId}`.
    ///
    /// After 3-D Secure (``MastercardTransactionRequest/authenticationTransactionID``), the
    /// authentication is first retrieved (RETRIEVE TRANSACTION) and nothing is sent unless it is
    /// an `AUTHENTICATION` on the same order with `result` `SUCCESS`, recommendation `PROCEED`,
    /// status successful or attempted (or unavailable/not supported when
    /// ``MastercardTransactionRequest/allowsUnauthenticated``), and the payment's amount and
    /// currency where it carries them (payment-lifecycle research notes §2.1): the browser's return
    /// to the merchant is not signed, and the app's "proceed" is the app's. The authentication
    /// checked is ``MastercardTransaction/verifiedAuthentication``.
    ///
    /// The outcome (research notes §3.3, §3.4), decided from `result` and `response.gatewayCode`,
    /// never from the HTTP status:
    /// - ``PaymentOutcome/succeeded(_:_:)``: approved (``MastercardTransaction/isApproved``), or
    ///   submitted and pending (``MastercardTransaction/isPending``);
    /// - ``PaymentOutcome/refused(_:_:)``: `FAILURE`, or `SUCCESS` with another gateway code
    ///   (`mastercard.transactionDeclined`), except the undetermined codes below;
    /// - ``PaymentOutcome/unknown(_:_:)``: `result` `UNKNOWN`; gateway code `UNKNOWN`,
    ///   `TIMED_OUT`, `ACQUIRER_SYSTEM_ERROR`, `SYSTEM_ERROR` or `LOCK_FAILURE`; `ERROR` with any
    ///   cause but `INVALID_REQUEST` and `REQUEST_REJECTED` (`SERVER_BUSY` and `SERVER_FAILED`: the
    ///   gateway says to resubmit the identical request later; it will not repeat the bank
    ///   transaction); a 5xx or 2xx that is not a readable transaction; a 409 that names no
    ///   gateway error (it names no conflict either); or no answer read after
    ///   sending. Settle it with ``retrieveTransaction(orderID:transactionID:)`` or by
    ///   sending the identical request again: the ids make it the same transaction.
    ///
    /// The transport may repeat the PUT after a connection failure or a 502, 503 or 504: it is the
    /// identical request.
    /// - Throws: When nothing was processed: a wallet token below API version 47 or an agreement
    ///   below 74 (``CSEError/Code/serverAPIInvalidArgument``), a transport error before sending,
    ///   401/403, `ERROR` with `INVALID_REQUEST` or `REQUEST_REJECTED`;
    ///   ``CSEError/Code/mastercardTokenUnknown`` for a token the gateway does not hold (deleted);
    ///   the `mastercard.authentication.*` codes for an authentication that does not allow the payment.
    public func perform(_ transaction: MastercardTransactionRequest) async throws(CSEError) -> PaymentOutcome<MastercardTransaction> {
        let isWallet: Bool
        switch transaction.source {
        case .session, .token: isWallet = false
        case .walletToken, .decryptedDevicePayment: isWallet = true
        }
        if isWallet, apiVersion < MastercardTransactionRequest.minimumWalletAPIVersion {
            throw CSEError(
                .serverAPIInvalidArgument, "a wallet token needs API version 47 or later", context: ["argument": "apiVersion"])
        }
        if transaction.agreementUse != nil, apiVersion < MastercardTransactionRequest.minimumAgreementAPIVersion {
            throw CSEError(
                .serverAPIInvalidArgument, "an agreement (credential on file) needs API version 74 or later",
                context: ["argument": "apiVersion"])
        }
        // Checked before the journal records an intent: a refusal here sends nothing.
        let authentication = try await verifiedAuthentication(for: transaction)
        var ids = ["orderId": transaction.orderID, "transactionId": transaction.transactionID]
        if let id = transaction.authenticationTransactionID { ids["authenticationTransactionId"] = id }
        if let agreement = transaction.agreementUse?.agreement { ids["agreementId"] = agreement.id }
        let intent = JournalIntent(
            platform: "mastercard", operation: transaction.operation.name.lowercased(), amount: transaction.amount,
            currency: transaction.currency.code, platformIDs: ids)
        return try await journaled(http, intent) { () async throws(CSEError) in
            try await performOnce(transaction, authentication: authentication)
        }
    }

    /// ``perform(_:)-(MastercardTransactionRequest)`` itself, without the checks and the journal.
    private func performOnce(
        _ transaction: MastercardTransactionRequest, authentication: MastercardAuthentication?
    ) async throws(CSEError) -> PaymentOutcome<MastercardTransaction> {
        do {
            switch try await send(transaction) {
            case .succeeded(var paid, let keys):
                paid.verifiedAuthentication = authentication
                return .succeeded(paid, keys)
            case .refused(var refused, let error):
                refused?.verifiedAuthentication = authentication
                return .refused(refused, error)
            case .pending(var paid, let action, let keys):
                paid.verifiedAuthentication = authentication
                return .pending(paid, action, keys)
            case .unknown(let keys, let error):
                return .unknown(keys, error)
            }
        } catch {
            // The gateway refuses a token it does not hold with INVALID_REQUEST on the token's field.
            if case .token = transaction.source, error.code == .mastercardInvalidRequest,
                error.context["field"]?.hasPrefix("sourceOfFunds.token") == true
            {
                throw Self.tokenError(error)
            }
            throw error
        }
    }

    /// The authentication `transaction` names, retrieved (RETRIEVE TRANSACTION, a GET) and checked
    /// with ``MastercardAuthentication/check(for:allowUnauthenticated:)``; `nil` when it names none.
    /// - Throws: The `mastercard.authentication.*` refusals; the errors of a GET.
    func verifiedAuthentication(for transaction: MastercardTransactionRequest) async throws(CSEError) -> MastercardAuthentication? {
        guard let id = transaction.authenticationTransactionID else { return nil }
        let object: JSONObject
        do {
            object = try await get(["order", transaction.orderID, "transaction", id])
        } catch {
            guard error.code == .mastercardInvalidRequest else { throw error }
            throw CSEError(
                .mastercardAuthenticationUnknown, "the order has no transaction with the authentication id; nothing was sent",
                context: ["orderId": transaction.orderID, "authenticationTransactionId": id], underlying: error)
        }
        let authentication = try MastercardAuthentication(response: object)
        try authentication.check(for: transaction, allowUnauthenticated: transaction.allowsUnauthenticated)
        return authentication
    }

    /// The PUT of ``perform(_:)-(MastercardTransactionRequest)`` and its outcome.
    private func send(_ transaction: MastercardTransactionRequest) async throws(CSEError) -> PaymentOutcome<MastercardTransaction> {
        let keys = PaymentReconciliation(orderID: transaction.orderID, transactionID: transaction.transactionID)
        let response: HTTPResponse
        do {
            response = try await ServerRequest.send(
                http, .put,
                url: try baseURL.appending(pathSegments: ["order", transaction.orderID, "transaction", transaction.transactionID]),
                headers: ["Authorization": credentials.basicAuthorization()], body: transaction.json, retry: .idempotent)
        } catch {
            if error.provesRequestNotSent { throw error }
            return .unknown(keys, outcomeUnknownError("no answer was read; the transaction may have been processed", keys, cause: error))
        }
        let values = transaction.source.secrets.map { SecureBytes($0.utf8) }
        let expected = ExpectedAnswer(
            amount: transaction.amount, currencyCode: transaction.currency.code,
            identifiers: [("orderId", transaction.orderID), ("transactionId", transaction.transactionID)])
        return try Self.outcome(
            of: response, keys: keys, redactor: SafeText(secrets: [credentials.apiPassword] + values), expected: expected)
    }

    /// The outcome of a transaction answer (see ``perform(_:)``).
    /// - Parameter expected: What the request asked for, when known: a transaction in the answer
    ///   with another amount, currency, order id or transaction id is `server.referenceInUse`.
    static func outcome(
        of response: HTTPResponse, keys: PaymentReconciliation, redactor: SafeText, expected: ExpectedAnswer? = nil
    ) throws(CSEError) -> PaymentOutcome<MastercardTransaction> {
        // A 409 that names no gateway error names no conflict either: it cannot say the request
        // processed nothing (as Worldline's CreatePayment classes it; issue #33).
        if response.status == 409, !namesGatewayError(response) {
            let cause = ServerResponse.statusError(response, platform: "mastercard")
            return .unknown(
                keys, outcomeUnknownError("a 409 that names no conflict; the transaction may have been processed", keys, cause: cause))
        }
        guard let object = ServerResponse.errorObject(response) else {
            let error = ServerResponse.statusError(response, platform: "mastercard")
            if response.isSuccess || response.status >= 500 {
                let cause =
                    response.isSuccess
                    ? CSEError(.serverAPIInvalidResponse, "the response body is not a JSON object", context: ["platform": "mastercard"])
                    : error
                return .unknown(keys, outcomeUnknownError("the gateway's answer is not a transaction", keys, cause: cause))
            }
            return try notProcessed(error, after: response, keys)
        }
        var isError = !response.isSuccess
        if !isError {
            do { isError = try Self.isError(object) } catch {
                return .unknown(keys, outcomeUnknownError("the gateway's answer is not a readable transaction", keys, cause: error))
            }
        }
        if isError {
            let error = Self.error(of: response, redactor: redactor)
            // Only a request the gateway refused to take (invalid, or rejected with the
            // credentials) was certainly not processed; any other ERROR may hide a transaction.
            let refusedToTake: Set<CSEError.Code> = [
                .mastercardInvalidRequest, .mastercardRequestRejected, .serverAPIAuthenticationFailed,
            ]
            if refusedToTake.contains(error.code) || ((400..<500).contains(response.status) && error.code == .serverAPIUnexpectedStatus) {
                return try notProcessed(error, after: response, keys)
            }
            return .unknown(keys, outcomeUnknownError("the gateway could not complete the transaction", keys, cause: error))
        }
        let transaction: MastercardTransaction
        do {
            transaction = try MastercardTransaction(response: object)
        } catch {
            return .unknown(keys, outcomeUnknownError("the gateway's answer is not a readable transaction", keys, cause: error))
        }
        if let expected, let member = transaction.mismatch(expected) {
            throw expected.referenceInUseError(member: member, platform: "mastercard", keys: keys)
        }
        if transaction.isApproved || transaction.isPending { return .succeeded(transaction, keys) }
        if let code = transaction.gatewayCode, MastercardTransaction.undeterminedCodes.contains(code) {
            let cause = CSEError(
                .mastercardError, "the gateway did not get a final answer for the transaction",
                context: ["result": redactor.of(transaction.result, limit: 16), "gatewayCode": redactor.of(code, limit: 40)])
            return .unknown(keys, outcomeUnknownError("the transaction's outcome is not determined yet", keys, cause: cause))
        }
        if transaction.result == "FAILURE" || transaction.result == "SUCCESS" {
            var context = [
                "result": redactor.of(transaction.result, limit: 16), "gatewayCode": redactor.of(transaction.gatewayCode ?? "-", limit: 40),
            ]
            for (name, value) in keys.members { context[name] = value }
            return .refused(transaction, CSEError(.mastercardTransactionDeclined, "the gateway declined the transaction", context: context))
        }
        let cause = CSEError(
            .mastercardError, "the gateway could not determine the outcome with the acquirer",
            context: ["result": redactor.of(transaction.result, limit: 16)])
        return .unknown(keys, outcomeUnknownError("the transaction's outcome is unknown to the gateway", keys, cause: cause))
    }

    /// RETRIEVE TRANSACTION: `GET …/order/{orderId}/transaction/{transactionId}`, the transaction
    /// as it stands (how an unknown or pending outcome is settled).
    /// - Throws: ``CSEError/Code/serverAPIInvalidArgument`` for an id a path cannot carry;
    ///   ``CSEError/Code/mastercardInvalidRequest`` for a transaction the gateway never received
    ///   (then the identical PUT is safe); the errors of ``createSession(authenticationLimit:correlationID:)``.
    public func retrieveTransaction(orderID: String, transactionID: String) async throws(CSEError) -> MastercardTransaction {
        try MastercardTransactionRequest.checkID(orderID, argument: "orderId")
        try MastercardTransactionRequest.checkID(transactionID, argument: "transactionId")
        return try MastercardTransaction(response: try await get(["order", orderID, "transaction", transactionID]))
    }

    /// RETRIEVE ORDER: `GET …/order/{orderId}`: the order's status, totals and transactions.
    /// - Returns: The body with card numbers masked and security codes removed
    ///   (``MastercardSession/maskedJSON``'s rules), as compact UTF-8 JSON text.
    /// - Throws: ``CSEError/Code/serverAPIInvalidArgument`` for an id a path cannot carry; the
    ///   errors of ``createSession(authenticationLimit:correlationID:)``.
    public func retrieveOrder(orderID: String) async throws(CSEError) -> [UInt8] {
        try await retrieveOrderValue(orderID: orderID).serializedBytes
    }

    /// ``retrieveOrder(orderID:)`` as a value (the CLI writes it into its own lines).
    package func retrieveOrderValue(orderID: String) async throws(CSEError) -> JSONValue {
        try MastercardTransactionRequest.checkID(orderID, argument: "orderId")
        return MastercardSession.mask(.object(try await get(["order", orderID])), path: [])
    }

    /// A GET of `path`; `secrets` (a token in the path) are redacted from the platform's text.
    func get(_ path: [String], secrets: [String] = []) async throws(CSEError) -> JSONObject {
        let response = try await ServerRequest.send(
            http, .get, url: try baseURL.appending(pathSegments: path), headers: ["Authorization": credentials.basicAuthorization()],
            body: nil, retry: .idempotent)
        let redactor = SafeText(secrets: [credentials.apiPassword] + secrets.map { SecureBytes($0.utf8) })
        guard response.isSuccess else { throw Self.error(of: response, redactor: redactor) }
        let object = try ServerResponse.object(response, platform: "mastercard")
        if try Self.isError(object) { throw Self.error(of: response, redactor: redactor) }
        return object
    }
}
