public import CSECore
/// The outcome class of an IIN lookup (reference §4, `IINStatus`). An open set of stable codes;
/// the raw values are the Worldline encoder's spellings.
public struct IINStatus: StableStringValue {
    /// The stable string form, for example `SUPPORTED`.
    public let rawValue: String
    /// Creates a status from its stable string form.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// A product was found and is allowed in the caller's context.
    public static let supported = IINStatus(rawValue: "SUPPORTED")
    /// No product is known for these digits (or the input is not a card number).
    public static let unknown = IINStatus(rawValue: "UNKNOWN")
    /// Fewer than 6 digits were given.
    public static let notEnoughDigits = IINStatus(rawValue: "NOT_ENOUGH_DIGITS")
    /// A product was found but is not allowed in the caller's context.
    public static let existingButNotAllowed = IINStatus(rawValue: "EXISTING_BUT_NOT_ALLOWED")

}

/// The kind of card: an open set whose known members follow reference §4 (`Credit`, `Debit`,
/// `Prepaid`). BIN files may carry other kinds, which keep their own spelling.
public struct CardType: StableStringValue {
    /// The spelling, for example `Debit`.
    public let rawValue: String
    /// Creates a card type. The three known kinds are recognised case-insensitively and stored
    /// in their canonical spelling.
    public init(rawValue: String) {
        switch rawValue.lowercased() {
        case "credit": self.rawValue = "Credit"
        case "debit": self.rawValue = "Debit"
        case "prepaid": self.rawValue = "Prepaid"
        default: self.rawValue = rawValue
        }
    }

    /// A credit card.
    public static let credit = CardType(rawValue: "Credit")
    /// A debit card.
    public static let debit = CardType(rawValue: "Debit")
    /// A prepaid card.
    public static let prepaid = CardType(rawValue: "Prepaid")

}

/// Another product the same card number belongs to (a co-brand, reference §4 `coBrands`).
public struct IINCoBrand: Hashable, Sendable {
    /// The co-brand's product id.
    public let productID: String
    /// Whether the co-brand's product is allowed in the caller's context.
    public let isAllowedInContext: Bool
    /// The co-brand's card type, when known.
    public let cardType: CardType?

    /// Creates a co-brand entry.
    /// - Parameters:
    ///   - productID: The co-brand's product id.
    ///   - isAllowedInContext: Whether it is allowed in the caller's context.
    ///   - cardType: Its card type, when known.
    package init(productID: String, isAllowedInContext: Bool, cardType: CardType?) {
        self.productID = productID
        self.isAllowedInContext = isAllowedInContext
        self.cardType = cardType
    }
}

/// What an IIN (BIN) lookup found for a partial card number (reference §4, `IINDetailsResponse`).
///
/// The status is derived as in the Worldline Swift SDK: a product that is allowed in the
/// caller's context is ``IINStatus/supported``; a product that is not allowed is
/// ``IINStatus/existingButNotAllowed``; no product is ``IINStatus/unknown``. Only the primary
/// product decides the status; co-brands carry their own ``IINCoBrand/isAllowedInContext`` so the
/// caller can offer an allowed co-brand instead.
public struct IINDetails: Hashable, Sendable, CustomStringConvertible {
    /// The lookup's status.
    public let status: IINStatus
    /// The primary product id, or `nil` when none was found.
    public let productID: String?
    /// Whether the primary product is allowed in the caller's context.
    public let isAllowedInContext: Bool
    /// The issuing country (ISO 3166-1 alpha-2), when known.
    public let countryCode: String?
    /// The card type, when known.
    public let cardType: CardType?
    /// The issuer's name, when known.
    public let issuer: String?
    /// The other products of the same card, most specific first.
    public let coBrands: [IINCoBrand]

    /// Creates details for a found product; the status follows from `isAllowedInContext`.
    /// - Parameters:
    ///   - productID: The primary product id.
    ///   - isAllowedInContext: Whether it is allowed in the caller's context.
    ///   - countryCode: The issuing country, when known.
    ///   - cardType: The card type, when known.
    ///   - issuer: The issuer, when known.
    ///   - coBrands: The co-brands.
    package init(
        productID: String, isAllowedInContext: Bool, countryCode: String?, cardType: CardType?,
        issuer: String?, coBrands: [IINCoBrand]
    ) {
        self.status = isAllowedInContext ? .supported : .existingButNotAllowed
        self.productID = productID
        self.isAllowedInContext = isAllowedInContext
        self.countryCode = countryCode
        self.cardType = cardType
        self.issuer = issuer
        self.coBrands = coBrands
    }

    private init(status: IINStatus) {
        self.status = status
        self.productID = nil
        self.isAllowedInContext = false
        self.countryCode = nil
        self.cardType = nil
        self.issuer = nil
        self.coBrands = []
    }

    /// The details of a lookup that found no product.
    package static let unknown = IINDetails(status: .unknown)
    /// The details of a lookup with fewer than 6 digits.
    package static let notEnoughDigits = IINDetails(status: .notEnoughDigits)

    /// `STATUS product (co-brands)`; never contains card digits.
    public var description: String {
        var text = status.rawValue
        if let productID { text += " \(productID)" }
        if !coBrands.isEmpty { text += " (+" + coBrands.map(\.productID).joined(separator: ", ") + ")" }
        return text
    }
}
