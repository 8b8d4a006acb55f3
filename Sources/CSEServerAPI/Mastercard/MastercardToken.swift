public import CSECore
import CSECrypto
@_spi(CustomTransport) import CSEHTTP

extension CSEError.Code {
    /// The Mastercard Gateway holds no such token (it was never created, or it was deleted): a
    /// `token get` or `token delete` of an unknown id, or a PAY/AUTHORIZE with `sourceOfFunds.token`
    /// naming none. Nothing was processed. The context never names the token.
    public static let mastercardTokenUnknown = Self("mastercard.tokenUnknown")
    /// The gateway's token repository refused to store the card (Create Token answered `result`
    /// `FAILURE`, for example a card the verification declined). The context gives `result` and
    /// `gatewayCode`.
    public static let mastercardTokenRefused = Self("mastercard.tokenRefused")
}

/// A card-on-file token of the Mastercard Gateway's token repository, as Create Token, Create or
/// Update Token and Retrieve Token answer it (payment-lifecycle research notes §2.3: "A token Id is
/// returned and can be retained on your servers as a card-on-file").
///
/// The token can be charged (PAY with ``MastercardFundingSource/token(_:)``): it is not a card
/// number, but it is a credential, so ``description`` never shows it and no error names it. The
/// card it stands for is only ever shown masked.
public struct MastercardToken: Sendable, CustomStringConvertible {
    /// `token`: the id to pay with.
    public let token: String
    /// `status`, for example `VALID` or `INVALID`, when the gateway sends it.
    public let status: String?
    /// `repositoryId`, when the gateway sends it.
    public let repositoryID: String?
    /// `sourceOfFunds.provided.card.brand`, for example `VISA` or `MASTERCARD`.
    public let brand: String?
    /// `sourceOfFunds.provided.card.number` masked to its first 6 and last 4 digits (the gateway
    /// sends it masked, `411111xxxxxx1111`; a full number would be masked here).
    public let maskedNumber: String?
    /// `sourceOfFunds.provided.card.expiry`, `MMYY`.
    public let expiry: String?
    /// `sourceOfFunds.provided.card.scheme`, when the gateway sends it.
    public let scheme: String?
    /// Whether the repository stored a new token (HTTP 201) or answered with one it already held
    /// (HTTP 200: the card was already stored in a unique-card repository, or an existing
    /// merchant-supplied id was updated); `nil` for a retrieve. The member names of the gateway do
    /// not say it; the status does (docs/COMPATIBILITY.md).
    public let isNew: Bool?

    /// Decodes a token answer.
    /// - Throws: ``CSEError/Code/serverAPIInvalidResponse`` naming the member when `token` is
    ///   missing or empty, or a member read has the wrong JSON type.
    package init(response: JSONObject, isNew: Bool?) throws(CSEError) {
        let reader = ServerResponseReader(platform: "mastercard")
        token = try reader.nonEmptyString(response, "token")
        status = try reader.optionalString(response, "status")
        repositoryID = try reader.optionalString(response, "repositoryId")
        let (funds, fundsReader) = try reader.child(response, "sourceOfFunds")
        let (provided, providedReader) = try fundsReader.child(funds, "provided")
        let (card, cardReader) = try providedReader.child(provided, "card")
        brand = try cardReader.optionalString(card, "brand")
        maskedNumber = try cardReader.optionalScalarText(card, "number").map(Self.masked)
        expiry = try cardReader.optionalScalarText(card, "expiry")
        scheme = try cardReader.optionalString(card, "scheme")
        self.isNew = isNew
    }

    /// A number as the gateway shows it when it is already masked (`411111xxxxxx1111`); any run of
    /// digits in it masked to the first 6 and last 4 otherwise.
    static func masked(_ number: String) -> String {
        let digits = number.unicodeScalars.filter { $0.value >= 0x30 && $0.value <= 0x39 }
        guard digits.count == number.unicodeScalars.count else { return number }
        return SecretMasking.maskPAN(number)
    }

    /// The result printed by `cse mastercard token create|get`: the token whole (the command's
    /// result), its status and repository, the card masked, and `newToken` when known.
    package var value: JSONValue {
        var card: [(String, JSONValue)] = []
        if let brand { card.append(("brand", .string(brand))) }
        if let maskedNumber { card.append(("number", .string(maskedNumber))) }
        if let expiry { card.append(("expiry", .string(expiry))) }
        if let scheme { card.append(("scheme", .string(scheme))) }
        var members: [(String, JSONValue)] = [("token", .string(token))]
        if let status { members.append(("status", .string(status))) }
        if let repositoryID { members.append(("repositoryId", .string(repositoryID))) }
        members.append(("card", .object(JSONObject(card))))
        if let isNew { members.append(("newToken", .bool(isNew))) }
        return .object(JSONObject(members))
    }

    /// Status, brand, masked number and expiry; never the token.
    public var description: String {
        "MastercardToken(status: \(status ?? "-"), brand: \(brand ?? "-"), number: \(maskedNumber ?? "-"), expiry: \(expiry ?? "-"))"
    }
}

extension MastercardSessionClient {
    /// Create Token: `POST …/token` with exactly `{"session":{"id"},"sourceOfFunds":{"type":"CARD"}}`
    /// ("if additional fields are present the API will return an error"; research notes §2.3): the
    /// gateway stores the card the session holds and returns a token generated by the repository.
    ///
    /// Runs inside the client's journal (``HTTPClientConfiguration/journal``, issue #36), which
    /// never records the token itself.
    ///
    /// The outcome:
    /// - ``PaymentOutcome/succeeded(_:_:)``: the token (``MastercardToken/isNew`` `false` when a
    ///   unique-card repository already held the card and answered with its token);
    /// - ``PaymentOutcome/refused(_:_:)``: `result` `FAILURE` (`mastercard.tokenRefused`);
    /// - ``PaymentOutcome/unknown(_:_:)``: no answer read after sending, a 5xx, an unreadable 2xx,
    ///   `SERVER_BUSY`/`SERVER_FAILED`. A POST is not sent twice by the transport. Nothing names a
    ///   system-generated token before it is read: settle it by creating again with the same
    ///   session (a unique-card repository answers with the same token), or in Merchant
    ///   Administration; use ``saveToken(id:sessionID:)`` with an id of your own to settle it by
    ///   ``retrieveToken(id:)``.
    /// - Throws: When nothing was stored: an invalid session id (``CSEError/Code/serverAPIInvalidArgument``),
    ///   a transport error before sending, 401/403, `ERROR` with `INVALID_REQUEST` (a session
    ///   without a card, an unknown session) or `REQUEST_REJECTED`.
    public func createToken(sessionID: String) async throws(CSEError) -> PaymentOutcome<MastercardToken> {
        try Self.checkSessionID(sessionID)
        return try await journaled(http, JournalIntent(platform: "mastercard", operation: "createToken")) {
            () async throws(CSEError) in
            try await tokenCall(.post, path: ["token"], sessionID: sessionID, keys: PaymentReconciliation(), retry: nil)
        }
    }

    /// Create or Update Token: `PUT …/token/{id}` with the same body as ``createToken(sessionID:)``,
    /// for a repository whose token generation strategy lets the merchant supply the id: stores the
    /// session's card under `id`, or replaces the card stored under it (a new expiry, a new card).
    ///
    /// The outcome is read as ``createToken(sessionID:)``'s; `id` is the key that settles an
    /// unknown one: ``retrieveToken(id:)`` (the PUT is idempotent and is sent again by the
    /// transport after a lost connection). ``PaymentReconciliation/merchantReference`` carries it.
    /// - Throws: As ``createToken(sessionID:)``; ``CSEError/Code/serverAPIInvalidArgument`` for an
    ///   id that is not 1 to 40 letters, digits, `-`, `_` or `.`.
    public func saveToken(id: String, sessionID: String) async throws(CSEError) -> PaymentOutcome<MastercardToken> {
        try MastercardTransactionRequest.checkID(id, argument: "tokenId")
        try Self.checkSessionID(sessionID)
        let intent = JournalIntent(platform: "mastercard", operation: "saveToken", merchantReference: id, platformIDs: ["tokenId": id])
        return try await journaled(http, intent) { () async throws(CSEError) in
            try await tokenCall(
                .put, path: ["token", id], sessionID: sessionID, keys: PaymentReconciliation(merchantReference: id), retry: .idempotent)
        }
    }

    /// Retrieve Token: `GET …/token/{id}`: the token, its status and the card masked.
    /// - Throws: ``CSEError/Code/mastercardTokenUnknown`` when the gateway holds no such token;
    ///   ``CSEError/Code/serverAPIInvalidArgument`` for an id a path cannot carry; the errors of
    ///   ``createSession(authenticationLimit:correlationID:)``.
    public func retrieveToken(id: String) async throws(CSEError) -> MastercardToken {
        try MastercardTransactionRequest.checkID(id, argument: "token")
        let object: JSONObject
        do {
            object = try await get(["token", id], secrets: [id])
        } catch {
            throw Self.tokenError(error)
        }
        return try MastercardToken(response: object, isNew: nil)
    }

    /// Delete Token: `DELETE …/token/{id}`: the card is no longer stored; a payment with the token
    /// is then refused (``CSEError/Code/mastercardTokenUnknown``). Idempotent: after a lost answer,
    /// delete again (an unknown token then says it is gone) or retrieve it.
    /// - Throws: ``CSEError/Code/mastercardTokenUnknown`` when the gateway holds no such token; the
    ///   errors of ``retrieveToken(id:)``.
    public func deleteToken(id: String) async throws(CSEError) {
        try MastercardTransactionRequest.checkID(id, argument: "token")
        let redactor = SafeText(secrets: [credentials.apiPassword, SecureBytes(id.utf8)])
        do throws(CSEError) {
            let response = try await ServerRequest.send(
                http, .delete, url: try baseURL.appending(pathSegments: ["token", id]),
                headers: ["Authorization": credentials.basicAuthorization()], body: nil, retry: .idempotent)
            guard response.isSuccess else { throw Self.error(of: response, redactor: redactor) }
            if let object = ServerResponse.errorObject(response), try Self.isError(object) {
                throw Self.error(of: response, redactor: redactor)
            }
        } catch {
            throw Self.tokenError(error)
        }
    }

    /// `mastercard.tokenUnknown` for the gateway's `INVALID_REQUEST` about a token, caused by it;
    /// any other error as it is.
    static func tokenError(_ error: CSEError) -> CSEError {
        guard error.code == .mastercardInvalidRequest else { return error }
        return CSEError(
            .mastercardTokenUnknown, "the gateway holds no such token (never created, or deleted); nothing was processed",
            context: ["platform": "mastercard"], underlying: error)
    }

    /// The call of ``createToken(sessionID:)`` and ``saveToken(id:sessionID:)``.
    private func tokenCall(
        _ method: HTTPMethod, path: [String], sessionID: String, keys: PaymentReconciliation, retry: HTTPRetryPolicy?
    ) async throws(CSEError) -> PaymentOutcome<MastercardToken> {
        let body = JSONValue.object(
            JSONObject([
                ("session", .object(JSONObject([("id", .string(sessionID))]))),
                ("sourceOfFunds", .object(JSONObject([("type", .string("CARD"))]))),
            ]))
        let response: HTTPResponse
        do {
            response = try await ServerRequest.send(
                http, method, url: try baseURL.appending(pathSegments: path), headers: ["Authorization": credentials.basicAuthorization()],
                body: body, retry: retry)
        } catch {
            if error.provesRequestNotSent { throw error }
            return .unknown(keys, outcomeUnknownError("no answer was read; the token may have been stored", keys, cause: error))
        }
        let redactor = SafeText(secrets: [credentials.apiPassword, SecureBytes(sessionID.utf8)])
        guard let object = ServerResponse.errorObject(response) else {
            if response.isSuccess || response.status >= 500 {
                let cause =
                    response.isSuccess
                    ? CSEError(.serverAPIInvalidResponse, "the response body is not a JSON object", context: ["platform": "mastercard"])
                    : ServerResponse.statusError(response, platform: "mastercard")
                return .unknown(keys, outcomeUnknownError("the gateway's answer is not a token", keys, cause: cause))
            }
            return try notProcessed(ServerResponse.statusError(response, platform: "mastercard"), after: response, keys)
        }
        var isError = !response.isSuccess
        if !isError {
            do { isError = try Self.isError(object) } catch {
                return .unknown(keys, outcomeUnknownError("the gateway's answer is not a readable token", keys, cause: error))
            }
        }
        if isError {
            let error = Self.error(of: response, redactor: redactor)
            let refusedToTake: Set<CSEError.Code> = [.mastercardInvalidRequest, .mastercardRequestRejected, .serverAPIAuthenticationFailed]
            if refusedToTake.contains(error.code) || ((400..<500).contains(response.status) && error.code == .serverAPIUnexpectedStatus) {
                return try notProcessed(error, after: response, keys)
            }
            return .unknown(keys, outcomeUnknownError("the gateway could not complete the token request", keys, cause: error))
        }
        let reader = ServerResponseReader(platform: "mastercard")
        let result: String?
        do { result = try reader.optionalString(object, "result") } catch {
            return .unknown(keys, outcomeUnknownError("the gateway's answer is not a readable token", keys, cause: error))
        }
        if result == "FAILURE" {
            let code = object["response"]?["gatewayCode"]?.stringValue
            return .refused(
                nil,
                CSEError(
                    .mastercardTokenRefused, "the gateway's token repository refused to store the card",
                    context: ["result": "FAILURE", "gatewayCode": redactor.of(code ?? "-", limit: 40)]))
        }
        do {
            return .succeeded(try MastercardToken(response: object, isNew: response.status == 200 ? false : true), keys)
        } catch {
            return .unknown(keys, outcomeUnknownError("the gateway's answer is not a readable token", keys, cause: error))
        }
    }
}
