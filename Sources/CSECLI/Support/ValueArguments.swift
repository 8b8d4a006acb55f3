import CSECore
import CSEHTTP
import CSEServerAPI
import CSEValidation
import CSEWallets

/// The typed values of the payment and wallet options (``ArgumentValue``): each refuses a bad
/// value at parse time, with exit 64 and the one message of ``ValueCheck``.

/// `--amount MINOR`: an amount in minor units, a non-negative decimal integer.
struct AmountArgument: ArgumentValue {
    /// The amount in minor units.
    let minorUnits: Int

    /// Reads ASCII decimal digits (no sign, no spaces) that fit an `Int`.
    init?(argument: String) {
        guard !argument.isEmpty, argument.utf8.allSatisfy({ $0.isASCIIDigit }), let value = Int(argument) else { return nil }
        minorUnits = value
    }

    /// Open: any amount.
    static var allValueStrings: [String] { [] }
    /// The spelling.
    static var valueDescription: String { "a non-negative integer" }
}

/// `--currency CUR`: an ISO 4217 alphabetic code from the embedded table.
struct CurrencyArgument: ArgumentValue {
    /// The currency.
    let currency: Currency

    /// The currency whose code `argument` is.
    init?(argument: String) {
        guard let currency = Currency(code: argument) else { return nil }
        self.currency = currency
    }

    /// Open for completion (the table is long).
    static var allValueStrings: [String] { [] }
    /// The spelling.
    static var valueDescription: String { "an ISO 4217 currency code (e.g. EUR)" }
}

/// `--idempotence-key KEY`: 1 to 40 printable ASCII characters without spaces (``IdempotenceKey``).
struct IdempotenceKeyArgument: ArgumentValue {
    /// The key.
    let key: IdempotenceKey

    /// The key `argument` spells.
    init?(argument: String) {
        guard let key = try? IdempotenceKey(argument) else { return nil }
        self.key = key
    }

    /// Open: any key.
    static var allValueStrings: [String] { [] }
    /// The spelling.
    static var valueDescription: String { "1 to 40 printable ASCII characters without spaces" }
}

/// `--endpoint URL`: an origin, `scheme://host[:port]` (https; http only to loopback), to which
/// the documented path is appended.
struct OriginArgument: ArgumentValue {
    /// The origin.
    let url: HTTPURL

    /// The origin `argument` spells; `nil` for a URL with a path or a query.
    init?(argument: String) {
        guard let url = try? HTTPURL(argument), url.path.isEmpty || url.path == "/", url.query == nil else { return nil }
        self.url = url
    }

    /// Open: any origin.
    static var allValueStrings: [String] { [] }
    /// The spelling.
    static var valueDescription: String { "an origin scheme://host[:port] (https; http only to loopback)" }
}

/// `--now ISO-8601` of `cse wallet`: the instant every check treats as now.
struct InstantArgument: ArgumentValue {
    /// The instant, in Unix milliseconds.
    let unixMilliseconds: Int64

    /// Reads `YYYY-MM-DDTHH:MM:SS[.fff]Z` (``WalletOptions/instant(_:)``).
    init?(argument: String) {
        guard let instant = WalletOptions.instant(argument) else { return nil }
        unixMilliseconds = instant
    }

    /// Open: any instant.
    static var allValueStrings: [String] { [] }
    /// The spelling.
    static var valueDescription: String { "an ISO-8601 instant such as 2021-09-01T19:03:06Z" }
}

/// `--signing-window PAST[,FUTURE]` of `cse wallet`: the accepted signing-time distance.
struct SigningWindowArgument: ArgumentValue {
    /// The window.
    let window: ApplePaySigningWindow

    /// Reads `PAST[,FUTURE]` in whole seconds (``WalletOptions/signingWindow(_:)``).
    init?(argument: String) {
        guard let window = WalletOptions.signingWindow(argument) else { return nil }
        self.window = window
    }

    /// Open: any window.
    static var allValueStrings: [String] { [] }
    /// The spelling.
    static var valueDescription: String { "PAST[,FUTURE] in whole seconds, e.g. 300,60" }
}

/// `--order ID` and `--transaction ID` of `cse mastercard pay|authorize`: the gateway's id rule
/// (``MastercardTransactionRequest``: 1 to 40 letters, digits, `-`, `_` or `.`, not `.` or `..`).
struct MastercardIDArgument: ArgumentValue {
    /// The id.
    let id: String

    /// The id `argument` is, when the gateway's rule accepts it.
    init?(argument: String) {
        guard (try? MastercardTransactionRequest.checkID(argument, argument: "")) != nil else { return nil }
        id = argument
    }

    /// Open: any id.
    static var allValueStrings: [String] { [] }
    /// The rule.
    static var valueDescription: String { "1 to 40 letters, digits, '-', '_' or '.' (not '.' or '..')" }
}

/// `--merchant-reference R` of `cse aps purchase|authorize|check-status`: APS's rule
/// (``APSPaymentRequest``: 1 to 40 letters, digits, `-`, `_` or `.`).
struct APSReferenceArgument: ArgumentValue {
    /// The reference.
    let reference: String

    /// The reference `argument` is, when APS's rule accepts it.
    init?(argument: String) {
        guard (try? APSPaymentRequest.checkReference(argument)) != nil else { return nil }
        reference = argument
    }

    /// Open: any reference.
    static var allValueStrings: [String] { [] }
    /// The rule.
    static var valueDescription: String { "1 to 40 letters, digits, '-', '_' or '.'" }
}

/// `--merchant-ref R` of `cse paysafe pay|lookup`: Paysafe's rule (``PaysafePaymentRequest``:
/// 1 to 255 printable ASCII characters).
struct PaysafeReferenceArgument: ArgumentValue {
    /// The reference.
    let reference: String

    /// The reference `argument` is, when Paysafe's rule accepts it.
    init?(argument: String) {
        guard (try? PaysafePaymentRequest.checkReference(argument)) != nil else { return nil }
        reference = argument
    }

    /// Open: any reference.
    static var allValueStrings: [String] { [] }
    /// The rule.
    static var valueDescription: String { "1 to 255 printable ASCII characters" }
}
