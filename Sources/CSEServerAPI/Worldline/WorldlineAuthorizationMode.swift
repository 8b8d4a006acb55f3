/// How a Worldline card payment is authorised (`cardPaymentMethodSpecificInput.authorizationMode`,
/// research notes §1.2), which decides whether and how it must be captured.
public enum WorldlineAuthorizationMode: String, Hashable, Sendable, CaseIterable {
    /// `FINAL_AUTHORIZATION`: cannot be reversed; captured in full within 7 days.
    case finalAuthorization = "FINAL_AUTHORIZATION"
    /// `PRE_AUTHORIZATION`: can be cancelled, and captured within 30 days for the amount or less.
    case preAuthorization = "PRE_AUTHORIZATION"
    /// `SALE`: captured at approval; nothing to capture afterwards.
    case sale = "SALE"
}
