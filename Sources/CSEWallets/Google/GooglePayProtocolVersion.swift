public import CSECore

/// A Google Pay token's `protocolVersion`: the signing and encryption scheme that made it
/// (Google, "Payment data cryptography for merchants").
///
/// A closed set owned by the library, built as ``ApplePayVersion`` is: a `StableStringValue`
/// struct whose members are static constants, so a version Google adds later is a new constant,
/// not a breaking change to a caller's `switch`.
public struct GooglePayProtocolVersion: StableStringValue {
    /// The name exactly as tokens and root-key documents spell it.
    public let rawValue: String

    private init(known rawValue: String) { self.rawValue = rawValue }

    /// `ECv1`: the message is signed by a root key directly; ECIES-KEM with AES-128-CTR and
    /// HMAC-SHA-256 (legacy).
    public static let ecV1 = Self(known: "ECv1")
    /// `ECv2`: a root key signs an intermediate key, which signs the message; ECIES-KEM with
    /// AES-256-CTR and HMAC-SHA-256.
    public static let ecV2 = Self(known: "ECv2")
    /// `ECv2SigningOnly`: as ECv2, but the signed message is not encrypted (Google Wallet pass
    /// callbacks, whose sender id is `GooglePayPasses`).
    public static let ecV2SigningOnly = Self(known: "ECv2SigningOnly")

    /// The three versions CSEKit implements.
    public static let all: Set<Self> = [.ecV1, .ecV2, .ecV2SigningOnly]

    /// The versions accepted unless configured otherwise: `ECv2` only (Google has issued ECv2
    /// tokens since 2018; ECv1 is legacy and ECv2SigningOnly is not a payment token).
    public static let defaultAccepted: Set<Self> = [.ecV2]

    /// The version named `text` (compared byte for byte), or `nil` when CSEKit does not implement it.
    public init?(_ text: String) {
        guard let known = Self.all.first(where: { $0.rawValue.utf8.elementsEqual(text.utf8) }) else { return nil }
        self = known
    }

    /// Whether the version carries an intermediate signing key.
    var hasIntermediateKey: Bool { self != .ecV1 }
    /// Whether the signed message is encrypted.
    var isEncrypted: Bool { self != .ecV2SigningOnly }
}
