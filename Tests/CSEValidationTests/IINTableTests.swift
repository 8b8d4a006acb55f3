import CSECore
import CSEValidation
import Foundation
import Testing

@Suite("IINTable: the documented CSV format, resolution and lookups")
struct IINTableTests {
    /// CRLF line endings except the last line, a comment, a blank line, quoted issuers.
    static let sample =
        [
            "# test table",
            "low,high,productId,country,cardType,issuer",
            "40000000,49999999,1,,Credit,",
            "401757,401757,mada,sa,debit,\"Bank Al-Jazira, Jeddah\"",
            "40175712,40175712,special,SA,Prepaid,\"Test \"\"Issuer\"\"\"",
            "",
            "22000000,22049999,3,RU,Debit,",
            "22000000,22049999,1,RU,,",
            "51000000,55999999,2,,Credit,\"Some \"\"Quoted\"\" Bank\"",
        ].joined(separator: "\r\n") + "\n"

    @Test("loads the documented format: header, comments, blank lines, CRLF, quotes")
    func loadsSample() throws {
        let table = try IINTable(csv: Self.sample)
        #expect(table.rangeCount == 6)
        let mada = table.iinDetails(forPartialNumber: "4017 5700 0000 0000", allowedProductIDs: ["mada"])
        #expect(mada.status == .supported)
        #expect(mada.productID == "mada")
        #expect(mada.countryCode == "SA")
        #expect(mada.cardType == .debit)
        #expect(mada.issuer == "Bank Al-Jazira, Jeddah")
        #expect(table.iinDetails(forPartialNumber: "5100000000", allowedProductIDs: []).issuer == "Some \"Quoted\" Bank")
    }

    @Test("narrowest range first; bounds of 6 digits cover the whole 8-digit block")
    func narrowestFirst() throws {
        let table = try IINTable(csv: Self.sample)
        let all: Set<String> = ["1", "2", "3", "mada", "special"]
        #expect(table.iinDetails(forPartialNumber: "4017571299", allowedProductIDs: all).productID == "special")
        #expect(table.iinDetails(forPartialNumber: "40175713", allowedProductIDs: all).productID == "mada")
        #expect(table.iinDetails(forPartialNumber: "40175799", allowedProductIDs: all).productID == "mada")
        #expect(table.iinDetails(forPartialNumber: "40175800", allowedProductIDs: all).productID == "1")
        #expect(table.iinDetails(forPartialNumber: "401756", allowedProductIDs: all).productID == "1")
        // Six or seven digits use the first 6: the 8-digit "special" range cannot answer.
        #expect(table.iinDetails(forPartialNumber: "4017571", allowedProductIDs: all).productID == "mada")
        #expect(table.iinDetails(forPartialNumber: "401757", allowedProductIDs: all).productID == "mada")
        #expect(table.iinDetails(forPartialNumber: "40175712", allowedProductIDs: all).cardType == .prepaid)
    }

    @Test("identical ranges become co-brands (reference §4 test response)")
    func coBrands() throws {
        let table = try IINTable(csv: Self.sample)
        let details = table.iinDetails(forPartialNumber: "22000000", allowedProductIDs: ["1"])
        #expect(details.productID == "3")
        #expect(details.status == .existingButNotAllowed)
        #expect(details.countryCode == "RU")
        #expect(details.cardType == .debit)
        #expect(details.coBrands == [IINCoBrand(productID: "1", isAllowedInContext: true, cardType: nil)])
        #expect(table.iinDetails(forPartialNumber: "22", allowedProductIDs: ["1"]) == .notEnoughDigits)
        #expect(table.iinDetails(forPartialNumber: "01234", allowedProductIDs: ["1"]) == .notEnoughDigits)
    }

    @Test(
        "statuses",
        arguments: [
            ("4111111111111111", IINStatus.supported), ("5100000000000000", .existingButNotAllowed),
            ("9999999999", .unknown), ("411", .notEnoughDigits), ("41111", .notEnoughDigits), ("", .notEnoughDigits),
            ("4111 11", .supported), ("٤١١١١١١١", .unknown), ("4111-1111", .unknown), ("4111\u{0}1111", .unknown),
        ])
    func statuses(_ number: String, _ status: IINStatus) throws {
        let table = try IINTable(csv: Self.sample)
        #expect(table.iinDetails(forPartialNumber: number, allowedProductIDs: ["1"]).status == status, "\(number.utf8.count) bytes")
    }

    @Test("10 kB inputs: digits use the first 8, anything else is unknown")
    func longInputs() throws {
        let table = try IINTable(csv: Self.sample)
        #expect(table.iinDetails(forPartialNumber: String(repeating: "4", count: 10_240), allowedProductIDs: ["1"]).status == .supported)
        #expect(table.iinDetails(forPartialNumber: String(repeating: "a", count: 10_240), allowedProductIDs: ["1"]).status == .unknown)
    }

    @Test("equal widths that overlap: the earlier row answers")
    func equalWidthTie() throws {
        let table = try IINTable(csv: "100000,199999,a,,,\n150000,249999,b,,,\n")
        #expect(table.iinDetails(forPartialNumber: "160000", allowedProductIDs: []).productID == "a")
        #expect(table.iinDetails(forPartialNumber: "210000", allowedProductIDs: []).productID == "b")
        #expect(table.iinDetails(forPartialNumber: "099999", allowedProductIDs: []).status == .unknown)
        #expect(table.iinDetails(forPartialNumber: "250000", allowedProductIDs: []).status == .unknown)
    }

    @Test(
        "malformed rows report their 1-based line",
        arguments: [
            ("400000,499999,1,,,\n4000,499999,1,,,\n", 2, "low"),
            ("400000,499999,1,,,\n400000,4999999999,1,,,\n", 2, "high"),
            ("# c\n\n400000,49999a,1,,,\n", 3, "high"),
            ("500000,499999,1,,,\n", 1, "high"),
            ("400000,499999,,,,\n", 1, "productId"),
            ("400000,499999,a b,,,\n", 1, "productId"),
            ("400000,499999,1,USA,,\n", 1, "country"),
            ("400000,499999,1,U1,,\n", 1, "country"),
            ("400000,499999,1,,,\n400000,499999,1,,\n", 2, "row"),
            ("400000,499999,1,,,,\n", 1, "row"),
            ("400000,499999,1,,,\"open\n", 1, "issuer"),
            ("400000,499999,1,,,x\"y\n", 1, "issuer"),
            ("400000,499999,1,,,\"a\"b\n", 1, "issuer"),
            ("400000,499999,1,,,a\u{0}b\n", 1, "issuer"),
            ("٤٠٠٠٠٠,499999,1,,,\n", 1, "low"),
        ])
    func malformedRows(_ csv: String, _ line: Int, _ field: String) {
        #expect {
            _ = try IINTable(csv: csv)
        } throws: { error in
            guard let error = error as? CSEError else { return false }
            return error.code == .iinMalformedRow && error.context["line"] == String(line) && error.context["field"] == field
        }
    }

    @Test("invalid UTF-8 in the issuer is a malformed row")
    func invalidUTF8() {
        var bytes = Array("400000,499999,1,,,ok\n400000,499999,1,,,".utf8)
        bytes += [0xC0, 0x80, 0x0A]  // overlong NUL
        #expect(throws: CSEError(.iinMalformedRow, "")) { try IINTable(csv: bytes) }
        let lone = Array("400000,499999,1,,,".utf8) + [0xED, 0xA0, 0x80]  // a UTF-16 surrogate
        #expect(throws: CSEError(.iinMalformedRow, "")) { try IINTable(csv: lone) }
    }

    @Test("limits: line length and row count are enforced with typed errors")
    func limits() {
        let long = "400000,499999,1,,," + String(repeating: "x", count: 200) + "\n"
        #expect {
            _ = try IINTable(csv: long, limits: IINTable.Limits(maximumLineLength: 100))
        } throws: { ($0 as? CSEError)?.code == .iinLineTooLong && ($0 as? CSEError)?.context["line"] == "1" }
        let rows = String(repeating: "400000,499999,1,,,\n", count: 11)
        #expect {
            _ = try IINTable(csv: rows, limits: IINTable.Limits(maximumRows: 10))
        } throws: { ($0 as? CSEError)?.code == .iinTooManyRows && ($0 as? CSEError)?.context["line"] == "11" }
        #expect(throws: CSEError(.iinLineTooLong, "")) { try IINTable(csv: String(repeating: "1", count: 10_240)) }
        #expect(throws: CSEError(.iinMalformedRow, "")) { try IINTable(csv: String(repeating: "\u{0}", count: 100)) }
    }

    @Test("an empty file is an empty table")
    func emptyFile() throws {
        let table = try IINTable(csv: "")
        #expect(table.rangeCount == 0)
        #expect(table.iinDetails(forPartialNumber: "41111111", allowedProductIDs: []) == .unknown)
    }

    @Test("loads from a file; a missing file is a typed error")
    func fileLoading() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("iin-\(UUID().uuidString).csv").path
        try Data(Self.sample.utf8).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(try IINTable(contentsOfFile: path).rangeCount == 6)
        #expect(throws: CSEError(.iinFileUnreadable, "")) { try IINTable(contentsOfFile: path + ".missing") }
    }

    @Test("random overlapping tables agree with a brute-force narrowest-first search", arguments: [1, 2, 3, 4, 5, 6, 7, 8])
    func randomAgainstBruteForce(seed: UInt64) throws {
        var rng = SplitMix(seed: seed)
        var rows = [(low: UInt32, high: UInt32, product: String)]()
        var csv = ""
        for i in 0..<300 {
            // Keep everything inside 40000000–40099999 so ranges overlap a lot.
            let digits = [6, 7, 8][Int(rng.next() % 3)]
            let scale = UInt32([100, 10, 1][digits - 6])
            let span = UInt32(100_000) / scale
            let a = UInt32(rng.next() % UInt64(span)), b = UInt32(rng.next() % UInt64(span))
            let lowText = String(400_000 * (UInt32(1000) / scale) / 10 + min(a, b))
            let highText = rng.next() % 5 == 0 ? lowText : String(400_000 * (UInt32(1000) / scale) / 10 + max(a, b))
            let low = UInt32(lowText)! * scale, high = UInt32(highText)! * scale + scale - 1
            let product = "p\(i % 37)"
            rows.append((low, high, product))
            csv += "\(lowText),\(highText),\(product),,,\n"
            if rng.next() % 10 == 0 {  // an identical range: a co-brand
                rows.append((low, high, "co\(i)"))
                csv += "\(lowText),\(highText),co\(i),,,\n"
            }
        }
        let table = try IINTable(csv: csv)
        func expected(blockLow: UInt32, blockHigh: UInt32) -> (String?, [String]) {
            var best: Int?
            for (i, row) in rows.enumerated() where row.low <= blockLow && row.high >= blockHigh {
                if let b = best {
                    let w = row.high - row.low, bw = rows[b].high - rows[b].low
                    if w < bw { best = i }
                } else {
                    best = i
                }
            }
            guard let best else { return (nil, []) }
            var co = [String]()
            for (i, row) in rows.enumerated()
            where i > best && row.low == rows[best].low && row.high == rows[best].high
                && row.product != rows[best].product && !co.contains(row.product)
            { co.append(row.product) }
            return (rows[best].product, co)
        }
        for _ in 0..<400 {
            let key = 40_000_000 + UInt32(rng.next() % 110_000)
            let (product, co) = expected(blockLow: key, blockHigh: key)
            let got = table.iinDetails(forPartialNumber: String(key) + "1234", allowedProductIDs: [])
            #expect(got.productID == product && got.coBrands.map(\.productID) == co, "seed \(seed) key \(key)")
            let block = key / 100 * 100
            let (product6, co6) = expected(blockLow: block, blockHigh: block + 99)
            let got6 = table.iinDetails(forPartialNumber: String(key / 100), allowedProductIDs: [])
            #expect(got6.productID == product6 && got6.coBrands.map(\.productID) == co6, "seed \(seed) block \(key / 100)")
        }
    }

    @Test("200 000 rows load and answer (synthetic, disjoint 8-digit ranges)")
    func largeTable() throws {
        var csv = [UInt8]()
        csv.reserveCapacity(200_000 * 40)
        for i in 0..<200_000 {
            let low = 30_000_000 + i * 300
            csv += Array("\(low),\(low + 199),\(i % 500),GB,Debit,Issuer \(i % 1000)\n".utf8)
        }
        let table = try IINTable(csv: csv)
        #expect(table.rangeCount == 200_000)
        let details = table.iinDetails(forPartialNumber: "30000450", allowedProductIDs: ["1"])
        #expect(details.productID == "1" && details.issuer == "Issuer 1" && details.status == .supported)
        #expect(table.iinDetails(forPartialNumber: "30000250", allowedProductIDs: []).status == .unknown)
        #expect(table.approximateMemoryBytes / table.rangeCount <= 48)
    }
}

@Suite("IIN lookup against the embedded brand table")
struct IINBrandLookupTests {
    let table = CardBrandTable.embedded

    @Test("mada + Visa: product, co-brand and allowed flags")
    func madaVisa() {
        let details = table.iinDetails(forPartialNumber: "4017 5712 3456", allowedProductIDs: ["visa"])
        #expect(details.productID == "mada")
        #expect(details.status == .existingButNotAllowed)
        #expect(details.coBrands == [IINCoBrand(productID: "visa", isAllowedInContext: true, cardType: nil)])
        #expect(table.iinDetails(forPartialNumber: "401757", allowedProductIDs: ["mada"]).status == .supported)
    }

    @Test(
        "statuses",
        arguments: [
            ("4111111111111111", IINStatus.supported), ("378282", .existingButNotAllowed), ("99999999", .unknown),
            ("41111", .notEnoughDigits), ("", .notEnoughDigits), ("٤١١١١١١١", .unknown), ("4111 1111 1111", .supported),
        ])
    func statuses(_ number: String, _ status: IINStatus) {
        #expect(table.iinDetails(forPartialNumber: number, allowedProductIDs: ["visa"]).status == status, "\(number.utf8.count) bytes")
    }

    @Test("8 digits when available, else 6 (7 digits use 6)")
    func precision() {
        #expect(table.iinDetails(forPartialNumber: "5078030", allowedProductIDs: []).productID == "maestro")
        #expect(table.iinDetails(forPartialNumber: "50780300", allowedProductIDs: []).productID == "meeza")
        #expect(table.iinDetails(forPartialNumber: "4268970", allowedProductIDs: []).productID == "visa")
        #expect(table.iinDetails(forPartialNumber: "42689700", allowedProductIDs: []).productID == "mada")
    }
}

/// A small deterministic generator for property tests.
struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
