public import CSECore

/// The Apple Pay payment-token formats CSEKit implements (`paymentData.version`; Apple, "Payment
/// Token Format Reference").
///
/// A closed set owned by the library, built as ``GooglePayProtocolVersion`` is: a
/// `StableStringValue` struct whose members are static constants, so a version Apple adds later is
/// a new constant, not a breaking change to a caller's `switch`.
public struct ApplePayVersion: StableStringValue {
    /// The name exactly as tokens spell it.
    public let rawValue: String

    private init(known rawValue: String) { self.rawValue = rawValue }

    /// `EC_v1`: ECDH on P-256 with the merchant's Payment Processing key, the single-step KDF,
    /// AES-256-GCM.
    public static let ecV1 = Self(known: "EC_v1")
    /// `RSA_v1`: an AES-128-GCM key wrapped with RSA-OAEP (SHA-256, MGF1-SHA-256).
    public static let rsaV1 = Self(known: "RSA_v1")

    /// The two versions CSEKit implements.
    public static let all: Set<Self> = [.ecV1, .rsaV1]

    /// The version named `text` (compared byte for byte), or `nil` when CSEKit does not implement it.
    public init?(_ text: String) {
        guard let known = Self.all.first(where: { $0.rawValue.utf8.elementsEqual(text.utf8) }) else { return nil }
        self = known
    }
}

/// How far the CMS signing time of an Apple Pay token may lie from the clock (replay protection;
/// Apple asks that the signing time be "within a few minutes" of the transaction).
public struct ApplePaySigningWindow: Sendable, Hashable {
    /// Seconds the signing time may lie before the clock.
    public var pastSeconds: Int64
    /// Seconds the signing time may lie after the clock (clock skew).
    public var futureSeconds: Int64

    /// A window of `pastSeconds` before the clock and `futureSeconds` after it; negative values
    /// count as zero.
    public init(pastSeconds: Int64, futureSeconds: Int64) {
        self.pastSeconds = max(0, pastSeconds)
        self.futureSeconds = max(0, futureSeconds)
    }

    /// 5 minutes in the past, 1 minute in the future.
    public static let `default` = ApplePaySigningWindow(pastSeconds: 300, futureSeconds: 60)

    /// Whether `signingTime` (ms) is within the window around `now` (ms), both ends included.
    /// Saturating arithmetic: a window wider than the range of `Int64` milliseconds has no end.
    func contains(signingTime: Int64, now: Int64) -> Bool {
        let (low, lowOverflow) = now.subtractingReportingOverflow(Self.milliseconds(pastSeconds))
        let (high, highOverflow) = now.addingReportingOverflow(Self.milliseconds(futureSeconds))
        return (lowOverflow || signingTime >= low) && (highOverflow || signingTime <= high)
    }

    /// The end of the window after `signingTime` (ms): when a replay guard may forget the token.
    func acceptanceEnd(signingTime: Int64) -> Int64 {
        let (end, overflow) = signingTime.addingReportingOverflow(Self.milliseconds(pastSeconds))
        return overflow ? .max : end
    }

    /// `seconds` (non-negative) in milliseconds, saturating at `Int64.max`.
    private static func milliseconds(_ seconds: Int64) -> Int64 {
        let (value, overflow) = seconds.multipliedReportingOverflow(by: 1000)
        return overflow ? .max : value
    }
}
