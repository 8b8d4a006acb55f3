public import CSECore

/// The card data of a wallet token the merchant decrypted, as every platform's "decrypted" payment
/// needs it, read from the output of `cse wallet decrypt` (`{"wallet","paymentData",…}`).
public struct DecryptedWalletCard: Sendable, CustomStringConvertible {
    /// The wallet the token came from.
    public enum Wallet: Sendable, Hashable {
        /// Apple Pay.
        case applePay
        /// Google Pay.
        case googlePay
    }

    /// The wallet.
    public let wallet: Wallet
    /// The device PAN (Apple's `applicationPrimaryAccountNumber`, Google's `paymentMethodDetails.pan`).
    public let dpan: String
    /// The expiry month, 1–12.
    public let expiryMonth: Int
    /// The expiry year, four digits.
    public let expiryYear: Int
    /// The online payment cryptogram, when the wallet gave one (never for a Google Pay `PAN_ONLY` card).
    public let cryptogram: String?
    /// The ECI as a number (a token's `"07"` is 7).
    public let eci: Int?
    /// The cardholder's name, when the wallet gave one.
    public let cardholderName: String?

    /// Reads `cse wallet decrypt`'s output (UTF-8 JSON text of an object): Apple Pay's `applicationPrimaryAccountNumber`,
    /// `applicationExpirationDate` (YYMMDD), `paymentData.onlinePaymentCryptogram`,
    /// `paymentData.eciIndicator` and `cardholderName`; Google Pay's `paymentMethodDetails.pan`,
    /// `expirationMonth`/`expirationYear`, and, for `CRYPTOGRAM_3DS` only, `cryptogram` and
    /// `eciIndicator` (older ECv1 tokens: `dpan`, authMethod `3DS` or paymentMethod
    /// `TOKENIZED_CARD`, `3dsCryptogram`, `3dsEciIndicator`).
    /// - Throws: a `json.*` error for text that is not a JSON object;
    ///   ``CSEError/Code/serverAPIInvalidArgument`` naming the member that is missing,
    ///   malformed or of the wrong JSON type (an optional member too: a cryptogram or a name that
    ///   is not a string is an error, never left out).
    public init(walletDecryption output: some Collection<UInt8>) throws(CSEError) {
        try self.init(walletDecryption: try JSONObject.parse(output, what: "the decrypted wallet data"))
    }

    /// ``init(walletDecryption:)`` of a parsed object (the CLI and the tests).
    package init(walletDecryption output: JSONObject) throws(CSEError) {
        func missing(_ member: String) -> CSEError {
            CSEError(.serverAPIInvalidArgument, "the decrypted wallet data lacks a member", context: ["argument": member])
        }
        let reader = WalletDecryptionReader()
        guard let data = output["paymentData"]?.objectValue else { throw missing("paymentData") }
        func eciNumber(_ value: JSONValue?) throws(CSEError) -> Int? {
            guard let value, !value.isNull else { return nil }
            if let number = value.intValue { return number }
            guard let text = value.stringValue, let number = Int(text) else { throw missing("eciIndicator") }
            return number
        }
        switch output["wallet"]?.stringValue {
        case "apple-pay":
            guard let dpan = data["applicationPrimaryAccountNumber"]?.stringValue else { throw missing("applicationPrimaryAccountNumber") }
            guard let expiry = data["applicationExpirationDate"]?.stringValue, expiry.utf8.count == 6,
                expiry.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }), let yy = Int(expiry.prefix(2)),
                let mm = Int(expiry.dropFirst(2).prefix(2))
            else { throw missing("applicationExpirationDate") }
            let inner = try reader.optionalObject(data, "paymentData") ?? JSONObject()
            try self.init(
                wallet: .applePay, dpan: dpan, expiryMonth: mm, expiryYear: 2000 + yy,
                cryptogram: try reader.optionalString(inner, "onlinePaymentCryptogram"), eci: try eciNumber(inner["eciIndicator"]),
                cardholderName: try reader.optionalString(data, "cardholderName"))
        case "google-pay":
            guard let details = data["paymentMethodDetails"]?.objectValue else { throw missing("paymentMethodDetails") }
            // ECv2 sends `pan`, `cryptogram`, `eciIndicator` and authMethod `CRYPTOGRAM_3DS`; older
            // ECv1 tokens (paymentMethod `TOKENIZED_CARD`) send `dpan`, `3dsCryptogram`,
            // `3dsEciIndicator` and authMethod `3DS` (wallet-tokens notes, Google's payload).
            let ecv2PAN = try reader.optionalString(details, "pan")
            let ecv1DPAN = try reader.optionalString(details, "dpan")
            guard let pan = ecv2PAN ?? ecv1DPAN else { throw missing("paymentMethodDetails.pan") }
            guard let month = details["expirationMonth"]?.intValue, let year = details["expirationYear"]?.intValue, year >= 0 else {
                throw missing("paymentMethodDetails.expiration")
            }
            let authMethod = try reader.optionalString(details, "authMethod")
            let paymentMethod = try reader.optionalString(data, "paymentMethod")
            let tokenized = authMethod == "CRYPTOGRAM_3DS" || authMethod == "3DS" || paymentMethod == "TOKENIZED_CARD"
            var cryptogram: String?
            var eci: Int?
            if tokenized {
                let ecv2Cryptogram = try reader.optionalString(details, "cryptogram")
                let ecv1Cryptogram = try reader.optionalString(details, "3dsCryptogram")
                cryptogram = ecv2Cryptogram ?? ecv1Cryptogram
                let ecv2ECI = try eciNumber(details["eciIndicator"])
                let ecv1ECI = try eciNumber(details["3dsEciIndicator"])
                eci = ecv2ECI ?? ecv1ECI
            }
            try self.init(
                wallet: .googlePay, dpan: pan, expiryMonth: month, expiryYear: year < 100 ? 2000 + year : year, cryptogram: cryptogram,
                eci: eci, cardholderName: nil)
        default:
            throw missing("wallet")
        }
    }

    /// Card data from the caller's own decryption (for example `ApplePayPayment.paymentData`).
    /// - Throws: ``CSEError/Code/serverAPIInvalidArgument`` naming the member: a DPAN that is not
    ///   12–19 digits, a month outside 1–12, a year outside 2000–2099, an ECI outside 0–99, an
    ///   empty cryptogram or name.
    public init(
        wallet: Wallet, dpan: String, expiryMonth: Int, expiryYear: Int, cryptogram: String? = nil, eci: Int? = nil,
        cardholderName: String? = nil
    ) throws(CSEError) {
        func refuse(_ member: String, _ reason: String) -> CSEError {
            CSEError(.serverAPIInvalidArgument, reason, context: ["argument": member])
        }
        guard (12...19).contains(dpan.utf8.count), dpan.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else {
            throw refuse("dpan", "the DPAN is 12 to 19 digits")
        }
        guard (1...12).contains(expiryMonth) else { throw refuse("expiryMonth", "the expiry month is 1 to 12") }
        guard (2000...2099).contains(expiryYear) else { throw refuse("expiryYear", "the expiry year is 2000 to 2099") }
        if let eci, !(0...99).contains(eci) { throw refuse("eci", "the ECI is 0 to 99") }
        if let cryptogram, cryptogram.isEmpty { throw refuse("cryptogram", "the cryptogram is empty") }
        if let cardholderName, cardholderName.isEmpty { throw refuse("cardholderName", "the cardholder name is empty") }
        self.wallet = wallet
        self.dpan = dpan
        self.expiryMonth = expiryMonth
        self.expiryYear = expiryYear
        self.cryptogram = cryptogram
        self.eci = eci
        self.cardholderName = cardholderName
    }

    /// The expiry month as two digits, `01`–`12`.
    package var expiryMonthText: String { Self.twoDigits(expiryMonth) }
    /// The expiry year as its last two digits.
    package var expiryYearText: String { Self.twoDigits(expiryYear % 100) }

    /// `n` (0–99) as two digits.
    package static func twoDigits(_ n: Int) -> String { (n < 10 ? "0" : "") + String(n) }

    /// The values a platform's error text must never repeat: the DPAN, the cryptogram, the name.
    package var secrets: [String] { [dpan, cryptogram, cardholderName].compactMap { $0 } }

    /// The DPAN masked; never the cryptogram or the name.
    public var description: String {
        "DecryptedWalletCard(\(wallet), dpan: \(SecretMasking.maskPAN(dpan)), cryptogram: \(cryptogram == nil ? "none" : "<redacted>"))"
    }
}

/// Reads the optional members of `cse wallet decrypt`'s output strictly: `null` counts as absent,
/// a member of the wrong type is ``CSEError/Code/serverAPIInvalidArgument`` naming it (the output
/// is the caller's argument, not a platform's response).
private struct WalletDecryptionReader: JSONMemberReader {
    /// ``CSEError/Code/serverAPIInvalidArgument`` naming the member as the argument.
    func malformed(_ reason: String, member: String) -> CSEError {
        CSEError(.serverAPIInvalidArgument, reason, context: ["argument": member])
    }
}
