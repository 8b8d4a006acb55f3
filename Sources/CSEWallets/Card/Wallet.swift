/// A wallet whose payment tokens CSEKit verifies and decrypts, and whose cards every platform
/// client takes: the one list of wallets (docs/ARCHITECTURE.md, "Add a wallet").
///
/// The raw value is the name `cse wallet decrypt` prints in its `wallet` member and `--wallet`
/// takes. Every platform maps a wallet to its own name with an exhaustive `switch`, so a new case
/// fails to compile until each platform says what it sends for it.
public enum Wallet: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// Apple Pay (Apple, "Payment token format reference").
    case applePay = "apple-pay"
    /// Google Pay (Google, "Payment data cryptography").
    case googlePay = "google-pay"

    /// The raw value, `apple-pay` or `google-pay`.
    public var description: String { rawValue }
}
