public import CSECore
import CSECrypto
@_spi(CustomTransport) import CSEHTTP
public import CSEValidation

/// 3-D Secure for a browser checkout: INITIATE_AUTHENTICATION, then AUTHENTICATE_PAYER, on the
/// same order and authentication transaction (payment-lifecycle research notes §2.1; the
/// `PAYER_BROWSER` channel, purpose `PAYMENT_TRANSACTION`, 3DS2 only).
///
/// The authentication is a transaction of its own on the order: its id is new on the order and
/// differs from the payment's. Pay afterwards with
/// ``MastercardTransactionRequest/authenticationTransactionID`` set to it.
public struct MastercardAuthenticationRequest: Sendable, CustomStringConvertible {
    /// The order the payment will belong to.
    public let orderID: String
    /// The authentication transaction's id (new on the order; not the payment's).
    public let transactionID: String
    /// The session that holds the card.
    public let sessionID: String
    /// The amount of the payment, in minor units of ``currency``.
    public let amount: Int64
    /// The ISO 4217 currency of the payment.
    public let currency: Currency
    /// `authentication.redirectResponseUrl`: where the gateway sends the payer's browser after a
    /// challenge, with an unsigned form POST (`order.id`, `transaction.id`, `result`,
    /// `response.gatewayRecommendation`): never trust it; pay with the authentication id, which
    /// retrieves and checks the authentication first.
    public let returnURL: String
    /// The `device` object of AUTHENTICATE_PAYER (`browser`, `browserDetails`, `ipAddress`), when given.
    package let device: JSONObject?
    /// `order.amount` in major units.
    let amountText: String

    /// The `device` members the browser channel takes.
    static let deviceMembers: Set<String> = ["browser", "browserDetails", "ipAddress"]

    /// Checks and creates a request.
    /// - Parameters:
    ///   - deviceJSON: The payer's browser as the page collected it, as JSON text: an object with
    ///     only `browser` (a string), `browserDetails` (an object: `3DSecureChallengeWindowSize`,
    ///     `acceptHeaders`, `colorDepth`, `javaEnabled`, `language`, `screenHeight`, `screenWidth`,
    ///     `timeZone`) and `ipAddress` (a string), at most 64 KiB.
    /// - Throws: ``CSEError/Code/serverAPIInvalidArgument`` naming the argument: an id that is not
    ///   1–40 identifier characters (the payment checks that its own id differs), an amount out of
    ///   1…999999999999, a currency
    ///   without minor units, a return URL that is not an `https://` or `http://` URL of printable
    ///   ASCII (at most 2048 characters), a `device` with other members or types.
    public init(
        orderID: String, transactionID: String, sessionID: String, amount: Int64, currency: Currency, returnURL: String,
        deviceJSON: [UInt8]? = nil
    ) throws(CSEError) {
        var device: JSONObject?
        if let deviceJSON {
            guard deviceJSON.count <= 64 * 1024, let object = (try? JSONValue.parse(deviceJSON))?.objectValue else {
                throw CSEError(
                    .serverAPIInvalidArgument, "the device is a JSON object of at most 64 KiB", context: ["argument": "device"])
            }
            device = object
        }
        try MastercardTransactionRequest.checkID(orderID, argument: "orderId")
        try MastercardTransactionRequest.checkID(transactionID, argument: "transactionId")
        try MastercardSessionClient.checkSessionID(sessionID)
        guard (1...999_999_999_999).contains(amount) else {
            throw CSEError(.serverAPIInvalidArgument, "the amount is minor units from 1 to 999999999999", context: ["argument": "amount"])
        }
        guard currency.minorUnits != nil else {
            throw CSEError(.serverAPIInvalidArgument, "the currency has no minor unit in ISO 4217", context: ["argument": "currency"])
        }
        let lowered = returnURL.lowercased()
        guard lowered.hasPrefix("https://") || lowered.hasPrefix("http://"), returnURL.utf8.count <= 2048,
            returnURL.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F })
        else {
            throw CSEError(
                .serverAPIInvalidArgument, "the return URL is an https:// (or http://) URL of printable ASCII, at most 2048 characters",
                context: ["argument": "returnUrl"])
        }
        if let device {
            let valid = device.allSatisfy { name, value in
                switch name {
                case "browser", "ipAddress": return value.stringValue != nil
                case "browserDetails": return value.objectValue != nil
                default: return false
                }
            }
            guard valid else {
                throw CSEError(
                    .serverAPIInvalidArgument,
                    "the device object holds only browser and ipAddress (strings) and browserDetails (an object)",
                    context: ["argument": "device"])
            }
        }
        amountText = try currency.majorString(fromMinor: amount)
        self.orderID = orderID
        self.transactionID = transactionID
        self.sessionID = sessionID
        self.amount = amount
        self.currency = currency
        self.returnURL = returnURL
        self.device = device
    }

    /// INITIATE_AUTHENTICATION: `authentication {acceptVersions 3DS2, channel PAYER_BROWSER,
    /// purpose PAYMENT_TRANSACTION}`, `order.currency` (no amount, as the official server sample
    /// sends it), `session.id`.
    package var initiateJSON: JSONValue {
        .object(
            JSONObject([
                ("apiOperation", .string("INITIATE_AUTHENTICATION")),
                (
                    "authentication",
                    .object(
                        JSONObject([
                            ("acceptVersions", .string("3DS2")), ("channel", .string("PAYER_BROWSER")),
                            ("purpose", .string("PAYMENT_TRANSACTION")),
                        ]))
                ),
                ("order", .object(JSONObject([("currency", .string(currency.code))]))),
                ("session", .object(JSONObject([("id", .string(sessionID))]))),
            ]))
    }

    /// AUTHENTICATE_PAYER: `authentication.redirectResponseUrl`, `device` when given, `order
    /// {amount, currency}`, `session.id`.
    package var authenticateJSON: JSONValue {
        var members: [(String, JSONValue)] = [
            ("apiOperation", .string("AUTHENTICATE_PAYER")),
            ("authentication", .object(JSONObject([("redirectResponseUrl", .string(returnURL))]))),
        ]
        if let device { members.append(("device", .object(device))) }
        members.append(("order", .object(JSONObject([("amount", .string(amountText)), ("currency", .string(currency.code))]))))
        members.append(("session", .object(JSONObject([("id", .string(sessionID))]))))
        return .object(JSONObject(members))
    }

    /// Ids, amount and currency; never the session.
    public var description: String {
        "MastercardAuthenticationRequest(order: \(orderID), transaction: \(transactionID), amount: \(amount) \(currency.code))"
    }
}

extension MastercardSessionClient {
    /// 3-D Secure in the payer's browser: INITIATE_AUTHENTICATION, and only when its answer says
    /// `PROCEED` and `AUTHENTICATION_AVAILABLE` (the official server's rule), AUTHENTICATE_PAYER on
    /// the same order and transaction (`PUT …/order/{orderId}/transaction/{transactionId}` twice;
    /// research notes §2.1).
    ///
    /// The outcome:
    /// - ``PaymentOutcome/succeeded(_:_:)``: authenticated without a challenge (successful or
    ///   attempted, `PROCEED`): pay with the authentication id;
    /// - ``PaymentOutcome/pending(_:_:_:)``: the payer must complete a challenge:
    ///   ``PaymentAction/html(_:)`` with `authentication.redirect.html`, to insert into the payer's
    ///   page; afterwards the gateway POSTs the (unsigned) result to the return URL: pay with the
    ///   authentication id, which retrieves and checks it;
    /// - ``PaymentOutcome/refused(_:_:)``: `mastercard.authentication.unavailable` (the card
    ///   cannot be authenticated and the gateway says `PROCEED`: payable with
    ///   ``MastercardTransactionRequest/allowsUnauthenticated``, the merchant keeping the
    ///   liability), `mastercard.authentication.doNotProceed` (the gateway recommends not to),
    ///   `mastercard.authentication.failed` (the payer was not authenticated);
    /// - ``PaymentOutcome/unknown(_:_:)``: no answer read, a 5xx or unreadable 2xx, `SERVER_BUSY`:
    ///   send the same request again (the same ids replay the first answer) or retrieve the
    ///   authentication transaction.
    /// - Throws: When nothing was processed: a transport error before sending, 401/403, `ERROR`
    ///   with `INVALID_REQUEST` (for example AUTHENTICATE_PAYER refused for a card that cannot be
    ///   authenticated) or `REQUEST_REJECTED`; `server.referenceInUse` for an answer naming another
    ///   order or transaction.
    public func authenticate(_ request: MastercardAuthenticationRequest) async throws(CSEError) -> PaymentOutcome<MastercardAuthentication>
    {
        let keys = PaymentReconciliation(orderID: request.orderID, transactionID: request.transactionID)
        func refused(
            _ answer: MastercardAuthentication, _ code: CSEError.Code, _ reason: String
        ) -> PaymentOutcome<MastercardAuthentication> {
            var context = ["result": SafeText.of(answer.result, limit: 16)]
            context["authenticationStatus"] = SafeText.of(answer.authenticationStatus ?? "-", limit: 40)
            context["recommendation"] = SafeText.of(answer.recommendation ?? "-", limit: 40)
            for (name, value) in keys.members { context[name] = value }
            return .refused(answer, CSEError(code, reason, context: context))
        }
        let initiated = try await authenticationCall(request.initiateJSON, request: request, keys: keys)
        guard case .succeeded(let initiation, _) = initiated else { return initiated }
        if !initiation.recommendsProceeding {
            return refused(initiation, .mastercardAuthenticationDoNotProceed, "the gateway recommends not to proceed with this card")
        }
        if initiation.isUnavailable {
            return refused(
                initiation, .mastercardAuthenticationUnavailable,
                "3-D Secure is unavailable for this card: pay unauthenticated only if you keep the liability")
        }
        guard initiation.authenticationStatus == "AUTHENTICATION_AVAILABLE", initiation.result == "SUCCESS" else {
            return refused(initiation, .mastercardAuthenticationFailed, "the gateway cannot authenticate the payer")
        }
        let answered = try await authenticationCall(request.authenticateJSON, request: request, keys: keys)
        guard case .succeeded(let answer, _) = answered else { return answered }
        if !answer.recommendsProceeding {
            return refused(
                answer, .mastercardAuthenticationDoNotProceed, "the gateway recommends not to proceed: the payer was not authenticated")
        }
        if answer.authenticationStatus == "AUTHENTICATION_PENDING" || answer.result == "PENDING" {
            return .pending(answer, answer.redirectHTML.map(PaymentAction.html), keys)
        }
        if answer.isAuthenticated, answer.result == "SUCCESS" { return .succeeded(answer, keys) }
        if answer.isUnavailable {
            return refused(
                answer, .mastercardAuthenticationUnavailable,
                "3-D Secure is unavailable for this card: pay unauthenticated only if you keep the liability")
        }
        return refused(answer, .mastercardAuthenticationFailed, "the payer was not authenticated")
    }

    /// One PUT of ``authenticate(_:)``: its answer as an authentication (`succeeded` whatever it
    /// says), or the unknown outcome, or the error of a request the gateway did not take.
    private func authenticationCall(
        _ body: JSONValue, request: MastercardAuthenticationRequest, keys: PaymentReconciliation
    ) async throws(CSEError) -> PaymentOutcome<MastercardAuthentication> {
        let response: HTTPResponse
        do {
            response = try await ServerRequest.send(
                http, .put, url: try baseURL.appending(pathSegments: ["order", request.orderID, "transaction", request.transactionID]),
                headers: ["Authorization": credentials.basicAuthorization()], body: body, retry: .idempotent)
        } catch {
            if error.provesRequestNotSent { throw error }
            return .unknown(keys, outcomeUnknownError("no answer was read; the authentication may have been processed", keys, cause: error))
        }
        let redactor = SafeText(secrets: [credentials.apiPassword, SecureBytes(request.sessionID.utf8)])
        if response.status == 409, !Self.namesGatewayError(response) {
            let cause = ServerResponse.statusError(response, platform: "mastercard")
            return .unknown(
                keys, outcomeUnknownError("a 409 that names no conflict; the authentication may have been processed", keys, cause: cause))
        }
        guard let object = ServerResponse.errorObject(response) else {
            let error = ServerResponse.statusError(response, platform: "mastercard")
            if response.isSuccess || response.status >= 500 {
                return .unknown(keys, outcomeUnknownError("the gateway's answer is not an authentication", keys, cause: error))
            }
            return try notProcessed(error, after: response, keys)
        }
        var isError = !response.isSuccess
        if !isError {
            do { isError = try Self.isError(object) } catch {
                return .unknown(keys, outcomeUnknownError("the gateway's answer is not a readable authentication", keys, cause: error))
            }
        }
        if isError {
            let error = Self.error(of: response, redactor: redactor)
            let refusedToTake: Set<CSEError.Code> = [.mastercardInvalidRequest, .mastercardRequestRejected, .serverAPIAuthenticationFailed]
            if refusedToTake.contains(error.code) || ((400..<500).contains(response.status) && error.code == .serverAPIUnexpectedStatus) {
                return try notProcessed(error, after: response, keys)
            }
            return .unknown(keys, outcomeUnknownError("the gateway could not complete the authentication", keys, cause: error))
        }
        let answer: MastercardAuthentication
        do {
            answer = try MastercardAuthentication(response: object)
        } catch {
            return .unknown(keys, outcomeUnknownError("the gateway's answer is not a readable authentication", keys, cause: error))
        }
        if let id = answer.orderID, id != request.orderID { throw Self.answeredAnother(member: "orderId", keys: keys) }
        if let id = answer.transactionID, id != request.transactionID { throw Self.answeredAnother(member: "transactionId", keys: keys) }
        return .succeeded(answer, keys)
    }
}

extension MastercardSessionClient {
    /// RETRIEVE TRANSACTION read as an outcome (issue #34 §1: what `cse mastercard retrieve ORDER
    /// TRANSACTION` exits by).
    /// - Throws: The errors of ``retrieveTransaction(orderID:transactionID:)``.
    package func retrieveTransactionOutcome(
        orderID: String, transactionID: String
    ) async throws(CSEError)
        -> PaymentOutcome<MastercardTransaction>
    {
        let transaction = try await retrieveTransaction(orderID: orderID, transactionID: transactionID)
        return Self.state(of: transaction, keys: PaymentReconciliation(orderID: orderID, transactionID: transactionID))
    }

    /// The state of a transaction as it stands:
    /// - an `AUTHENTICATION`: awaiting the payer (`AUTHENTICATION_PENDING`, or only initiated) is
    ///   ``PaymentOutcome/pending(_:_:_:)`` with `authentication.redirect.html` when it has one;
    ///   successful or attempted with `PROCEED` is succeeded; a recommendation not to proceed,
    ///   unavailable or failed are refused with the codes of ``authenticate(_:)``;
    /// - any other transaction is read as PAY's answer: approved or submitted is succeeded, a
    ///   decline refused (`mastercard.transactionDeclined`), an undetermined gateway code or
    ///   result unknown.
    package static func state(of transaction: MastercardTransaction, keys: PaymentReconciliation) -> PaymentOutcome<MastercardTransaction> {
        var context = ["result": SafeText.of(transaction.result, limit: 16)]
        for (name, value) in keys.members { context[name] = value }
        if transaction.transactionType == "AUTHENTICATION", let object = transaction.json.objectValue,
            let authentication = try? MastercardAuthentication(response: object)
        {
            context["authenticationStatus"] = SafeText.of(authentication.authenticationStatus ?? "-", limit: 40)
            context["recommendation"] = SafeText.of(authentication.recommendation ?? "-", limit: 40)
            if !authentication.recommendsProceeding {
                return .refused(
                    transaction, CSEError(.mastercardAuthenticationDoNotProceed, "the gateway recommends not to proceed", context: context))
            }
            let waiting: Set<String> = ["AUTHENTICATION_PENDING", "AUTHENTICATION_AVAILABLE"]
            if authentication.authenticationStatus.map(waiting.contains) == true || authentication.result == "PENDING" {
                return .pending(transaction, authentication.redirectHTML.map(PaymentAction.html), keys)
            }
            if authentication.isAuthenticated, authentication.result == "SUCCESS" { return .succeeded(transaction, keys) }
            if authentication.isUnavailable {
                return .refused(
                    transaction, CSEError(.mastercardAuthenticationUnavailable, "3-D Secure is unavailable for this card", context: context)
                )
            }
            return .refused(transaction, CSEError(.mastercardAuthenticationFailed, "the payer was not authenticated", context: context))
        }
        if transaction.isApproved || transaction.isPending { return .succeeded(transaction, keys) }
        context["gatewayCode"] = SafeText.of(transaction.gatewayCode ?? "-", limit: 40)
        if let code = transaction.gatewayCode, MastercardTransaction.undeterminedCodes.contains(code) {
            let cause = CSEError(.mastercardError, "the gateway did not get a final answer for the transaction", context: context)
            return .unknown(keys, outcomeUnknownError("the transaction's outcome is not determined yet", keys, cause: cause))
        }
        if transaction.result == "FAILURE" || transaction.result == "SUCCESS" {
            return .refused(transaction, CSEError(.mastercardTransactionDeclined, "the gateway declined the transaction", context: context))
        }
        let cause = CSEError(.mastercardError, "the gateway could not determine the outcome with the acquirer", context: context)
        return .unknown(keys, outcomeUnknownError("the transaction's outcome is unknown to the gateway", keys, cause: cause))
    }
}
