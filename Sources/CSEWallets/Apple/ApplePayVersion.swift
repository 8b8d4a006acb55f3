/// The Apple Pay payment-token formats (`paymentData.version`).
public enum ApplePayVersion: String, Sendable, Hashable, CaseIterable {
    /// `EC_v1`: ECDH on P-256 with the merchant's Payment Processing key, the single-step KDF,
    /// AES-256-GCM.
    case ecV1 = "EC_v1"
    /// `RSA_v1`: an AES-128-GCM key wrapped with RSA-OAEP (SHA-256, MGF1-SHA-256).
    case rsaV1 = "RSA_v1"
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
