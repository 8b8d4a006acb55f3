/// The validator's precomputed view of the embedded IBAN table: a 26×26 country-code index and
/// one flat array of BBAN character classes, so a check does no hashing and no `String` work.
/// A class, so taking the shared instance costs one reference count, not one per array.
final class IBANRegistry: Sendable {
    /// Country index + 1 for each `(first letter, second letter)` pair; 0 when unknown.
    let countryIndex: [UInt8]
    /// Per country: IBAN length.
    let lengths: [UInt8]
    /// Per country: start of its BBAN classes in ``classes``.
    let classOffsets: [UInt16]
    /// Per country: whether it is in the SWIFT registry.
    let inRegistry: [Bool]
    /// BBAN character classes of every country, concatenated (0 digit, 1 letter, 2 alphanumeric).
    let classes: [UInt8]

    static let shared = IBANRegistry(countries)

    init(_ countries: [IBANCountry]) {
        var index = [UInt8](repeating: 0, count: 26 * 26)
        var lengths = [UInt8]()
        var offsets = [UInt16]()
        var inRegistry = [Bool]()
        var classes = [UInt8]()
        for (i, country) in countries.enumerated() {
            let letters = Array(country.code.utf8)
            index[Int(letters[0] - 65) * 26 + Int(letters[1] - 65)] = UInt8(i + 1)
            lengths.append(UInt8(country.length))
            offsets.append(UInt16(classes.count))
            inRegistry.append(country.isInSWIFTRegistry)
            for group in country.bban {
                classes.append(contentsOf: repeatElement(group.characterClass.tableCode, count: group.length))
            }
        }
        self.countryIndex = index
        self.lengths = lengths
        self.classOffsets = offsets
        self.inRegistry = inRegistry
        self.classes = classes
    }

    /// The table index of a two-letter code (either case), or `nil`.
    func index(ofCountryCode code: String) -> Int? {
        let bytes = Array(code.utf8)
        guard bytes.count == 2 else { return nil }
        let a = bytes[0] & 0xDF, b = bytes[1] & 0xDF
        guard a &- 65 < 26, b &- 65 < 26 else { return nil }
        let entry = countryIndex[Int(a - 65) * 26 + Int(b - 65)]
        return entry == 0 ? nil : Int(entry) - 1
    }
}
