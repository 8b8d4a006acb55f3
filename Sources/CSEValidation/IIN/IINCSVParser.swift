import CSECore

/// The rows of an IIN CSV file after validation, in file order, with strings interned.
struct IINCSVRows {
    var lows: [UInt32] = []
    var highs: [UInt32] = []
    var products: [UInt32] = []
    var countries: [UInt16] = []
    var cardTypes: [UInt16] = []
    var issuers: [UInt32] = []
    var productNames = ByteInterner()
    var countryNames = ByteInterner()
    var cardTypeNames = ByteInterner()
    var issuerNames = ByteInterner()

    /// Parses the whole file. See ``IINTable`` for the format.
    init(parsing bytes: UnsafeBufferPointer<UInt8>, limits: IINTable.Limits) throws(CSEError) {
        // Id 0 is the empty string in every column, so "unknown" needs no separate flag.
        _ = countryNames.intern(UnsafeBufferPointer(start: nil, count: 0))
        _ = cardTypeNames.intern(UnsafeBufferPointer(start: nil, count: 0))
        _ = issuerNames.intern(UnsafeBufferPointer(start: nil, count: 0))
        var lineStart = 0
        var line = 0
        var sawData = false
        let end = bytes.count
        var fields = [Range<Int>](repeating: 0..<0, count: 6)
        var unquoted = [UInt8]()
        var sameBoundsRun = 0
        while lineStart < end {
            line += 1
            var lineEnd = lineStart
            while lineEnd < end && bytes[lineEnd] != 0x0A { lineEnd += 1 }
            let nextLine = lineEnd + 1
            if lineEnd > lineStart && bytes[lineEnd - 1] == 0x0D { lineEnd -= 1 }
            guard lineEnd - lineStart <= limits.maximumLineLength else {
                throw CSEError(
                    .iinLineTooLong, "line longer than the limit",
                    context: ["line": String(line), "limit": String(limits.maximumLineLength)])
            }
            defer { lineStart = nextLine }
            if lineEnd == lineStart || bytes[lineStart] == UInt8(ascii: "#") { continue }
            let text = UnsafeBufferPointer(rebasing: bytes[lineStart..<lineEnd])
            if !sawData {
                sawData = true
                if IINCSVRows.isHeader(text) { continue }
            }
            guard lows.count < limits.maximumRows else {
                throw CSEError(
                    .iinTooManyRows, "more rows than the limit",
                    context: ["line": String(line), "limit": String(limits.maximumRows)])
            }
            try parseRow(text, line: line, fields: &fields, scratch: &unquoted)
            // Co-brand rows usually follow their product row: a run of equal bounds longer than
            // the limit is refused here, before the rest of a hostile file is parsed (the load
            // checks every group again after sorting).
            let last = lows.count - 1
            if last > 0 && lows[last] == lows[last - 1] && highs[last] == highs[last - 1] {
                sameBoundsRun += 1
                guard sameBoundsRun <= limits.maximumCoBrandsPerRange else {
                    throw CSEError(
                        .iinTooManyCoBrands, "a range has more co-brand rows than the limit",
                        context: ["line": String(line), "limit": String(limits.maximumCoBrandsPerRange)])
                }
            } else {
                sameBoundsRun = 0
            }
        }
    }

    private static let headerBytes = Array(IINTable.csvHeader.utf8)

    private static func isHeader(_ text: UnsafeBufferPointer<UInt8>) -> Bool {
        guard text.count == headerBytes.count else { return false }
        for i in 0..<text.count where text[i] | 0x20 != headerBytes[i] | 0x20 { return false }
        return true
    }

    private static func malformed(_ line: Int, _ field: String, _ reason: String) -> CSEError {
        CSEError(.iinMalformedRow, reason, context: ["line": String(line), "field": field])
    }

    private mutating func parseRow(
        _ text: UnsafeBufferPointer<UInt8>, line: Int, fields: inout [Range<Int>],
        scratch: inout [UInt8]
    ) throws(CSEError) {
        // Split on commas; a field may be double-quoted (RFC 4180), then `""` is a quote.
        scratch.removeAll(keepingCapacity: true)
        var count = 0
        var i = 0
        var quotedFields = [Int: Range<Int>]()
        while true {
            guard count < 6 else { throw IINCSVRows.malformed(line, "row", "more than 6 fields") }
            if i < text.count && text[i] == UInt8(ascii: "\"") {
                let start = scratch.count
                i += 1
                var closed = false
                while i < text.count {
                    if text[i] == UInt8(ascii: "\"") {
                        if i + 1 < text.count && text[i + 1] == UInt8(ascii: "\"") {
                            scratch.append(UInt8(ascii: "\""))
                            i += 2
                            continue
                        }
                        closed = true
                        i += 1
                        break
                    }
                    scratch.append(text[i])
                    i += 1
                }
                guard closed, i == text.count || text[i] == UInt8(ascii: ",") else {
                    throw IINCSVRows.malformed(line, IINTable.csvFieldNames[count], "badly quoted field")
                }
                quotedFields[count] = start..<scratch.count
                fields[count] = 0..<0
            } else {
                let start = i
                while i < text.count && text[i] != UInt8(ascii: ",") {
                    if text[i] == UInt8(ascii: "\"") {
                        throw IINCSVRows.malformed(line, IINTable.csvFieldNames[count], "quote inside an unquoted field")
                    }
                    i += 1
                }
                fields[count] = start..<i
            }
            count += 1
            if i >= text.count { break }
            i += 1  // the comma
            if i == text.count {  // a trailing comma starts one more (empty) field
                guard count < 6 else { throw IINCSVRows.malformed(line, "row", "more than 6 fields") }
                fields[count] = i..<i
                count += 1
                break
            }
        }
        guard count == 6 else {
            throw IINCSVRows.malformed(line, "row", "expected 6 fields (\(IINTable.csvHeader)), found \(count)")
        }
        try scratch.withUnsafeBufferPointer { (scratchBuffer) throws(CSEError) in
            func field(_ n: Int) -> UnsafeBufferPointer<UInt8> {
                if let quoted = quotedFields[n] { return UnsafeBufferPointer(rebasing: scratchBuffer[quoted]) }
                return UnsafeBufferPointer(rebasing: text[fields[n]])
            }
            let low = try IINCSVRows.bound(field(0), pad: 0, line: line, name: "low")
            let high = try IINCSVRows.bound(field(1), pad: 9, line: line, name: "high")
            guard low <= high else { throw IINCSVRows.malformed(line, "high", "high is below low") }

            let product = field(2)
            guard (1...64).contains(product.count), product.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else {
                throw IINCSVRows.malformed(line, "productId", "productId must be 1-64 printable ASCII characters without spaces")
            }

            let country = field(3)
            var countryBytes: (UInt8, UInt8) = (0, 0)
            if !country.isEmpty {
                guard country.count == 2, country.allSatisfy({ ($0 | 0x20) &- 0x61 < 26 }) else {
                    throw IINCSVRows.malformed(line, "country", "country must be empty or an ISO 3166-1 alpha-2 code")
                }
                countryBytes = (country[0] & 0xDF, country[1] & 0xDF)
            }

            let cardType = field(4)
            guard cardType.count <= 32, cardType.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) else {
                throw IINCSVRows.malformed(line, "cardType", "cardType must be at most 32 printable ASCII characters")
            }

            let issuer = field(5)
            guard issuer.count <= 256, issuer.allSatisfy({ $0 >= 0x20 && $0 != 0x7F }),
                IINCSVRows.isValidUTF8(issuer)
            else {
                throw IINCSVRows.malformed(line, "issuer", "issuer must be at most 256 bytes of UTF-8 without control characters")
            }

            lows.append(low)
            highs.append(high)
            products.append(productNames.intern(product))
            let countryID: UInt32
            if country.isEmpty {
                countryID = 0
            } else {
                var pair = [countryBytes.0, countryBytes.1]
                countryID = pair.withUnsafeMutableBufferPointer { countryNames.intern(UnsafeBufferPointer($0)) }
            }
            let typeID = cardTypeNames.intern(cardType)
            // At most 26 × 26 countries + the empty one, so the id fits the table's 10 bits.
            guard typeID < 1 << 16 else {
                throw IINCSVRows.malformed(line, "cardType", "more than 65535 distinct card types")
            }
            countries.append(UInt16(countryID))
            cardTypes.append(UInt16(typeID))
            issuers.append(issuerNames.intern(issuer))
        }
    }

    /// Strict UTF-8 (RFC 3629): no overlong forms, no surrogates, nothing above U+10FFFF.
    static func isValidUTF8(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var i = 0
        while i < bytes.count {
            let lead = bytes[i]
            if lead < 0x80 { i += 1; continue }
            let extra: Int
            var scalar: UInt32
            let minimum: UInt32
            if lead & 0xE0 == 0xC0 {
                extra = 1; scalar = UInt32(lead & 0x1F); minimum = 0x80
            } else if lead & 0xF0 == 0xE0 {
                extra = 2; scalar = UInt32(lead & 0x0F); minimum = 0x800
            } else if lead & 0xF8 == 0xF0 {
                extra = 3; scalar = UInt32(lead & 0x07); minimum = 0x1_0000
            } else {
                return false
            }
            guard i + extra < bytes.count else { return false }
            for k in 1...extra {
                let next = bytes[i + k]
                guard next & 0xC0 == 0x80 else { return false }
                scalar = scalar << 6 | UInt32(next & 0x3F)
            }
            guard scalar >= minimum, scalar <= 0x10_FFFF, !(0xD800...0xDFFF).contains(scalar) else { return false }
            i += extra + 1
        }
        return true
    }

    /// 6 to 8 ASCII digits, padded with `pad` to 8 digits.
    private static func bound(_ field: UnsafeBufferPointer<UInt8>, pad: UInt32, line: Int, name: String) throws(CSEError) -> UInt32 {
        guard (6...8).contains(field.count) else {
            throw malformed(line, name, "\(name) must have 6 to 8 digits")
        }
        var value: UInt32 = 0
        for byte in field {
            let digit = byte &- 0x30
            guard digit < 10 else { throw malformed(line, name, "\(name) must be ASCII digits") }
            value = value * 10 + UInt32(digit)
        }
        for _ in field.count..<8 { value = value * 10 + pad }
        return value
    }
}
