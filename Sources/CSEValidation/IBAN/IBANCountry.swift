import CSECore

/// The character class of one BBAN group, in SWIFT IBAN Registry notation.
package struct IBANCharacterClass: StableStringValue {
    /// The registry letter: `n`, `a` or `c`.
    package let rawValue: String
    /// Creates a class from its registry letter; returns `nil` for anything but `n`, `a` or `c`.
    package init?(rawValue: String) {
        guard rawValue == "n" || rawValue == "a" || rawValue == "c" else { return nil }
        self.rawValue = rawValue
    }
    private init(letter: String) { self.rawValue = letter }

    /// `n`: digits `0`–`9`.
    package static let digits = IBANCharacterClass(letter: "n")
    /// `a`: upper-case letters `A`–`Z` (input is case-folded before the check).
    package static let letters = IBANCharacterClass(letter: "a")
    /// `c`: digits or letters.
    package static let alphanumerics = IBANCharacterClass(letter: "c")


    /// The compact code used by the validator's lookup table.
    var tableCode: UInt8 { rawValue == "n" ? 0 : rawValue == "a" ? 1 : 2 }
}

/// A fixed-length group of the BBAN, such as `8!n` (exactly eight digits).
package struct IBANFieldGroup: Hashable, Sendable, CustomStringConvertible {
    /// The number of characters in the group.
    package let length: Int
    /// The characters allowed in the group.
    package let characterClass: IBANCharacterClass

    /// Creates a group.
    /// - Parameters:
    ///   - length: The exact number of characters, 1 or more.
    ///   - characterClass: The allowed characters.
    package init(_ length: Int, _ characterClass: IBANCharacterClass) {
        self.length = length
        self.characterClass = characterClass
    }

    /// SWIFT notation, for example `8!n`.
    package var description: String { "\(length)!\(characterClass.rawValue)" }
}

/// One country's IBAN format from the SWIFT IBAN Registry (ISO 13616-1), or an experimental
/// national format that is not (yet) in the registry.
///
/// The embedded table (``IBANCountry/all``) is generated from `Vectors/iban/iban-registry.json`
/// by `Scripts/gen-tables.py`; see `Vectors/PROVENANCE.md` for its sources.
public struct IBANCountry: Hashable, Sendable, CustomStringConvertible {
    /// The ISO 3166-1 alpha-2 code that starts the IBAN, for example `DE`.
    public let code: String
    /// The country's name as the registry spells it.
    public let name: String
    /// The total IBAN length in electronic format (country code, check digits and BBAN).
    public let length: Int
    /// The BBAN structure, group by group.
    package let bban: [IBANFieldGroup]
    /// Whether the country belongs to the SEPA scheme.
    public let isSEPA: Bool
    /// `true` for SWIFT IBAN Registry countries; `false` for experimental national formats.
    public let isInSWIFTRegistry: Bool
    /// A registry example IBAN in electronic format.
    public let example: String

    init(
        code: String, name: String, length: Int, bban: [IBANFieldGroup], isSEPA: Bool,
        isInSWIFTRegistry: Bool, example: String
    ) {
        self.code = code
        self.name = name
        self.length = length
        self.bban = bban
        self.isSEPA = isSEPA
        self.isInSWIFTRegistry = isInSWIFTRegistry
        self.example = example
    }

    /// The BBAN structure in SWIFT notation, for example `8!n10!n`.
    public var bbanSpec: String { bban.map(\.description).joined() }

    /// `code name (length, bbanSpec)`.
    public var description: String { "\(code) \(name) (\(length), \(bbanSpec))" }

    /// Every country and experimental format in the embedded table, sorted by code.
    public static var all: [IBANCountry] { IBANRegistry.countries }

    /// The format for an IBAN country code (case-insensitive), or `nil` when the code has none.
    /// Territories that use a parent's prefix (for example `AX`, which uses `FI`) return `nil`
    /// here: their IBANs start with the parent's code.
    /// - Parameter code: A two-letter code such as `DE`.
    public static func named(_ code: String) -> IBANCountry? {
        guard let index = IBANRegistry.shared.index(ofCountryCode: code) else { return nil }
        return IBANRegistry.countries[index]
    }
}

/// A territory that the SWIFT registry lists under a parent country: its IBANs use the parent's
/// prefix and format (for example Åland `AX` uses `FI`).
package struct IBANTerritory: Hashable, Sendable, CustomStringConvertible {
    /// The territory's ISO 3166-1 alpha-2 code, for example `AX`.
    package let code: String
    /// The country code its IBANs start with, for example `FI`.
    package let ibanPrefix: String

    init(code: String, ibanPrefix: String) {
        self.code = code
        self.ibanPrefix = ibanPrefix
    }

    /// The parent country's IBAN format.
    package var country: IBANCountry? { IBANCountry.named(ibanPrefix) }

    /// `code→prefix`.
    package var description: String { "\(code)→\(ibanPrefix)" }

    /// Every territory in the embedded table.
    package static var all: [IBANTerritory] { IBANRegistry.territories }
}
