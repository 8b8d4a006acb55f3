public import CSECore
public import CSEPayments
import CSEValidation

/// Worldline's `decryptedPaymentData`: the card data of a wallet token the merchant decrypted
/// itself, exactly its five members (research notes §1.5; Direct has no `pan`, `authMethod` or
/// `paymentMethod` here).
public struct WorldlineDecryptedPaymentData: Sendable, CustomStringConvertible {
    /// The device PAN (Apple's `applicationPrimaryAccountNumber`, Google's `paymentMethodDetails.pan`).
    public let dpan: String
    /// The expiry as `MMYY`.
    public let expiryDate: String
    /// The online payment cryptogram, when the wallet gave one (never for a Google Pay `PAN_ONLY` card).
    public let cryptogram: String?
    /// The ECI as a number (a token's `"07"` is sent as `7`).
    public let eci: Int?
    /// The cardholder's name, when the wallet gave one.
    public let cardholderName: String?

    /// Checks and creates the data.
    /// - Throws: ``CSEError/Code/serverAPIInvalidArgument`` naming the member: a DPAN that is not
    ///   12–19 digits, an expiry that is not `MMYY` with a month 01–12, an empty cryptogram or name,
    ///   an ECI outside 0–99.
    public init(
        dpan: String, expiryDate: String, cryptogram: String? = nil, eci: Int? = nil, cardholderName: String? = nil
    )
        throws(CSEError)
    {
        func refuse(_ member: String, _ reason: String) -> CSEError {
            CSEError(.serverAPIInvalidArgument, reason, context: ["argument": "decryptedPaymentData." + member])
        }
        guard (12...19).contains(dpan.utf8.count), dpan.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else {
            throw refuse("dpan", "the DPAN is 12 to 19 digits")
        }
        guard expiryDate.utf8.count == 4, expiryDate.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }),
            let month = Int(expiryDate.prefix(2)), (1...12).contains(month)
        else { throw refuse("expiryDate", "the expiry date is MMYY") }
        if let cryptogram, cryptogram.isEmpty || cryptogram.utf8.count > 200 {
            throw refuse("cryptogram", "the cryptogram is 1 to 200 characters")
        }
        if let eci, !(0...99).contains(eci) { throw refuse("eci", "the ECI is 0 to 99") }
        if let cardholderName, cardholderName.isEmpty || cardholderName.utf8.count > 200 {
            throw refuse("cardholderName", "the cardholder name is 1 to 200 characters")
        }
        self.dpan = dpan
        self.expiryDate = expiryDate
        self.cryptogram = cryptogram
        self.eci = eci
        self.cardholderName = cardholderName
    }

    /// Reads the output of `cse wallet decrypt` (see ``DecryptedWalletCard/init(walletDecryption:)``):
    /// the DPAN, the expiry as `MMYY`, the cryptogram, the ECI and the cardholder name.
    /// - Returns: The data and the product of the wallet it came from.
    /// - Parameter output: UTF-8 JSON text of an object.
    /// - Throws: a `json.*` error for text that is not a JSON object;
    ///   ``CSEError/Code/serverAPIInvalidArgument`` naming the member that is missing or malformed.
    public static func fromWalletDecryption(
        _ output: some Collection<UInt8>
    ) throws(CSEError) -> (WorldlinePaymentProduct, WorldlineDecryptedPaymentData) {
        try fromWalletDecryption(try JSONObject.parse(output, what: "the decrypted wallet data"))
    }

    /// ``fromWalletDecryption(_:)`` of a parsed object.
    package static func fromWalletDecryption(
        _ output: JSONObject
    ) throws(CSEError) -> (WorldlinePaymentProduct, WorldlineDecryptedPaymentData) {
        let card = try DecryptedWalletCard(walletDecryption: output)
        let expiry = card.expiryMonthText + card.expiryYearText
        return (
            card.wallet == .applePay ? .applePay : .googlePay,
            try WorldlineDecryptedPaymentData(
                dpan: card.dpan, expiryDate: expiry, cryptogram: card.cryptogram, eci: card.eci, cardholderName: card.cardholderName)
        )
    }

    /// The JSON object sent.
    var json: JSONValue {
        var members: [(String, JSONValue)] = [("dpan", .string(dpan)), ("expiryDate", .string(expiryDate))]
        if let cryptogram { members.append(("cryptogram", .string(cryptogram))) }
        if let eci { members.append(("eci", .number(String(eci)))) }
        if let cardholderName { members.append(("cardholderName", .string(cardholderName))) }
        return .object(JSONObject(members))
    }

    /// The DPAN masked; never the cryptogram or the name.
    public var description: String {
        "WorldlineDecryptedPaymentData(dpan: \(SecretMasking.maskPAN(dpan)), cryptogram: \(cryptogram == nil ? "none" : "<redacted>"), eci: \(eci.map(String.init) ?? "-"))"
    }
}

/// A Worldline mobile payment product.
public struct WorldlinePaymentProduct: Hashable, Sendable, CustomStringConvertible {
    /// The product id.
    public let id: Int
    private init(_ id: Int) { self.id = id }
    /// Apple Pay, 302.
    public static let applePay = WorldlinePaymentProduct(302)
    /// Google Pay, 320.
    public static let googlePay = WorldlinePaymentProduct(320)
    /// The id.
    public var description: String { String(id) }

    /// The payment request the Worldline client examples seal for a raw wallet token (research
    /// notes §1.5, route 1), to encrypt like a card (``PaymentRequestSealer``, or
    /// `ClientAPISession.encrypt(_:)` with the session's key) and send as `encryptedCustomerInput`:
    /// - Apple Pay (302): `encryptedPaymentData` = `PKPaymentToken.paymentData` as JSON text and
    ///   `transactionId` = `transactionIdentifier` (OnlinePaymentsExample, iOS);
    /// - Google Pay (320): `encryptedPaymentData` = `tokenizationData.token` JSON-quoted once more
    ///   ("Token needs to be formatted", the Android example).
    /// - Parameter token: UTF-8 JSON text of, for Apple, a `PKPaymentToken` (or `{"token":{…}}`);
    ///   for Google, a whole `PaymentData`, or the token object itself.
    /// - Throws: a `json.*` error for text that is not a JSON object;
    ///   ``CSEError/Code/serverAPIInvalidArgument`` naming the missing member.
    public func paymentRequest(forWalletToken token: some Collection<UInt8>) throws(CSEError) -> PaymentRequest {
        try paymentRequest(forWalletToken: try JSONObject.parse(token, what: "the wallet token"))
    }

    /// ``paymentRequest(forWalletToken:)`` of a parsed token.
    package func paymentRequest(forWalletToken token: JSONObject) throws(CSEError) -> PaymentRequest {
        func missing(_ member: String) -> CSEError {
            CSEError(.serverAPIInvalidArgument, "the wallet token lacks a member", context: ["argument": member])
        }
        var values: [(String, String)] = []
        if self == .applePay {
            let whole = token["token"]?.objectValue ?? token
            guard let data = whole["paymentData"], data.objectValue != nil else { throw missing("paymentData") }
            values.append(("encryptedPaymentData", data.serialized))
            if let id = whole["transactionIdentifier"]?.stringValue { values.append(("transactionId", id)) }
        } else {
            let text: String
            if let string = token["paymentMethodData"]?["tokenizationData"]?["token"]?.stringValue {
                text = string
            } else {
                guard token["signedMessage"] != nil else { throw missing("tokenizationData.token") }
                text = JSONValue.object(token).serialized
            }
            values.append(("encryptedPaymentData", JSONValue.string(text).serialized))
        }
        let product = try PaymentProduct(json: Self.walletProductJSON(id: id, fields: values.map(\.0)))
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
/// with `paymentProductId` 302 or 320 and `decryptedPaymentData` (research notes §1.5, route 3).
public struct WorldlineWalletPaymentRequest: Sendable, CustomStringConvertible {
    /// Apple Pay (302) or Google Pay (320).
    public let product: WorldlinePaymentProduct
    /// The decrypted card data.
    public let decrypted: WorldlineDecryptedPaymentData
    /// The amount in minor units.
    public let amount: Int64
    /// The ISO 4217 currency code.
    public let currencyCode: String
    /// The merchant reference.
    public let merchantReference: String?
    /// Google Pay: where a card without a cryptogram returns after 3-D Secure
    /// (`paymentProduct320SpecificInput.threeDSecure.redirectionData.returnUrl`).
    public let returnURL: String?

    /// Checks and creates a request.
    /// - Throws: ``CSEError/Code/serverAPIInvalidArgument``: the amount, currency and reference
    ///   rules of ``WorldlinePaymentRequest``; a Google Pay request without `returnURL`
    ///   ("required for payments with product 320"), or a return URL that is not an absolute
    ///   `https` (or app `scheme://`) URL of at most 512 characters.
    public init(
        product: WorldlinePaymentProduct, decrypted: WorldlineDecryptedPaymentData, amount: Int64, currencyCode: String,
        merchantReference: String? = nil, returnURL: String? = nil
    ) throws(CSEError) {
        try WorldlinePaymentRequest.checkOrder(amount: amount, currencyCode: currencyCode, merchantReference: merchantReference)
        if product == .googlePay { try Self.checkReturnURL(returnURL) }
        self.product = product
        self.decrypted = decrypted
        self.amount = amount
        self.currencyCode = currencyCode
        self.merchantReference = merchantReference
        self.returnURL = product == .googlePay ? returnURL : nil
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

    /// `paymentProduct320SpecificInput` with the return URL.
    static func googlePayInput(returnURL: String) -> (String, JSONValue) {
        let redirection = JSONValue.object(JSONObject([("returnUrl", .string(returnURL))]))
        let threeDS = JSONValue.object(JSONObject([("redirectionData", redirection)]))
        return ("paymentProduct320SpecificInput", .object(JSONObject([("threeDSecure", threeDS)])))
    }

    /// The body.
    package var json: JSONValue {
        var input: [(String, JSONValue)] = [("paymentProductId", .number(String(product.id))), ("decryptedPaymentData", decrypted.json)]
        if let returnURL { input.append(Self.googlePayInput(returnURL: returnURL)) }
        return .object(
            JSONObject([
                ("mobilePaymentMethodSpecificInput", .object(JSONObject(input))),
                ("order", WorldlinePaymentRequest.order(amount: amount, currencyCode: currencyCode, merchantReference: merchantReference)),
            ]))
    }

    /// Product, amount and currency; never the card data.
    public var description: String {
        "WorldlineWalletPaymentRequest(product: \(product), amount: \(amount), currencyCode: \(currencyCode))"
    }
}
