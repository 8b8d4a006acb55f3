import CSECore
import CSEValidation
import Foundation
import Testing
import TestSupport

@Suite("ISO 4217: the embedded table equals Vectors/iso4217/iso4217.json")
struct CurrencyTableTests {
    /// Vectors/iso4217/iso4217.json.
    struct File: Decodable {
        struct Row: Decodable { let code: String, numeric: Int, minorUnits: Int?, name: String }
        let currencies: [Row]
    }

    @Test("same codes, numeric codes, minor units and names")
    func embeddedEqualsVectors() throws {
        let rows = try VectorFiles.project(File.self, "iso4217/iso4217.json").currencies.sorted { $0.code < $1.code }
        #expect(Currency.all.count == rows.count)
        #expect(rows.count == 178)
        for (currency, row) in zip(Currency.all, rows) {
            let code = row.code
            #expect(currency.code == code)
            #expect(currency.numericCode == row.numeric, "\(code)")
            #expect(currency.minorUnits == row.minorUnits, "\(code)")
            #expect(currency.name == row.name, "\(code)")
            #expect(Currency(code: code) == currency, "\(code)")
            #expect(Currency(numericCode: currency.numericCode) == currency, "\(code)")
        }
    }

    @Test("minor-unit counts match ISO 4217 List One (2026-01-01)")
    func minorUnitCounts() {
        let units = Currency.all.map(\.minorUnits)
        #expect(units.filter { $0 == 2 }.count == 139)
        #expect(units.filter { $0 == 0 }.count == 17)
        #expect(units.filter { $0 == 3 }.count == 7)
        #expect(units.filter { $0 == 4 }.count == 2)
        #expect(units.filter { $0 == nil }.count == 13)
    }

    @Test("lookups by code and numeric code")
    func lookups() throws {
        #expect(Currency(code: "AED")?.numericCode == 784)
        #expect(Currency(code: "jod")?.minorUnits == 3)
        #expect(Currency(numericCode: 8)?.code == "ALL")
        #expect(Currency(numericCode: 8)?.numericCodeString == "008")
        #expect(Currency(code: "XXY") == nil)
        #expect(Currency(code: "EU") == nil)
        #expect(Currency(code: "EURO") == nil)
        #expect(Currency(code: "") == nil)
        #expect(Currency(code: "ЕUR") == nil)  // Cyrillic Е
        #expect(Currency(numericCode: 0) == nil)
        #expect(Currency(numericCode: -1) == nil)
        #expect(Currency(numericCode: 1_000) == nil)
        #expect(throws: CSEError(.currencyUnknown, "")) { try Currency.named("ABC") }
    }
}

@Suite("Amounts: exact major ↔ minor conversion")
struct AmountConversionTests {
    @Test(
        "APS seed examples and ISO exponents",
        arguments: [
            ("500", "AED", Int64(50_000)), ("100", "JOD", 100_000), ("12.34", "EUR", 1234), ("12.3", "EUR", 1230),
            ("0.01", "EUR", 1), ("500", "JPY", 500), ("1.5", "KWD", 1500), ("1.2345", "CLF", 12_345),
            ("-0.05", "EUR", -5), ("0", "USD", 0), ("007.10", "GBP", 710),
            ("92233720368547758.07", "EUR", Int64.max), ("-92233720368547758.08", "EUR", Int64.min),
        ])
    func majorToMinor(_ major: String, _ code: String, _ minor: Int64) throws {
        #expect(try CurrencyAmount.minorAmount(fromMajor: major, currencyCode: code) == minor, "\(major) \(code)")
    }

    @Test(
        "minor → major formatting",
        arguments: [
            (Int64(50_000), "AED", "500.00"), (100_000, "JOD", "100.000"), (1234, "EUR", "12.34"), (5, "EUR", "0.05"),
            (-5, "EUR", "-0.05"), (500, "JPY", "500"), (0, "CLF", "0.0000"), (Int64.min, "EUR", "-92233720368547758.08"),
        ])
    func minorToMajor(_ minor: Int64, _ code: String, _ major: String) throws {
        #expect(try CurrencyAmount.majorString(fromMinor: minor, currencyCode: code) == major, "\(minor) \(code)")
        #expect(try CurrencyAmount.minorAmount(fromMajor: major, currencyCode: code) == minor, "round trip \(major)")
    }

    @Test(
        "more decimals than the currency allows is a typed error",
        arguments: [
            ("1.001", "EUR"), ("1.000", "EUR"), ("1.5", "JPY"), ("1.0001", "JOD"), ("0.00001", "CLF"),
        ])
    func tooManyDecimals(_ major: String, _ code: String) {
        #expect(throws: CSEError(.amountTooManyDecimals, "")) { try CurrencyAmount.minorAmount(fromMajor: major, currencyCode: code) }
    }

    @Test("unknown currency and currencies without a minor unit are typed errors")
    func unknownCurrency() {
        #expect(throws: CSEError(.currencyUnknown, "")) { try CurrencyAmount.minorAmount(fromMajor: "1", currencyCode: "XYZ") }
        #expect(throws: CSEError(.currencyUnknown, "")) { try CurrencyAmount.majorString(fromMinor: 1, currencyCode: "") }
        #expect(throws: CSEError(.currencyNoMinorUnits, "")) { try CurrencyAmount.minorAmount(fromMajor: "1", currencyCode: "XAU") }
        #expect(throws: CSEError(.currencyNoMinorUnits, "")) { try CurrencyAmount.majorString(fromMinor: 1, currencyCode: "XXX") }
    }

    @Test(
        "overflow is a typed error",
        arguments: [
            "92233720368547758.08", "-92233720368547758.09", "100000000000000000000", String(repeating: "9", count: 10_240),
        ])
    func overflow(_ major: String) {
        #expect(throws: CSEError(.amountOverflow, "")) { try CurrencyAmount.minorAmount(fromMajor: major, currencyCode: "EUR") }
    }

    @Test(
        "malformed amounts are typed errors, never traps",
        arguments: [
            "", "-", ".", "1.", ".5", "1,5", "1 000", "+1", "--1", "1e3", "0x10", "١٠٠", "1.2.3", "1\u{0}", " 1", "1 ",
            "NaN", String(repeating: "a", count: 10_240),
        ])
    func malformed(_ major: String) {
        #expect(throws: CSEError(.amountInvalidFormat, "")) { try CurrencyAmount.minorAmount(fromMajor: major, currencyCode: "EUR") }
    }
}
