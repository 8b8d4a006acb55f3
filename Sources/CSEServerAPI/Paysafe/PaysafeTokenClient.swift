public import CSECore
import CSECrypto
import CSEGateways
@_spi(CustomTransport) public import CSEHTTP

/// A single-use card token.
public struct PaysafeSingleUseToken: Hashable, Sendable, CustomStringConvertible {
    /// The token's id.
    public let id: String?
    /// The `paymentToken` to send to the payment API.
    public let paymentToken: String
    /// Seconds the token stays valid (899 in Paysafe's example; tokens live 15 minutes).
    public let timeToLiveSeconds: Int
    /// The card's BIN (`card.cardBin`).
    public let cardBin: String?
    /// The card's last digits (`card.lastDigits`).
    public let lastDigits: String?
    /// The card type, for example `VI`.
    public let cardType: String?
    /// `card.cardExpiry.month`.
    public let expiryMonth: Int?
    /// `card.cardExpiry.year`.
    public let expiryYear: Int?

    /// Decodes a response.
    /// - Throws: ``CSEError/Code/serverAPIInvalidResponse`` naming the member when `paymentToken`
    ///   or `timeToLiveSeconds` is missing, or a member read has the wrong JSON type (`card.cardBin`
    ///   and `card.lastDigits` may be strings or numbers).
    package init(response: JSONObject) throws(CSEError) {
        let reader = ServerResponseReader(platform: "paysafe")
        paymentToken = try reader.nonEmptyString(response, "paymentToken")
        guard let ttl = try reader.optionalInt(response, "timeToLiveSeconds"), ttl >= 0 else {
            throw reader.malformed("timeToLiveSeconds is missing or negative", member: "timeToLiveSeconds")
        }
        timeToLiveSeconds = ttl
        id = try reader.optionalString(response, "id")
        let (card, cardReader) = try reader.child(response, "card")
        // The BIN and last digits are what Paysafe masks to; keep at most 6 and 4 digits anyway.
        cardBin = try cardReader.optionalScalarText(card, "cardBin").map { String($0.prefix(6)) }
        lastDigits = try cardReader.optionalScalarText(card, "lastDigits").map { String($0.suffix(4)) }
        cardType = try cardReader.optionalString(card, "cardType")
        let (expiry, expiryReader) = try cardReader.child(card, "cardExpiry")
        expiryMonth = try expiryReader.optionalInt(expiry, "month")
        expiryYear = try expiryReader.optionalInt(expiry, "year")
    }

    /// The card as `BIN******LAST4` (or `****LAST4` without a BIN), or `nil` without last digits.
    public var maskedCard: String? {
        guard let lastDigits else { return nil }
        return (cardBin ?? "") + "******" + lastDigits
    }

    /// The fields as JSON (card masked).
    package var json: JSONValue {
        var members: [(String, JSONValue)] = []
        if let id { members.append(("id", .string(id))) }
        members.append(("paymentToken", .string(paymentToken)))
        members.append(("timeToLiveSeconds", .number(String(timeToLiveSeconds))))
        var card: [(String, JSONValue)] = []
        if let maskedCard { card.append(("maskedCard", .string(maskedCard))) }
        if let cardBin { card.append(("cardBin", .string(cardBin))) }
        if let lastDigits { card.append(("lastDigits", .string(lastDigits))) }
        if let cardType { card.append(("cardType", .string(cardType))) }
        if let expiryMonth, let expiryYear {
            card.append(
                ("cardExpiry", .object(JSONObject([("month", .number(String(expiryMonth))), ("year", .number(String(expiryYear)))]))))
        }
        if !card.isEmpty { members.append(("card", .object(JSONObject(card)))) }
        return .object(JSONObject(members))
    }

    /// The masked card and lifetime; the token is redacted.
    public var description: String {
        "PaysafeSingleUseToken(card: \(maskedCard ?? "-"), timeToLiveSeconds: \(timeToLiveSeconds), paymentToken: \(SecretMasking.redact(paymentToken)))"
    }
}

/// Paysafe's card single-use token call: `POST /customervault/v1/singleusetokens` with the
/// single-use-token API key.
public struct PaysafeTokenClient: Sendable {
    /// The credentials.
    public var credentials: PaysafeCredentials { connection.credentials }
    /// Where the calls go; `/customervault/v1/…` is appended.
    public var environment: ServerEnvironment { connection.environment }
    /// The key, the origin and the transport every call goes through.
    let connection: PaysafeConnection

    /// Creates a client.
    /// - Parameters:
    ///   - credentials: The single-use-token API key.
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

    /// Creates a single-use token for a card.
    /// - Parameter card: UTF-8 JSON text of the card object in Paysafe's shape: `cardNum`,
    ///   `cardExpiry {month, year}` and optionally `holderName`, `cvv`, `billingAddress`.
    /// - Throws: a `json.*` error for text that is not a JSON object;
    ///   ``CSEError/Code/serverAPIInvalidArgument`` when `cardNum` is not 12–19 digits or
    ///   `cardExpiry` lacks an integer month (1–12) and year; ``CSEError/Code/paysafeAPIError`` for
    ///   Paysafe's error body; ``CSEError/Code/serverAPIAuthenticationFailed`` for 401/403;
    ///   ``CSEError/Code/serverAPIInvalidResponse``; a transport error.
    public func createSingleUseToken(card: some Collection<UInt8>) async throws(CSEError) -> PaysafeSingleUseToken {
        try await createSingleUseToken(card: try JSONObject.parse(card, what: "the card"))
    }

    /// ``createSingleUseToken(card:)`` of a parsed card object (the CLI and the tests).
    package func createSingleUseToken(card: JSONObject) async throws(CSEError) -> PaysafeSingleUseToken {
        guard let number = card["cardNum"]?.stringValue, (12...19).contains(number.utf8.count),
            number.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 })
        else {
            throw CSEError(.serverAPIInvalidArgument, "card.cardNum is 12 to 19 digits", context: ["argument": "card.cardNum"])
        }
        guard let month = card["cardExpiry"]?["month"]?.intValue, (1...12).contains(month),
            let year = card["cardExpiry"]?["year"]?.intValue, year > 0
        else {
            throw CSEError(
                .serverAPIInvalidArgument, "card.cardExpiry needs an integer month (1-12) and year",
                context: ["argument": "card.cardExpiry"])
        }
        return try await singleUseToken(path: "singleusetokens", body: [("card", .object(card))])
    }

    /// The typed error of a non-2xx response: Paysafe's `{"error":{"code","message","fieldErrors"}}`.
    /// An `error` with a member of the wrong JSON type is not that shape:
    /// ``CSEError/Code/serverAPIUnexpectedStatus`` (or ``CSEError/Code/serverAPIAuthenticationFailed``
    /// for 401/403) with the status, caused by ``CSEError/Code/serverAPIInvalidResponse`` naming the member.
    /// - Parameter redactor: Redacts the platform's text, with the caller's secrets by value.
    static func error(of response: HTTPResponse, redactor: SafeText = .shapesOnly) -> CSEError {
        guard let body = ServerResponse.errorObject(response) else {
            return ServerResponse.statusError(response, platform: "paysafe")
        }
        let detail: PaysafeErrorDetail
        do {
            guard let read = try PaysafeErrorDetail(body) else { return ServerResponse.statusError(response, platform: "paysafe") }
            detail = read
        } catch {
            return ServerResponse.statusError(response, platform: "paysafe", cause: error)
        }
        var context: [String: String] = ["status": String(response.status)]
        if let code = detail.code { context["paysafeCode"] = redactor.of(code, limit: 16) }
        if let message = detail.message { context["message"] = redactor.of(message) }
        if !detail.fields.isEmpty { context["fields"] = redactor.of(detail.fields.joined(separator: ","), limit: 200) }
        if response.status == 401 || response.status == 403 {
            return ServerResponse.statusError(response, platform: "paysafe", details: context)
        }
        return CSEError(.paysafeAPIError, "Paysafe returned an error", context: context)
    }
}

extension PaysafeTokenClient {
    /// Creates a client over an existing `HTTPClient` (the tests' transports).
    package init(credentials: PaysafeCredentials, environment: ServerEnvironment, http: HTTPClient) {
        connection = PaysafeConnection(credentials: credentials, environment: environment, http: http)
    }

    /// An Apple Pay single-use token: `POST /customervault/v1/applepaysingleusetokens` with
    /// `{"applePayPaymentToken":{"token":{"paymentData","paymentMethod","transactionIdentifier"},
    /// "billingContact"?}}`, the Apple Pay JS `ApplePayPayment` shape (research notes §4.2), for the
    /// Card Payments API. Paysafe decrypts the token.
    /// - Parameters:
    ///   - token: UTF-8 JSON text of a `PKPaymentToken`, or of `{"token":{…}}` as Apple Pay JS
    ///     delivers it (then its `billingContact` goes along).
    ///   - decrypted: UTF-8 JSON text of an object, when the `paymentData` is the merchant's decryption (the `paymentData` member of
    ///     `cse wallet decrypt`'s output): it is sent as `paymentData.decryptedData` in place of the
    ///     encrypted members ("keep the original format, but replace the encrypted data").
    /// - Throws: a `json.*` error for text that is not a JSON object;
    ///   ``CSEError/Code/serverAPIInvalidArgument`` naming a missing member; the errors of
    ///   ``createSingleUseToken(card:)``.
    public func createApplePaySingleUseToken(
        token: some Collection<UInt8>, decrypted: [UInt8]? = nil
    ) async throws(CSEError) -> PaysafeSingleUseToken {
        let decryptedObject: JSONObject?
        if let decrypted {
            decryptedObject = try JSONObject.parse(decrypted, what: "the decrypted payment data")
        } else {
            decryptedObject = nil
        }
        return try await createApplePaySingleUseToken(
            token: try JSONObject.parse(token, what: "the Apple Pay token"), decrypted: decryptedObject)
    }

    /// ``createApplePaySingleUseToken(token:decrypted:)`` of parsed objects.
    package func createApplePaySingleUseToken(
        token: JSONObject, decrypted: JSONObject? = nil
    ) async throws(CSEError) -> PaysafeSingleUseToken {
        let whole = token["token"]?.objectValue ?? token
        var inner: [(String, JSONValue)] = []
        if let decrypted {
            inner.append(("paymentData", .object(JSONObject([("decryptedData", .object(decrypted))]))))
        } else {
            guard let data = whole["paymentData"]?.objectValue, data["data"] != nil, data["header"] != nil else {
                throw CSEError(.serverAPIInvalidArgument, "the Apple Pay token lacks paymentData", context: ["argument": "paymentData"])
            }
            inner.append(("paymentData", .object(data)))
        }
        if let method = whole["paymentMethod"] { inner.append(("paymentMethod", method)) }
        if let id = whole["transactionIdentifier"] { inner.append(("transactionIdentifier", id)) }
        var envelope: [(String, JSONValue)] = [("token", .object(JSONObject(inner)))]
        if let contact = token["billingContact"] { envelope.append(("billingContact", contact)) }
        // Decrypted card data is redacted by value from Paysafe's error text, whatever its shape.
        let values = [
            decrypted?["applicationPrimaryAccountNumber"], decrypted?["paymentData"]?["onlinePaymentCryptogram"],
            decrypted?["cardholderName"],
        ].compactMap { $0?.stringValue }
        return try await singleUseToken(
            path: "applepaysingleusetokens", body: [("applePayPaymentToken", .object(JSONObject(envelope)))], values: values)
    }

    /// A Google Pay single-use token: `POST /customervault/v1/googlepaysingleusetokens` with
    /// `{"googlePayPaymentToken":{"signature","protocolVersion","signedMessage"[,"intermediateSigningKey"]}}`
    /// (research notes §4.2; the token made with gateway `paysafe`). Paysafe decrypts it.
    /// - Parameter token: UTF-8 JSON text of the token object (`tokenizationData.token`), or of a
    ///   whole `PaymentData`.
    /// - Throws: a `json.*` error for text that is not a JSON object;
    ///   ``CSEError/Code/serverAPIInvalidArgument`` when the token lacks `signature`,
    ///   `protocolVersion` or `signedMessage`; the errors of ``createSingleUseToken(card:)``.
    public func createGooglePaySingleUseToken(token: some Collection<UInt8>) async throws(CSEError) -> PaysafeSingleUseToken {
        try await createGooglePaySingleUseToken(token: try JSONObject.parse(token, what: "the Google Pay token"))
    }

    /// ``createGooglePaySingleUseToken(token:)`` of a parsed token.
    package func createGooglePaySingleUseToken(token: JSONObject) async throws(CSEError) -> PaysafeSingleUseToken {
        var object = token
        if let text = token["paymentMethodData"]?["tokenizationData"]?["token"]?.stringValue {
            guard case .object(let parsed)? = try? JSONValue.parse(Array(text.utf8)) else {
                throw CSEError(.serverAPIInvalidArgument, "tokenizationData.token is not a JSON object", context: ["argument": "token"])
            }
            object = parsed
        }
        var members: [(String, JSONValue)] = []
        for name in ["signature", "protocolVersion", "signedMessage"] {
            guard let value = object[name]?.stringValue else {
                throw CSEError(.serverAPIInvalidArgument, "the Google Pay token lacks a member", context: ["argument": name])
            }
            members.append((name, .string(value)))
        }
        if let key = object["intermediateSigningKey"] { members.append(("intermediateSigningKey", key)) }
        return try await singleUseToken(path: "googlepaysingleusetokens", body: [("googlePayPaymentToken", .object(JSONObject(members)))])
    }

    /// Posts `body` to `/customervault/v1/<path>` and decodes the single-use token; `values` (card
    /// data in the body) are redacted by value from error text.
    private func singleUseToken(
        path: String, body: [(String, JSONValue)], values: [String] = []
    ) async throws(CSEError)
        -> PaysafeSingleUseToken
    {
        let response = try await connection.send(.post, path: ["customervault", "v1", path], body: .object(JSONObject(body)))
        guard response.isSuccess else {
            let redactor = SafeText(secrets: [credentials.apiKey] + values.map { SecureBytes($0.utf8) })
            throw Self.error(of: response, redactor: redactor)
        }
        return try PaysafeSingleUseToken(response: try ServerResponse.object(response, platform: "paysafe"))
    }
}
