public import CSECore
import CSEPayments

/// Where the card of a DCC or surcharge request comes from: a card number (with an optional
/// product id) or a stored token (`cardSource`, research note §1.3).
public enum CardSource: Sendable, CustomStringConvertible {
    /// A card number, 6 to 19 digits (spaces are removed), and optionally its product id.
    case card(number: String, paymentProductID: String?)
    /// A stored token.
    case token(String)

    /// `{"card":{"cardNumber":"…","paymentProductId":1}}` or `{"token":"…"}`. A canonical
    /// integer product id is written as a JSON number, as the platform types it.
    /// - Throws: ``CSEError/Code/clientAPIInvalidCardNumber``.
    func jsonValue() throws(CSEError) -> JSONValue {
        switch self {
        case .card(let number, let productID):
            let digits = try CardNumberInput.digits(number, minimum: 6)
            var card = JSONObject([("cardNumber", .string(digits))])
            if let productID {
                card["paymentProductId"] = CustomerInputPayload.isCanonicalInteger(productID) ? .number(productID) : .string(productID)
            }
            return .object(JSONObject([("card", .object(card))]))
        case .token(let token):
            return .object(JSONObject([("token", .string(token))]))
        }
    }

    /// `card(<masked number>)` or `token(<redacted>)`: never the number or the token.
    public var description: String {
        switch self {
        case .card(let number, let productID):
            return "card(\(SecretMasking.maskPAN(number))\(productID.map { ", product \($0)" } ?? ""))"
        case .token(let token): return "token(\(SecretMasking.redact(token)))"
        }
    }
}

/// Card-number input for the card services: spaces stripped, digits only, 6 to 19 of them.
enum CardNumberInput {
    /// The digits of `text` with spaces removed.
    /// - Throws: ``CSEError/Code/clientAPIInvalidCardNumber`` with the digit count only.
    static func digits(_ text: String, minimum: Int) throws(CSEError) -> String {
        var digits: [UInt8] = []
        for byte in text.utf8 where byte != 0x20 {
            guard byte &- 0x30 < 10 else {
                throw CSEError(.clientAPIInvalidCardNumber, "the card number holds a character other than a digit or a space")
            }
            digits.append(byte)
        }
        guard (minimum...19).contains(digits.count) else {
            throw CSEError(
                .clientAPIInvalidCardNumber, "the card number must have \(minimum) to 19 digits",
                context: ["digits": String(digits.count)])
        }
        return String(decoding: digits, as: UTF8.self)
    }
}

/// The result of a DCC quote (`POST services/dccrate`): `CurrencyConversionResponse` in
/// WL-Android and WL-Java. The wire name `dccSessionId` is used (not WL-JS's `docSessionId`).
public struct CurrencyConversionResponse: Hashable, Sendable {
    /// The platform's id of the quote; populated when the result is `Allowed`, otherwise often empty.
    public let dccSessionID: String
    /// `Allowed`, `InvalidCard`, `InvalidMerchant`, `NoRate` or `NotAvailable` (an open set).
    public let result: String
    /// Why, when the platform says.
    public let resultReason: String?
    /// The proposal, when the result carries one (`{}` for `NoRate` gives all-nil members).
    public let proposal: DCCProposal?
    /// The body as received (the CLI prints it with the platform's member names).
    package let jsonValue: JSONValue

    /// Decodes a response body.
    /// - Throws: ``CSEError/Code/clientAPIMalformedResponse``.
    public init(json: some Collection<UInt8>) throws(CSEError) {
        let reader = ResponseReader(endpoint: "dccrate")
        let value = try reader.parse(json)
        let object = try reader.object(value, member: "response")
        dccSessionID = try reader.optionalString(object, "dccSessionId") ?? ""
        guard let result = try reader.optionalObject(object, "result") else {
            throw reader.malformed("result is missing", member: "result")
        }
        self.result = try reader.string(result, "result")
        resultReason = try reader.optionalString(result, "resultReason")
        proposal = try reader.optionalObject(object, "proposal").map { (p) throws(CSEError) in try DCCProposal(p, reader) }
        jsonValue = value
    }
}

/// A DCC proposal: the amounts in both currencies and the rate.
public struct DCCProposal: Hashable, Sendable {
    /// The amount in the merchant's currency.
    public let baseAmount: AmountOfMoney?
    /// The amount in the card's currency.
    public let targetAmount: AmountOfMoney?
    /// The exchange rate, as exact decimal text (`1.57`).
    public let exchangeRate: String?
    /// The inverted rate, as exact decimal text.
    public let invertedExchangeRate: String?
    /// The mark-up, as exact decimal text.
    public let markUpRate: String?
    /// When the rate was quoted (ISO 8601 text).
    public let quotationDateTime: String?
    /// The rate source, for example `European Central Bank`.
    public let source: String?
    /// The receipt disclaimer.
    public let disclaimerReceipt: String?
    /// The display disclaimer.
    public let disclaimerDisplay: String?

    init(_ object: JSONObject, _ reader: ResponseReader) throws(CSEError) {
        baseAmount = try reader.amount(object, "baseAmount")
        targetAmount = try reader.amount(object, "targetAmount")
        let rate = try reader.optionalObject(object, "rate")
        exchangeRate = try rate.flatMap { (r) throws(CSEError) in try reader.optionalDecimal(r, "exchangeRate") }
        invertedExchangeRate = try rate.flatMap { (r) throws(CSEError) in try reader.optionalDecimal(r, "invertedExchangeRate") }
        markUpRate = try rate.flatMap { (r) throws(CSEError) in try reader.optionalDecimal(r, "markUpRate") }
        quotationDateTime = try rate.flatMap { (r) throws(CSEError) in try reader.optionalString(r, "quotationDateTime") }
        source = try rate.flatMap { (r) throws(CSEError) in try reader.optionalString(r, "source") }
        disclaimerReceipt = try reader.optionalString(object, "disclaimerReceipt")
        disclaimerDisplay = try reader.optionalString(object, "disclaimerDisplay")
    }
}

/// The result of a surcharge calculation (`POST services/surchargecalculation`).
public struct SurchargeCalculationResponse: Hashable, Sendable {
    /// One entry per product the card may be paid with.
    public let surcharges: [Surcharge]
    /// The body as received.
    package let jsonValue: JSONValue

    /// Decodes a response body.
    /// - Throws: ``CSEError/Code/clientAPIMalformedResponse``.
    public init(json: some Collection<UInt8>) throws(CSEError) {
        let reader = ResponseReader(endpoint: "surchargecalculation")
        let value = try reader.parse(json)
        let object = try reader.object(value, member: "response")
        guard let list = try reader.optionalArray(object, "surcharges") else {
            throw reader.malformed("surcharges is missing", member: "surcharges")
        }
        var surcharges: [Surcharge] = []
        for element in list { surcharges.append(try Surcharge(try reader.object(element, member: "surcharges"), reader)) }
        self.surcharges = surcharges
        jsonValue = value
    }
}

/// The surcharge of one product.
public struct Surcharge: Hashable, Sendable {
    /// The product id.
    public let paymentProductID: String
    /// `OK` or `NO_SURCHARGE` (an open set).
    public let result: String
    /// The amount before the surcharge.
    public let netAmount: AmountOfMoney
    /// The surcharge.
    public let surchargeAmount: AmountOfMoney
    /// The amount to pay.
    public let totalAmount: AmountOfMoney
    /// The rate applied, when there is a surcharge.
    public let surchargeRate: SurchargeRate?

    init(_ object: JSONObject, _ reader: ResponseReader) throws(CSEError) {
        paymentProductID = try reader.requiredIdentifier(object, "paymentProductId")
        result = try reader.string(object, "result")
        guard let net = try reader.amount(object, "netAmount"), let surcharge = try reader.amount(object, "surchargeAmount"),
            let total = try reader.amount(object, "totalAmount")
        else { throw reader.malformed("an amount is missing", member: "surcharges") }
        netAmount = net
        surchargeAmount = surcharge
        totalAmount = total
        surchargeRate = try reader.optionalObject(object, "surchargeRate").map { (rate) throws(CSEError) in
            SurchargeRate(
                surchargeProductTypeID: try reader.optionalString(rate, "surchargeProductTypeId"),
                surchargeProductTypeVersion: try reader.optionalString(rate, "surchargeProductTypeVersion"),
                adValoremRate: try reader.optionalDecimal(rate, "adValoremRate"),
                specificRate: try reader.optionalDecimal(rate, "specificRate"))
        }
    }
}

/// How a surcharge was computed.
public struct SurchargeRate: Hashable, Sendable {
    /// The surcharge product type.
    public let surchargeProductTypeID: String?
    /// Its version.
    public let surchargeProductTypeVersion: String?
    /// The percentage, as exact decimal text (`3.3`).
    public let adValoremRate: String?
    /// The fixed part, as exact decimal text (`333`).
    public let specificRate: String?
}
