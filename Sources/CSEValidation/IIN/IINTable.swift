public import CSECore
#if canImport(Glibc)
import Glibc
#endif

/// An IIN (BIN) table loaded from a CSV file with up to millions of ranges, answering IIN lookups
/// as reference §4 describes.
///
/// ## CSV format (also in `docs/IIN-CSV.md`)
/// UTF-8 text, one range per line, lines ending in LF or CRLF:
///
///     low,high,productId,country,cardType,issuer
///     40000000,49999999,1,,Credit,
///     401757,401757,mada,SA,Debit,Bank Al-Jazira
///
/// - `low`, `high`: 6 to 8 ASCII digits each (the two may differ in length), inclusive. They are
///   normalised to the 8-digit IIN space: `low` padded with `0`s, `high` with `9`s, so `401757`
///   to `401757` covers `40175700…40175799`. `low` must not exceed `high` after padding.
/// - `productId`: 1–64 printable ASCII characters without spaces (a payment product id or a
///   brand id).
/// - `country`: empty or an ISO 3166-1 alpha-2 code (letters, stored upper-case).
/// - `cardType`: empty or up to 32 printable ASCII characters; `Credit`, `Debit` and `Prepaid`
///   are recognised case-insensitively (``CardType``).
/// - `issuer`: empty or up to 256 bytes of UTF-8 without control characters.
///
/// Fields are separated by commas; a field may be double-quoted as in RFC 4180 (`""` inside
/// quotes is one quote; a quoted field cannot span lines). Empty lines and lines starting with
/// `#` are skipped. The first non-comment line may be the header above (case-insensitive).
/// Any other deviation throws ``CSEError/Code/iinMalformedRow`` with the 1-based `line` and the
/// `field` in the error's context; an over-long line throws ``CSEError/Code/iinLineTooLong`` and
/// too many rows ``CSEError/Code/iinTooManyRows``; a range with more co-brand rows than
/// ``Limits/maximumCoBrandsPerRange`` throws ``CSEError/Code/iinTooManyCoBrands`` (see ``Limits``).
///
/// ## Resolution
/// Rows with identical bounds form one group: the first row in file order is the product, the
/// others are its co-brands (reference §4 `coBrands`). Where groups overlap, the narrowest range
/// answers (narrowest-first; equal widths: the earlier row); wider ranges around it are not
/// co-brands. At load time the 8-digit space is cut into sorted, disjoint segments, so a lookup
/// is a short binary search with no allocation besides the result.
///
/// A lookup with 8 or more digits uses the first 8; with 6 or 7 digits it uses the first 6 and
/// only ranges that cover the whole 6-digit block (`dddddd00…dddddd99`) can answer, since the
/// remaining digits are unknown.
public struct IINTable: Sendable {
    /// Resource limits enforced while loading.
    public struct Limits: Sendable, Hashable {
        /// The longest line accepted, in bytes without the line ending. Default 1024.
        public var maximumLineLength: Int
        /// The most data rows accepted. Default 10 000 000 (at most 50 000 000).
        public var maximumRows: Int
        /// The largest file or byte buffer accepted, in bytes. Default 512 MiB. A file is read
        /// only up to this size, so a huge or endless file (a FIFO, `/dev/zero`) cannot exhaust
        /// memory before the row limit is reached.
        public var maximumFileBytes: Int
        /// The most co-brand rows one range may have (rows with the same bounds after its first,
        /// product row). Default 16 (at most 1 000). Every lookup in the range returns all of them,
        /// so without this bound one hostile range (one product and 999 999 co-brands) turns each
        /// lookup into a 66 MB answer.
        public var maximumCoBrandsPerRange: Int

        /// Creates limits.
        /// - Parameters:
        ///   - maximumLineLength: The longest line accepted, in bytes.
        ///   - maximumRows: The most data rows accepted; values above 50 000 000 are clamped.
        ///   - maximumFileBytes: The largest input accepted, in bytes.
        ///   - maximumCoBrandsPerRange: The most co-brand rows per range; values above 1 000 are
        ///     clamped.
        public init(
            maximumLineLength: Int = 1024, maximumRows: Int = 10_000_000, maximumFileBytes: Int = 512 << 20,
            maximumCoBrandsPerRange: Int = 16
        ) {
            self.maximumLineLength = maximumLineLength
            self.maximumRows = min(maximumRows, 50_000_000)
            self.maximumFileBytes = maximumFileBytes
            self.maximumCoBrandsPerRange = min(maximumCoBrandsPerRange, 1_000)
        }

        /// 1024-byte lines, 10 000 000 rows, 512 MiB, 16 co-brands per range.
        public static let `default` = Limits()
    }

    /// The header line of the CSV format.
    package static let csvHeader = "low,high,productId,country,cardType,issuer"
    static let csvFieldNames = ["low", "high", "productId", "country", "cardType", "issuer"]

    /// The number of data rows loaded.
    public let rangeCount: Int

    /// Per row, sorted by (low, high, file order), so each group's rows are contiguous.
    private let rows: HugePageArray<Row>
    private let productNames: [String]
    private let countryNames: [String]
    private let cardTypes: [CardType?]
    private let issuerNames: [String]
    private let eightDigit: IINSegments
    private let sixDigit: IINSegments
    private let sixDigitIsShared: Bool

    /// One row in 12 bytes: interned product and issuer ids, and `meta` = country id (bits 0–9),
    /// "the next row belongs to the same group" (bit 10) and card-type id (bits 11–31).
    private struct Row: Sendable {
        var product: UInt32
        var issuer: UInt32
        var meta: UInt32
        var country: Int { Int(meta & 0x3FF) }
        var continuesGroup: Bool { meta & 0x400 != 0 }
        var cardType: Int { Int(meta >> 11) }
    }

    /// Loads a table from CSV bytes.
    /// - Parameters:
    ///   - csv: The file's bytes (UTF-8).
    ///   - limits: Line-length and row-count limits.
    /// - Throws: `CSEError` ``CSEError/Code/iinMalformedRow``, ``CSEError/Code/iinLineTooLong`` or
    ///   ``CSEError/Code/iinTooManyRows``, with the 1-based `line` in the context;
    ///   ``CSEError/Code/iinFileTooLarge`` beyond ``Limits/maximumFileBytes``;
    ///   ``CSEError/Code/iinTooManyCoBrands`` (with the range's `low`, `high` and the `limit`)
    ///   beyond ``Limits/maximumCoBrandsPerRange``.
    public init(csv: [UInt8], limits: Limits = .default) throws(CSEError) {
        guard csv.count <= limits.maximumFileBytes else { throw Self.fileTooLarge(limits) }
        let rows = try csv.withUnsafeBufferPointer { (buffer) throws(CSEError) in
            try IINCSVRows(parsing: buffer, limits: limits)
        }
        try self.init(rows: rows, maximumCoBrands: limits.maximumCoBrandsPerRange)
    }

    /// Loads a table from CSV text.
    /// - Parameters:
    ///   - csv: The file's text.
    ///   - limits: Line-length and row-count limits.
    /// - Throws: As ``init(csv:limits:)-([UInt8],_)``.
    public init(csv: String, limits: Limits = .default) throws(CSEError) {
        try self.init(csv: Array(csv.utf8), limits: limits)
    }

    /// Loads a table from a CSV file.
    /// - Parameters:
    ///   - path: The file's path.
    ///   - limits: Line-length and row-count limits.
    /// - Throws: ``CSEError/Code/iinFileUnreadable`` when the file cannot be read,
    ///   ``CSEError/Code/iinFileTooLarge`` as soon as more than ``Limits/maximumFileBytes`` have
    ///   been read, else as ``init(csv:limits:)-([UInt8],_)``.
    public init(contentsOfFile path: String, limits: Limits = .default) throws(CSEError) {
        guard let file = fopen(path, "rb") else {
            throw CSEError(.iinFileUnreadable, "cannot open the IIN file", context: ["errno": String(errno)])
        }
        defer { fclose(file) }
        var bytes = [UInt8]()
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let read = chunk.withUnsafeMutableBytes { fread($0.baseAddress, 1, $0.count, file) }
            guard bytes.count + read <= limits.maximumFileBytes else { throw Self.fileTooLarge(limits) }
            if read > 0 { bytes.append(contentsOf: chunk[0..<read]) }
            if read < chunk.count {
                guard ferror(file) == 0 else {
                    throw CSEError(.iinFileUnreadable, "cannot read the IIN file", context: ["errno": String(errno)])
                }
                break
            }
        }
        try self.init(csv: bytes, limits: limits)
    }

    /// `value` as 8 digits with leading zeros (an IIN bound).
    private static func eightDigits(_ value: UInt32) -> String {
        let digits = String(value)
        return String(repeating: "0", count: max(0, 8 - digits.count)) + digits
    }

    private static func fileTooLarge(_ limits: Limits) -> CSEError {
        CSEError(.iinFileTooLarge, "the IIN table is larger than the limit", context: ["limit": String(limits.maximumFileBytes)])
    }

    private init(rows: IINCSVRows, maximumCoBrands: Int) throws(CSEError) {
        let count = rows.lows.count
        rangeCount = count
        // Sort rows by (low, high, file order).
        var order = [UInt32](0..<UInt32(count))
        let lows = rows.lows, highs = rows.highs
        let keys = (0..<count).map { UInt64(lows[$0]) << 27 | UInt64(highs[$0]) }
        order.sort { keys[Int($0)] != keys[Int($1)] ? keys[Int($0)] < keys[Int($1)] : $0 < $1 }

        var packed = [Row]()
        packed.reserveCapacity(count)
        var groupLows = [UInt32](), groupHighs = [UInt32](), groupRanks = [UInt64](), groupFirstRows = [UInt32]()
        var previousKey = UInt64.max
        var coBrands = 0
        for (position, row) in order.enumerated() {
            let r = Int(row)
            if keys[r] != previousKey {
                previousKey = keys[r]
                coBrands = 0
                groupFirstRows.append(UInt32(position))
                groupLows.append(lows[r])
                groupHighs.append(highs[r])
                // Narrowest first, then the earliest row; `row` is the group's first file row.
                groupRanks.append(UInt64(highs[r] - lows[r]) << 32 | UInt64(row))
            } else {
                coBrands += 1
                guard coBrands <= maximumCoBrands else {
                    throw CSEError(
                        .iinTooManyCoBrands, "a range has more co-brand rows than the limit",
                        context: [
                            "low": Self.eightDigits(lows[r]), "high": Self.eightDigits(highs[r]),
                            "limit": String(maximumCoBrands),
                        ])
                }
                packed[position - 1].meta |= 0x400
            }
            packed.append(
                Row(
                    product: rows.products[r], issuer: rows.issuers[r],
                    meta: UInt32(rows.countries[r]) | UInt32(rows.cardTypes[r]) << 11))
        }
        let groupCount = groupFirstRows.count
        let eightDigit = IINSegments(lows: groupLows, highs: groupHighs, ids: groupFirstRows, rank: groupRanks)

        // 6-digit lookups: shrink each range to the 6-digit blocks it covers entirely. Shrinking
        // keeps the order by lower bound, so no new sort is needed.
        let aligned = zip(groupLows, groupHighs).allSatisfy { $0 % 100 == 0 && $1 % 100 == 99 }
        self.sixDigitIsShared = aligned
        if aligned {
            self.sixDigit = eightDigit
        } else {
            var lows6 = [UInt32](), highs6 = [UInt32](), ids6 = [UInt32](), ranks6 = [UInt64]()
            for g in 0..<groupCount {
                let low = (groupLows[g] + 99) / 100 * 100
                let end = (UInt64(groupHighs[g]) + 1) / 100 * 100
                guard UInt64(low) < end else { continue }
                lows6.append(low); highs6.append(UInt32(end - 1)); ids6.append(groupFirstRows[g]); ranks6.append(groupRanks[g])
            }
            self.sixDigit = IINSegments(lows: lows6, highs: highs6, ids: ids6, rank: ranks6)
        }
        self.eightDigit = eightDigit
        self.rows = HugePageArray(packed)
        self.productNames = rows.productNames.strings()
        self.countryNames = rows.countryNames.strings()
        self.cardTypes = rows.cardTypeNames.strings().map { $0.isEmpty ? nil : CardType(rawValue: $0) }
        self.issuerNames = rows.issuerNames.strings()
    }

    /// Looks up a partial card number.
    ///
    /// Spaces are ignored; any other character that is not an ASCII digit (including
    /// Arabic-Indic digits) gives ``IINStatus/unknown``. Fewer than 6 digits gives
    /// ``IINStatus/notEnoughDigits``. Otherwise the first 8 digits (or 6, with 6 or 7 digits)
    /// select the answering group; its first row is the product and the others are co-brands.
    /// - Parameters:
    ///   - number: The card number as typed so far.
    ///   - allowedProductIDs: The product ids allowed in the caller's context.
    /// - Returns: The IIN details.
    public func iinDetails(forPartialNumber number: String, allowedProductIDs: Set<String>) -> IINDetails {
        guard let digits = CardDigits(number, withLuhn: false) else { return .unknown }
        guard digits.count >= 6 else { return .notEnoughDigits }
        let first =
            digits.count >= 8
            ? eightDigit.value(at: digits.key(using: 8))
            : sixDigit.value(at: digits.key(using: 6))
        guard first != IINSegments.none else { return .unknown }
        let rows = self.rows.buffer
        let primary = rows[Int(first)]
        let product = productNames[Int(primary.product)]
        var coBrands = [IINCoBrand]()
        if primary.continuesGroup {
            var seen: Set<UInt32> = [primary.product]
            var index = Int(first)
            repeat {
                index += 1
                let row = rows[index]
                if seen.insert(row.product).inserted {
                    let id = productNames[Int(row.product)]
                    coBrands.append(
                        IINCoBrand(
                            productID: id, isAllowedInContext: Self.contains(allowedProductIDs, id),
                            cardType: cardTypes[row.cardType]))
                }
            } while rows[index].continuesGroup
        }
        let country = countryNames[primary.country]
        let issuer = issuerNames[Int(primary.issuer)]
        return IINDetails(
            productID: product, isAllowedInContext: Self.contains(allowedProductIDs, product),
            countryCode: country.isEmpty ? nil : country, cardType: cardTypes[primary.cardType],
            issuer: issuer.isEmpty ? nil : issuer, coBrands: coBrands)
    }

    /// `set.contains(id)` by UTF-8 bytes (product ids are identifiers: no Unicode canonical
    /// equivalence), by comparison for the usual handful of product ids: `==` on two small
    /// strings compares their bits, where hashing runs SipHash over the bytes (cse-bench
    /// `iin-lookup/1M`).
    @inline(__always)
    private static func contains(_ set: Set<String>, _ id: String) -> Bool {
        guard set.count <= 16 else { return set.containsByteEqual(id) }
        for member in set where member.isByteEqual(to: id) { return true }
        return false
    }

    /// The number of disjoint segments the 8-digit space was cut into (gaps included).
    package var segmentCount: Int { eightDigit.entries.count }

    /// An estimate of the bytes the table holds: its arrays plus the interned strings' UTF-8.
    package var approximateMemoryBytes: Int {
        var total = rows.count * MemoryLayout<Row>.stride + eightDigit.memoryBytes
        if !sixDigitIsShared { total += sixDigit.memoryBytes }
        for names in [productNames, countryNames, issuerNames] {
            total += names.count * 16 + names.reduce(0) { $0 + ($1.utf8.count > 15 ? $1.utf8.count : 0) }
        }
        return total
    }
}
