package import CSEWallets

/// What each platform calls a wallet: the one place a new ``Wallet`` case is named for every
/// platform (docs/ARCHITECTURE.md, "Add a wallet"). Each is an exhaustive `switch`, so a new wallet
/// fails to compile until every platform says what it sends for it.
extension Wallet {
    /// Worldline's mobile payment product (research notes §1.5): Apple Pay 302, Google Pay 320.
    package var worldlinePaymentProductID: Int {
        switch self {
        case .applePay: 302
        case .googlePay: 320
        }
    }

    /// Whether a Worldline payment with the wallet's decrypted card needs a 3-D Secure return URL
    /// (product 320: "required for payments with product 320").
    package var worldlineNeedsReturnURL: Bool {
        switch self {
        case .applePay: false
        case .googlePay: true
        }
    }

    /// The Mastercard Gateway's `order.walletProvider` (research notes §3.2).
    package var mastercardWalletProvider: String {
        switch self {
        case .applePay: "APPLE_PAY"
        case .googlePay: "GOOGLE_PAY"
        }
    }
}
