public import CSECore
import CSECrypto
@_spi(CustomTransport) import CSEHTTP

/// A Worldline card-on-file token as CreateToken, GetToken or a tokenizing CreatePayment return
/// it (research notes §1.3): the token, whether it is new, and the card it stands for, masked.
/// The token can be charged: it is in ``token`` and the JSON of the command's result only, never
/// in ``description`` or an error.
public struct WorldlineToken: Hashable, Sendable, CustomStringConvertible {
    /// The token (`token` of CreateToken, `id` of GetToken).
    public let token: String
    /// `isNewToken`: `false` when the card was already saved and its existing token is returned
    /// unchanged ("a token with the same card number already exists").
    public let isNewToken: Bool?
    /// `tokenStatus`, when the platform names one.
    public let status: String?
    /// `paymentProductId` (1 Visa, 2 American Express, 3 Mastercard, …), when given.
    public let paymentProductID: Int?
    /// The card number, masked with ``SecretMasking/maskPAN(_:)`` whatever the platform sent.
    public let maskedCardNumber: String?
    /// The card's expiry date as the platform writes it (`MMYY`).
    public let expiryDate: String?

    /// Reads a `CreatedTokenResponse` (`token`, `isNewToken`, `tokenStatus`, `card` without CVV)
    /// or a `TokenResponse` (`id`, `paymentProductId`, `card.data.cardWithoutCvv`).
    /// - Throws: ``CSEError/Code/serverAPIInvalidResponse`` naming the member when the token is
    ///   missing or empty, or a member has the wrong type.
    init(_ object: JSONObject, reader: ServerResponseReader) throws(CSEError) {
        if let token = try reader.optionalString(object, "token") {
            guard !token.isEmpty else { throw reader.malformed("token is empty", member: "token") }
            self.token = token
        } else {
            token = try reader.nonEmptyString(object, "id")
        }
        try Self.checkTokenID(token, reader: reader)
        isNewToken = try reader.optionalBool(object, "isNewToken")
        status = try reader.optionalString(object, "tokenStatus")
        paymentProductID = try reader.optionalInt(object, "paymentProductId")
        let (card, cardReader) = try reader.child(object, "card")
        // CreatedTokenResponse.card is the card itself; TokenResponse.card nests it under data.cardWithoutCvv.
        let (data, dataReader) = try cardReader.child(card, "data")
        let (nested, nestedReader) = try dataReader.child(data, "cardWithoutCvv")
        var number = try cardReader.optionalString(card, "cardNumber")
        if number == nil { number = try nestedReader.optionalString(nested, "cardNumber") }
        maskedCardNumber = number.map(SecretMasking.maskPAN)
        var expiry = try cardReader.optionalScalarText(card, "expiryDate")
        if expiry == nil { expiry = try nestedReader.optionalScalarText(nested, "expiryDate") }
        expiryDate = expiry
    }

    /// A token the platform issued must be usable in a path: refuses anything else as a malformed answer.
    private static func checkTokenID(_ token: String, reader: ServerResponseReader) throws(CSEError) {
        guard WorldlineServerClient.isPathIdentifier(token, limit: 128) else {
            throw reader.malformed("the token is not 1 to 128 letters, digits, '-', '_' or '.'", member: "token")
        }
    }

    /// The brand of ``paymentProductID`` for the products the Direct API documents for cards.
    public var brand: String? {
        switch paymentProductID {
        case 1: "visa"
        case 2: "amex"
        case 3: "mastercard"
        case 117: "maestro"
        case 125: "jcb"
        case 130: "cartes-bancaires"
        case 132: "diners"
        case 128: "discover"
        case 56: "unionpay"
        case 302: "apple-pay"
        case 320: "google-pay"
        case nil: nil
        default: nil
        }
    }

    /// `{"token","isNewToken","status","paymentProductId","brand","cardNumber","expiryDate"}`, the
    /// members present; the card number masked.
    package var json: JSONValue {
        var members: [(String, JSONValue)] = [("token", .string(token))]
        if let isNewToken { members.append(("isNewToken", .bool(isNewToken))) }
        if let status { members.append(("status", .string(status))) }
        if let paymentProductID { members.append(("paymentProductId", .number(String(paymentProductID)))) }
        if let brand { members.append(("brand", .string(brand))) }
        if let maskedCardNumber { members.append(("cardNumber", .string(maskedCardNumber))) }
        if let expiryDate { members.append(("expiryDate", .string(expiryDate))) }
        return .object(JSONObject(members))
    }

    /// The masked card and whether the token is new; never the token.
    public var description: String {
        "WorldlineToken(cardNumber: \(maskedCardNumber ?? "-"), isNewToken: \(isNewToken.map(String.init) ?? "-"))"
    }
}

/// What a CreatePayment with `tokenize` says about the card it saved
/// (`CreatePaymentResponse.creationOutput`; research notes §1.3), read also when a 3-D Secure
/// challenge left no token ("a payment … that results in a status REDIRECTED cannot be tokenized").
public struct WorldlineTokenization: Hashable, Sendable, CustomStringConvertible {
    /// `creationOutput.token`, when one was made or found.
    public let token: String?
    /// `creationOutput.isNewToken`.
    public let isNewToken: Bool?
    /// `creationOutput.tokenizationSucceeded`.
    public let tokenizationSucceeded: Bool?

    /// Reads `creationOutput`, or `nil` when it says nothing about a token.
    init?(_ object: JSONObject, _ reader: ServerResponseReader) throws(CSEError) {
        token = try reader.optionalString(object, "token")
        isNewToken = try reader.optionalBool(object, "isNewToken")
        tokenizationSucceeded = try reader.optionalBool(object, "tokenizationSucceeded")
        if token == nil, isNewToken == nil, tokenizationSucceeded == nil { return nil }
    }

    /// `{"token","isNewToken","tokenizationSucceeded"}`, the members present.
    package var json: JSONValue {
        var members: [(String, JSONValue)] = []
        if let token { members.append(("token", .string(token))) }
        if let isNewToken { members.append(("isNewToken", .bool(isNewToken))) }
        if let tokenizationSucceeded { members.append(("tokenizationSucceeded", .bool(tokenizationSucceeded))) }
        return .object(JSONObject(members))
    }

    /// Whether a token was made; never the token.
    public var description: String {
        "WorldlineTokenization(tokenizationSucceeded: \(tokenizationSucceeded.map(String.init) ?? "-"), token: \(token == nil ? "none" : "present"))"
    }
}

/// A CreateToken request (`POST /v2/{merchantId}/tokens`, `CreateTokenRequest`; research notes
/// §1.3): the card data sealed by the device or `cse seal`, never plain card data.
public struct WorldlineTokenRequest: Sendable, CustomStringConvertible {
    /// The compact JWE of the sealed card (`encryptedCustomerInput`).
    public let encryptedCustomerInput: String
    /// `paymentProductId`, when the merchant knows it (the sealed input usually names it).
    public let paymentProductID: Int?

    /// Creates a request.
    /// - Throws: ``CSEError/Code/serverAPIInvalidArgument`` for an input that is not a compact
    ///   JWE, or a product id outside 1…99,999.
    public init(encryptedCustomerInput: String, paymentProductID: Int? = nil) throws(CSEError) {
        try WorldlinePaymentRequest.checkJWE(encryptedCustomerInput)
        if let paymentProductID, !(1...99_999).contains(paymentProductID) {
            throw CSEError(.serverAPIInvalidArgument, "a payment product id is 1 to 99999", context: ["argument": "paymentProductId"])
        }
        self.encryptedCustomerInput = encryptedCustomerInput
        self.paymentProductID = paymentProductID
    }

    /// `{"encryptedCustomerInput", "paymentProductId"}`.
    package var json: JSONValue {
        var members: [(String, JSONValue)] = [("encryptedCustomerInput", .string(encryptedCustomerInput))]
        if let paymentProductID { members.append(("paymentProductId", .number(String(paymentProductID)))) }
        return .object(JSONObject(members))
    }

    /// The product only.
    public var description: String { "WorldlineTokenRequest(paymentProductId: \(paymentProductID.map(String.init) ?? "-"))" }
}

extension WorldlineServerClient {
    /// CreateToken: `POST /v2/{merchantId}/tokens` with the sealed card (research notes §1.3).
    ///
    /// Worldline keeps one token per card number: creating a token for a card already saved
    /// returns the existing token with `isNewToken` `false` (done, not a refusal). That is also
    /// how an unknown outcome is settled: send the same sealed card again, and the same token
    /// comes back; no second token is made. The request carries no idempotence key (CreateToken
    /// is not among the calls the platform documents it for; V-WL-5).
    /// - Returns: ``PaymentOutcome/succeeded(_:_:)`` with the token;
    ///   ``PaymentOutcome/unknown(_:_:)`` for a lost or unreadable answer or a 5xx that is not
    ///   `retriable` (create again with the same card to settle it).
    /// - Throws: When nothing was made: an invalid argument, a transport error before sending,
    ///   or the platform's refusal (``CSEError/Code/worldlineAPIError`` naming its error id, for
    ///   example a card the vault refuses; ``CSEError/Code/serverAPIAuthenticationFailed``).
    public func createToken(_ request: WorldlineTokenRequest) async throws(CSEError) -> PaymentOutcome<WorldlineToken> {
        let keys = PaymentReconciliation()
        // The journal records that a token was asked for, never the token (a credential).
        let intent = JournalIntent(platform: "worldline", operation: "createToken")
        return try await journaled(http, intent) { () async throws(CSEError) -> PaymentOutcome<WorldlineToken> in
            let response: HTTPResponse
            do throws(CSEError) {
                response = try await send(.post, path: ["tokens"], body: request.json)
            } catch {
                if error.provesRequestNotSent { throw error }
                return .unknown(keys, outcomeUnknownError("no answer was read; the token may have been created", keys, cause: error))
            }
            let redactor = SafeText(secrets: [credentials.secretAPIKey])
            guard response.isSuccess else {
                let (error, body) = Self.failure(of: response, redactor: redactor)
                if response.status >= 500, body?.isRetriable != true {
                    return .unknown(
                        keys,
                        outcomeUnknownError("the platform answered a server error; the token may have been created", keys, cause: error))
                }
                throw Self.lifecycleRefusal(error, body)
            }
            do throws(CSEError) {
                let object = try ServerResponse.object(response, platform: "worldline")
                return .succeeded(try WorldlineToken(object, reader: ServerResponseReader(platform: "worldline")), keys)
            } catch {
                return .unknown(keys, outcomeUnknownError("the platform's 2xx answer is not a readable token", keys, cause: error))
            }
        }
    }

    /// GetToken: `GET /v2/{merchantId}/tokens/{tokenId}`, the saved card (masked).
    /// - Throws: ``CSEError/Code/serverAPIInvalidArgument`` for a token a path cannot carry;
    ///   ``CSEError/Code/serverUnknownPayment`` when the platform knows no such token (deleted or
    ///   never made); the errors of ``getPayment(id:)``.
    public func getToken(_ token: String) async throws(CSEError) -> WorldlineToken {
        try Self.checkToken(token)
        let response = try await send(.get, path: ["tokens", token], body: nil, retry: .idempotent)
        guard response.isSuccess else { throw tokenError(response, token: token) }
        return try WorldlineToken(
            try ServerResponse.object(response, platform: "worldline"), reader: ServerResponseReader(platform: "worldline"))
    }

    /// DeleteToken: `DELETE /v2/{merchantId}/tokens/{tokenId}` (no body; V-WL-6). A payment with
    /// the deleted token is refused afterwards. Deleting again answers that the token is unknown:
    /// that settles a delete whose answer was lost.
    /// - Throws: As ``getToken(_:)``.
    public func deleteToken(_ token: String) async throws(CSEError) {
        try Self.checkToken(token)
        let response = try await send(.delete, path: ["tokens", token], body: nil, retry: .idempotent)
        guard response.isSuccess else { throw tokenError(response, token: token) }
    }

    /// A token a path can carry: 1 to 128 letters, digits, `-`, `_` or `.`, not `.` or `..`.
    static func checkToken(_ token: String) throws(CSEError) {
        guard isPathIdentifier(token, limit: 128) else {
            throw CSEError(
                .serverAPIInvalidArgument, "a token is 1 to 128 letters, digits, '-', '_' or '.'", context: ["argument": "token"])
        }
    }

    /// Whether `text` is 1 to `limit` letters, digits, `-`, `_` or `.` and not `.` or `..`.
    static func isPathIdentifier(_ text: String, limit: Int) -> Bool {
        !text.isEmpty && text.utf8.count <= limit && text.utf8.allSatisfy({ ServerIdentifier.isIdentifierByte($0) })
            && !HTTPURL.isUnsafePathSegment(text)
    }

    /// The typed error of a token call's error answer: an unknown token is `server.unknownPayment`.
    /// The token is redacted by value from the platform's text.
    private func tokenError(_ response: HTTPResponse, token: String) -> CSEError {
        let (error, body) = Self.failure(of: response, redactor: SafeText(secrets: [credentials.secretAPIKey, SecureBytes(token.utf8)]))
        if response.status == 404, error.code == .worldlineAPIError || error.code == .serverAPIUnexpectedStatus {
            return Self.unknownTokenError(cause: error, id: body?.errors?.first?.id)
        }
        return Self.lifecycleRefusal(error, body)
    }

    /// `server.unknownPayment` for a token the platform does not know.
    static func unknownTokenError(cause: CSEError, id: String?) -> CSEError {
        var context = ["platform": "worldline", "resource": "token"]
        if let id { context["id"] = SafeText.of(id, limit: 64) }
        return CSEError(
            .serverUnknownPayment, "the platform knows no token with this id (deleted or never made)", context: context, underlying: cause)
    }
}
