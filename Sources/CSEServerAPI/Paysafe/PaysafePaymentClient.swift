public import CSECore
import CSECrypto
import CSEGateways
@_spi(CustomTransport) public import CSEHTTP
public import CSEValidation

extension CSEError.Code {
    /// Paysafe declined the payment: HTTP 402 (the body is the payment with an `error`), or a
    /// payment whose `status` is `FAILED`, `CANCELLED` or `EXPIRED`. The context gives the status,
    /// the Paysafe code and the merchant reference.
    public static let paysafePaymentDeclined = Self("paysafe.paymentDeclined")
    /// Paysafe answered a payment whose `status` it does not document (not `COMPLETED`, a pending
    /// status or a refusal; the comparison is exact, so `failed` is not `FAILED`), or, after a
    /// 409, listed payments under the reference whose outcomes disagree: the cause of an unknown
    /// outcome, never a success. The context names the status.
    public static let paysafePaymentUndetermined = Self("paysafe.paymentUndetermined")
}

/// A Paysafe payment: the Payments API's `Payment` or the Card Payments API's authorization.
public struct PaysafePayment: Sendable, CustomStringConvertible, PaysafeStatus {
    /// The payment's id.
    public let id: String
    /// `status`, for example `COMPLETED`, `PROCESSING`, `FAILED`.
    public let status: String
    /// `merchantRefNum`.
    public let merchantReference: String?
    /// `amount`, in minor units.
    public let amount: Int64?
    /// `currencyCode`.
    public let currencyCode: String?
    /// The card's last digits (`card.lastDigits`), at most four.
    public let lastDigits: String?
    /// `gatewayResponse.authCode` (Payments API) or `authCode` (Card Payments API).
    public let authorizationCode: String?
    /// The 3-D Secure results (`authentication`: ECI, `threeDResult`, version), when Paysafe gives them.
    public let authentication: PaysafeAuthentication?
    /// `storedCredential.type` and `.occurrence` as Paysafe repeats them, for a payment with a saved card.
    public let storedCredential: (type: String?, occurrence: String?)?
    /// Whether this is no payment yet but the payment handle of the request, which awaits the
    /// payer's 3-D Secure authentication (issue #34): ``id`` is then the handle's id, ``status``
    /// its status (`INITIATED`).
    public let isAwaitingAuthentication: Bool

    /// The statuses after which nothing more happens to a refused payment (research notes §4.3).
    static let declinedStatuses: Set<String> = ["FAILED", "CANCELLED", "EXPIRED"]
    /// The documented statuses of a payment that is neither approved nor refused yet: the union
    /// of the SDKs' sets (Java `PaymentRequestStatus`, PHP `TransactionRequestStatus`, the Card
    /// Payments `Status`; payment-calls research notes §4.3).
    static let pendingStatuses: Set<String> = ["RECEIVED", "INITIATED", "PENDING", "PROCESSING", "HELD"]

    /// Decodes a payment.
    /// - Throws: ``CSEError/Code/serverAPIInvalidResponse`` naming the member when `id` or
    ///   `status` is missing, empty or not a string, or a member read has the wrong JSON type (for
    ///   example an `amount` that is not an integer).
    package init(response: JSONObject) throws(CSEError) {
        try self.init(response: response, reader: ServerResponseReader(platform: "paysafe"))
    }

    /// Decodes a payment with `reader` naming the members (under `payments[n].` in a list).
    init(response: JSONObject, reader: ServerResponseReader) throws(CSEError) {
        id = try reader.nonEmptyString(response, "id")
        status = try reader.nonEmptyString(response, "status")
        merchantReference = try reader.optionalString(response, "merchantRefNum")
        currencyCode = try reader.optionalString(response, "currencyCode")
        amount = try reader.optionalInt64(response, "amount")
        let (card, cardReader) = try reader.child(response, "card")
        lastDigits = try cardReader.optionalString(card, "lastDigits").map { String($0.suffix(4)) }
        let (gateway, gatewayReader) = try reader.child(response, "gatewayResponse")
        var authorizationCode = try gatewayReader.optionalString(gateway, "authCode")
        if authorizationCode == nil { authorizationCode = try reader.optionalString(response, "authCode") }
        self.authorizationCode = authorizationCode
        authentication = try PaysafeAuthentication.of(response, reader: reader)
        isAwaitingAuthentication = false
        if let stored = try reader.optionalObject(response, "storedCredential") {
            let storedReader = reader.under("storedCredential")
            storedCredential = (try storedReader.optionalString(stored, "type"), try storedReader.optionalString(stored, "occurrence"))
        } else {
            storedCredential = nil
        }
    }

    /// The request's payment before it is made: `handle` awaits the payer's authentication.
    init(awaiting handle: PaysafePaymentHandle, request: PaysafePaymentRequest) {
        id = handle.id
        status = handle.status
        merchantReference = request.merchantReference
        amount = request.amount
        currencyCode = request.currency.code
        lastDigits = handle.lastDigits
        authorizationCode = nil
        authentication = handle.authentication
        storedCredential = nil
        isAwaitingAuthentication = true
    }

    /// Whether the payment was refused for good (`FAILED`, `CANCELLED`, `EXPIRED`).
    public var isDeclined: Bool { Self.declinedStatuses.contains(status) }
    /// Whether the payment is approved (`COMPLETED`).
    public var isCompleted: Bool { status == "COMPLETED" }
    /// Whether the payment is not final yet, in a documented status (`RECEIVED`, `INITIATED`,
    /// `PENDING`, `PROCESSING`, `HELD`): look it up again later.
    public var isPending: Bool { Self.pendingStatuses.contains(status) }
    /// Whether the status is one Paysafe documents: completed, pending or declined. Any other
    /// status (`ERROR`, `DECLINED`, `failed`, …) decides nothing: the outcome is unknown.
    public var isDocumentedStatus: Bool { isCompleted || isPending || isDeclined }

    /// The fields as JSON (no card number: only its last digits).
    package var json: JSONValue {
        var members: [(String, JSONValue)] = [
            (isAwaitingAuthentication ? "paymentHandleId" : "id", .string(id)), ("status", .string(status)),
        ]
        if let merchantReference { members.append(("merchantRefNum", .string(merchantReference))) }
        if let amount { members.append(("amount", .number(String(amount)))) }
        if let currencyCode { members.append(("currencyCode", .string(currencyCode))) }
        if let lastDigits { members.append(("lastDigits", .string(lastDigits))) }
        if let authorizationCode { members.append(("authCode", .string(authorizationCode))) }
        if let authentication { members.append(("authentication", authentication.json)) }
        if let storedCredential {
            var stored: [(String, JSONValue)] = []
            if let type = storedCredential.type { stored.append(("type", .string(type))) }
            if let occurrence = storedCredential.occurrence { stored.append(("occurrence", .string(occurrence))) }
            members.append(("storedCredential", .object(JSONObject(stored))))
        }
        return .object(JSONObject(members))
    }

    /// Id, status and reference.
    public var description: String {
        "PaysafePayment(\(isAwaitingAuthentication ? "paymentHandleId" : "id"): \(id), status: \(status), merchantRefNum: \(merchantReference ?? "-"))"
    }
}

/// A Paysafe payment request, on one of the two payment APIs, which are kept apart (research notes §4.1).
public struct PaysafePaymentRequest: Sendable, CustomStringConvertible {
    /// What pays, and so which API takes the payment.
    public enum Source: Sendable, CustomStringConvertible {
        /// A payment handle (`paymentHandleToken`, from the mobile SDKs' tokenize): the Payments
        /// API, `POST /paymenthub/v1/payments`.
        case paymentHandle(String)
        /// A Customer Vault single-use token (`card.paymentToken`, from ``PaysafeTokenClient``):
        /// the Card Payments API, `POST /cardpayments/v1/accounts/{accountID}/auths`.
        case cardToken(String, accountID: String)

        /// The kind and the account, never the token.
        public var description: String {
            switch self {
            case .paymentHandle: return "paymentHandle"
            case .cardToken(_, let account): return "cardToken(account: \(account))"
            }
        }
    }

    /// The merchant's reference, unique per payment: with `dupCheck` (always on) it is what makes
    /// a retry safe, and what a lookup finds.
    public let merchantReference: String
    /// The amount in minor units.
    public let amount: Int64
    /// The currency.
    public let currency: Currency
    /// What pays.
    public let source: Source
    /// `settleWithAuth`: `true` authorises and settles (a sale), `false` authorises only.
    public let settleWithAuthorization: Bool
    /// `storedCredential`: how a saved card (a multi-use handle) is used (issue #35).
    public let storedCredential: PaysafeStoredCredential?

    /// Checks and creates a request.
    /// - Throws: ``CSEError/Code/serverAPIInvalidArgument`` naming the argument: a reference that
    ///   is not 1–255 printable ASCII characters, an amount outside 0…999,999,999,999, a currency
    ///   without minor units, an empty or non-identifier token, an account id that is not digits,
    ///   or a stored credential with a Card Payments token (only a payment handle carries one here).
    public init(
        merchantReference: String, amount: Int64, currency: Currency, source: Source, settleWithAuthorization: Bool = true,
        storedCredential: PaysafeStoredCredential? = nil
    ) throws(CSEError) {
        try Self.checkReference(merchantReference)
        guard (0...999_999_999_999).contains(amount) else {
            throw CSEError(.serverAPIInvalidArgument, "the amount is minor units from 0 to 999999999999", context: ["argument": "amount"])
        }
        guard currency.minorUnits != nil else {
            throw CSEError(.serverAPIInvalidArgument, "the currency has no minor unit in ISO 4217", context: ["argument": "currency"])
        }
        let token: String
        switch source {
        case .paymentHandle(let handle): token = handle
        case .cardToken(let paymentToken, let account):
            token = paymentToken
            try Self.checkAccount(account)
        }
        try Self.checkToken(token)
        if storedCredential != nil, case .cardToken = source {
            throw CSEError(
                .serverAPIInvalidArgument, "a stored credential goes with a payment handle (a saved card), not a Card Payments token",
                context: ["argument": "storedCredential"])
        }
        self.merchantReference = merchantReference
        self.amount = amount
        self.currency = currency
        self.source = source
        self.settleWithAuthorization = settleWithAuthorization
        self.storedCredential = storedCredential
    }

    /// Refuses a token that is not 1–100 identifier characters.
    static func checkToken(_ token: String) throws(CSEError) {
        guard !token.isEmpty, token.utf8.count <= 100, token.utf8.allSatisfy({ ServerIdentifier.isIdentifierByte($0) }) else {
            throw CSEError(.serverAPIInvalidArgument, "the token is 1 to 100 identifier characters", context: ["argument": "token"])
        }
    }

    package static func checkReference(_ reference: String) throws(CSEError) {
        guard !reference.isEmpty, reference.utf8.count <= 255, reference.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) else {
            throw CSEError(
                .serverAPIInvalidArgument, "the merchant reference is 1 to 255 printable ASCII characters",
                context: ["argument": "merchantRefNum"])
        }
    }

    static func checkAccount(_ account: String) throws(CSEError) {
        guard !account.isEmpty, account.utf8.count <= 20, account.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else {
            throw CSEError(.serverAPIInvalidArgument, "the account id is 1 to 20 digits", context: ["argument": "accountId"])
        }
    }

    /// The path of the payments collection: the Payments API's, or an account's auths on the Card Payments API.
    static func path(accountID: String?) -> [String] {
        guard let accountID else { return ["paymenthub", "v1", "payments"] }
        return ["cardpayments", "v1", "accounts", accountID, "auths"]
    }

    /// The path segments under the origin.
    var path: [String] {
        switch source {
        case .paymentHandle: return Self.path(accountID: nil)
        case .cardToken(_, let account): return Self.path(accountID: account)
        }
    }

    /// The body. The Payments API: `merchantRefNum`, `amount`, `currencyCode`, `paymentHandleToken`,
    /// `settleWithAuth`, `dupCheck: true` (never false: it is what refuses a second payment with
    /// the reference) and the `storedCredential` when given. The Card Payments API: `merchantRefNum`, `amount`, `settleWithAuth`,
    /// `card.paymentToken` (the account fixes the currency).
    package var json: JSONValue {
        switch source {
        case .paymentHandle(let handle):
            var members: [(String, JSONValue)] = [
                ("merchantRefNum", .string(merchantReference)), ("amount", .number(String(amount))),
                ("currencyCode", .string(currency.code)), ("paymentHandleToken", .string(handle)),
                ("settleWithAuth", .bool(settleWithAuthorization)), ("dupCheck", .bool(true)),
            ]
            if let storedCredential { members.append(("storedCredential", storedCredential.json)) }
            return .object(JSONObject(members))
        case .cardToken(let token, _):
            return .object(
                JSONObject([
                    ("merchantRefNum", .string(merchantReference)), ("amount", .number(String(amount))),
                    ("settleWithAuth", .bool(settleWithAuthorization)), ("card", .object(JSONObject([("paymentToken", .string(token))]))),
                ]))
        }
    }

    /// Reference, amount, currency, API and stored credential; never the token.
    public var description: String {
        "PaysafePaymentRequest(merchantRefNum: \(merchantReference), amount: \(amount) \(currency), source: \(source)"
            + (storedCredential.map { ", storedCredential: \($0)" } ?? "") + ")"
    }
}

/// Paysafe's payment calls with the server-to-server API key: take a payment
/// (``pay(_:)``) and find payments by merchant reference (``payments(merchantReference:accountID:)``).
///
/// Paysafe has no idempotence header: the merchant reference with `dupCheck` makes a retry safe
/// (a second payment with the reference is refused, HTTP 409), and a lookup by reference settles
/// an unknown outcome (research notes §4.4). POSTs are never repeated by the transport.
public struct PaysafePaymentClient: Sendable {
    let connection: PaysafeConnection

    /// The credentials: the server-to-server API key (`username:password`, base64).
    public var credentials: PaysafeCredentials { connection.credentials }
    /// Where the calls go.
    public var environment: ServerEnvironment { connection.environment }

    /// Creates a client.
    /// - Parameters:
    ///   - credentials: The server-to-server API key.
    ///   - environment: ``ServerEnvironment/paysafeTest``, ``ServerEnvironment/paysafeProduction``
    ///     or a test server.
    ///   - configuration: Deadlines, retries, size limit and TLS trust.
    ///   - transport: A transport of your own (tests, a proxy); libcurl when `nil`.
    /// - Throws: ``CSEError/Code/httpInvalidConfiguration`` for a configuration out of range.
    public init(
        credentials: PaysafeCredentials, environment: ServerEnvironment, configuration: HTTPClientConfiguration = HTTPClientConfiguration(),
        transport: (any HTTPTransport)? = nil
    ) throws(CSEError) {
        connection = try PaysafeConnection(
            credentials: credentials, environment: environment, configuration: configuration, transport: transport)
    }

    /// Creates a client over an existing `HTTPClient`.
    package init(credentials: PaysafeCredentials, environment: ServerEnvironment, http: HTTPClient) {
        connection = PaysafeConnection(credentials: credentials, environment: environment, http: http)
    }

    /// Takes the payment.
    ///
    /// The outcome (research notes §4.3, §4.4):
    /// - ``PaymentOutcome/succeeded(_:_:)``: a payment that is `COMPLETED`;
    /// - ``PaymentOutcome/pending(_:_:_:)``: a payment in a documented status that is not final
    ///   yet (``PaysafePayment/isPending``: look it up later; issue #34);
    /// - ``PaymentOutcome/refused(_:_:)``: HTTP 402 (the payment with its `error`) or a payment
    ///   that is `FAILED`, `CANCELLED` or `EXPIRED` (`paysafe.paymentDeclined`);
    /// - ``PaymentOutcome/unknown(_:_:)``: no answer read after sending, a 5xx, a 2xx that is
    ///   not a readable payment, or a payment in a status Paysafe does not document
    ///   (`paysafe.paymentUndetermined`); the reconciliation names the merchant reference.
    ///
    /// A 409 (the reference was used before: an earlier attempt exists) is never a refusal, which
    /// would make a charged payment look failed: the payments with that reference are looked up
    /// and decided together (a completed, else a pending entry of the request's amount and
    /// currency wins; refused only when every one is declined), or, if none is found, the outcome
    /// is unknown.
    /// - Throws: When nothing was processed: a transport error before sending, 400, 401, 403.
    public func pay(_ request: PaysafePaymentRequest) async throws(CSEError) -> PaymentOutcome<PaysafePayment> {
        let intent = JournalIntent(
            platform: "paysafe", operation: request.settleWithAuthorization ? "payment" : "authorization", amount: request.amount,
            currency: request.currency.code, merchantReference: request.merchantReference)
        return try await journaled(connection.http, intent, ids: { ["paymentId": $0.id] }) { () async throws(CSEError) in
            try await payOnce(request)
        }
    }

    /// ``pay(_:)`` itself, without the journal.
    private func payOnce(_ request: PaysafePaymentRequest) async throws(CSEError) -> PaymentOutcome<PaysafePayment> {
        let keys = PaymentReconciliation(merchantReference: request.merchantReference)
        // The token can be charged (a saved card's): Paysafe's text never repeats it.
        let token: String
        switch request.source {
        case .paymentHandle(let handle): token = handle
        case .cardToken(let paymentToken, _): token = paymentToken
        }
        let redactor = SafeText(secrets: [credentials.apiKey, SecureBytes(token.utf8)])
        let response: HTTPResponse
        switch try await connection.postMovingMoney(
            path: request.path, body: request.json, keys: keys, lost: "the payment may have been taken")
        {
        case .success(let answer): response = answer
        case .failure(let error): return .unknown(keys, error)
        }
        if response.status == 409 {
            let conflict = PaysafeTokenClient.error(of: response, redactor: redactor)
            let accountID: String?
            if case .cardToken(_, let account) = request.source { accountID = account } else { accountID = nil }
            let earlier = try? await payments(merchantReference: request.merchantReference, accountID: accountID)
            guard let earlier, !earlier.isEmpty else {
                return .unknown(
                    keys, outcomeUnknownError("the reference was used before, and no payment with it was found", keys, cause: conflict))
            }
            return try Self.outcome(ofEarlier: earlier, for: request, keys: keys, redactor: redactor)
        }
        // A 402 body with an `id` is the declined payment; without one, an error body (below).
        if response.status == 402, let object = ServerResponse.errorObject(response), object["id"] != nil {
            let payment: PaysafePayment
            let detail: PaysafeErrorDetail?
            do {
                payment = try PaysafePayment(response: object)
                detail = try PaysafeErrorDetail(object)
            } catch {
                throw ServerResponse.statusError(response, platform: "paysafe", cause: error)
            }
            return .refused(payment, Self.declined(payment, keys: keys, code: detail?.code, redactor: redactor))
        }
        guard response.isSuccess else {
            let error = PaysafeTokenClient.error(of: response, redactor: redactor)
            if response.status >= 500 {
                return .unknown(
                    keys, outcomeUnknownError("Paysafe answered a server error; the payment may have been taken", keys, cause: error))
            }
            if let refusal = Self.handleRefusal(response, error: error, redactor: redactor) { throw refusal }
            throw error
        }
        do {
            return Self.outcome(
                of: try PaysafePayment(response: try ServerResponse.object(response, platform: "paysafe")), keys: keys, redactor: redactor)
        } catch {
            return .unknown(keys, outcomeUnknownError("Paysafe's 2xx answer is not a readable payment", keys, cause: error))
        }
    }

    /// `COMPLETED` succeeds, the documented statuses that are not final yet (`RECEIVED`,
    /// `INITIATED`, `PENDING`, `PROCESSING`, `HELD`) are pending (issue #34: look the payment up
    /// later), the declined ones are refused, and any other status is unknown: an answer Paysafe
    /// does not document never reads as success.
    static func outcome(of payment: PaysafePayment, keys: PaymentReconciliation, redactor: SafeText) -> PaymentOutcome<PaysafePayment> {
        if payment.isCompleted { return .succeeded(payment, keys) }
        if payment.isPending {
            var pending = keys
            pending.paymentID = payment.id
            return .pending(payment, nil, pending)
        }
        if payment.isDeclined { return .refused(payment, declined(payment, keys: keys, code: nil, redactor: redactor)) }
        var settled = keys
        settled.paymentID = payment.id
        let cause = CSEError(
            .paysafePaymentUndetermined, "Paysafe answered a payment status it does not document",
            context: ["paymentStatus": redactor.of(payment.status, limit: 32)])
        return .unknown(settled, outcomeUnknownError("the payment's status decides nothing; look the payment up", settled, cause: cause))
    }

    /// The outcome of a request whose reference Paysafe already holds (a 409), from every payment
    /// the lookup lists under it (research notes §4.4; issue #32, point 4), in whatever order
    /// Paysafe lists them.
    ///
    /// A duplicate is the same payment, so only the entries with the request's amount and
    /// currency count (none: the reference belongs to another order, `server.referenceInUse`).
    /// Among them a `COMPLETED` entry, else a pending one, is the earlier attempt that took the
    /// payment (succeeded); the payment was refused only when every entry is declined; entries
    /// with a status Paysafe does not document and nothing taken leave the outcome unknown.
    static func outcome(
        ofEarlier payments: [PaysafePayment], for request: PaysafePaymentRequest, keys: PaymentReconciliation, redactor: SafeText
    ) throws(CSEError) -> PaymentOutcome<PaysafePayment> {
        let same = payments.filter { payment in
            (payment.amount.map { $0 == request.amount } ?? true)
                && (payment.currencyCode.map { $0 == request.currency.code } ?? true)
        }
        guard let deciding = PaysafePayment.deciding(same) else { throw referenceInUse(request.merchantReference, platform: "paysafe") }
        return outcome(of: deciding, keys: keys, redactor: redactor)
    }

    /// What the payments listed under a merchant reference say of it (issue #34: `cse paysafe
    /// lookup` exits by it): a `COMPLETED` payment, else a pending one, decides it; refused when
    /// every one is declined; unknown when one has a status Paysafe does not document and none
    /// was taken.
    /// - Throws: ``CSEError/Code/serverUnknownPayment`` when none is listed (nothing was processed
    ///   under the reference).
    package static func outcome(
        ofListed payments: [PaysafePayment], merchantReference: String
    ) throws(CSEError) -> PaymentOutcome<
        PaysafePayment
    > {
        guard let deciding = PaysafePayment.deciding(payments) else {
            throw CSEError(
                .serverUnknownPayment, "Paysafe lists no payment with this merchant reference",
                context: ["merchantReference": SafeText.identifier(merchantReference), "platform": "paysafe"])
        }
        return outcome(
            of: deciding, keys: PaymentReconciliation(merchantReference: merchantReference), redactor: SafeText(secrets: []))
    }

    /// `paysafe.paymentDeclined` for a refused payment, with Paysafe's `error.code` when the body had one.
    static func declined(_ payment: PaysafePayment, keys: PaymentReconciliation, code: String?, redactor: SafeText) -> CSEError {
        var context = ["paymentId": redactor.of(payment.id, limit: 64), "paymentStatus": redactor.of(payment.status, limit: 32)]
        if let code { context["paysafeCode"] = redactor.of(code, limit: 16) }
        for (name, value) in keys.members { context[name] = value }
        return CSEError(.paysafePaymentDeclined, "Paysafe declined the payment", context: context)
    }

    /// The payments with a merchant reference, newest first as Paysafe lists them: `GET
    /// /paymenthub/v1/payments?merchantRefNum=…` (Payments API), or, with an account,
    /// `GET /cardpayments/v1/accounts/{accountID}/auths?merchantRefNum=…` (Card Payments API).
    /// - Throws: ``CSEError/Code/serverAPIInvalidArgument`` for a reference that is not 1–255
    ///   printable ASCII characters or an account that is not digits; Paysafe's and the transport's errors.
    public func payments(merchantReference: String, accountID: String? = nil) async throws(CSEError) -> [PaysafePayment] {
        try PaysafePaymentRequest.checkReference(merchantReference)
        if let accountID { try PaysafePaymentRequest.checkAccount(accountID) }
        let response = try await connection.send(
            .get, path: PaysafePaymentRequest.path(accountID: accountID), query: [("merchantRefNum", merchantReference)], body: nil,
            retry: .idempotent)
        guard response.isSuccess else { throw PaysafeTokenClient.error(of: response, redactor: connection.redactor) }
        let object = try ServerResponse.object(response, platform: "paysafe")
        let list = accountID == nil ? "payments" : "auths"
        let reader = ServerResponseReader(platform: "paysafe")
        guard let entries = try reader.optionalArray(object, list) else { throw reader.malformed("\(list) is missing", member: list) }
        var payments: [PaysafePayment] = []
        for (index, entry) in entries.enumerated() {
            let name = "\(list)[\(index)]"
            payments.append(try PaysafePayment(response: try reader.object(entry, member: name), reader: reader.under(name)))
        }
        return payments
    }
}
