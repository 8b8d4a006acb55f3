// Fuzz target `iin`: BIN/IIN table CSV loading and lookups. Input: `csv NUL queries` (queries
// separated by `,`). Differential: for tables without quotes, every lookup is checked against
// a naive model of the documented resolution rules (docs/IIN-CSV.md): the narrowest covering
// group answers, ties go to the earlier row, 6–7 digit lookups need a range covering the whole
// `dddddd00…dddddd99` block. Metamorphic: digits after the 8th (or the 6th, below 8) never
// change the answer.
import CSECore
import CSEValidation

let iinLimits = IINTable.Limits(maximumLineLength: 256, maximumRows: 2_000, maximumFileBytes: 1 << 20)
let iinCodes: Set<CSEError.Code> = [.iinMalformedRow, .iinLineTooLong, .iinTooManyRows, .iinFileTooLarge]

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzIIN(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    var input = FuzzInput(data, size)
    let csv = input.field()
    let queries = input.rest().split(separator: UInt8(ascii: ",")).prefix(8).map { text(Array($0)) }
    let table: IINTable
    do throws(CSEError) {
        table = try IINTable(csv: csv, limits: iinLimits)
    } catch {
        require(iinCodes.contains(error.code), "unexpected code \(error.code)")
        require(error.context["line"] != nil || error.code == .iinFileTooLarge, "error without a line")
        return 0
    }
    let model = NaiveIINModel(csv)
    if let model { require(model.rows.count == table.rangeCount, "row count differs from the model") }
    var allQueries = queries
    for row in model?.rows.prefix(4) ?? [] {
        allQueries += [String(row.low), String(row.high), String(String(row.low).prefix(6)), String(String(row.high).prefix(7))]
    }
    let allowed: Set<String> = Set((model?.rows.prefix(2) ?? []).map(\.product))
    for query in allQueries {
        let details = table.iinDetails(forPartialNumber: query, allowedProductIDs: allowed)
        if let product = details.productID {
            require([IINStatus.supported, .existingButNotAllowed].contains(details.status), "a product without a status")
            require((details.status == .supported) == allowed.contains(product), "status disagrees with the allowed set")
        }
        let digits = query.filter { $0 != " " }
        if digits.count >= 6, digits.allSatisfy({ $0.isASCII && $0.isNumber }) {
            let cut = digits.count >= 8 ? 8 : 6
            let shorter = table.iinDetails(forPartialNumber: String(digits.prefix(cut)), allowedProductIDs: allowed)
            require(shorter == details, "digits beyond the \(cut)th changed the answer")
            if let model {
                let key = Int(digits.prefix(cut))!
                require(details.productID == model.product(forKey: key, digits: cut), "lookup differs from the model")
            }
        }
    }
    return 0
}

/// The documented resolution rules, written naively (quote-free tables only).
struct NaiveIINModel {
    struct Row { let low: Int; let high: Int; let product: String }
    var rows: [Row] = []

    init?(_ csv: [UInt8]) {
        guard !csv.contains(UInt8(ascii: "\"")) else { return nil }
        var sawData = false
        // Split bytes, not Characters: "\r\n" is one Character in Swift.
        for rawLine in csv.split(separator: 0x0A, omittingEmptySubsequences: false) {
            let line = Substring(text(Array(rawLine.last == 0x0D ? rawLine.dropLast() : rawLine)))
            if line.isEmpty || line.hasPrefix("#") { continue }
            if !sawData && line.lowercased() == IINTable.csvHeader.lowercased() { sawData = true; continue }
            sawData = true
            let fields = line.split(separator: ",", omittingEmptySubsequences: false)
            guard fields.count == 6,
                let low = Int(fields[0] + String(repeating: "0", count: max(0, 8 - fields[0].count))),
                let high = Int(fields[1] + String(repeating: "9", count: max(0, 8 - fields[1].count)))
            else { return nil }
            rows.append(Row(low: low, high: high, product: String(fields[2])))
        }
    }

    /// The product for the first `digits` (8 or 6) digits of a number.
    func product(forKey key: Int, digits: Int) -> String? {
        let (from, to) = digits == 8 ? (key, key) : (key * 100, key * 100 + 99)
        var best: Row?
        for row in rows where row.low <= from && row.high >= to {
            // Rows with identical bounds form one group answered by its first row; a strictly
            // narrower range wins, ties keep the earlier row.
            if let current = best, current.high - current.low <= row.high - row.low { continue }
            best = row
        }
        return best?.product
    }
}
