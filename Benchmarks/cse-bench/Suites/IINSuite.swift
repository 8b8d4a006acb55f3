import CSECore
import CSEValidation

/// IIN lookups in a generated table of 1,000,000 ranges, and loading that table from CSV.
enum IINSuite {
    static let rangeCount = 1_000_000

    static var definitions: [Definition] {
        [
            Definition("iin-lookup/1M") { fixtures in lookup(fixtures) },
            Definition("iin-load/1M") { fixtures in load(fixtures) },
        ]
    }

    /// A 16-digit lookup per operation, cycling through 4,096 PANs: three in four start inside a
    /// generated 8-digit range; the fourth falls in the gap at the end of its block, which only
    /// the 6-digit rows (one block in ten) cover.
    static func lookup(_ fixtures: Fixtures) -> Benchmark {
        let table = fixtures.iinTable
        var generator = SplitMix64(seed: 7)
        let pans: [String] = (0..<4_096).map { index in
            let block = generator.next() % UInt64(rangeCount)
            let offset = index % 4 == 3 ? 99 : 20 + generator.next() % 40
            let iin = block * 100 + offset
            let tail = generator.next() % 100_000_000
            return pad(iin, 8) + pad(tail, 8)
        }
        let allowed: Set<String> = ["1", "3", "117", "visa"]
        let hits = pans.filter { table.iinDetails(forPartialNumber: $0, allowedProductIDs: allowed).productID != nil }.count
        guard hits > pans.count / 2 else { fatalError("iin-lookup setup: only \(hits) of \(pans.count) PANs hit") }
        var cursor = 0
        return Benchmark("iin-lookup/1M", extras: [("hit_percent", Double(hits) * 100 / Double(pans.count))]) { iterations in
            for _ in 0..<iterations {
                blackHole(table.iinDetails(forPartialNumber: pans[cursor], allowedProductIDs: allowed))
                cursor = (cursor + 1) & 4_095
            }
        }
    }

    /// `IINTable(csv:)` of the whole generated file; reports the table's bytes per range.
    static func load(_ fixtures: Fixtures) -> Benchmark {
        let csv = fixtures.iinCSV
        let table = fixtures.iinTable
        let bytesPerRange = Double(table.approximateMemoryBytes) / Double(table.rangeCount)
        return Benchmark(
            "iin-load/1M", oneShot: true,
            extras: [("bytes_per_range", bytesPerRange), ("csv_mib", Double(csv.count) / 1_048_576)]
        ) { iterations in
            for _ in 0..<iterations {
                blackHole(mustSucceed { () throws(CSEError) in try IINTable(csv: csv) }.rangeCount)
            }
        }
    }

    /// The CSV text: 1,000,000 rows, one per 100-IIN block of the 8-digit space. Nine in ten are
    /// 8-digit ranges from offset 0–19 to 60–98 of their block; one in ten is a whole 6-digit block (so it also answers
    /// 6- and 7-digit lookups). 50 products, 20 countries, 3 card types, 2,000 issuers.
    static func generateCSV() -> [UInt8] {
        let products =
            ["1", "2", "3", "117", "125", "128", "130", "132", "visa", "mastercard"]
            + (0..<40).map { "product-\($0)" }
        let countries = [
            "NL", "BE", "DE", "FR", "GB", "US", "SA", "ES", "IT", "PL",
            "SE", "NO", "DK", "FI", "AT", "CH", "IE", "PT", "CZ", "",
        ]
        let types = ["Credit", "Debit", "Prepaid"]
        var generator = SplitMix64(seed: 1)
        var out: [UInt8] = []
        out.reserveCapacity(rangeCount * 48)
        out.append(contentsOf: (IINTable.csvHeader + "\n").utf8)
        for block in 0..<UInt64(rangeCount) {
            let r = generator.next()
            if block % 10 == 9 {
                let prefix = pad(block, 6)
                out.append(contentsOf: "\(prefix),\(prefix),".utf8)
            } else {
                let low = block * 100 + r % 20
                let high = block * 100 + 60 + (r >> 8) % 39
                out.append(contentsOf: "\(pad(low, 8)),\(pad(high, 8)),".utf8)
            }
            out.append(contentsOf: products[Int((r >> 16) % UInt64(products.count))].utf8)
            out.append(UInt8(ascii: ","))
            out.append(contentsOf: countries[Int((r >> 24) % UInt64(countries.count))].utf8)
            out.append(UInt8(ascii: ","))
            out.append(contentsOf: types[Int((r >> 32) % 3)].utf8)
            out.append(contentsOf: ",Issuing Bank \((r >> 40) % 2_000)\n".utf8)
        }
        return out
    }

    static func pad(_ value: UInt64, _ width: Int) -> String {
        let digits = String(value)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }
}

extension Fixtures {
    /// The generated CSV, built once.
    var iinCSV: [UInt8] {
        if let cached = iinCache.csv { return cached }
        let csv = IINSuite.generateCSV()
        iinCache.csv = csv
        return csv
    }

    /// The table loaded from ``iinCSV``, built once.
    var iinTable: IINTable {
        if let cached = iinCache.table { return cached }
        let table = mustSucceed { () throws(CSEError) in try IINTable(csv: iinCSV) }
        iinCache.table = table
        return table
    }
}

/// Storage for the IIN fixtures.
final class IINCache {
    var csv: [UInt8]?
    var table: IINTable?
}
