public import CSECore
import CSECrypto
public import CSEGateways
@_spi(CustomTransport) public import CSEHTTP
public import CSEValidation

extension CSEError.Code {
    /// APS declined the transaction: `status` 13 (purchase failure) or 03 (authorization failure).
    /// The context gives `response_code`, the merchant reference and the `fort_id`.
    public static let apsTransactionDeclined = Self("aps.transactionDeclined")
    /// A transaction feedback's `signature` is missing or does not match the received parameters
    /// under the SHA response phrase; nothing in it may be trusted.
    public static let apsFeedbackSignature = Self("aps.feedback.signature")
    /// A transaction feedback body is not a form (`application/x-www-form-urlencoded`) or JSON
    /// object of string values, or lacks `response_code`.
    public static let apsFeedbackMalformed = Self("aps.feedback.malformed")
    /// A verified feedback or 3-D Secure return names another `merchant_reference` than the
    /// order the merchant expects: a replay of another order's, trusted for nothing here.
    public static let apsFeedbackOtherOrder = Self("aps.feedback.otherOrder")
}

/// An APS transaction as APS reports it: a PURCHASE or AUTHORIZATION response, a transaction
/// feedback, or the order a CHECK_STATUS names. Only ever made from parameters whose signature
/// has been verified.
public struct APSTransaction: Sendable, CustomStringConvertible {
    /// `response_code` (or, from CHECK_STATUS, the order's `transaction_code`).
    public let responseCode: APSResponseCode
    /// `merchant_reference`.
    public let merchantReference: String?
    /// `fort_id`, APS's id of the order.
    public let fortID: String?
    /// `command` (`PURCHASE`, `AUTHORIZATION`).
    public let command: String?
    /// `authorization_code`.
    public let authorizationCode: String?
    /// `3ds_url` when the payer must pass 3-D Secure (status 20).
    public let threeDSURL: String?
    /// `token_name`: the card's token as this verified answer or feedback names it; after a
    /// successful payment with `remember_me` `YES`, the permanent token of the saved card (seed
    /// 001, "Tokenization service"; research notes, lifecycle §3.3). Take a token to keep only
    /// from here, never from the app alone. It is a credential: never log it.
    public let tokenName: String?
    /// The parameters as received, with `card_number` masked (first 6 and last 4 digits) and
    /// `card_security_code` and `signature` removed.
    package let parameters: JSONObject

    /// Reads verified parameters; `codeMember` names the member with the transaction's code.
    /// Parameters are strings or numbers (APS signs them as their text).
    /// - Throws: ``CSEError/Code/apsResponseMalformed`` when the code is missing or not five
    ///   digits; ``CSEError/Code/serverAPIInvalidResponse`` naming a parameter read that is neither
    ///   a string nor a number.
    init(verified: JSONObject, codeMember: String = "response_code") throws(CSEError) {
        let reader = ServerResponseReader(platform: "aps")
        guard let text = try reader.optionalScalarText(verified, codeMember) else {
            throw CSEError(.apsResponseMalformed, "the signed parameters have no \(codeMember)", context: ["parameter": codeMember])
        }
        do throws(CSEError) { responseCode = try APSResponseCode(text) } catch {
            throw CSEError(.apsResponseMalformed, "the \(codeMember) is not five digits", context: ["parameter": codeMember])
        }
        merchantReference = try reader.optionalScalarText(verified, "merchant_reference")
        fortID = try reader.optionalScalarText(verified, "fort_id")
        command = try reader.optionalScalarText(verified, "command")
        authorizationCode = try reader.optionalScalarText(verified, "authorization_code")
        threeDSURL = try reader.optionalScalarText(verified, "3ds_url")
        tokenName = try reader.optionalScalarText(verified, "token_name")
        var shown: [(String, JSONValue)] = []
        for (name, value) in verified where name != "signature" && name != "card_security_code" {
            if name == "card_number", let number = value.scalarText, number.allSatisfy(\.isNumber) {
                shown.append((name, .string(SecretMasking.maskPAN(number))))
            } else {
                shown.append((name, value))
            }
        }
        parameters = JSONObject(shown)
    }

    /// Approved: status 14 (purchase success) or 02 (authorization success).
    public var isApproved: Bool { ["14", "02"].contains(responseCode.status) }
    /// Processed, outcome later: 19 (pending), 20 (on hold: 3-D Secure, see ``threeDSURL``), 40 (in review).
    public var isPending: Bool { ["19", "20", "40"].contains(responseCode.status) }
    /// Declined: status 13 or 03.
    public var isDeclined: Bool { ["13", "03"].contains(responseCode.status) }
    /// What the payer must do for a payment on hold for 3-D Secure (status 20 with a `3ds_url`):
    /// follow `{"type":"redirect","url":3ds_url,"method":"GET"}` (research notes, lifecycle §3.1;
    /// the PHP SDK's example sends the browser there). `nil` otherwise, also for 19 and 40, which
    /// APS decides later.
    public var action: PaymentAction? {
        guard responseCode.status == "20", let threeDSURL else { return nil }
        return .redirect(url: threeDSURL, method: "GET", returnMAC: nil)
    }
    /// Whether the answer is a capture, refund or void's (`command` CAPTURE, REFUND,
    /// VOID_AUTHORIZATION), whose status 19 is accepted and completed later, not a payment pending.
    var isMaintenance: Bool { ["CAPTURE", "REFUND", "VOID_AUTHORIZATION"].contains(command ?? "") }

    /// A maintenance operation that succeeded: status 04 (capture), 06 (refund) or 08 (void of
    /// an authorisation), PayFort "Transaction Response Codes"; research notes §3.2.
    static let maintenanceSucceeded: Set<String> = ["04", "06", "08"]
    /// A maintenance operation that failed: status 05 (capture), 07 (refund) or 09 (void).
    static let maintenanceFailed: Set<String> = ["05", "07", "09"]

    /// How a verified answer or feedback stands (research notes §2.5, §2.7, §3.2, §3.4).
    package enum Standing: String, Sendable {
        /// Approved (``isApproved``), or a capture, refund or void that succeeded (04, 06, 08) or
        /// that APS accepted and completes later (19, 20, 40 of a maintenance answer).
        case succeeded
        /// A payment processed but not decided (``isPending``: 19, 20 on hold for 3-D Secure,
        /// 40 in review; issue #34).
        case pending
        /// Declined (``isDeclined``), or a capture, refund or void that failed (05, 07, 09).
        case refused
        /// Refused before processing: status 00 with any message but 006, 051 and 071.
        case notProcessed
        /// Anything else (status 15 "uncertain", 10, messages 006, 051, 071, an undocumented
        /// status): settle it with CHECK_STATUS.
        case unknown
    }

    /// How this transaction stands.
    package var standing: Standing {
        if isPending && !isMaintenance { return .pending }
        if isApproved || isPending || Self.maintenanceSucceeded.contains(responseCode.status) { return .succeeded }
        if isDeclined || Self.maintenanceFailed.contains(responseCode.status) { return .refused }
        if responseCode.status == "00" && !["006", "051", "071"].contains(responseCode.message) { return .notProcessed }
        return .unknown
    }

    /// Code, reference and order id.
    public var description: String {
        "APSTransaction(response_code: \(responseCode), merchant_reference: \(merchantReference ?? "-"), fort_id: \(fortID ?? "-"))"
    }
}

/// A server-to-server PURCHASE or AUTHORIZATION with a stored card (`token_name`, the "trusted
/// channel"; research notes §2.3).
public struct APSPaymentRequest: Sendable, CustomStringConvertible {
    /// `command`.
    public struct Command: Hashable, Sendable, CustomStringConvertible {
        /// The value sent.
        public let name: String
        private init(_ name: String) { self.name = name }
        /// Authorise and capture.
        public static let purchase = Command("PURCHASE")
        /// Authorise only.
        public static let authorization = Command("AUTHORIZATION")
        /// The value sent.
        public var description: String { name }
    }

    /// The parameters, without `access_code`, `merchant_identifier` and `signature`.
    let parameters: [(String, JSONValue)]
    /// Whether it is an Apple Pay request, signed with the Apple Pay credential set.
    let isApplePay: Bool
    /// `merchant_reference`: unique per merchant, the key of the payment.
    public let merchantReference: String
    /// The recurring agreement this payment sets up (a payer payment) or charges (a
    /// merchant-initiated one), if any.
    public internal(set) var agreement: APSAgreement?
    /// The kind of a merchant-initiated payment (`eci` `RECURRING`), or `nil` for a payment the
    /// payer makes.
    public internal(set) var merchantInitiated: APSMerchantInitiated?
    /// Whether the payment saves the card (`remember_me` `YES`).
    public var savesCard: Bool { parameters.contains { $0.0 == "remember_me" } }
    /// Whether this payer payment sets up the recurring ``agreement``.
    public var setsUpAgreement: Bool { agreement != nil && merchantInitiated == nil }

    /// Checks and creates a request.
    /// - Parameters:
    ///   - amount: Minor units of `currency` (APS wants the ISO 4217 exponent: 500 AED is 50000).
    ///   - tokenName: The stored card (`token_name`, at most 100 of letters, digits, `.@-_`).
    ///   - customerIP: The payer's IPv4 or IPv6 address, when known.
    ///   - returnURL: Where APS sends the payer's browser back after a 3-D Secure challenge
    ///     (`return_url`, at most 400 characters, `http` or `https`; research notes, lifecycle
    ///     §3.1): a card enrolled in 3-D Secure is refused without it (message 037).
    ///   - rememberMe: Save the card (`remember_me` `YES`): the verified answer of a successful
    ///     payment carries the card's permanent ``APSTransaction/tokenName`` (seed 001).
    ///   - agreement: Set up a recurring agreement with this payer payment (`agreement_id` and
    ///     the `recurring_*` parameters, seed 000); later payments charge it with
    ///     ``merchantInitiated(_:merchantReference:amount:currency:customerEmail:tokenName:agreement:language:)``.
    /// - Throws: ``CSEError/Code/serverAPIInvalidArgument`` naming the parameter: a reference that
    ///   is not 1–40 of `[A-Za-z0-9-_.]`, an amount outside 0…9,999,999,999, a currency without
    ///   minor units, a language other than `en`/`ar`, an e-mail address that is not 3–254
    ///   characters with one `@`, a token, IP address or return URL of the wrong shape.
    public init(
        _ command: Command, merchantReference: String, amount: Int64, currency: Currency, customerEmail: String, tokenName: String,
        customerIP: String? = nil, language: String = "en", returnURL: String? = nil, rememberMe: Bool = false,
        agreement: APSAgreement? = nil
    ) throws(CSEError) {
        func refuse(_ parameter: String, _ reason: String) -> CSEError {
            CSEError(.serverAPIInvalidArgument, reason, context: ["argument": parameter])
        }
        func only(_ text: String, _ extra: String) -> Bool { Self.only(text, extra) }
        guard (1...100).contains(tokenName.utf8.count), only(tokenName, ".@-_") else {
            throw refuse("token_name", "the token name is 1 to 100 letters, digits, '.', '@', '-' or '_'")
        }
        var payment: [(String, JSONValue)] = [("token_name", .string(tokenName)), ("eci", .string("ECOMMERCE"))]
        if let returnURL {
            try Self.checkReturnURL(returnURL)
            payment.append(("return_url", .string(returnURL)))
        }
        if rememberMe { payment.append(("remember_me", .string("YES"))) }
        if let agreement { payment += agreement.parameters(mode: agreement.mode) }
        try self.init(
            command, merchantReference: merchantReference, amount: amount, currency: currency, customerEmail: customerEmail,
            customerIP: customerIP, language: language, payment: payment, isApplePay: false)
        self.agreement = agreement
    }

    /// The order of the three `apple_header` members, which APS signs as written (`{k=v, k=v, k=v}`)
    /// and on which the sources disagree (research notes §2.2). The JSON body is sent in the same
    /// order it is signed, so APS, which most likely signs the members as received, agrees with
    /// any of them; the default follows the newest official SDK.
    public enum ApplePayHeaderOrder: Sendable, CaseIterable {
        /// `apple_ephemeralPublicKey`, `apple_publicKeyHash`, `apple_transactionId`: the APS .NET
        /// SDK (2025-11), the newest official source. The default.
        case dotNetSDK
        /// `apple_transactionId`, `apple_publicKeyHash`, `apple_ephemeralPublicKey`: the APS PHP SDK.
        case phpSDK
        /// `apple_transactionId`, `apple_ephemeralPublicKey`, `apple_publicKeyHash`: two
        /// independent integrations, and the research notes' derived vector.
        case integrations
    }

    /// An Apple Pay PURCHASE or AUTHORIZATION that APS decrypts (`digital_wallet` `APPLE_PAY`,
    /// research notes §2.4): `apple_data` and `apple_signature` from `paymentData`, `apple_header`
    /// with exactly `apple_transactionId`, `apple_ephemeralPublicKey` and `apple_publicKeyHash` (in
    /// `headerOrder`), and `apple_paymentMethod` with `apple_displayName`, `apple_network` and
    /// `apple_type` (the order of every source), sent and signed in that order.
    /// It is signed with the Apple Pay credential set (``APSPaymentClient/init(credentials:applePayCredentials:environment:configuration:transport:)``).
    /// - Parameters:
    ///   - token: UTF-8 JSON text of a `PKPaymentToken`
    ///     (`{"paymentData","paymentMethod","transactionIdentifier"}`), or of `{"token":{…}}` as
    ///     Apple Pay JS delivers it.
    ///   - customerIP: The payer's IP address (required for Apple Pay).
    ///   - headerOrder: The order of the `apple_header` members (``ApplePayHeaderOrder/dotNetSDK`` by default).
    /// - Throws: ``CSEError/Code/serverAPIInvalidArgument`` for the rules of the card request, a
    ///   token that is not `EC_v1` (APS has no field for `RSA_v1`) or lacks one of the members; a
    ///   `json.*` error for a token that is not a JSON object.
    public init(
        applePay command: Command, merchantReference: String, amount: Int64, currency: Currency, customerEmail: String,
        customerIP: String, token: some Collection<UInt8>, language: String = "en", headerOrder: ApplePayHeaderOrder = .dotNetSDK
    ) throws(CSEError) {
        try self.init(
            applePay: command, merchantReference: merchantReference, amount: amount, currency: currency,
            customerEmail: customerEmail, customerIP: customerIP, token: try JSONObject.parse(token, what: "the Apple Pay token"),
            language: language, headerOrder: headerOrder)
    }

    /// The Apple Pay request of a parsed token (see the public initializer).
    package init(
        applePay command: Command, merchantReference: String, amount: Int64, currency: Currency, customerEmail: String,
        customerIP: String, token: JSONObject, language: String = "en", headerOrder: ApplePayHeaderOrder = .dotNetSDK
    ) throws(CSEError) {
        func missing(_ member: String) -> CSEError {
            CSEError(.serverAPIInvalidArgument, "the Apple Pay token lacks a member", context: ["argument": member])
        }
        let whole = token["token"]?.objectValue ?? token
        guard let data = whole["paymentData"]?.objectValue else { throw missing("paymentData") }
        guard data["version"]?.stringValue == "EC_v1" else {
            throw CSEError(.serverAPIInvalidArgument, "APS takes EC_v1 Apple Pay tokens only", context: ["argument": "paymentData.version"])
        }
        func text(_ object: JSONObject?, _ name: String, _ path: String) throws(CSEError) -> JSONValue {
            guard let value = object?[name]?.stringValue, !value.isEmpty, value.utf8.count <= 16 * 1024 else { throw missing(path) }
            return .string(value)
        }
        let header = data["header"]?.objectValue
        let method = whole["paymentMethod"]?.objectValue
        let transactionID = ("apple_transactionId", try text(header, "transactionId", "paymentData.header.transactionId"))
        let ephemeralKey = ("apple_ephemeralPublicKey", try text(header, "ephemeralPublicKey", "paymentData.header.ephemeralPublicKey"))
        let keyHash = ("apple_publicKeyHash", try text(header, "publicKeyHash", "paymentData.header.publicKeyHash"))
        let headerMembers: [(String, JSONValue)] =
            switch headerOrder {
            case .dotNetSDK: [ephemeralKey, keyHash, transactionID]
            case .phpSDK: [transactionID, keyHash, ephemeralKey]
            case .integrations: [transactionID, ephemeralKey, keyHash]
            }
        let apple: [(String, JSONValue)] = [
            ("digital_wallet", .string("APPLE_PAY")),
            ("apple_data", try text(data, "data", "paymentData.data")),
            ("apple_signature", try text(data, "signature", "paymentData.signature")),
            (
                "apple_header",
                .object(JSONObject(headerMembers))
            ),
            (
                "apple_paymentMethod",
                .object(
                    JSONObject([
                        ("apple_displayName", try text(method, "displayName", "paymentMethod.displayName")),
                        ("apple_network", try text(method, "network", "paymentMethod.network")),
                        ("apple_type", try text(method, "type", "paymentMethod.type")),
                    ]))
            ),
        ]
        try self.init(
            command, merchantReference: merchantReference, amount: amount, currency: currency, customerEmail: customerEmail,
            customerIP: customerIP, language: language, payment: apple, isApplePay: true)
    }

    init(
        _ command: Command, merchantReference: String, amount: Int64, currency: Currency, customerEmail: String, customerIP: String?,
        language: String, payment: [(String, JSONValue)], isApplePay: Bool
    ) throws(CSEError) {
        func refuse(_ parameter: String, _ reason: String) -> CSEError {
            CSEError(.serverAPIInvalidArgument, reason, context: ["argument": parameter])
        }
        func only(_ text: String, _ extra: String) -> Bool { Self.only(text, extra) }
        try Self.checkReference(merchantReference)
        guard (0...9_999_999_999).contains(amount) else { throw refuse("amount", "the amount is minor units, at most 10 digits") }
        guard currency.minorUnits != nil else { throw refuse("currency", "the currency has no minor unit in ISO 4217") }
        guard ["en", "ar"].contains(language) else { throw refuse("language", "the language is en or ar") }
        guard (3...254).contains(customerEmail.utf8.count), customerEmail.filter({ $0 == "@" }).count == 1,
            only(customerEmail, "_-.@+")
        else { throw refuse("customer_email", "the customer e-mail is 3 to 254 characters with one '@'") }
        var parameters: [(String, JSONValue)] = [
            ("command", .string(command.name)), ("merchant_reference", .string(merchantReference)), ("amount", .string(String(amount))),
            ("currency", .string(currency.code)), ("language", .string(language)), ("customer_email", .string(customerEmail)),
        ]
        parameters += payment
        if let customerIP {
            guard (2...45).contains(customerIP.utf8.count), customerIP.allSatisfy({ $0.isHexDigit || $0 == "." || $0 == ":" }) else {
                throw refuse("customer_ip", "the customer IP is an IPv4 or IPv6 address")
            }
            parameters.append(("customer_ip", .string(customerIP)))
        }
        self.parameters = parameters
        self.merchantReference = merchantReference
        self.isApplePay = isApplePay
    }

    /// `merchant_reference`: 1–40 of `[A-Za-z0-9-_.]` (research notes §2.3), for payments and CHECK_STATUS.
    package static func checkReference(_ reference: String) throws(CSEError) {
        guard (1...40).contains(reference.utf8.count), reference.utf8.allSatisfy({ ServerIdentifier.isIdentifierByte($0) }) else {
            throw CSEError(
                .serverAPIInvalidArgument, "the merchant reference is 1 to 40 letters, digits, '-', '_' or '.'",
                context: ["argument": "merchant_reference"])
        }
    }

    /// `return_url`: 1–400 characters (research notes, lifecycle §3.1), an absolute `http` or
    /// `https` URL without spaces or control characters.
    static func checkReturnURL(_ url: String) throws(CSEError) {
        let lower = url.lowercased()
        guard (1...400).contains(url.utf8.count), lower.hasPrefix("https://") || lower.hasPrefix("http://"),
            url.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F })
        else {
            throw CSEError(
                .serverAPIInvalidArgument, "the return URL is an http or https URL of at most 400 characters",
                context: ["argument": "return_url"])
        }
    }

    /// Whether `text` holds only ASCII letters, digits and the characters of `extra`.
    static func only(_ text: String, _ extra: String) -> Bool {
        text.unicodeScalars.allSatisfy {
            ($0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0))) || extra.unicodeScalars.contains($0)
        }
    }

    /// Command, reference and amount; never the token.
    public var description: String {
        func value(_ name: String) -> String { parameters.first { $0.0 == name }.flatMap { $0.1.scalarText } ?? "-" }
        return
            "APSPaymentRequest(\(value("command")) merchant_reference: \(merchantReference), amount: \(value("amount")) \(value("currency"))\(isApplePay ? ", Apple Pay" : ""))"
    }
}

/// The Amazon Payment Services server-to-server payment calls on `FortAPI/paymentApi`: PURCHASE or
/// AUTHORIZATION with a stored card, and CHECK_STATUS, the reconciliation query; and the
/// verification of the transaction feedback APS posts to the merchant (``verifyFeedback(_:format:credentials:merchantReference:)``).
///
/// Every request is signed with the SHA request phrase; every answer and feedback is verified
/// with the SHA response phrase before any of its fields is read (research notes §2.2).
public struct APSPaymentClient: Sendable {
    let connection: APSConnection
    let applePayConnection: APSConnection?

    /// The credentials.
    public var credentials: APSCredentials { connection.credentials }
    /// Where the calls go.
    public let environment: ServerEnvironment

    /// Creates a client.
    /// - Parameters:
    ///   - credentials: The account.
    ///   - applePayCredentials: The account's second credential set for Apple Pay (its own access
    ///     code and SHA phrases; the merchant identifier is shared), which signs Apple Pay
    ///     requests and verifies their answers (research notes §2.2).
    ///   - environment: ``ServerEnvironment/apsTest``, ``ServerEnvironment/apsProduction`` or a
    ///     test server; `/FortAPI/paymentApi` is appended.
    ///   - configuration: Deadlines, retries, size limit and TLS trust.
    ///   - transport: A transport of your own (tests, a proxy); libcurl when `nil`.
    /// - Throws: ``CSEError/Code/httpInvalidConfiguration`` for a configuration out of range.
    public init(
        credentials: APSCredentials, applePayCredentials: APSCredentials? = nil, environment: ServerEnvironment,
        configuration: HTTPClientConfiguration = HTTPClientConfiguration(), transport: (any HTTPTransport)? = nil
    ) throws(CSEError) {
        try self.init(
            credentials: credentials, applePayCredentials: applePayCredentials, environment: environment,
            http: HTTPClient(configuration: configuration, transport: transport))
    }

    /// Creates a client over an existing `HTTPClient`.
    package init(
        credentials: APSCredentials, applePayCredentials: APSCredentials? = nil, environment: ServerEnvironment, http: HTTPClient
    ) throws(CSEError) {
        let url = try APSConnection.url(environment)
        self.environment = environment
        connection = APSConnection(credentials: credentials, url: url, http: http)
        applePayConnection = applePayCredentials.map { APSConnection(credentials: $0, url: url, http: http) }
    }

    /// Sends a PURCHASE or AUTHORIZATION.
    ///
    /// The outcome, from the verified `response_code` (research notes §2.5, §2.7):
    /// - ``PaymentOutcome/succeeded(_:_:)``: 14 or 02 (approved);
    /// - ``PaymentOutcome/pending(_:_:_:)`` (issue #34): 20 on hold for 3-D Secure, with the action
    ///   `redirect` to ``APSTransaction/threeDSURL`` (GET); 19 (pending) or 40 (in review), without
    ///   an action: APS decides later. After the challenge APS sends the payer to `return_url`
    ///   (``verifyFeedback(_:format:credentials:merchantReference:)`` verifies it); settle the
    ///   order with the feedback or ``checkStatus(merchantReference:)``;
    /// - ``PaymentOutcome/refused(_:_:)``: 13 or 03 (`aps.transactionDeclined`);
    /// - ``PaymentOutcome/unknown(_:_:)``: no answer, an HTTP error status, an answer whose
    ///   signature does not verify, status 15 (uncertain) or 10, messages 006, 051 or 071. Settle
    ///   it with ``checkStatus(merchantReference:)``; **never** send the PURCHASE again.
    ///
    /// A reference APS has seen before (message 066, 007 or 047) proves that an earlier request
    /// reached APS: its order is looked up with CHECK_STATUS and that order's outcome returned, or
    /// unknown if the lookup does not settle it; never a refusal.
    /// - Throws: When nothing was processed: an Apple Pay request without Apple Pay credentials
    ///   (``CSEError/Code/serverAPICredentials``), a transport error before sending, or status 00
    ///   with another message (`aps.message.NNN`, for example `aps.message.008` for a refused signature).
    public func pay(_ request: APSPaymentRequest) async throws(CSEError) -> PaymentOutcome<APSTransaction> {
        try await journaled(connection.http, request.journalIntent, ids: \.journalIDs) { () async throws(CSEError) in
            try await payOnce(request)
        }
    }

    /// ``pay(_:)`` itself, without the journal.
    private func payOnce(_ request: APSPaymentRequest) async throws(CSEError) -> PaymentOutcome<APSTransaction> {
        let keys = PaymentReconciliation(merchantReference: request.merchantReference)
        var sender = connection
        if request.isApplePay {
            guard let applePayConnection else {
                throw CSEError(
                    .serverAPICredentials, "an Apple Pay request needs the Apple Pay credential set", context: ["member": "applePay"])
            }
            sender = applePayConnection
        }
        let verified: JSONObject
        do {
            verified = try await sender.call(request.parameters)
        } catch {
            if error.code != .apsResponseSignature && error.provesRequestNotSent { throw error }
            return .unknown(keys, outcomeUnknownError("no verified answer was read; the payment may have been taken", keys, cause: error))
        }
        let transaction: APSTransaction
        do {
            transaction = try APSTransaction(verified: verified)
        } catch {
            return .unknown(keys, outcomeUnknownError("the signed answer has no readable response code", keys, cause: error))
        }
        let code = transaction.responseCode
        if ["066", "007", "047"].contains(code.message) {
            let settled = try? await checkStatus(merchantReference: request.merchantReference)
            // A duplicate is the same payment: an approved order under this reference with another
            // authorized amount (CHECK_STATUS names no currency) is another order's.
            let sentAmount = request.parameters.first { $0.0 == "amount" }?.1.scalarText
            if let settled, settled.isApproved, let authorized = settled.parameters["authorized_amount"]?.scalarText, authorized != "0",
                authorized != sentAmount
            {
                throw referenceInUse(request.merchantReference, platform: "aps")
            }
            if let settled, settled.responseCode.status != "00" {
                return Self.outcome(of: settled, keys: keys) ?? .unknown(keys, unknownError(settled, keys))
            }
            return .unknown(
                keys, outcomeUnknownError("the merchant reference was used before; its order is not settled", keys, cause: error(code)))
        }
        if let outcome = Self.outcome(of: transaction, keys: keys) { return outcome }
        if transaction.standing == .notProcessed { throw code.message == "044" ? Self.tokenRefused(code, own: error(code)) : error(code) }
        return .unknown(keys, unknownError(transaction, keys))
    }

    /// The outcome of a payment's transaction (approved, pending or declined), or `nil` when it
    /// is not settled.
    package static func outcome(of transaction: APSTransaction, keys: PaymentReconciliation) -> PaymentOutcome<APSTransaction>? {
        if transaction.isApproved { return .succeeded(transaction, keys) }
        if transaction.isPending { return .pending(transaction, transaction.action, keys) }
        guard transaction.isDeclined else { return nil }
        var context = ["response_code": transaction.responseCode.description]
        if let fortID = transaction.fortID { context["fort_id"] = fortID }
        for (name, value) in keys.members { context[name] = value }
        return .refused(transaction, CSEError(.apsTransactionDeclined, "APS declined the transaction", context: context))
    }

    /// The outcome of the order CHECK_STATUS reports (``checkStatus(merchantReference:)``), as its
    /// last operation stands (issue #34: a read of a payment's state exits by it): approved, or a
    /// capture, refund or void done → `succeeded`; 19, 20 (with the `3ds_url` action), 40 →
    /// `pending`; declined → `refused` (`aps.transactionDeclined`), a failed capture, refund or
    /// void → `refused` as ``perform(_:)`` names it; an order APS does not know (11036) →
    /// `refused`, ``CSEError/Code/serverUnknownPayment`` (nothing was processed); anything else →
    /// `unknown`.
    package func statusOutcome(of order: APSTransaction, merchantReference: String) -> PaymentOutcome<APSTransaction> {
        let keys = PaymentReconciliation(merchantReference: merchantReference, paymentID: order.fortID)
        if order.responseCode.status == "11" {
            return .refused(
                order,
                CSEError(
                    .serverUnknownPayment, "APS does not know the order: the payment was not processed",
                    context: ["platform": "aps", "response_code": order.responseCode.description, "merchantReference": merchantReference]))
        }
        if let outcome = Self.outcome(of: order, keys: keys) { return outcome }
        switch order.standing {
        case .succeeded, .pending: return .succeeded(order, keys)
        case .refused, .notProcessed: return .refused(order, refusal(order.responseCode, keys))
        case .unknown: return .unknown(keys, unknownError(order, keys))
        }
    }

    private func unknownError(_ transaction: APSTransaction, _ keys: PaymentReconciliation) -> CSEError {
        outcomeUnknownError("APS does not know the outcome yet", keys, cause: error(transaction.responseCode))
    }

    func error(_ code: APSResponseCode) -> CSEError {
        let context = ["response_code": code.description]
        guard let description = code.messageDescription else {
            return CSEError(.apsUndocumentedMessage, "APS answered an undocumented message code", context: context)
        }
        return CSEError(.apsMessage(code.message), "APS: \(description)", context: context)
    }

    /// CHECK_STATUS: the order with a merchant reference, as APS knows it (research notes §2.5).
    /// - Returns: The order's last operation as a transaction (its `transaction_code` as the
    ///   response code), or, when APS does not know the order (status 11, message 036), a
    ///   transaction whose response code is that `11036`: the payment was not processed.
    /// - Throws: ``CSEError/Code/serverAPIInvalidArgument`` for a malformed reference;
    ///   ``CSEError/Code/apsResponseSignature``; `aps.message.NNN` when the query itself is refused.
    public func checkStatus(merchantReference: String) async throws(CSEError) -> APSTransaction {
        try APSPaymentRequest.checkReference(merchantReference)
        let verified = try await connection.call([
            ("query_command", .string("CHECK_STATUS")), ("merchant_reference", .string(merchantReference)), ("language", .string("en")),
        ])
        let query = try APSTransaction(verified: verified)
        guard query.responseCode.status == "12", verified["transaction_code"] != nil else {
            if query.responseCode.status == "11" { return query }
            throw error(query.responseCode)
        }
        return try APSTransaction(verified: verified, codeMember: "transaction_code")
    }

    /// The body format of a transaction feedback.
    public enum FeedbackFormat: Sendable {
        /// `application/x-www-form-urlencoded`, APS's default.
        case form
        /// A JSON object of string values (on request to APS).
        case json
        /// The query string of the URL APS sends the payer's browser to after a 3-D Secure
        /// challenge (research notes, lifecycle §3.1): the whole URL, or what follows its `?`.
        case query
        /// Decided by the first non-space bytes: `{` is JSON, `http://`, `https://` or `?` a
        /// query, anything else a form.
        case automatic
    }

    /// Verifies a transaction feedback (direct or notification) as APS posts it, or the parameters
    /// APS sends to `return_url` after a 3-D Secure challenge: the signature over every received
    /// non-empty parameter except `signature`, as decoded, with the SHA response phrase, compared
    /// in constant time, before any field is read (research notes §2.6; lifecycle §3.1, §3.4 and
    /// vectors V-APS-6, V-APS-12: empty values are not signed).
    ///
    /// The browser's return is display data: settle the order with the server-to-server
    /// feedback or ``checkStatus(merchantReference:)``, never with the return alone.
    /// - Returns: The transaction it reports.
    /// - Parameters:
    ///   - body: The body as posted.
    ///   - format: Form, JSON, or decided from the body.
    ///   - credentials: The account whose SHA response phrase signs its feedback.
    ///   - merchantReference: The order the caller expects (stored before the payer was sent
    ///     away): verified parameters of another order are refused.
    /// - Throws: ``CSEError/Code/apsFeedbackOtherOrder`` for another order's parameters;
    ///   ``CSEError/Code/serverAPINotificationTooLarge`` for a body over
    ///   ``NotificationLimits/maximumBodyByteCount``; ``CSEError/Code/apsFeedbackMalformed`` for a
    ///   body that is neither form nor a JSON object of scalar values;
    ///   ``CSEError/Code/apsFeedbackSignature`` when the signature is missing or wrong.
    public static func verifyFeedback(
        _ body: [UInt8], format: FeedbackFormat = .automatic, credentials: APSCredentials, merchantReference: String? = nil
    ) throws(CSEError) -> APSTransaction {
        try NotificationLimits.check(body)
        let parameters = try APSFeedback.parameters(body, format: format)
        guard let signature = parameters["signature"]?.stringValue,
            try APSSignature.isValid(signature, for: parameters, phrase: credentials.responsePhrase, algorithm: credentials.algorithm)
        else {
            throw CSEError(.apsFeedbackSignature, "the feedback signature is missing or does not match the SHA response phrase")
        }
        let transaction: APSTransaction
        do throws(CSEError) { transaction = try APSTransaction(verified: parameters) } catch {
            throw CSEError(.apsFeedbackMalformed, "the signed feedback has no valid response_code")
        }
        if let merchantReference, transaction.merchantReference.map({ !$0.isByteEqual(to: merchantReference) }) ?? true {
            throw CSEError(
                .apsFeedbackOtherOrder, "the signed parameters are another order's (a replayed return or feedback)",
                context: ["merchantReference": SafeText.identifier(merchantReference)])
        }
        return transaction
    }
}

/// The transport of the APS payment calls: signs the request, posts it, verifies the answer.
struct APSConnection: Sendable {
    let credentials: APSCredentials
    let url: HTTPURL
    let http: HTTPClient

    /// `{origin}/FortAPI/paymentApi`, the one URL of the SDK token and payment calls.
    static func url(_ environment: ServerEnvironment) throws(CSEError) -> HTTPURL {
        try environment.origin.appending(pathSegments: ["FortAPI", "paymentApi"])
    }

    /// `parameters` after `access_code` and `merchant_identifier`, with the `signature` over all
    /// of them (nested objects signed as `{k=v, k=v}` in the order given, §2.2).
    func signed(_ parameters: [(String, JSONValue)]) throws(CSEError) -> JSONObject {
        var request = JSONObject(
            [("access_code", .string(credentials.accessCode)), ("merchant_identifier", .string(credentials.merchantIdentifier))]
                + parameters)
        request["signature"] = .string(try APSSignature.sign(request, phrase: credentials.requestPhrase, algorithm: credentials.algorithm))
        return request
    }

    /// Posts `parameters` with `access_code`, `merchant_identifier` and the signature, and
    /// returns the answer once its signature is verified with the response phrase.
    /// - Throws: A transport error; ``CSEError/Code/serverAPIUnexpectedStatus`` for an HTTP error
    ///   status; ``CSEError/Code/apsResponseSignature`` for an answer whose signature does not verify.
    func call(_ parameters: [(String, JSONValue)]) async throws(CSEError) -> JSONObject {
        let request = try signed(parameters)
        return try verified(try await ServerRequest.send(http, .post, url: url, body: .object(request)))
    }

    /// The answer of `response` once its signature is verified with the response phrase.
    /// - Throws: ``CSEError/Code/serverAPIUnexpectedStatus`` for an HTTP error status;
    ///   ``CSEError/Code/serverAPIInvalidResponse`` for a body that is not a JSON object;
    ///   ``CSEError/Code/apsResponseSignature`` for an answer whose signature does not verify.
    func verified(_ response: HTTPResponse) throws(CSEError) -> JSONObject {
        guard response.isSuccess else { throw ServerResponse.statusError(response, platform: "aps") }
        let object = try ServerResponse.object(response, platform: "aps")
        guard let signature = object["signature"]?.stringValue,
            try APSSignature.isValid(signature, for: object, phrase: credentials.responsePhrase, algorithm: credentials.algorithm)
        else {
            throw CSEError(.apsResponseSignature, "the response signature is missing or does not match the SHA response phrase")
        }
        return object
    }
}

/// The parameters of a transaction feedback body.
enum APSFeedback {
    static func parameters(_ body: [UInt8], format: APSPaymentClient.FeedbackFormat) throws(CSEError) -> JSONObject {
        let start = body.firstIndex { ![0x20, 0x09, 0x0A, 0x0D].contains($0) } ?? body.endIndex
        let text = body[start...]
        func starts(_ prefix: String) -> Bool {
            text.count >= prefix.utf8.count && zip(text, prefix.utf8).allSatisfy { $0 | 0x20 == $1 | 0x20 }
        }
        let isQuery = format == .query || (format == .automatic && (starts("http://") || starts("https://") || starts("?")))
        if format == .json || (format == .automatic && starts("{")) {
            guard case .object(let object)? = try? JSONValue.parse(body),
                object.allSatisfy({ $0.1.scalarText != nil })
            else {
                throw CSEError(.apsFeedbackMalformed, "the feedback is not a JSON object of scalar values")
            }
            // Empty values are not signed (V-APS-6).
            return JSONObject(object.filter { $0.1.scalarText != "" })
        }
        var body = Array(text)
        if isQuery {
            // The URL's query: what follows the first '?', up to a '#'; trailing line ends go.
            while let last = body.last, [0x20, 0x09, 0x0A, 0x0D].contains(last) { body.removeLast() }
            if let question = body.firstIndex(of: UInt8(ascii: "?")) {
                body = Array(body[(question + 1)...])
            } else if format == .query, starts("http://") || starts("https://") {
                throw CSEError(.apsFeedbackMalformed, "the return URL has no query")
            }
            if let hash = body.firstIndex(of: UInt8(ascii: "#")) { body = Array(body[..<hash]) }
        } else {
            // One final line break of a form goes (docs/CLI.md, "Notification verifiers").
            if body.last == 0x0A { body.removeLast() }
            if body.last == 0x0D { body.removeLast() }
        }
        // application/x-www-form-urlencoded (WHATWG URL §5.1): '&'-separated name=value, '+' is a
        // space, %XX escapes; the values are signed as decoded.
        var members: [(String, JSONValue)] = []
        for pair in body.split(separator: UInt8(ascii: "&"), omittingEmptySubsequences: true) {
            let parts = pair.split(separator: UInt8(ascii: "="), maxSplits: 1, omittingEmptySubsequences: false)
            guard let name = decode(parts[0]), let value = decode(parts.count > 1 ? parts[1] : []), !name.isEmpty else {
                throw CSEError(.apsFeedbackMalformed, "the feedback is not form-encoded parameters")
            }
            // Empty values are not signed (V-APS-6).
            if !value.isEmpty { members.append((name, .string(value))) }
        }
        guard !members.isEmpty else { throw CSEError(.apsFeedbackMalformed, "the feedback is empty") }
        return JSONObject(members)
    }

    private static func decode(_ bytes: ArraySlice<UInt8>) -> String? {
        var out: [UInt8] = []
        var i = bytes.startIndex
        while i < bytes.endIndex {
            let b = bytes[i]
            if b == UInt8(ascii: "+") {
                out.append(0x20)
            } else if b == UInt8(ascii: "%") {
                guard i + 2 < bytes.endIndex, let byte = Base16.decode(String(decoding: bytes[(i + 1)...(i + 2)], as: UTF8.self))?.first
                else { return nil }
                out.append(byte)
                i += 2
            } else {
                out.append(b)
            }
            i += 1
        }
        return String(validating: out, as: UTF8.self)
    }
}

extension APSPaymentRequest {
    /// What the journal records before the request leaves: the command, amount, currency and
    /// merchant reference (never the card, token or customer data of the parameters).
    var journalIntent: JournalIntent {
        func parameter(_ name: String) -> String? { parameters.first { $0.0 == name }?.1.scalarText }
        return JournalIntent(
            platform: "aps", operation: (parameter("command") ?? "PURCHASE").lowercased(),
            amount: parameter("amount").flatMap { Int64($0) },
            currency: parameter("currency"), merchantReference: merchantReference)
    }
}

extension APSTransaction {
    /// The ids a journal keeps of an answer: `fort_id`.
    var journalIDs: [String: String] { fortID.map { ["fortId": $0] } ?? [:] }
}
