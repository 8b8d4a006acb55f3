internal import CSECore
public import CSECrypto

/// What a verified Apple Pay token says about itself, before (or without) decryption.
public struct ApplePayVerification: Sendable, Hashable {
    /// The token's format.
    public let version: ApplePayVersion
    /// `header.transactionId` in its canonical form, the lower-case hex of its 32 bytes, whatever
    /// the case it was received in.
    public let transactionId: String
    /// The CMS signing time, milliseconds since the epoch.
    public let signingTimeUnixMilliseconds: Int64
    /// `header.applicationData` as lower-case hex of its 32 bytes, when present (a SHA-256 the
    /// merchant chose).
    public let applicationData: String?
}

/// The kind of payment data in a decrypted Apple Pay token (`paymentDataType`).
public struct ApplePayPaymentDataType: RawRepresentable, Sendable, Hashable {
    /// The string as received.
    public let rawValue: String
    /// Creates a value from the received string.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// `3DSecure`: an online payment cryptogram and, optionally, an ECI indicator.
    public static let threeDSecure = Self(rawValue: "3DSecure")
    /// `EMV`: EMV data and encrypted PIN data (China UnionPay).
    public static let emv = Self(rawValue: "EMV")
}

/// The decrypted payment data of an Apple Pay token (Apple, "Payment token format reference",
/// "Payment data keys"). The ``description`` masks the device PAN and the cryptogram.
public struct ApplePayPaymentData: Sendable, Hashable, CustomStringConvertible {
    /// `applicationPrimaryAccountNumber`: the device PAN (DPAN). Treat it like a card number.
    public let applicationPrimaryAccountNumber: String
    /// `applicationExpirationDate`, YYMMDD.
    public let applicationExpirationDate: String
    /// `currencyCode`, ISO 4217 numeric.
    public let currencyCode: String
    /// `transactionAmount`, in the currency's minor units.
    public let transactionAmount: Int
    /// `cardholderName`, when present.
    public let cardholderName: String?
    /// `deviceManufacturerIdentifier`, when present.
    public let deviceManufacturerIdentifier: String?
    /// `paymentDataType`.
    public let paymentDataType: ApplePayPaymentDataType
    /// `paymentData.onlinePaymentCryptogram` (3DSecure), base64 as received. Secret.
    public let onlinePaymentCryptogram: String?
    /// `paymentData.eciIndicator` (3DSecure), when present.
    public let eciIndicator: String?
    /// `paymentData.emvData` (EMV), base64 as received.
    public let emvData: String?
    /// `paymentData.encryptedPINData` (EMV), hex as received.
    public let encryptedPINData: String?

    /// Masks the device PAN (first 6 and last 4 digits) and redacts the cryptogram and EMV data.
    public var description: String {
        var parts = [
            "dpan: \(SecretMasking.maskPAN(applicationPrimaryAccountNumber))",
            "expiry: \(applicationExpirationDate)", "currency: \(currencyCode)", "amount: \(transactionAmount)",
            "type: \(paymentDataType.rawValue)",
        ]
        if let onlinePaymentCryptogram { parts.append("cryptogram: \(SecretMasking.redact(onlinePaymentCryptogram))") }
        if let eciIndicator { parts.append("eci: \(eciIndicator)") }
        if let emvData { parts.append("emvData: \(SecretMasking.redact(emvData))") }
        return "ApplePayPaymentData(\(parts.joined(separator: ", ")))"
    }
}

/// A verified and decrypted Apple Pay token. The ``description`` masks the payment data.
public struct ApplePayPayment: Sendable, CustomStringConvertible {
    /// The verified header facts.
    public let verification: ApplePayVerification
    /// The typed payment data.
    public let paymentData: ApplePayPaymentData
    /// The decrypted JSON exactly as it came out of AES-GCM, member for member, in a buffer that
    /// is zeroed when its last copy goes away.
    public let decryptedJSON: SecureBytes

    /// Never shows the DPAN or the cryptogram.
    public var description: String {
        "ApplePayPayment(\(verification.version.rawValue), transactionId: \(verification.transactionId), \(paymentData))"
    }
}

extension ApplePayPaymentData {
    /// Reads the typed members of the decrypted object.
    /// - Throws: `wallet.decryptionFailed` (one code for every decryption failure, the payload
    ///   included).
    init(json: SecureBytes) throws(CSEError) {
        let parsed = try? json.withUnsafeBytes { (buffer) throws(CSEError) in
            try JSONValue.parse(buffer, limits: JSONLimits(maxBytes: 64 * 1024, maxDepth: 16))
        }
        guard let object = parsed?.objectValue,
            let pan = object["applicationPrimaryAccountNumber"]?.stringValue,
            let expiry = object["applicationExpirationDate"]?.stringValue,
            let currency = object["currencyCode"]?.stringValue,
            let amount = object["transactionAmount"]?.intValue,
            let type = object["paymentDataType"]?.stringValue
        else { throw WalletError.decryptionFailed() }
        let details = object["paymentData"]?.objectValue
        applicationPrimaryAccountNumber = pan
        applicationExpirationDate = expiry
        currencyCode = currency
        transactionAmount = amount
        cardholderName = object["cardholderName"]?.stringValue
        deviceManufacturerIdentifier = object["deviceManufacturerIdentifier"]?.stringValue
        paymentDataType = ApplePayPaymentDataType(rawValue: type)
        onlinePaymentCryptogram = details?["onlinePaymentCryptogram"]?.stringValue
        eciIndicator = details?["eciIndicator"]?.stringValue
        emvData = details?["emvData"]?.stringValue
        encryptedPINData = details?["encryptedPINData"]?.stringValue
    }
}
