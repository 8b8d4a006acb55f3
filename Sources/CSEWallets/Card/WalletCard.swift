public import CSECore

/// The card of a decrypted wallet token, as every platform's "decrypted" wallet payment sends it:
/// the one typed card from the token to the payment (issue #31, point 1).
///
/// Both decryptors produce it (``init(_:)-(ApplePayPayment)`` from ``ApplePayPayment``,
/// ``init(_:)-(GooglePayMessage)`` from ``GooglePayMessage``), and so does the one reader of
/// `cse wallet decrypt`'s output (``init(decryptionOutput:)``). The members
/// are Apple's "Payment data keys" and Google's `paymentMethodDetails` ("Payment data
/// cryptography"), under one set of names.
///
/// - Important: ``accountNumber``, ``cryptogram`` and ``cardholderName`` are card data:
///   ``description`` masks the number and never shows the other two.
public struct WalletCard: Sendable, Hashable, CustomStringConvertible, CustomReflectable {
    /// How the wallet authenticated the card.
    public enum AuthenticationMethod: Sendable, Hashable {
        /// A card on file, without a cryptogram (Google `PAN_ONLY`).
        case panOnly
        /// A device token with a 3-D Secure cryptogram (Apple `3DSecure`; Google `CRYPTOGRAM_3DS`,
        /// ECv1 `3DS`).
        case cryptogram3DS
        /// EMV data (Apple `EMV`, China UnionPay): no cryptogram a card platform takes.
        case emv
    }

    /// The wallet the token came from.
    public let wallet: Wallet
    /// The network token (device PAN: Apple's `applicationPrimaryAccountNumber`, Google's
    /// `CRYPTOGRAM_3DS` `pan`) or, for a Google `PAN_ONLY` card, the card number itself. Treat it
    /// like a card number.
    public let accountNumber: String
    /// The expiry month, 1–12.
    public let expiryMonth: Int
    /// The expiry year, four digits (2000–2099).
    public let expiryYear: Int
    /// The online payment cryptogram, when the wallet gave one (never for a `PAN_ONLY` card). Secret.
    public let cryptogram: String?
    /// The electronic commerce indicator as a number (a token's `"07"` is 7), when the wallet gave one.
    public let eci: Int?
    /// How the wallet authenticated the card, when the token says.
    public let authenticationMethod: AuthenticationMethod?
    /// The cardholder's name, when the wallet gave one.
    public let cardholderName: String?
    /// The token's own identifier, when it has one: Apple's `header.transactionId` (hex as
    /// received), Google's `messageId`. Not secret: the id support and replay checks use.
    public let tokenIdentifier: String?

    /// A card from its parts (a decryption of the caller's own, or a test).
    /// - Throws: ``CSEError/Code/walletInvalidCard`` naming the member: an account number that is
    ///   not 12–19 digits, a month outside 1–12, a year outside 2000–2099, an ECI outside 0–99, an
    ///   empty cryptogram or name.
    public init(
        wallet: Wallet, accountNumber: String, expiryMonth: Int, expiryYear: Int, cryptogram: String? = nil, eci: Int? = nil,
        authenticationMethod: AuthenticationMethod? = nil, cardholderName: String? = nil, tokenIdentifier: String? = nil
    ) throws(CSEError) {
        func refuse(_ member: String, _ reason: String) -> CSEError {
            CSEError(.walletInvalidCard, reason, context: ["argument": member])
        }
        guard (12...19).contains(accountNumber.utf8.count), accountNumber.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else {
            throw refuse("accountNumber", "the account number is 12 to 19 digits")
        }
        guard (1...12).contains(expiryMonth) else { throw refuse("expiryMonth", "the expiry month is 1 to 12") }
        guard (2000...2099).contains(expiryYear) else { throw refuse("expiryYear", "the expiry year is 2000 to 2099") }
        if let eci, !(0...99).contains(eci) { throw refuse("eci", "the ECI is 0 to 99") }
        if let cryptogram, cryptogram.isEmpty { throw refuse("cryptogram", "the cryptogram is empty") }
        if let cardholderName, cardholderName.isEmpty { throw refuse("cardholderName", "the cardholder name is empty") }
        self.wallet = wallet
        self.accountNumber = accountNumber
        self.expiryMonth = expiryMonth
        self.expiryYear = expiryYear
        self.cryptogram = cryptogram
        self.eci = eci
        self.authenticationMethod = authenticationMethod
        self.cardholderName = cardholderName
        self.tokenIdentifier = tokenIdentifier
    }

    /// The expiry month as two digits, `01`–`12`.
    package var expiryMonthText: String { Self.twoDigits(expiryMonth) }
    /// The expiry year as its last two digits.
    package var expiryYearText: String { Self.twoDigits(expiryYear % 100) }
    /// The ECI as two digits (`7` is `"07"`), when there is one.
    package var eciText: String? { eci.map(Self.twoDigits) }

    /// `n` (0–99) as two digits.
    package static func twoDigits(_ n: Int) -> String { (n < 10 ? "0" : "") + String(n) }

    /// The values a platform's error text must never repeat: the account number, the cryptogram,
    /// the name.
    package var secrets: [String] { [accountNumber, cryptogram, cardholderName].compactMap { $0 } }

    /// The wallet, the account number masked (first 6 and last 4 digits) and whether there is a
    /// cryptogram; never the cryptogram or the name.
    public var description: String {
        "WalletCard(\(wallet), accountNumber: \(SecretMasking.maskPAN(accountNumber)), cryptogram: \(cryptogram == nil ? "none" : "<redacted>"))"
    }

    /// A mirror with the account number masked and the cryptogram and name left out (`dump`).
    public var customMirror: Mirror {
        Mirror(
            self,
            children: [
                "wallet": wallet, "accountNumber": SecretMasking.maskPAN(accountNumber), "expiryMonth": expiryMonth,
                "expiryYear": expiryYear, "eci": eci as Any, "tokenIdentifier": tokenIdentifier as Any,
            ],
            displayStyle: .struct)
    }
}
