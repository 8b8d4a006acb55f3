public import CSECore

extension CSEError.Code {
    /// The currency code is not in ISO 4217 List One.
    public static let currencyUnknown = Self("currency.unknown")
    /// The currency has no minor unit (ISO 4217 gives `N.A.`, for example `XAU`), so amounts in
    /// it cannot be converted between major and minor units.
    public static let currencyNoMinorUnits = Self("currency.noMinorUnits")
}

/// A currency of ISO 4217 List One: alphabetic code, numeric code and minor units.
///
/// The embedded table (``all``) is generated from `Vectors/iso4217/iso4217.json` by
/// `Scripts/gen-tables.py`; see `Vectors/PROVENANCE.md`.
public struct Currency: Hashable, Sendable, CustomStringConvertible {
    /// The alphabetic code, for example `EUR`.
    public let code: String
    /// The numeric code, for example 978 (written with three digits, `978`, `008`, …).
    public let numericCode: Int
    /// The number of decimals of the minor unit (the exponent): 2 for EUR, 0 for JPY, 3 for JOD,
    /// 4 for CLF; `nil` where ISO 4217 gives `N.A.` (precious metals, XDR, XXX, …).
    public let minorUnits: Int?
    /// The currency's name as ISO 4217 spells it.
    public let name: String

    init(code: String, numericCode: Int, minorUnits: Int?, name: String) {
        self.code = code
        self.numericCode = numericCode
        self.minorUnits = minorUnits
        self.name = name
    }

    /// Every currency of the embedded table, sorted by alphabetic code.
    public static var all: [Currency] { table }

    /// The currency with an alphabetic code (ASCII letters, either case), or `nil`.
    /// - Parameter code: An ISO 4217 alphabetic code such as `AED`.
    public init?(code: String) {
        guard let index = CurrencyIndex.shared.index(ofCode: code) else { return nil }
        self = Currency.table[index]
    }

    /// The currency with a numeric code, or `nil`.
    /// - Parameter numericCode: An ISO 4217 numeric code such as 784.
    public init?(numericCode: Int) {
        guard (0..<1000).contains(numericCode) else { return nil }
        let entry = CurrencyIndex.shared.byNumeric[numericCode]
        guard entry >= 0 else { return nil }
        self = Currency.table[Int(entry)]
    }

    /// The currency with an alphabetic code.
    /// - Parameter code: An ISO 4217 alphabetic code such as `JOD`.
    /// - Throws: `CSEError` ``CSEError/Code/currencyUnknown`` when the code is not in the table.
    package static func named(_ code: String) throws(CSEError) -> Currency {
        guard let currency = Currency(code: code) else {
            throw CSEError(
                .currencyUnknown, "not an ISO 4217 List One currency code",
                context: ["code": SecretMasking.echoIdentifier(code)])
        }
        return currency
    }

    /// The numeric code with three digits, for example `008`.
    package var numericCodeString: String {
        let digits = String(numericCode)
        return String(repeating: "0", count: max(0, 3 - digits.count)) + digits
    }

    /// `code`.
    public var description: String { code }
}

/// Lookup indexes over the embedded table, built once.
struct CurrencyIndex: Sendable {
    /// Table index for each `(letter, letter, letter)` triple; -1 when unknown.
    let byLetters: [Int16]
    /// Table index per numeric code 0…999; -1 when unknown.
    let byNumeric: [Int16]

    static let shared = CurrencyIndex()

    init() {
        var letters = [Int16](repeating: -1, count: 26 * 26 * 26)
        var numeric = [Int16](repeating: -1, count: 1000)
        for (i, currency) in Currency.table.enumerated() {
            let b = Array(currency.code.utf8)
            letters[(Int(b[0] - 65) * 26 + Int(b[1] - 65)) * 26 + Int(b[2] - 65)] = Int16(i)
            numeric[currency.numericCode] = Int16(i)
        }
        self.byLetters = letters
        self.byNumeric = numeric
    }

    func index(ofCode code: String) -> Int? {
        var key = 0
        var count = 0
        for byte in code.utf8 {
            let letter = (byte & 0xDF) &- 65
            guard count < 3, letter < 26, byte & 0x80 == 0 else { return nil }
            key = key * 26 + Int(letter)
            count += 1
        }
        guard count == 3, byLetters[key] >= 0 else { return nil }
        return Int(byLetters[key])
    }
}
