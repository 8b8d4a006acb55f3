import CSEValidation
import Foundation
import Testing
import TestSupport

/// Vectors/cards/card-brands.json, read independently of the generated Swift.
enum CardVectors {
    struct File: Decodable {
        struct SecurityCode: Decodable { let name: String, length: Int }
        struct Brand: Decodable {
            let id: String, name: String, iin: [[String]], panLengths: [Int], gaps: [Int]
            let securityCode: SecurityCode, luhn: Bool, coBadges: [String]
        }
        let brands: [Brand]
    }

    static func brands() throws -> [File.Brand] { try VectorFiles.project(File.self, "cards/card-brands.json").brands }
}

@Suite("Card brands: embedded table equals Vectors/cards/card-brands.json")
struct CardBrandTableVectorTests {
    @Test("same brands, ranges, lengths, security codes and flags")
    func embeddedEqualsVectors() throws {
        let rows = try CardVectors.brands()
        #expect(CardBrand.all.count == rows.count)
        #expect(rows.count == 18)
        for (brand, row) in zip(CardBrand.all, rows) {
            let id = row.id
            #expect(brand.id == id)
            #expect(brand.name == row.name, "\(id)")
            let ranges = row.iin.map { "\($0[0])-\($0[1])" }
            #expect(brand.iinRanges.map { "\($0.first)-\($0.last)" } == ranges, "\(id)")
            #expect(brand.panLengths == row.panLengths, "\(id)")
            #expect(brand.gaps == row.gaps, "\(id)")
            #expect(brand.securityCode == CardSecurityCode(name: row.securityCode.name, length: row.securityCode.length), "\(id)")
            #expect(brand.usesLuhn == row.luhn, "\(id)")
            #expect(brand.coBadgeIDs == row.coBadges, "\(id)")
            #expect(CardBrand.withID(id) == brand, "\(id)")
        }
    }

    @Test("mada lists 113 BINs and Meeza the 4 APS ranges")
    func madaAndMeezaData() {
        #expect(CardBrand.mada.iinRanges.count == 113)
        #expect(
            CardBrand.meeza.iinRanges.map(\.description) == [
                "50780300–50780369", "50780830–50780899", "50780900–50780999", "50781000–50781029",
            ])
    }
}

@Suite("Card brand detection from a partial number")
struct CardBrandDetectionTests {
    let table = CardBrandTable.embedded

    @Test(
        "published test PANs are detected as their brand",
        arguments: [
            ("378282246310005", "american-express"), ("371449635398431", "american-express"),
            ("30569309025904", "diners-club"), ("38520000023237", "diners-club"),
            ("6011111111111117", "discover"), ("6011000990139424", "discover"),
            ("3530111333300000", "jcb"), ("3566002020360505", "jcb"),
            ("5555555555554444", "mastercard"), ("5105105105105100", "mastercard"), ("2223000048400011", "mastercard"),
            ("4111111111111111", "visa"), ("4012888888881881", "visa"), ("4242424242424242", "visa"),
        ])
    func publishedPANs(_ pan: String, _ brandID: String) {
        #expect(table.brands(forPartialNumber: pan).map(\.id) == [brandID], "\(CardBrand.maskedPAN(pan))")
    }

    @Test(
        "the most specific range wins",
        arguments: [
            ("504175", ["elo"]),  // Elo 504175 over Maestro 500000–504174/504176–…
            ("652150", ["rupay"]),  // RuPay 652150–652849 over Discover 65 and Maestro 6
            ("650052", ["troy"]),  // Troy over Discover 65
            ("637095", ["hiper"]),  // Hiper over Maestro 63
            ("606282", ["hipercard"]),
            ("506099", ["verve"]),  // Verve over Maestro
            ("9792", ["troy"]),
            ("6011", ["discover"]),
            ("65", ["discover"]),
            ("6", ["maestro"]),
            ("2200", ["mir"]),
            ("2221", ["mastercard"]), ("2720", ["mastercard"]),
            ("2220", []), ("2721", []),
            ("4", ["visa"]),
            ("5", []), ("3", []),
        ])
    func mostSpecific(_ number: String, _ expected: [String]) {
        #expect(table.brands(forPartialNumber: number).map(\.id) == expected, "\(number)")
    }

    @Test("mada co-badged with Visa or Mastercard reports both; 968xxx is mada only")
    func madaCoBadges() {
        #expect(table.brands(forPartialNumber: "4017 5700 0000 0000").map(\.id) == ["mada", "visa"])
        #expect(table.brands(forPartialNumber: "5297410000000000").map(\.id) == ["mada", "mastercard"])
        #expect(table.brands(forPartialNumber: "9682010000000000").map(\.id) == ["mada"])
        #expect(table.brands(forPartialNumber: "42689700").map(\.id) == ["mada", "visa"])
        #expect(table.brands(forPartialNumber: "426897").map(\.id) == ["visa"], "8-digit mada BIN needs 8 digits")
    }

    @Test(
        "Checkout.com mada rows: co-badge column agrees with detection",
        .enabled(if: TestPaths.sharedVectors != nil, "needs ../shared/vectors"))
    func checkoutMadaCSV() throws {
        let data = try #require(TestPaths.sharedFile("cards/checkoutcom-mada_live.csv"))
        let lines = String(decoding: data, as: UTF8.self).split(whereSeparator: \.isNewline).dropFirst()
        var checked = 0
        for (index, line) in lines.enumerated() {
            let cells = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            guard cells.count >= 4, cells[1].count == 6 else { continue }
            let found = table.brands(forPartialNumber: cells[1] + "0000000000").map(\.id)
            #expect(found.first == "mada", "row \(index + 2) BIN \(cells[1])")
            let label = cells[3].lowercased()
            if label.contains("visa") {
                #expect(found == ["mada", "visa"], "row \(index + 2) BIN \(cells[1]) \(cells[3])")
            } else if label.contains("local") {
                #expect(found == ["mada"], "row \(index + 2) BIN \(cells[1]) \(cells[3])")
            } else if label.contains("mastercard") {
                // Some "Co-badge MasterCard" BINs (58xxxx, 605141) lie outside every Mastercard
                // range of the brand table; those report mada alone.
                let inMastercardRange = CardBrand.mastercard.iinRanges.contains {
                    let prefix = UInt32(cells[1].prefix($0.digitCount))!
                    return UInt32($0.first)! <= prefix && prefix <= UInt32($0.last)!
                }
                #expect(found == (inMastercardRange ? ["mada", "mastercard"] : ["mada"]), "row \(index + 2) BIN \(cells[1])")
            }
            checked += 1
        }
        #expect(checked == 95)
    }

    @Test("Meeza: 8-digit ranges need 8 digits; 507809 is Meeza at 6")
    func meeza() {
        for (number, expected) in [
            ("50780300", ["meeza"]), ("50780369", ["meeza"]), ("50780370", ["maestro"]),
            ("50780829", ["maestro"]), ("50780830", ["meeza"]), ("50781029", ["meeza"]),
            ("50781030", ["maestro"]), ("507809", ["meeza"]), ("507803", ["maestro"]),
            ("5078090000000000000", ["meeza"]),
        ] {
            #expect(table.brands(forPartialNumber: number).map(\.id) == expected, "\(number)")
        }
    }

    @Test("a custom table: identical ranges are co-brands, ties go to the earlier brand")
    func customTable() throws {
        let a = CardBrand(
            id: "a", name: "A", iinRanges: [try #require(IINRange(first: "123", last: "124"))],
            panLengths: [16], securityCode: CardSecurityCode(name: "CVV", length: 3), usesLuhn: true)
        let b = CardBrand(
            id: "b", name: "B", iinRanges: [try #require(IINRange(first: "123", last: "124"))],
            panLengths: [16], securityCode: CardSecurityCode(name: "CVV", length: 3), usesLuhn: true)
        let c = CardBrand(
            id: "c", name: "C", iinRanges: [try #require(IINRange(prefix: "1"))],
            panLengths: [16], securityCode: CardSecurityCode(name: "CVV", length: 3), usesLuhn: true)
        let custom = CardBrandTable(brands: [c, a, b])
        #expect(custom.brands(forPartialNumber: "1235").map(\.id) == ["a", "b"])
        #expect(custom.brands(forPartialNumber: "12").map(\.id) == ["c"])
        #expect(custom.brands(forPartialNumber: "2").isEmpty)
        #expect(IINRange(first: "12", last: "3") == nil)
        #expect(IINRange(first: "5", last: "4") == nil)
        #expect(IINRange(prefix: "123456789") == nil)
        #expect(IINRange(prefix: "٤") == nil)
        #expect(IINRange(prefix: "") == nil)
    }

    @Test(
        "bad input detects nothing, never traps",
        arguments: [
            "", " ", "٤١١١", "4111٤", "4111-1111", "4111\u{0}1111", String(repeating: "x", count: 10_240), "\u{FEFF}4111",
        ])
    func badInput(_ value: String) {
        #expect(table.brands(forPartialNumber: value).isEmpty, "\(value.utf8.count) bytes")
        #expect(table.brand(forPartialNumber: value) == nil)
    }

    @Test("10 kB of digits is read like its first 8 digits")
    func longDigits() {
        #expect(table.brands(forPartialNumber: String(repeating: "4", count: 10_240)).map(\.id) == ["visa"])
    }
}
