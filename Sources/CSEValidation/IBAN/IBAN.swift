public import CSECore

extension CSEError.Code {
    /// The IBAN's first two characters are not a known country code (ISO 13616-1).
    public static let ibanUnknownCountry = Self("iban.unknownCountry")
    /// The IBAN does not have its country's length.
    public static let ibanLength = Self("iban.length")
    /// The IBAN does not follow its country's BBAN structure.
    public static let ibanStructure = Self("iban.structure")
    /// The IBAN's ISO 7064 MOD 97-10 check digits are wrong.
    public static let ibanChecksum = Self("iban.checksum")
}

/// A valid International Bank Account Number (ISO 13616-1), stored in electronic format.
///
/// Construct one with ``init(_:acceptsExperimentalCountries:)``, which throws on anything that
/// ``check(_:acceptsExperimentalCountries:)`` rejects. To only ask *whether* a value is valid,
/// use the non-throwing, non-allocating ``check(_:acceptsExperimentalCountries:)`` or
/// ``IBANValidator``.
public struct IBAN: Hashable, Sendable, CustomStringConvertible {
    /// The IBAN in electronic format: upper case, no spaces, for example `GB82WEST12345698765432`.
    public let electronicFormat: String
    /// The country whose format the IBAN follows.
    public let country: IBANCountry

    /// Parses and validates an IBAN in print or electronic format.
    /// - Parameters:
    ///   - text: The IBAN; spaces are ignored and letters are case-folded.
    ///   - acceptsExperimentalCountries: Whether formats outside the SWIFT registry are accepted.
    /// - Throws: `CSEError` with code ``CSEError/Code/ibanUnknownCountry``,
    ///   ``CSEError/Code/ibanLength``, ``CSEError/Code/ibanStructure`` or
    ///   ``CSEError/Code/ibanChecksum``. The error never contains the value.
    public init(_ text: String, acceptsExperimentalCountries: Bool = true) throws(CSEError) {
        let result = IBAN.check(text, acceptsExperimentalCountries: acceptsExperimentalCountries)
        if let failure = result.failure {
            switch failure {
            case .unknownCountry: throw CSEError(.ibanUnknownCountry, "the country code has no IBAN format")
            case .length: throw CSEError(.ibanLength, "wrong length for the country", context: ["country": result.country?.code ?? "?"])
            case .structure:
                throw CSEError(
                    .ibanStructure, "a character is not allowed at its position", context: ["country": result.country?.code ?? "?"])
            default:
                throw CSEError(.ibanChecksum, "the MOD 97-10 check digits are wrong", context: ["country": result.country?.code ?? "?"])
            }
        }
        var bytes = [UInt8]()
        bytes.reserveCapacity(IBAN.maximumLength)
        for byte in text.utf8 where !(byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D) {
            bytes.append(byte &- 0x61 < 26 ? byte &- 0x20 : byte)
        }
        self.electronicFormat = String(decoding: bytes, as: UTF8.self)
        // A valid result always names its country.
        self.country = result.country ?? IBANRegistry.countries[0]
    }

    /// The two-letter country code, for example `GB`.
    public var countryCode: String { String(electronicFormat.utf8.prefix(2))! }
    /// The two check digits, for example `82`.
    public var checkDigits: String { String(electronicFormat.utf8.dropFirst(2).prefix(2))! }
    /// The Basic Bank Account Number: everything after the check digits.
    public var bban: String { String(electronicFormat.utf8.dropFirst(4))! }

    /// The print format: groups of four characters separated by single spaces
    /// (ISO 13616-1 §5.4), for example `GB82 WEST 1234 5698 7654 32`.
    public var printFormat: String {
        var out = [UInt8]()
        for (i, byte) in electronicFormat.utf8.enumerated() {
            if i > 0 && i % 4 == 0 { out.append(0x20) }
            out.append(byte)
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The electronic format.
    public var description: String { electronicFormat }
}
