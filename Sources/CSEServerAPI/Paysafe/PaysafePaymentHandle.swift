public import CSECore
import CSECrypto
@_spi(CustomTransport) import CSEHTTP

extension CSEError.Code {
    /// Paysafe will not take a payment with the payment handle, or save it as a card: the handle is
    /// not `PAYABLE` (`INITIATED`, `PROCESSING`, `COMPLETED` once used, `FAILED`, `EXPIRED`), or
    /// was deleted (issue #34, section 5; lifecycle research notes §4.1). The context names the
    /// handle's status (`handleStatus`) when Paysafe's answer names one. Nothing was charged.
    public static let paysafeHandleNotPayable = Self("paysafe.handleNotPayable")
    /// The payment handle read by its id carries another token than the one the app sent: the app
    /// (or someone between it and the server) paired a token with a handle that is not its own.
    /// Nothing was sent (issue #34, section 5).
    public static let paysafeHandleMismatch = Self("paysafe.handleMismatch")
}

/// The 3-D Secure results of a Paysafe payment handle or payment (`authentication`; Payments API
/// `Card\ThreeDs\Authentication`, lifecycle research notes §4.1). The cryptogram (`cavv`, `xid`)
/// is not kept.
public struct PaysafeAuthentication: Sendable, Hashable {
    /// `eci`, the electronic commerce indicator (for example `5`: authenticated).
    public let eci: String?
    /// `threeDResult`: `Y`, `A`, `N`, `U` or `E`.
    public let threeDResult: String?
    /// `threeDSecureVersion`, for example `2.2.0`.
    public let threeDSecureVersion: String?
    /// `status` of the authentication.
    public let status: String?
    /// `directoryServerTransactionId`.
    public let directoryServerTransactionID: String?

    /// Reads the object.
    /// - Throws: ``CSEError/Code/serverAPIInvalidResponse`` naming a member of the wrong type.
    init(response: JSONObject, reader: ServerResponseReader) throws(CSEError) {
        eci = try reader.optionalScalarText(response, "eci")
        threeDResult = try reader.optionalString(response, "threeDResult")
        threeDSecureVersion = try reader.optionalString(response, "threeDSecureVersion")
        status = try reader.optionalString(response, "status")
        directoryServerTransactionID = try reader.optionalString(response, "directoryServerTransactionId")
    }

    /// The authentication of `object` (its `authentication` member), or `nil` without one.
    static func of(_ object: JSONObject, reader: ServerResponseReader) throws(CSEError) -> PaysafeAuthentication? {
        guard let inner = try reader.optionalObject(object, "authentication") else { return nil }
        return try PaysafeAuthentication(response: inner, reader: reader.under("authentication"))
    }

    /// `{"eci","threeDResult","threeDSecureVersion","status","directoryServerTransactionId"}`, the members given.
    package var json: JSONValue {
        var members: [(String, JSONValue)] = []
        if let eci { members.append(("eci", .string(eci))) }
        if let threeDResult { members.append(("threeDResult", .string(threeDResult))) }
        if let threeDSecureVersion { members.append(("threeDSecureVersion", .string(threeDSecureVersion))) }
        if let status { members.append(("status", .string(status))) }
        if let directoryServerTransactionID { members.append(("directoryServerTransactionId", .string(directoryServerTransactionID))) }
        return .object(JSONObject(members))
    }
}

/// A Paysafe payment handle (Payments API `PaymentHandle`; lifecycle research notes §4.1, §4.3):
/// a single-use handle the app made with the mobile SDK, or a customer's saved card, a `MULTI_USE`
/// handle with a permanent token.
public struct PaysafePaymentHandle: Sendable, CustomStringConvertible {
    /// The handle's id.
    public let id: String
    /// `paymentHandleToken`: what a payment sends. A saved card's token can be charged: it goes
    /// to standard output only as a command's result, never into an error or a description.
    /// Absent where Paysafe lists a customer's cards for the app.
    public let paymentHandleToken: String?
    /// `status`: `INITIATED`, `PAYABLE`, `PROCESSING`, `COMPLETED`, `FAILED` or `EXPIRED`.
    public let status: String
    /// `usage`: `SINGLE_USE` or `MULTI_USE` (a saved card).
    public let usage: String?
    /// `action`: `NONE`, `REDIRECT` or `LOOKUP`.
    public let action: String?
    /// `merchantRefNum`.
    public let merchantReference: String?
    /// `customerId` of a saved card.
    public let customerID: String?
    /// The `href` of the `redirect_payment` link: where the payer completes 3-D Secure.
    public let redirectURL: String?
    /// `card.cardBin`, at most six digits.
    public let cardBin: String?
    /// `card.lastDigits`, at most four digits.
    public let lastDigits: String?
    /// `card.cardType`, the brand (for example `VI`).
    public let cardType: String?
    /// `card.cardExpiry.month`.
    public let expiryMonth: Int?
    /// `card.cardExpiry.year`.
    public let expiryYear: Int?
    /// The 3-D Secure results, when the handle was authenticated.
    public let authentication: PaysafeAuthentication?

    /// The statuses a handle documents (research notes §4.1).
    static let statuses = ["INITIATED", "PAYABLE", "PROCESSING", "COMPLETED", "FAILED", "EXPIRED"]

    /// Decodes a handle, with `reader` naming the members.
    /// - Throws: ``CSEError/Code/serverAPIInvalidResponse`` naming the member when `id` or
    ///   `status` is missing or empty, or a member has the wrong JSON type.
    init(response: JSONObject, reader: ServerResponseReader = ServerResponseReader(platform: "paysafe")) throws(CSEError) {
        id = try reader.nonEmptyString(response, "id")
        status = try reader.nonEmptyString(response, "status")
        paymentHandleToken = try reader.optionalString(response, "paymentHandleToken")
        usage = try reader.optionalString(response, "usage")
        action = try reader.optionalString(response, "action")
        merchantReference = try reader.optionalString(response, "merchantRefNum")
        customerID = try reader.optionalString(response, "customerId")
        var redirect: String?
        for (index, entry) in (try reader.optionalArray(response, "links") ?? []).enumerated() {
            let name = "links[\(index)]"
            let link = try reader.object(entry, member: name)
            if try reader.under(name).optionalString(link, "rel") == "redirect_payment" {
                redirect = try reader.under(name).optionalString(link, "href")
            }
        }
        redirectURL = redirect
        let (card, cardReader) = try reader.child(response, "card")
        cardBin = try cardReader.optionalScalarText(card, "cardBin").map { String($0.prefix(6)) }
        lastDigits = try cardReader.optionalScalarText(card, "lastDigits").map { String($0.suffix(4)) }
        cardType = try cardReader.optionalString(card, "cardType")
        let (expiry, expiryReader) = try cardReader.child(card, "cardExpiry")
        expiryMonth = try expiryReader.optionalInt(expiry, "month")
        expiryYear = try expiryReader.optionalInt(expiry, "year")
        authentication = try PaysafeAuthentication.of(response, reader: reader)
    }

    /// Whether a payment may use the handle (`PAYABLE`).
    public var isPayable: Bool { status == "PAYABLE" }
    /// Whether the handle is a saved card (`MULTI_USE`).
    public var isMultiUse: Bool { usage == "MULTI_USE" }

    /// The card as `BIN******LAST4` (or `******LAST4` without a BIN), or `nil` without last digits.
    public var maskedCard: String? { lastDigits.map { (cardBin ?? "") + "******" + $0 } }

    /// The fields as JSON: the token whole (it is the result), the card masked.
    package var json: JSONValue {
        var members: [(String, JSONValue)] = [("id", .string(id)), ("status", .string(status))]
        if let usage { members.append(("usage", .string(usage))) }
        if let paymentHandleToken { members.append(("paymentHandleToken", .string(paymentHandleToken))) }
        if let merchantReference { members.append(("merchantRefNum", .string(merchantReference))) }
        if let customerID { members.append(("customerId", .string(customerID))) }
        if let action { members.append(("action", .string(action))) }
        var card: [(String, JSONValue)] = []
        if let maskedCard { card.append(("maskedCard", .string(maskedCard))) }
        if let cardType { card.append(("cardType", .string(cardType))) }
        if let expiryMonth, let expiryYear {
            card.append(
                ("cardExpiry", .object(JSONObject([("month", .number(String(expiryMonth))), ("year", .number(String(expiryYear)))]))))
        }
        if !card.isEmpty { members.append(("card", .object(JSONObject(card)))) }
        if let authentication { members.append(("authentication", authentication.json)) }
        return .object(JSONObject(members))
    }

    /// Id, status, usage and masked card; never the token.
    public var description: String {
        "PaysafePaymentHandle(id: \(id), status: \(status), usage: \(usage ?? "-"), card: \(maskedCard ?? "-"))"
    }
}

extension PaysafePaymentClient {
    /// Reads a payment handle: `GET /paymenthub/v1/paymenthandles/{id}` (lifecycle research notes
    /// §4.1), to check that the handle the app sent is `PAYABLE` before paying with it.
    /// - Throws: ``CSEError/Code/serverAPIInvalidArgument`` for an id that cannot be a path
    ///   segment; ``CSEError/Code/paysafeAPIError`` with Paysafe's code (a 404: no such handle);
    ///   401 and 403 as ``CSEError/Code/serverAPIAuthenticationFailed``; a transport error.
    public func paymentHandle(id: String) async throws(CSEError) -> PaysafePaymentHandle {
        try PaysafeOperationRequest.checkIdentifier(id, argument: "paymentHandleId")
        let response = try await connection.send(.get, path: ["paymenthub", "v1", "paymenthandles", id], body: nil, retry: .idempotent)
        guard response.isSuccess else { throw PaysafeTokenClient.error(of: response, redactor: connection.redactor) }
        return try PaysafePaymentHandle(response: try ServerResponse.object(response, platform: "paysafe"))
    }

    /// Reads the handle `id` and checks that it is the one whose token the app sent and that it
    /// is payable (issue #34, section 5): the check ``pay(_:handleID:)`` makes before sending.
    /// - Returns: The handle: `PAYABLE`, or `INITIATED` with a `REDIRECT` action (the payer must
    ///   complete 3-D Secure first; its ``PaysafePaymentHandle/redirectURL``).
    /// - Throws: ``CSEError/Code/paysafeHandleMismatch`` when the handle's token is not `token`
    ///   (compared in constant time); ``CSEError/Code/paysafeHandleNotPayable`` naming the status
    ///   for any other status; the errors of ``paymentHandle(id:)``.
    package func payableHandle(id: String, token: String) async throws(CSEError) -> PaysafePaymentHandle {
        let handle = try await paymentHandle(id: id)
        guard let held = handle.paymentHandleToken, ConstantTime.equals(Array(held.utf8), Array(token.utf8)) else {
            throw CSEError(
                .paysafeHandleMismatch, "the payment handle read by its id carries another token than the one given",
                context: ["paymentHandleId": SafeText.identifier(id)])
        }
        if handle.isPayable || (handle.status == "INITIATED" && handle.action == "REDIRECT" && handle.redirectURL != nil) {
            return handle
        }
        throw Self.notPayable(status: handle.status, redactor: connection.redactor, underlying: nil)
    }

    /// Takes the payment after checking the payment handle the app sent with its id (issue #34,
    /// section 5): the handle is read first (``paymentHandle(id:)``) and nothing is sent unless it
    /// is the handle of the request's token and `PAYABLE`; then as ``pay(_:)``.
    /// - Returns: ``pay(_:)``'s outcome, or, for a handle still `INITIATED` with a `REDIRECT`
    ///   action (the payer must complete 3-D Secure first), the same check's ``PaymentOutcome``
    ///   for a payment the payer has not authenticated yet (pending, with the redirect).
    /// - Throws: ``CSEError/Code/serverAPIInvalidArgument`` for a request that does not pay with a
    ///   payment handle; ``CSEError/Code/paysafeHandleMismatch``;
    ///   ``CSEError/Code/paysafeHandleNotPayable`` naming the status (`FAILED`, `EXPIRED`,
    ///   `COMPLETED` once used, `PROCESSING`); the errors of ``paymentHandle(id:)`` and ``pay(_:)``.
    public func pay(_ request: PaysafePaymentRequest, handleID: String) async throws(CSEError) -> PaymentOutcome<PaysafePayment> {
        guard case .paymentHandle(let token) = request.source else {
            throw CSEError(
                .serverAPIInvalidArgument, "a payment handle id goes with a payment handle", context: ["argument": "paymentHandleId"])
        }
        let handle = try await payableHandle(id: handleID, token: token)
        guard handle.isPayable else { return Self.awaitingAuthentication(handle, request: request) }
        return try await pay(request)
    }

    /// The pending outcome of a request whose handle awaits the payer's 3-D Secure challenge:
    /// the redirect to the handle's `redirect_payment` link (GET), and the request's reference.
    /// Once the payer has completed it, the same ``pay(_:handleID:)`` finds the handle `PAYABLE`.
    static func awaitingAuthentication(_ handle: PaysafePaymentHandle, request: PaysafePaymentRequest) -> PaymentOutcome<PaysafePayment> {
        .pending(
            PaysafePayment(awaiting: handle, request: request), .redirect(url: handle.redirectURL ?? "", method: "GET", returnMAC: nil),
            PaymentReconciliation(merchantReference: request.merchantReference))
    }

    /// `paysafe.handleNotPayable` naming `status` (when known).
    static func notPayable(status: String?, redactor: SafeText, underlying: CSEError?) -> CSEError {
        var context: [String: String] = [:]
        if let status { context["handleStatus"] = redactor.of(status, limit: 32) }
        return CSEError(
            .paysafeHandleNotPayable, "the payment handle is not payable\(status.map { " (status \($0))" } ?? ""); nothing was charged",
            context: context, underlying: underlying)
    }

    /// Paysafe's refusal of a request because of the payment handle it names, as
    /// `paysafe.handleNotPayable` with the handle status the message names (docs/COMPATIBILITY.md:
    /// Paysafe documents no code for it, so a 4xx whose message speaks of the payment handle is
    /// read as one); `nil` for any other answer.
    static func handleRefusal(_ response: HTTPResponse, error: CSEError, redactor: SafeText) -> CSEError? {
        guard (400...499).contains(response.status), response.status != 409, response.status != 401, response.status != 403,
            response.status != 404, let body = ServerResponse.errorObject(response),
            let detail = try? PaysafeErrorDetail(body), let message = detail.message,
            message.lowercased().contains("payment handle")
        else { return nil }
        return notPayable(status: namedStatus(message), redactor: redactor, underlying: error)
    }

    /// The handle status `message` names last ("… not payable: its status is EXPIRED" names
    /// `EXPIRED`), or `DELETED`, or `nil`.
    static func namedStatus(_ message: String) -> String? {
        let text = Array(message.uppercased().utf8)
        var best: (position: Int, status: String)?
        for status in PaysafePaymentHandle.statuses + ["DELETED"] {
            let word = Array(status.utf8)
            guard text.count >= word.count else { continue }
            for start in stride(from: text.count - word.count, through: 0, by: -1)
            where text[start..<start + word.count].elementsEqual(word) {
                if start >= best?.position ?? -1 { best = (start, status) }
                break
            }
        }
        return best?.status
    }
}
