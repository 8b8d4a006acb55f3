public import CSECore

extension WalletCard {
    /// The card of a decrypted Apple Pay token (Apple, "Payment token format reference", "Payment
    /// data keys"): `applicationPrimaryAccountNumber`, `applicationExpirationDate` (YYMMDD),
    /// `paymentData.onlinePaymentCryptogram` and `eciIndicator`, `cardholderName`, and the
    /// header's `transactionId` as ``tokenIdentifier``.
    /// - Throws: ``CSEError/Code/walletInvalidCard`` naming the member that is out of range (see
    ///   ``init(wallet:accountNumber:expiryMonth:expiryYear:cryptogram:eci:authenticationMethod:cardholderName:tokenIdentifier:)``).
    public init(_ payment: ApplePayPayment) throws(CSEError) {
        let data = payment.paymentData
        let (month, year) = try Self.appleExpiry(data.applicationExpirationDate)
        let method: AuthenticationMethod? =
            switch data.paymentDataType {
            case .threeDSecure: .cryptogram3DS
            case .emv: .emv
            default: nil
            }
        try self.init(
            wallet: .applePay, accountNumber: data.applicationPrimaryAccountNumber, expiryMonth: month, expiryYear: year,
            cryptogram: data.onlinePaymentCryptogram, eci: try data.eciIndicator.map(Self.eciNumber), authenticationMethod: method,
            cardholderName: data.cardholderName, tokenIdentifier: payment.verification.transactionId)
    }

    /// The card of a decrypted Google Pay message (Google, "Payment data cryptography",
    /// `paymentMethodDetails`): `pan`, `expirationMonth`, `expirationYear`, and for a
    /// `CRYPTOGRAM_3DS` card (ECv1: authMethod `3DS` or paymentMethod `TOKENIZED_CARD`) only,
    /// `cryptogram` and `eciIndicator`; the message's `messageId` as ``tokenIdentifier``.
    /// - Throws: ``CSEError/Code/walletInvalidCard``: a message without `paymentMethodDetails`
    ///   (ECv2SigningOnly carries none), without a number or expiry, or out of range.
    public init(_ message: GooglePayMessage) throws(CSEError) {
        func missing(_ member: String) -> CSEError {
            CSEError(.walletInvalidCard, "the decrypted message lacks a member", context: ["argument": member])
        }
        guard let card = message.card else { throw missing("paymentMethodDetails") }
        guard let pan = card.pan else { throw missing("paymentMethodDetails.pan") }
        guard let month = card.expirationMonth, let year = card.expirationYear, year >= 0 else {
            throw missing("paymentMethodDetails.expiration")
        }
        let tokenized = Self.isTokenized(authMethod: card.authMethod, paymentMethod: message.paymentMethod)
        try self.init(
            wallet: .googlePay, accountNumber: pan, expiryMonth: month, expiryYear: year < 100 ? 2000 + year : year,
            cryptogram: tokenized ? card.cryptogram : nil, eci: tokenized ? try card.eciIndicator.map(Self.eciNumber) : nil,
            authenticationMethod: Self.googleMethod(card.authMethod, tokenized: tokenized), tokenIdentifier: message.messageID)
    }

    /// Whether a Google Pay card is a device token with a cryptogram: ECv2 authMethod
    /// `CRYPTOGRAM_3DS`, ECv1 authMethod `3DS` or paymentMethod `TOKENIZED_CARD`.
    static func isTokenized(authMethod: String?, paymentMethod: String?) -> Bool {
        authMethod == "CRYPTOGRAM_3DS" || authMethod == "3DS" || paymentMethod == "TOKENIZED_CARD"
    }

    /// The authentication method of a Google Pay card.
    static func googleMethod(_ authMethod: String?, tokenized: Bool) -> AuthenticationMethod? {
        if tokenized { return .cryptogram3DS }
        return authMethod == "PAN_ONLY" ? .panOnly : nil
    }

    /// Apple's `applicationExpirationDate`, `YYMMDD`, as month and four-digit year.
    static func appleExpiry(_ text: String) throws(CSEError) -> (month: Int, year: Int) {
        guard text.utf8.count == 6, text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }), let yy = Int(text.prefix(2)),
            let mm = Int(text.dropFirst(2).prefix(2))
        else {
            throw CSEError(.walletInvalidCard, "the expiry date is not YYMMDD", context: ["argument": "applicationExpirationDate"])
        }
        return (mm, 2000 + yy)
    }

    /// An ECI given as a decimal string (`"07"`); its range is checked by the initializer.
    static func eciNumber(_ text: String) throws(CSEError) -> Int {
        guard let number = Int(text) else {
            throw CSEError(.walletInvalidCard, "the ECI is not a number", context: ["argument": "eciIndicator"])
        }
        return number
    }
}
