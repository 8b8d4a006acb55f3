public import CSECore
public import CSEPayments
public import CSEWallets
import CSEValidation

extension WorldlinePaymentRequest {
    /// The payment request the Worldline client examples seal for a raw wallet token (research
    /// notes §1.5, route 1), to encrypt like a card (`PaymentRequestSealer`, or
    /// `ClientAPISession.encrypt(_:)` with the session's key) and send as `encryptedCustomerInput`:
    /// - Apple Pay (302): `encryptedPaymentData` = `PKPaymentToken.paymentData` as JSON text and
    ///   `transactionId` = `transactionIdentifier` (OnlinePaymentsExample, iOS);
    /// - Google Pay (320): `encryptedPaymentData` = `tokenizationData.token` JSON-quoted once more
    ///   ("Token needs to be formatted", the Android example).
    /// - Parameters:
    ///   - token: UTF-8 JSON text of, for Apple, a `PKPaymentToken` (or `{"token":{…}}`); for
    ///     Google, a whole `PaymentData`, or the token object itself.
    ///   - wallet: The wallet the token came from (its product: Apple Pay 302, Google Pay 320).
    /// - Throws: a `json.*` error for text that is not a JSON object;
    ///   ``CSEError/Code/serverAPIInvalidArgument`` naming the missing member.
    public static func paymentRequest(sealing token: some Collection<UInt8>, from wallet: Wallet) throws(CSEError) -> PaymentRequest {
        try paymentRequest(sealing: try JSONObject.parse(token, what: "the wallet token"), from: wallet)
    }

    /// ``paymentRequest(sealing:from:)-(some Collection<UInt8>,_)`` of a parsed token.
    package static func paymentRequest(sealing token: JSONObject, from wallet: Wallet) throws(CSEError) -> PaymentRequest {
        func missing(_ member: String) -> CSEError {
            CSEError(.serverAPIInvalidArgument, "the wallet token lacks a member", context: ["argument": member])
        }
        var values: [(String, String)] = []
        switch wallet {
        case .applePay:
            let whole = token["token"]?.objectValue ?? token
            guard let data = whole["paymentData"], data.objectValue != nil else { throw missing("paymentData") }
            values.append(("encryptedPaymentData", data.serialized))
            if let id = whole["transactionIdentifier"]?.stringValue { values.append(("transactionId", id)) }
        case .googlePay:
            let text: String
            if let string = token["paymentMethodData"]?["tokenizationData"]?["token"]?.stringValue {
                text = string
            } else {
                guard token["signedMessage"] != nil else { throw missing("tokenizationData.token") }
                text = JSONValue.object(token).serialized
            }
            values.append(("encryptedPaymentData", JSONValue.string(text).serialized))
        }
        let product = try PaymentProduct(json: Self.walletProductJSON(id: wallet.worldlinePaymentProductID, fields: values.map(\.0)))
        var request = PaymentRequest(product: product)
        for (field, value) in values { try request.setValue(value, forField: field) }
        return request
    }

    /// A product definition with the string fields the examples fill (the platform's 302 product
    /// defines none, its 320 product `encryptedPaymentData`).
    private static func walletProductJSON(id: Int, fields: [String]) -> String {
        let definitions = fields.enumerated().map { index, field in
            #"{"id":"\#(field)","type":"string","dataRestrictions":{"isRequired":true,"validators":{"length":{"minLength":1,"maxLength":65536}}},"displayHints":{"alwaysShow":false,"displayOrder":\#(index),"formElement":{"type":"text"},"obfuscate":false}}"#
        }
        return
            #"{"id":\#(id),"paymentMethod":"mobile","allowsRecurring":false,"allowsTokenization":false,"displayHints":{"displayOrder":0,"label":"wallet"},"fields":[\#(definitions.joined(separator: ","))]}"#
    }
}

/// A CreatePayment for a wallet token the merchant decrypted: `mobilePaymentMethodSpecificInput`
/// with the wallet's `paymentProductId` (Apple Pay 302, Google Pay 320) and `decryptedPaymentData`
/// (research notes §1.5, route 3), exactly its five members: `dpan`, `expiryDate` (`MMYY`),
/// `cryptogram`, `eci` and `cardholderName` (Direct has no `pan`, `authMethod` or `paymentMethod`
/// there).
public struct WorldlineWalletPaymentRequest: Sendable, CustomStringConvertible {
    /// The decrypted card, from either decryptor or from `cse wallet decrypt`'s output.
    public let card: WalletCard
    /// The amount in minor units.
    public let amount: Int64
    /// The ISO 4217 currency code.
    public let currencyCode: String
    /// The merchant reference.
    public let merchantReference: String?
    /// Google Pay: where a card without a cryptogram returns after 3-D Secure
    /// (`paymentProduct320SpecificInput.threeDSecure.redirectionData.returnUrl`).
    public let returnURL: String?
    /// How the payment is authorised (`mobilePaymentMethodSpecificInput.authorizationMode`); the
    /// merchant's configured default when `nil`.
    public let authorizationMode: WorldlineAuthorizationMode?
    /// Google Pay: the other 3-D Secure choices, sent in `paymentProduct320SpecificInput.threeDSecure`
    /// beside ``returnURL``.
    public let threeDSecure: WorldlineThreeDSecure?

    /// Checks and creates a request.
    /// - Throws: ``CSEError/Code/serverAPIInvalidArgument``: the amount, currency and reference
    ///   rules of ``WorldlinePaymentRequest``; a cryptogram or cardholder name longer than 200
    ///   characters (`decryptedPaymentData.cryptogram`, `.cardholderName`); a Google Pay request
    ///   without `returnURL` ("required for payments with product 320"), or a return URL that is
    ///   not an absolute `https` (or app `scheme://`) URL of at most 512 characters.
    public init(
        card: WalletCard, amount: Int64, currencyCode: String, merchantReference: String? = nil, returnURL: String? = nil,
        authorizationMode: WorldlineAuthorizationMode? = nil, threeDSecure: WorldlineThreeDSecure? = nil
    ) throws(CSEError) {
        try WorldlinePaymentRequest.checkOrder(amount: amount, currencyCode: currencyCode, merchantReference: merchantReference)
        for (member, value) in [("cryptogram", card.cryptogram), ("cardholderName", card.cardholderName)] {
            if let value, value.utf8.count > 200 {
                throw CSEError(
                    .serverAPIInvalidArgument, "a decryptedPaymentData member is at most 200 characters",
                    context: ["argument": "decryptedPaymentData." + member])
            }
        }
        let needsReturnURL = card.wallet.worldlineNeedsReturnURL
        if needsReturnURL { try Self.checkReturnURL(returnURL) }
        self.card = card
        self.amount = amount
        self.currencyCode = currencyCode
        self.merchantReference = merchantReference
        self.returnURL = needsReturnURL ? returnURL : nil
        self.authorizationMode = authorizationMode
        self.threeDSecure = needsReturnURL ? threeDSecure : nil
    }

    /// Google Pay's 3-D Secure return URL: absolute (`https://…`, or an app's `scheme://…`),
    /// printable ASCII, at most 512 characters ("required for payments with product 320").
    static func checkReturnURL(_ returnURL: String?) throws(CSEError) {
        guard let returnURL, returnURL.utf8.count <= 512, returnURL.contains("://"),
            returnURL.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value < 0x7F })
        else {
            throw CSEError(
                .serverAPIInvalidArgument, "a Google Pay payment needs an absolute return URL for 3-D Secure",
                context: ["argument": "returnUrl"])
        }
    }

    /// `paymentProduct320SpecificInput` with the return URL and the other 3-D Secure choices of
    /// `threeDSecure` (its own return URL, if any, gives way to `returnURL`).
    static func googlePayInput(returnURL: String, threeDSecure: WorldlineThreeDSecure? = nil) -> (String, JSONValue) {
        var members: [(String, JSONValue)] = [("redirectionData", .object(JSONObject([("returnUrl", .string(returnURL))])))]
        for (name, value) in threeDSecure?.json.objectValue ?? JSONObject() where name != "redirectionData" {
            members.append((name, value))
        }
        return ("paymentProduct320SpecificInput", .object(JSONObject([("threeDSecure", .object(JSONObject(members)))])))
    }

    /// `decryptedPaymentData`: `dpan`, `expiryDate` as `MMYY`, and the cryptogram, the ECI as a
    /// number (a token's `"07"` is sent as `7`) and the cardholder name when the card has them.
    var decryptedPaymentData: JSONValue {
        var members: [(String, JSONValue)] = [
            ("dpan", .string(card.accountNumber)), ("expiryDate", .string(card.expiryMonthText + card.expiryYearText)),
        ]
        if let cryptogram = card.cryptogram { members.append(("cryptogram", .string(cryptogram))) }
        if let eci = card.eci { members.append(("eci", .number(String(eci)))) }
        if let cardholderName = card.cardholderName { members.append(("cardholderName", .string(cardholderName))) }
        return .object(JSONObject(members))
    }

    /// The body.
    package var json: JSONValue {
        var input: [(String, JSONValue)] = authorizationMode.map { [("authorizationMode", JSONValue.string($0.rawValue))] } ?? []
        input.append(("paymentProductId", .number(String(card.wallet.worldlinePaymentProductID))))
        input.append(("decryptedPaymentData", decryptedPaymentData))
        if let returnURL { input.append(Self.googlePayInput(returnURL: returnURL, threeDSecure: threeDSecure)) }
        return .object(
            JSONObject([
                ("mobilePaymentMethodSpecificInput", .object(JSONObject(input))),
                ("order", WorldlinePaymentRequest.order(amount: amount, currencyCode: currencyCode, merchantReference: merchantReference)),
            ]))
    }

    /// Product, amount and currency; never the card data.
    public var description: String {
        "WorldlineWalletPaymentRequest(product: \(card.wallet.worldlinePaymentProductID), amount: \(amount), currencyCode: \(currencyCode))"
    }
}
