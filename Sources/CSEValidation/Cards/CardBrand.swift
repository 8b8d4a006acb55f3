import CSECore

/// The card security code of a brand: its name on the card (CVV, CVC, CID, …) and its length.
public struct CardSecurityCode: Hashable, Sendable, CustomStringConvertible {
    /// The brand's name for the code, for example `CID` for American Express.
    public let name: String
    /// The number of digits, for example 4 for American Express.
    public let length: Int

    /// Creates a security-code description.
    /// - Parameters:
    ///   - name: The brand's name for the code.
    ///   - length: The number of digits.
    public init(name: String, length: Int) {
        self.name = name
        self.length = length
    }

    /// `name (length)`.
    public var description: String { "\(name) (\(length))" }
}

/// A card brand (payment network): its IIN ranges, allowed PAN lengths, security code and
/// check-digit scheme.
///
/// An open set: the embedded brands are static members (``visa``, ``mastercard``, ``mada``,
/// ``meeza``, …; all of them in ``all``), generated from `Vectors/cards/card-brands.json`, and
/// callers may define more with ``init(id:name:iinRanges:panLengths:gaps:securityCode:usesLuhn:coBadgeIDs:)``
/// and detect them with their own ``CardBrandTable``. Two brands are equal when their ids are.
public struct CardBrand: Hashable, Sendable, Identifiable, CustomStringConvertible {
    /// The brand's values, shared by every copy: a brand is passed around on hot paths (brand
    /// detection, PAN checks) and one reference count per copy is cheaper than eight.
    private final class Storage: Sendable {
        let id: String
        let name: String
        let iinRanges: [IINRange]
        let panLengths: [Int]
        let gaps: [Int]
        let securityCode: CardSecurityCode
        let usesLuhn: Bool
        let coBadgeIDs: [String]

        init(
            id: String, name: String, iinRanges: [IINRange], panLengths: [Int], gaps: [Int],
            securityCode: CardSecurityCode, usesLuhn: Bool, coBadgeIDs: [String]
        ) {
            self.id = id
            self.name = name
            self.iinRanges = iinRanges
            self.panLengths = panLengths
            self.gaps = gaps
            self.securityCode = securityCode
            self.usesLuhn = usesLuhn
            self.coBadgeIDs = coBadgeIDs
        }
    }

    private let storage: Storage

    /// A stable id, for example `american-express`; used as the product id in IIN lookups
    /// against a ``CardBrandTable``.
    public var id: String { storage.id }
    /// The display name, for example `American Express`.
    public var name: String { storage.name }
    /// The IIN ranges that identify the brand.
    public var iinRanges: [IINRange] { storage.iinRanges }
    /// The allowed PAN lengths in digits.
    public var panLengths: [Int] { storage.panLengths }
    /// Where a display format puts spaces, as digit offsets (for example `[4, 8, 12]`).
    public var gaps: [Int] { storage.gaps }
    /// The security code's name and length.
    public var securityCode: CardSecurityCode { storage.securityCode }
    /// Whether PANs end with an ISO/IEC 7812-1 Annex B (Luhn) check digit.
    public var usesLuhn: Bool { storage.usesLuhn }
    /// The ids of brands whose ranges this brand's cards may also fall in as co-badged cards
    /// (for example mada cards co-badged with Visa or Mastercard). When this brand is the most
    /// specific match, those brands are reported as well.
    public var coBadgeIDs: [String] { storage.coBadgeIDs }

    /// Creates a brand.
    /// - Parameters:
    ///   - id: A stable id.
    ///   - name: The display name.
    ///   - iinRanges: The IIN ranges that identify the brand.
    ///   - panLengths: The allowed PAN lengths.
    ///   - gaps: Display-format space positions.
    ///   - securityCode: The security code's name and length.
    ///   - usesLuhn: Whether PANs carry a Luhn check digit.
    ///   - coBadgeIDs: Brands this brand's cards may be co-badged with.
    public init(
        id: String, name: String, iinRanges: [IINRange], panLengths: [Int], gaps: [Int] = [4, 8, 12],
        securityCode: CardSecurityCode, usesLuhn: Bool, coBadgeIDs: [String] = []
    ) {
        storage = Storage(
            id: id, name: name, iinRanges: iinRanges, panLengths: panLengths, gaps: gaps,
            securityCode: securityCode, usesLuhn: usesLuhn, coBadgeIDs: coBadgeIDs)
    }

    /// Brands are equal when their ids are.
    public static func == (lhs: CardBrand, rhs: CardBrand) -> Bool { lhs.storage === rhs.storage || lhs.id.isByteEqual(to: rhs.id) }
    /// Hashes the id, consistent with `==`.
    public func hash(into hasher: inout Hasher) { hasher.combine(id) }

    /// The id.
    public var description: String { id }

    /// The embedded brand with this id, or `nil`.
    /// - Parameter id: A brand id such as `visa`.
    package static func withID(_ id: String) -> CardBrand? {
        all.first { $0.id.isByteEqual(to: id) }
    }

    /// A card number masked to at most its first 6 and last 4 digits (PCI DSS 3.4), for example
    /// `400555******0001`; numbers of 10 characters or fewer are fully masked. Spaces are
    /// removed first. Same as `SecretMasking.maskPAN`.
    /// - Parameter pan: The card number.
    /// - Returns: The masked number.
    package static func maskedPAN(_ pan: String) -> String {
        SecretMasking.maskPAN(pan)
    }
}
