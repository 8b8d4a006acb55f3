public import CSECore
import CSECrypto
public import CSEGateways
@_spi(CustomTransport) import CSEHTTP
import CSEValidation

extension CSEError.Code {
    /// APS does not know the token, or it is `INACTIVE` (message 044, "Token name does not
    /// exist"): an UPDATE_TOKEN answered 59044, or a payment with it refused before processing.
    /// The context never names the token.
    public static let apsTokenUnknown = Self("aps.token.unknown")
    /// The new token name of an UPDATE_TOKEN is already another token's (message 114, "Token
    /// already exist"): nothing was changed.
    public static let apsTokenNameInUse = Self("aps.token.nameInUse")
}

/// A saved card as APS reports it: in the answer of UPDATE_TOKEN (research notes, lifecycle §3.3:
/// `card_number` masked, `card_bin`, `card_brand`, `expiry_date`, `token_status`,
/// `creation_date`). Only ever made from parameters whose signature has been verified.
public struct APSToken: Sendable, CustomStringConvertible {
    /// `token_status`.
    public enum Status: String, Hashable, Sendable, CaseIterable {
        /// Payments may use the token.
        case active = "ACTIVE"
        /// Payments with the token are refused (``CSEError/Code/apsTokenUnknown``); the merchant's
        /// way to delete a saved card (seed 001: "update/delete his card").
        case inactive = "INACTIVE"
    }

    /// `token_name` (the new name after a rename). A credential that can be charged: it goes to
    /// the merchant's store and to `cse`'s standard output only, never to a log or an error.
    public let name: String
    /// `card_number`, masked (first 6 and last 4 digits at most).
    public let maskedCardNumber: String?
    /// `card_bin`.
    public let cardBIN: String?
    /// `card_brand` (or the payment's `payment_option`): `VISA`, `MASTERCARD`, `MADA`, …
    public let brand: String?
    /// `expiry_date`, `YYMM`.
    public let expiryDate: String?
    /// `card_holder_name`.
    public let holderName: String?
    /// `token_status`, when the answer names it.
    public let status: Status?
    /// `creation_date`, as APS writes it.
    public let creationDate: String?
    /// The verified response code.
    public let responseCode: APSResponseCode
    /// The answer's parameters, with the card number masked and the signature removed.
    package let parameters: JSONObject

    /// Reads a verified UPDATE_TOKEN answer (or a payment's, for the card it saved).
    init(verified transaction: APSTransaction) throws(CSEError) {
        let parameters = transaction.parameters
        func text(_ name: String) -> String? { parameters[name]?.scalarText }
        guard let name = text("new_token_name") ?? transaction.tokenName else {
            throw CSEError(.apsResponseMalformed, "the signed answer names no token", context: ["parameter": "token_name"])
        }
        self.name = name
        maskedCardNumber = text("card_number")
        cardBIN = text("card_bin")
        brand = text("card_brand") ?? text("payment_option")
        expiryDate = text("expiry_date")
        holderName = text("card_holder_name")
        status = text("token_status").flatMap(Status.init(rawValue:))
        creationDate = text("creation_date")
        responseCode = transaction.responseCode
        self.parameters = parameters
    }

    /// The card as masked, brand, expiry and status; never the token.
    public var description: String {
        "APSToken(card: \(maskedCardNumber ?? "-"), brand: \(brand ?? "-"), expiry: \(expiryDate ?? "-"), status: \(status?.rawValue ?? "-"))"
    }
}

/// An UPDATE_TOKEN request (research notes, lifecycle §3.3; PayFort "Tokenization" parameters):
/// set a saved card `ACTIVE` or `INACTIVE` (APS's delete), change its expiry or holder name, or
/// rename it. Signed like the payments, with `service_command`.
public struct APSTokenUpdate: Sendable, CustomStringConvertible {
    /// `merchant_reference` of this request.
    public let merchantReference: String
    /// The parameters, without `access_code`, `merchant_identifier` and `signature`.
    let parameters: [(String, JSONValue)]

    /// Checks and creates a request. With no change given, APS answers the token as it is.
    /// - Parameters:
    ///   - merchantReference: A reference of this request (1–40 of `[A-Za-z0-9-_.]`).
    ///   - tokenName: The saved card's permanent token, as a verified answer or feedback gave it.
    ///   - status: `token_status`.
    ///   - newTokenName: `new_token_name` (1–100 letters, digits, `.@-_`).
    ///   - expiryDate: `expiry_date`, `YYMM`.
    ///   - holderName: `card_holder_name`, 1–50 characters without control characters.
    /// - Throws: ``CSEError/Code/serverAPIInvalidArgument`` naming the parameter.
    public init(
        merchantReference: String, tokenName: String, status: APSToken.Status? = nil, newTokenName: String? = nil,
        expiryDate: String? = nil, holderName: String? = nil, language: String = "en"
    ) throws(CSEError) {
        func refuse(_ parameter: String, _ reason: String) -> CSEError {
            CSEError(.serverAPIInvalidArgument, reason, context: ["argument": parameter])
        }
        try APSPaymentRequest.checkReference(merchantReference)
        for (parameter, name) in [("token_name", tokenName), ("new_token_name", newTokenName)] {
            guard let name else { continue }
            guard (1...100).contains(name.utf8.count), APSPaymentRequest.only(name, ".@-_") else {
                throw refuse(parameter, "a token name is 1 to 100 letters, digits, '.', '@', '-' or '_'")
            }
        }
        guard ["en", "ar"].contains(language) else { throw refuse("language", "the language is en or ar") }
        var parameters: [(String, JSONValue)] = [
            ("service_command", .string("UPDATE_TOKEN")), ("merchant_reference", .string(merchantReference)),
            ("language", .string(language)), ("token_name", .string(tokenName)),
        ]
        if let status { parameters.append(("token_status", .string(status.rawValue))) }
        if let newTokenName { parameters.append(("new_token_name", .string(newTokenName))) }
        if let expiryDate {
            let digits = Array(expiryDate.utf8)
            guard digits.count == 4, digits.allSatisfy(\.isASCIIDigit), let month = Int(expiryDate.suffix(2)), (1...12).contains(month)
            else { throw refuse("expiry_date", "the expiry date is YYMM") }
            parameters.append(("expiry_date", .string(expiryDate)))
        }
        if let holderName {
            guard (1...50).contains(holderName.count),
                !holderName.unicodeScalars.contains(where: { $0.properties.generalCategory == .control })
            else { throw refuse("card_holder_name", "the holder name is 1 to 50 characters without control characters") }
            parameters.append(("card_holder_name", .string(holderName)))
        }
        self.merchantReference = merchantReference
        self.parameters = parameters
    }

    /// The reference and what changes; never a token name.
    public var description: String {
        let changes = parameters.dropFirst(4).map { $0.0 == "new_token_name" ? "new_token_name" : "\($0.0)=\($0.1.scalarText ?? "")" }
        return "APSTokenUpdate(merchant_reference: \(merchantReference)\(changes.isEmpty ? "" : ", " + changes.joined(separator: ", ")))"
    }
}

extension APSPaymentClient {
    /// Sends an UPDATE_TOKEN (research notes, lifecycle §3.3), signed with the SHA request phrase;
    /// the answer is read only once its signature verifies with the SHA response phrase.
    ///
    /// The outcome:
    /// - ``PaymentOutcome/succeeded(_:_:)``: status 58 (`58000`, "Token updated successfully"),
    ///   the token as APS now reports it;
    /// - ``PaymentOutcome/refused(_:_:)``: status 59: ``CSEError/Code/apsTokenUnknown`` (044),
    ///   ``CSEError/Code/apsTokenNameInUse`` (114), or APS's `aps.message.NNN`;
    /// - ``PaymentOutcome/unknown(_:_:)``: no verified answer, or a status that decides nothing.
    ///   APS documents no way to read a token, so the same update is sent again (setting the same
    ///   values twice changes nothing); after a rename, an update of the new name with no change
    ///   tells whether it was made (58000) or not (59044).
    /// - Throws: Status 00 with another message (nothing processed), as `aps.message.NNN`; a
    ///   transport error before sending.
    public func updateToken(_ update: APSTokenUpdate) async throws(CSEError) -> PaymentOutcome<APSToken> {
        let keys = PaymentReconciliation(merchantReference: update.merchantReference)
        let verified: JSONObject
        do {
            verified = try await connection.call(update.parameters)
        } catch {
            if error.code != .apsResponseSignature && error.provesRequestNotSent { throw error }
            return .unknown(keys, outcomeUnknownError("no verified answer was read; the token may have been updated", keys, cause: error))
        }
        let transaction: APSTransaction
        let token: APSToken
        do {
            transaction = try APSTransaction(verified: verified)
            token = try APSToken(verified: transaction)
        } catch {
            return .unknown(keys, outcomeUnknownError("the signed answer has no readable response code", keys, cause: error))
        }
        let code = transaction.responseCode
        switch code.status {
        case "58":
            return .succeeded(token, keys)
        case "59":
            return .refused(token, Self.tokenRefused(code, own: error(code)))
        case "00" where !["006", "051", "071"].contains(code.message):
            throw error(code)
        default:
            return .unknown(keys, outcomeUnknownError("APS's answer does not decide the update", keys, cause: error(code)))
        }
    }

    /// The stable error of a token APS refused: 044 (unknown or inactive) and 114 (name in use)
    /// have their own codes, with APS's `own` as the cause; others are `own`.
    static func tokenRefused(_ code: APSResponseCode, own: CSEError) -> CSEError {
        let context = ["response_code": code.description]
        switch code.message {
        case "044":
            return CSEError(.apsTokenUnknown, "APS does not know the token, or it is inactive", context: context, underlying: own)
        case "114":
            return CSEError(.apsTokenNameInUse, "the new token name is already another token's", context: context, underlying: own)
        default:
            return own
        }
    }
}
