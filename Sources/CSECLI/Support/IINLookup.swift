import CSECore
import CSEValidation

/// The table `cse iin` answers from, with the allow-list applied.
struct IINLookup: Sendable {
    private let table: any IINLookupTable
    private let allowed: Set<String>?

    /// The largest IIN table file read.
    static let maximumTableBytes = 512 << 20

    /// Loads the table at `tablePath`, or uses the embedded card-brand table.
    /// - Throws: `cli.file` when the file cannot be read, `iin.*` when it does not parse.
    init(tablePath: String?, allowed: Set<String>?) throws(CSEError) {
        if let tablePath {
            table = try IINTable(csv: try Files.read(tablePath, limit: Self.maximumTableBytes))
        } else {
            table = CardBrandTable.embedded
        }
        self.allowed = allowed
    }

    /// The details for `value`: 1–19 ASCII digits, spaces ignored.
    /// - Throws: `cli.notDigits` for anything else (the value is not echoed).
    func details(for value: String) throws(CSEError) -> IINDetails {
        var digits = 0
        for byte in value.utf8 where byte != 0x20 {
            guard byte.isASCIIDigit else {
                throw CSEError(.cliNotDigits, "the input is not a card number: only digits and spaces are accepted")
            }
            digits += 1
        }
        guard (1...19).contains(digits) else {
            throw CSEError(.cliNotDigits, "a card number has 1 to 19 digits", context: ["digits": String(digits)])
        }
        return table.iinDetails(forPartialNumber: value, allowedProductIDs: allowed)
    }
}

extension String {
    /// The string without leading and trailing ASCII spaces.
    var trimmingSpaces: String {
        var slice = Substring(self)
        while slice.first == " " { slice.removeFirst() }
        while slice.last == " " { slice.removeLast() }
        return String(slice)
    }
}
