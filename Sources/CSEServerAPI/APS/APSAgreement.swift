public import CSECore
public import CSEValidation

/// A recurring agreement on a saved card: `agreement_id` and the `recurring_*` parameters that
/// seed 000 (APS iOS SDK, "Recurring" request parameters) lists, set up by a payer payment and
/// charged later without the payer (APS "Recurring Payments API": `token_name` and `agreement_id`
/// from an earlier successful transaction; research notes, lifecycle §3.3).
public struct APSAgreement: Hashable, Sendable, CustomStringConvertible {
    /// `recurring_mode`.
    public enum Mode: String, Hashable, Sendable, CaseIterable {
        /// Charged when something happens, without a schedule (top-ups, usage).
        case unscheduled = "UNSCHEDULED"
        /// On a schedule, for an amount that can change.
        case variable = "VARIABLE"
        /// On a schedule, for a fixed amount (instalments, subscriptions).
        case fixed = "FIXED"
    }

    /// `agreement_id`: 1–100 letters, digits, `-` or `_` (docs/COMPATIBILITY.md: the limits are CSEKit's).
    public let id: String
    /// `recurring_mode`, when given.
    public let mode: Mode?
    /// `recurring_transactions_count`: how many payments the agreement allows (1–999).
    public let transactionsCount: Int?
    /// `recurring_expiry_date`, `YYYY-MM-DD`: the last day a payment may be charged.
    public let expiryDate: String?
    /// `recurring_days_between_payments` (1–999).
    public let daysBetweenPayments: Int?

    /// Checks and creates an agreement.
    /// - Throws: ``CSEError/Code/serverAPIInvalidArgument`` naming the parameter: an id that is not
    ///   1–100 of `[A-Za-z0-9_-]`, a count or a number of days outside 1…999, an expiry date that
    ///   is not a calendar date `YYYY-MM-DD`, or days between payments with mode `UNSCHEDULED`
    ///   (an unscheduled agreement has no schedule).
    public init(
        id: String, mode: Mode? = nil, transactionsCount: Int? = nil, expiryDate: String? = nil, daysBetweenPayments: Int? = nil
    ) throws(CSEError) {
        func refuse(_ parameter: String, _ reason: String) -> CSEError {
            CSEError(.serverAPIInvalidArgument, reason, context: ["argument": parameter])
        }
        guard (1...100).contains(id.utf8.count), APSPaymentRequest.only(id, "-_") else {
            throw refuse("agreement_id", "the agreement id is 1 to 100 letters, digits, '-' or '_'")
        }
        if let transactionsCount, !(1...999).contains(transactionsCount) {
            throw refuse("recurring_transactions_count", "the number of payments is 1 to 999")
        }
        if let daysBetweenPayments, !(1...999).contains(daysBetweenPayments) {
            throw refuse("recurring_days_between_payments", "the days between payments are 1 to 999")
        }
        if daysBetweenPayments != nil && mode == .unscheduled {
            throw refuse("recurring_days_between_payments", "an UNSCHEDULED agreement has no days between payments")
        }
        if let expiryDate, !Self.isCalendarDate(expiryDate) {
            throw refuse("recurring_expiry_date", "the expiry date is a calendar date YYYY-MM-DD")
        }
        self.id = id
        self.mode = mode
        self.transactionsCount = transactionsCount
        self.expiryDate = expiryDate
        self.daysBetweenPayments = daysBetweenPayments
    }

    /// The parameters sent, with `mode` as `recurring_mode`.
    func parameters(mode: Mode?) -> [(String, JSONValue)] {
        var parameters: [(String, JSONValue)] = [("agreement_id", .string(id))]
        if let mode { parameters.append(("recurring_mode", .string(mode.rawValue))) }
        if let transactionsCount { parameters.append(("recurring_transactions_count", .string(String(transactionsCount)))) }
        if let expiryDate { parameters.append(("recurring_expiry_date", .string(expiryDate))) }
        if let daysBetweenPayments { parameters.append(("recurring_days_between_payments", .string(String(daysBetweenPayments)))) }
        return parameters
    }

    /// Whether `text` is `YYYY-MM-DD` naming a day of the Gregorian calendar.
    package static func isCalendarDate(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        guard bytes.count == 10, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"),
            let year = Int(String(decoding: bytes[0..<4], as: UTF8.self)), year >= 2000,
            let month = Int(String(decoding: bytes[5..<7], as: UTF8.self)), (1...12).contains(month),
            let day = Int(String(decoding: bytes[8..<10], as: UTF8.self)),
            bytes.enumerated().allSatisfy({ [4, 7].contains($0.offset) || $0.element.isASCIIDigit })
        else { return false }
        let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
        let days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]
        return (1...days).contains(day)
    }

    /// The id and the terms (not secret).
    public var description: String {
        parameters(mode: mode).map { "\($0.0)=\($0.1.scalarText ?? "")" }.joined(separator: ", ")
    }
}

/// Why a saved card is charged without the payer (`cse aps purchase --merchant-initiated`): each
/// is sent as `eci` `RECURRING` with the agreement, and each allows its own `recurring_mode`
/// (docs/COMPATIBILITY.md records the mapping, which no APS page states).
public enum APSMerchantInitiated: String, Hashable, Sendable, CaseIterable {
    /// A scheduled payment of a subscription: mode `VARIABLE` (the default) or `FIXED`.
    case recurring
    /// A payment without a schedule (a top-up): mode `UNSCHEDULED`.
    case unscheduled
    /// One of a fixed number of payments: mode `FIXED`, with `recurring_transactions_count`.
    case instalment

    /// The modes this kind allows; the first is sent when the agreement names none.
    public var allowedModes: [APSAgreement.Mode] {
        switch self {
        case .recurring: [.variable, .fixed]
        case .unscheduled: [.unscheduled]
        case .instalment: [.fixed]
        }
    }
}

extension APSPaymentRequest {
    /// A merchant-initiated PURCHASE with a saved card: `eci` `RECURRING`, the card's permanent
    /// `token_name` and the agreement a payer payment set up (APS "Recurring Payments API": only
    /// PURCHASE; seed 000's agreement parameters). No 3-D Secure: the payer is not there.
    /// - Parameters:
    ///   - kind: Why the card is charged; it decides the `recurring_mode` allowed.
    ///   - tokenName: The permanent token of the saved card, as a verified answer or feedback
    ///     gave it (``APSTransaction/tokenName``).
    ///   - agreement: The agreement, with the id the first payment set up.
    /// - Throws: ``CSEError/Code/serverAPIInvalidArgument`` naming the parameter, as for a payer
    ///   payment, and: a `recurring_mode` that `kind` does not allow (`unscheduled` only
    ///   `UNSCHEDULED`; `recurring` `VARIABLE` or `FIXED`; `instalment` `FIXED`), an instalment
    ///   without `recurring_transactions_count`.
    public static func merchantInitiated(
        _ kind: APSMerchantInitiated, merchantReference: String, amount: Int64, currency: Currency, customerEmail: String,
        tokenName: String, agreement: APSAgreement, language: String = "en"
    ) throws(CSEError) -> APSPaymentRequest {
        func refuse(_ parameter: String, _ reason: String) -> CSEError {
            CSEError(.serverAPIInvalidArgument, reason, context: ["argument": parameter])
        }
        let mode = agreement.mode ?? kind.allowedModes[0]
        guard kind.allowedModes.contains(mode) else {
            throw refuse(
                "recurring_mode",
                "a \(kind.rawValue) payment takes recurring_mode \(kind.allowedModes.map(\.rawValue).joined(separator: " or "))")
        }
        if kind == .instalment && agreement.transactionsCount == nil {
            throw refuse("recurring_transactions_count", "an instalment payment needs the number of payments")
        }
        guard (1...100).contains(tokenName.utf8.count), only(tokenName, ".@-_") else {
            throw refuse("token_name", "the token name is 1 to 100 letters, digits, '.', '@', '-' or '_'")
        }
        var request = try APSPaymentRequest(
            .purchase, merchantReference: merchantReference, amount: amount, currency: currency, customerEmail: customerEmail,
            customerIP: nil, language: language,
            payment: [("token_name", .string(tokenName)), ("eci", .string("RECURRING"))] + agreement.parameters(mode: mode),
            isApplePay: false)
        request.agreement = agreement
        request.merchantInitiated = kind
        return request
    }
}
