import CSECore
import CSEWallets
import CSEServerAPI
import CSEValidation
import CSEGateways

/// The typed values of `cse`'s options (``ArgumentValue``): each is declared once with its type,
/// checked by the parser with one message, and offered by the completion scripts.

/// `--now YYYY-MM`: the month expiry checks treat as the current one.
struct MonthArgument: ArgumentValue {
    /// The month.
    let month: CalendarMonth

    /// Reads `YYYY-MM` (four-digit year, two-digit month 01–12).
    init?(argument: String) {
        let bytes = Array(argument.utf8)
        guard bytes.count == 7, bytes[4] == UInt8(ascii: "-"),
            bytes.enumerated().allSatisfy({ $0.offset == 4 || $0.element.isASCIIDigit }),
            let year = Int(String(decoding: bytes[0..<4], as: UTF8.self)),
            let month = Int(String(decoding: bytes[5..<7], as: UTF8.self)),
            let value = CalendarMonth(year: year, month: month)
        else { return nil }
        self.month = value
    }

    /// Open: any month.
    static var allValueStrings: [String] { [] }
    /// The spelling.
    static var valueDescription: String { "a month written YYYY-MM, for example 2026-05" }
}

/// A decimal integer within `Bounds.range`, as `--timeout`, `--bits` and `--api-version` take.
protocol BoundedIntegerArgument: ArgumentValue {
    /// The accepted values.
    static var range: ClosedRange<Int> { get }
    /// The value.
    var value: Int { get }
    /// Wraps a value already in range.
    init(checked value: Int)
}

extension BoundedIntegerArgument {
    /// Reads ASCII decimal digits whose value is in ``range``.
    init?(argument: String) {
        guard !argument.isEmpty, argument.utf8.count <= 9, argument.utf8.allSatisfy({ $0.isASCIIDigit }), let value = Int(argument),
            Self.range.contains(value)
        else { return nil }
        self.init(checked: value)
    }

    /// Open: any number in range.
    static var allValueStrings: [String] { [] }
}

/// `--timeout SECONDS`: 1 to 600.
struct TimeoutArgument: BoundedIntegerArgument {
    static let range = 1...600
    let value: Int
    init(checked value: Int) { self.value = value }
    static var valueDescription: String { "1 to 600 seconds" }
}

/// `--bits N`: an RSA modulus size, 2048 to 16384.
struct KeyBitsArgument: BoundedIntegerArgument {
    static let range = 2048...16384
    let value: Int
    init(checked value: Int) { self.value = value }
    static var valueDescription: String { "between 2048 and 16384" }
}

/// `--api-version N`: a Mastercard Gateway API version, 39 or later.
struct MastercardAPIVersionArgument: BoundedIntegerArgument {
    static let range = MastercardSessionClient.minimumAPIVersion...999
    let value: Int
    init(checked value: Int) { self.value = value }
    static var valueDescription: String { "\(MastercardSessionClient.minimumAPIVersion) or later" }
}

/// `--environment test|production`.
enum EnvironmentArgument: String, CaseIterable, ArgumentValue {
    case test, production
}

/// `--language en|ar` (Amazon Payment Services).
enum APSLanguageArgument: String, CaseIterable, ArgumentValue {
    case en, ar
}

/// `--wallet apple-pay|google-pay`: every ``Wallet``, by its raw value.
extension Wallet: ArgumentValue {}

/// `--wallet apple-pay` of `cse aps purchase|authorize`: the wallets whose tokens APS decrypts
/// (Apple Pay only; research notes §2.4), as a ``Wallet``.
struct APSWalletArgument: ArgumentValue {
    /// The wallets APS takes.
    static let accepted: [Wallet] = [.applePay]
    /// The wallet named.
    let wallet: Wallet
    /// A wallet APS takes, by its raw value.
    init?(argument: String) {
        guard let wallet = Wallet(rawValue: argument), Self.accepted.contains(wallet) else { return nil }
        self.wallet = wallet
    }
    /// `apple-pay`.
    static var allValueStrings: [String] { accepted.map(\.rawValue) }
}

/// `--format form|json|query` of `cse aps feedback-verify`.
enum FeedbackFormatArgument: String, CaseIterable, ArgumentValue {
    case form, json, query

    /// The library's format.
    var format: APSPaymentClient.FeedbackFormat {
        switch self {
        case .form: .form
        case .json: .json
        case .query: .query
        }
    }
}

/// `--apple-header-order dotnet|php|integrations`.
enum AppleHeaderOrderArgument: String, CaseIterable, ArgumentValue {
    case dotnet, php, integrations

    /// The library's order.
    var order: APSPaymentRequest.ApplePayHeaderOrder {
        switch self {
        case .dotnet: .dotNetSDK
        case .php: .phpSDK
        case .integrations: .integrations
        }
    }
}

/// `--algorithm sha256|sha512|sha1` of `cse aps sign|verify`.
enum SignatureAlgorithmArgument: String, CaseIterable, ArgumentValue {
    case sha256, sha512, sha1

    /// The library's algorithm.
    var algorithm: APSSignatureAlgorithm {
        switch self {
        case .sha256: .sha256
        case .sha512: .sha512
        case .sha1: .sha1
        }
    }
}

/// `--region ap|eu|na|in|cn|mtf|ksa` of the Mastercard commands.
struct RegionArgument: ArgumentValue {
    /// The region.
    let region: MastercardRegion

    /// The region `argument` names.
    init?(argument: String) {
        guard let region = MastercardRegion.all.first(where: { $0.name == argument.lowercased() }) else { return nil }
        self.region = region
    }

    /// Every region of the mobile SDKs.
    static var allValueStrings: [String] { MastercardRegion.all.map(\.name) }
}
