public import CSECore
import CSEValidation

extension CSEError.Code {
    /// The 3-D Secure transaction named for a payment is not on the gateway (RETRIEVE TRANSACTION
    /// found no such transaction on the order). Nothing was sent.
    public static let mastercardAuthenticationUnknown = Self("mastercard.authentication.unknown")
    /// The transaction named as the 3-D Secure authentication of a payment is not an
    /// `AUTHENTICATION` (its `transaction.type` is named). Nothing was sent.
    public static let mastercardAuthenticationNotAuthentication = Self("mastercard.authentication.notAuthentication")
    /// The 3-D Secure authentication belongs to another order than the payment's. Nothing was sent.
    public static let mastercardAuthenticationOtherOrder = Self("mastercard.authentication.otherOrder")
    /// The gateway recommends not to proceed (`response.gatewayRecommendation` is not `PROCEED`):
    /// refused even with `allowUnauthenticated`. Nothing was sent.
    public static let mastercardAuthenticationDoNotProceed = Self("mastercard.authentication.doNotProceed")
    /// Authentication is unavailable or not supported for the card
    /// (`AUTHENTICATION_UNAVAILABLE`, `AUTHENTICATION_NOT_SUPPORTED`) with the recommendation
    /// `PROCEED`: payable only when the merchant accepts to keep the liability
    /// (`allowUnauthenticated`). Nothing was sent.
    public static let mastercardAuthenticationUnavailable = Self("mastercard.authentication.unavailable")
    /// The payer has not completed the challenge yet (`AUTHENTICATION_PENDING`). Nothing was sent.
    public static let mastercardAuthenticationPending = Self("mastercard.authentication.pending")
    /// The authentication did not succeed: `result` is not `SUCCESS`, or its status is not
    /// `AUTHENTICATION_SUCCESSFUL` or `AUTHENTICATION_ATTEMPTED` (failed, rejected, or never
    /// performed). The context names `result` and `authenticationStatus`. Nothing was sent.
    public static let mastercardAuthenticationFailed = Self("mastercard.authentication.failed")
    /// The authentication was made for another amount or currency than the payment's (the
    /// context names `member`). Nothing was sent.
    public static let mastercardAuthenticationAmountMismatch = Self("mastercard.authentication.amountMismatch")
}

/// A 3-D Secure authentication transaction as the gateway answers INITIATE_AUTHENTICATION,
/// AUTHENTICATE_PAYER and RETRIEVE TRANSACTION (payment-lifecycle research notes §2.1). The member
/// names are the API reference's and the official server sample's code
/// (`transaction.authenticationStatus`, `response.gatewayRecommendation`,
/// `authentication.redirect.html`); the sample's illustrative `authentication.summaryStatus` is not
/// read (docs/COMPATIBILITY.md).
public struct MastercardAuthentication: Sendable, CustomStringConvertible {
    /// `result`: `SUCCESS`, `PENDING` (a challenge is running), `FAILURE`, …
    public let result: String
    /// `order.id`.
    public let orderID: String?
    /// `transaction.id`.
    public let transactionID: String?
    /// `transaction.type`: `AUTHENTICATION` for a 3-D Secure transaction.
    public let transactionType: String?
    /// `transaction.authenticationStatus`, for example `AUTHENTICATION_AVAILABLE`,
    /// `AUTHENTICATION_PENDING`, `AUTHENTICATION_SUCCESSFUL`, `AUTHENTICATION_ATTEMPTED`,
    /// `AUTHENTICATION_FAILED`, `AUTHENTICATION_UNAVAILABLE`, `AUTHENTICATION_NOT_SUPPORTED`.
    public let authenticationStatus: String?
    /// `response.gatewayRecommendation`: `PROCEED`, or a recommendation not to.
    public let recommendation: String?
    /// `authentication.version`, for example `3DS2`.
    public let version: String?
    /// `authentication.3ds2.transactionStatus`, the EMV 3-D Secure `transStatus` (`Y`, `A`, `N`, …).
    public let transactionStatus: String?
    /// `order.amount` as sent (major units), when the authentication carries one.
    public let amount: String?
    /// `order.currency`, when the authentication carries one.
    public let currency: String?
    /// `authentication.redirect.html` (or the sample's `authentication.redirectHtml`): the HTML to
    /// insert into the payer's page (the 3DS Method, or the challenge).
    public let redirectHTML: String?
    /// The whole body, as received.
    package let json: JSONValue

    /// The statuses of an authentication that can be paid with (the liability shifts).
    static let authenticatedStatuses: Set<String> = ["AUTHENTICATION_SUCCESSFUL", "AUTHENTICATION_ATTEMPTED"]
    /// The statuses of a card that cannot be authenticated (payable without 3-D Secure when the
    /// merchant keeps the liability).
    static let unavailableStatuses: Set<String> = ["AUTHENTICATION_UNAVAILABLE", "AUTHENTICATION_NOT_SUPPORTED"]

    /// Decodes an answer.
    /// - Throws: ``CSEError/Code/serverAPIInvalidResponse`` naming the member when `result` is
    ///   missing or empty, or a member read has the wrong JSON type.
    package init(response: JSONObject) throws(CSEError) {
        let reader = ServerResponseReader(platform: "mastercard")
        result = try reader.nonEmptyString(response, "result")
        let (order, orderReader) = try reader.child(response, "order")
        orderID = try orderReader.optionalString(order, "id")
        amount = try orderReader.optionalScalarText(order, "amount")
        currency = try orderReader.optionalString(order, "currency")
        let (transaction, transactionReader) = try reader.child(response, "transaction")
        transactionID = try transactionReader.optionalString(transaction, "id")
        transactionType = try transactionReader.optionalString(transaction, "type")
        authenticationStatus = try transactionReader.optionalString(transaction, "authenticationStatus")
        let (gateway, gatewayReader) = try reader.child(response, "response")
        recommendation = try gatewayReader.optionalString(gateway, "gatewayRecommendation")
        let (authentication, authenticationReader) = try reader.child(response, "authentication")
        version = try authenticationReader.optionalString(authentication, "version")
        let (threeDS2, threeDS2Reader) = try authenticationReader.child(authentication, "3ds2")
        transactionStatus = try threeDS2Reader.optionalString(threeDS2, "transactionStatus")
        let (redirect, redirectReader) = try authenticationReader.child(authentication, "redirect")
        let sampleHTML = try authenticationReader.optionalString(authentication, "redirectHtml")
        redirectHTML = try redirectReader.optionalString(redirect, "html") ?? sampleHTML
        json = .object(response)
    }

    /// Whether the payer was authenticated (successful, or attempted): the issuer takes the liability.
    public var isAuthenticated: Bool { authenticationStatus.map(Self.authenticatedStatuses.contains) == true }

    /// Whether the card cannot be authenticated (unavailable or not supported).
    public var isUnavailable: Bool { authenticationStatus.map(Self.unavailableStatuses.contains) == true }

    /// Whether the gateway recommends to proceed.
    public var recommendsProceeding: Bool { recommendation == "PROCEED" }

    /// The body with card numbers masked and security codes removed (``MastercardSession/maskedJSON``'s rules).
    package var maskedValue: JSONValue { MastercardSession.mask(json, path: []) }

    /// Checks that this authentication may carry `request` (research notes §2.1, "Server-side check
    /// before PAY"): an `AUTHENTICATION` of the same order, recommendation `PROCEED`, `result`
    /// `SUCCESS` and status successful or attempted (or, with `allowUnauthenticated`, unavailable
    /// or not supported), and the same amount and currency where it carries them.
    /// - Throws: The `mastercard.authentication.*` code naming the first check that fails.
    package func check(for request: MastercardTransactionRequest, allowUnauthenticated: Bool) throws(CSEError) {
        var context = ["orderId": request.orderID, "authenticationTransactionId": request.authenticationTransactionID ?? "-"]
        func refused(_ code: CSEError.Code, _ reason: String, _ extra: [String: String] = [:]) -> CSEError {
            context.merge(extra) { $1 }
            return CSEError(code, reason + "; nothing was sent", context: context)
        }
        let safe = { (text: String?) in SafeText.of(text ?? "-", limit: 40) }
        guard transactionType == "AUTHENTICATION" else {
            throw refused(
                .mastercardAuthenticationNotAuthentication, "the transaction is not a 3-D Secure authentication",
                ["transactionType": safe(transactionType)])
        }
        guard orderID == request.orderID else {
            throw refused(.mastercardAuthenticationOtherOrder, "the authentication belongs to another order")
        }
        guard recommendsProceeding else {
            throw refused(
                .mastercardAuthenticationDoNotProceed, "the gateway recommends not to proceed with this payment",
                ["recommendation": safe(recommendation)])
        }
        let status = ["result": safe(result), "authenticationStatus": safe(authenticationStatus)]
        if authenticationStatus == "AUTHENTICATION_PENDING" || result == "PENDING" {
            throw refused(.mastercardAuthenticationPending, "the payer has not completed the 3-D Secure challenge", status)
        }
        if isUnavailable {
            guard allowUnauthenticated else {
                throw refused(
                    .mastercardAuthenticationUnavailable,
                    "3-D Secure is unavailable for this card: pay unauthenticated only if you keep the liability", status)
            }
        } else if !isAuthenticated || result != "SUCCESS" {
            throw refused(.mastercardAuthenticationFailed, "the payer was not authenticated", status)
        }
        if let currency, currency != request.currency.code {
            throw refused(.mastercardAuthenticationAmountMismatch, "the authentication is for another currency", ["member": "currency"])
        }
        if let amount {
            let exponent = Currency(code: currency ?? request.currency.code)?.minorUnits ?? request.currency.minorUnits ?? 2
            guard ExpectedAnswer.minorUnits(fromMajorNumber: amount, exponent: exponent) == request.amount else {
                throw refused(.mastercardAuthenticationAmountMismatch, "the authentication is for another amount", ["member": "amount"])
            }
        }
    }

    /// Result, status, recommendation and ids; never card data.
    public var description: String {
        "MastercardAuthentication(result: \(result), status: \(authenticationStatus ?? "-"), recommendation: \(recommendation ?? "-"), "
            + "order: \(orderID ?? "-"), transaction: \(transactionID ?? "-"))"
    }
}
