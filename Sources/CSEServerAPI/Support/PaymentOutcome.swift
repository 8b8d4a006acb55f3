public import CSECore
internal import CSECrypto
@_spi(CustomTransport) internal import CSEHTTP

/// The key that makes a money-moving call safe to send again: every attempt with the same key is
/// the same request, so a retry after a lost answer returns the first outcome instead of charging
/// twice (Worldline `X-GCS-Idempotence-Key`; issue #26).
///
/// Persist it with the order *before* the first attempt: it is what reconciles the payment when
/// the answer is lost.
public struct IdempotenceKey: Hashable, Sendable, CustomStringConvertible {
    /// The most characters a key may have (Worldline's limit).
    package static let maximumLength = 40

    /// The key as sent.
    public let text: String

    /// A new random key: a version 4 UUID (RFC 9562 §5.4) from OpenSSL's CSPRNG.
    /// - Throws: ``CSEError/Code/randomFailure`` when the CSPRNG fails (no key is made up).
    public init() throws(CSEError) {
        text = try SecureRandom.uuidV4()
    }

    /// A key the caller chose (to retry a call whose outcome is unknown, pass the key it used).
    /// - Throws: ``CSEError/Code/serverAPIInvalidArgument`` unless `text` is 1 to 40 printable
    ///   ASCII characters without spaces.
    public init(_ text: String) throws(CSEError) {
        guard !text.isEmpty, text.utf8.count <= Self.maximumLength, text.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else {
            throw CSEError(
                .serverAPIInvalidArgument, "an idempotence key is 1 to 40 printable ASCII characters without spaces",
                context: ["argument": "idempotenceKey"])
        }
        self.text = text
    }

    /// `key`, or a new random key when it is `nil`: the one place a call that takes an optional
    /// key makes one.
    /// - Throws: ``CSEError/Code/randomFailure`` when the CSPRNG fails.
    package init(orNew key: IdempotenceKey?) throws(CSEError) {
        if let key { self = key } else { try self.init() }
    }

    /// The key: it is not a secret, and it is what reconciles a payment.
    public var description: String { text }
}

/// The references that settle a payment whose outcome is unknown: send the call again with the
/// same ``idempotenceKey`` (or the same ``orderID`` and ``transactionID``), or look the payment up
/// by them.
public struct PaymentReconciliation: Hashable, Sendable, CustomStringConvertible {
    /// The idempotence key every attempt carried.
    public var idempotenceKey: IdempotenceKey?
    /// The merchant's reference of the order.
    public var merchantReference: String?
    /// The merchant-chosen order id (Mastercard Gateway: the order of `PUT …/order/{id}/…`).
    public var orderID: String?
    /// The merchant-chosen transaction id (Mastercard Gateway: `…/transaction/{id}`).
    public var transactionID: String?
    /// The platform's payment id, when one is known.
    public var paymentID: String?
    /// The entry of the client's ``PaymentJournal`` that recorded this call (issue #36), when the
    /// client has a journal.
    public var journalEntry: JournalEntryID?

    /// Creates the references of one call.
    public init(
        idempotenceKey: IdempotenceKey? = nil, merchantReference: String? = nil, orderID: String? = nil,
        transactionID: String? = nil, paymentID: String? = nil
    ) {
        self.idempotenceKey = idempotenceKey
        self.merchantReference = merchantReference
        self.orderID = orderID
        self.transactionID = transactionID
        self.paymentID = paymentID
    }

    /// The references as `name=value` pairs, in a fixed order (none of them is a secret).
    public var description: String {
        members.map { "\($0.0)=\($0.1)" }.joined(separator: ", ")
    }

    /// The references present, as JSON member names and values.
    package var members: [(String, String)] {
        var members: [(String, String)] = []
        if let idempotenceKey { members.append(("idempotenceKey", idempotenceKey.text)) }
        if let merchantReference { members.append(("merchantReference", merchantReference)) }
        if let orderID { members.append(("orderId", orderID)) }
        if let transactionID { members.append(("transactionId", transactionID)) }
        if let paymentID { members.append(("paymentId", paymentID)) }
        if let journalEntry { members.append(("journalEntry", journalEntry.description)) }
        return members
    }
}

/// What the payer must do before a pending payment is decided (issue #34): follow a redirect,
/// render a page, or run a mobile 3-D Secure SDK's challenge. None of its members is card data; a
/// URL or page may carry the platform's session for the payer, so show it to the payer only.
public enum PaymentAction: Sendable, Hashable {
    /// Send the payer's browser to `url` with `method` (`GET` or `POST`). `returnMAC` is
    /// Worldline's `RETURNMAC`: store it with the order and compare it with the one on the return
    /// (`redirectData`, research notes §1.1).
    case redirect(url: String, method: String, returnMAC: String?)
    /// Render this HTML in the payer's browser (Mastercard Gateway: the challenge page of
    /// AUTHENTICATE_PAYER, `authentication.redirect.html`).
    case html(String)
    /// Hand these parameters, by the names and with the values the platform gave them, to the
    /// mobile 3-D Secure SDK's challenge (Worldline `MOBILE_THREEDS_CHALLENGE`:
    /// `mobileThreeDSecureChallengeParameters`, whose members are strings).
    case mobileChallenge(parameters: [String: String])

    /// The action as `cse` prints it: `{"type":"redirect","url","method"[,"returnmac"]}`,
    /// `{"type":"html","html"}` or `{"type":"mobile-challenge","parameters"}`.
    package var json: JSONValue {
        switch self {
        case .redirect(let url, let method, let returnMAC):
            var members: [(String, JSONValue)] = [("type", .string("redirect")), ("url", .string(url)), ("method", .string(method))]
            if let returnMAC { members.append(("returnmac", .string(returnMAC))) }
            return .object(JSONObject(members))
        case .html(let html):
            return .object(JSONObject([("type", .string("html")), ("html", .string(html))]))
        case .mobileChallenge(let parameters):
            let members = parameters.sorted { $0.key < $1.key }.map { ($0.key, JSONValue.string($0.value)) }
            return .object(JSONObject([("type", .string("mobile-challenge")), ("parameters", .object(JSONObject(members)))]))
        }
    }

    /// The action's type as a journal records it: `redirect`, `html` or `mobile-challenge`
    /// (never its URL or page, which may carry the payer's session).
    package var type: String {
        switch self {
        case .redirect: return "redirect"
        case .html: return "html"
        case .mobileChallenge: return "mobile-challenge"
        }
    }
}

/// What became of a call that moves money: it succeeded, the platform refused it, it is pending
/// (processed but not decided yet), or nobody knows, because the request may have been processed
/// but no answer was read. Decided from the platform's status or result category, never from the
/// HTTP status alone (a 2xx `REJECTED` is a refusal).
public enum PaymentOutcome<Payment: Sendable>: Sendable {
    /// Authorised or captured as asked (or a capture, refund or void the platform accepted and
    /// completes in the normal course); with the references of the call (the idempotence key it
    /// made when the caller gave none), to keep with the order.
    case succeeded(Payment, PaymentReconciliation)
    /// The platform decided against the payment. The payment is present when the platform created
    /// one (Worldline: HTTP 402 with a `paymentResult`, or a 2xx whose status category is
    /// `UNSUCCESSFUL`); the error says why (`worldline.paymentRejected`).
    case refused(Payment?, CSEError)
    /// The platform processed the request but has not decided the payment: the payer must act
    /// (a 3-D Secure challenge: the action says how) or the platform decides later (review,
    /// asynchronous processing; no action). The references resume it or look it up (issue #34).
    case pending(Payment, PaymentAction?, PaymentReconciliation)
    /// The request may have been processed, but no answer was read: a timeout after sending, a
    /// connection lost, an unreadable 2xx, a 5xx the platform documents as possibly processed, or
    /// the first attempt with this key still running. The error is ``CSEError/Code/serverOutcomeUnknown``
    /// with the transport's or platform's error as its cause; the references settle it.
    case unknown(PaymentReconciliation, CSEError)

    /// The payment, or the refusal, pending or unknown outcome as a thrown error.
    /// - Throws: The error of ``refused(_:_:)`` or ``unknown(_:_:)``;
    ///   ``CSEError/Code/serverPaymentPending`` for ``pending(_:_:_:)``.
    public func get() throws(CSEError) -> Payment {
        switch self {
        case .succeeded(let payment, _): return payment
        case .refused(_, let error), .unknown(_, let error): throw error
        case .pending(_, let action, let keys):
            var context: [String: String] = [:]
            for (name, value) in keys.members { context[name] = value }
            if let action { context["action"] = action.type }
            throw CSEError(
                .serverPaymentPending, "the payment is not decided yet: the payer must act or the platform decides later", context: context)
        }
    }

    /// The references of the call, whatever the outcome (`nil` for a refusal, which settles it).
    package var reconciliation: PaymentReconciliation? {
        switch self {
        case .succeeded(_, let keys), .pending(_, _, let keys), .unknown(let keys, _): return keys
        case .refused: return nil
        }
    }
}

extension CSEError.Code {
    /// A call that moves money may have been processed, but its outcome was not read (issue #26).
    /// The context names the reconciliation keys (`idempotenceKey`, `merchantReference`); the
    /// cause is the transport's or the platform's error. Send the call again with the same key, or
    /// look the payment up; never with a new key, which could charge twice.
    public static let serverOutcomeUnknown = Self("server.outcomeUnknown")
    /// The platform refused a payment as a repeat of its merchant reference, but the payment it
    /// holds under that reference has another amount or currency: the reference belongs to
    /// another order, and this request charged nothing. The context names the reference.
    public static let serverReferenceInUse = Self("server.referenceInUse")
    /// ``PaymentOutcome/get()`` of a pending payment: processed, not decided yet (issue #34). The
    /// context names the references that resume it and the action's type.
    public static let serverPaymentPending = Self("server.paymentPending")
}

/// `server.referenceInUse` for `reference`, when the payment the platform holds under it has
/// another amount or currency than the request (a duplicate must be the same payment).
package func referenceInUse(_ reference: String, platform: String) -> CSEError {
    CSEError(
        .serverReferenceInUse, "the merchant reference belongs to another payment (another amount or currency); this one was not taken",
        context: ["merchantReference": SafeText.identifier(reference), "platform": platform])
}

/// `server.outcomeUnknown` naming `reconciliation`, caused by `cause`.
package func outcomeUnknownError(_ reason: String, _ reconciliation: PaymentReconciliation, cause: CSEError) -> CSEError {
    var context: [String: String] = [:]
    for (name, value) in reconciliation.members { context[name] = value }
    return CSEError(.serverOutcomeUnknown, reason, context: context, underlying: cause)
}

/// Ends a money-moving call whose platform answer says nothing was processed (a 4xx, a 429, a
/// 5xx that says "retriable"): `error` is thrown, unless an earlier attempt of the same request
/// may have been processed (the transport retried after a 429, 502, 503, 504 or a lost
/// connection, and that attempt's answer does not itself prove nothing was processed). Then the
/// last answer speaks for the last attempt only, so the outcome is unknown, with the keys that
/// settle it (issue #32, point 2; docs/SECURITY.md, "retries").
/// - Parameter provesNothingProcessed: Whether an earlier answer proves that its attempt
///   processed nothing (Worldline: a 5xx whose errors are all `retriable`); none by default.
func notProcessed<Payment>(
    _ error: CSEError, after response: HTTPResponse, _ reconciliation: PaymentReconciliation,
    provesNothingProcessed: (HTTPResponse) -> Bool = { _ in false }
) throws(CSEError) -> PaymentOutcome<Payment> {
    let mayHaveBeenProcessed = response.earlierAttempts.contains { attempt in
        switch attempt {
        case .success(let earlier): return !provesNothingProcessed(earlier)
        case .failure: return true
        }
    }
    guard mayHaveBeenProcessed else { throw error }
    return .unknown(
        reconciliation,
        outcomeUnknownError(
            "an earlier attempt of this request may have been processed; the answer to the last attempt does not decide",
            reconciliation, cause: error))
}
