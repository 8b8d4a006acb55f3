import CSECore
import CSEValidation
import Testing

/// The validation-side bounds at their exact edges (docs/SECURITY.md, "Limits"): the limit
/// itself is accepted and one more unit is a typed error.
@Suite("Bounds: mask, regular-expression and IIN-table limits at the edge")
struct BoundsValidationTests {
    @Test("a mask of exactly maximumPatternLength scalars parses; one more is mask.tooLong")
    func maskLength() throws {
        let limit = Mask.maximumPatternLength
        let atLimit = "{{" + String(repeating: "9", count: limit - 4) + "}}"
        #expect(try Mask(atLimit).capacity == limit - 4)
        let error = #expect(throws: CSEError.self) { try Mask(atLimit + " ") }
        #expect(error?.code == .maskTooLong)
        #expect(error?.context["limit"] == String(limit))
        // Scalars, not bytes: a mask of multi-byte literals is measured the same way.
        #expect(throws: CSEError(.maskTooLong, "")) { try Mask(String(repeating: "é", count: limit + 1)) }
    }

    @Test("a pattern of exactly maximumPatternLength scalars compiles; one more is regex.patternTooLong")
    func patternLength() throws {
        let limit = RegexPattern.maximumPatternLength
        #expect(throws: Never.self) { try RegexPattern(String(repeating: "a", count: limit)) }
        #expect(throws: CSEError(.regexPatternTooLong, "")) { try RegexPattern(String(repeating: "a", count: limit + 1)) }
    }

    @Test("built-in engine: a value of exactly maximumInputLength UTF-8 bytes is matched; one more is regex.inputTooLong")
    func builtinInputLength() throws {
        let regex = try RegexPattern("^a*$")
        #expect(regex.usesBuiltinEngine)
        let atLimit = String(repeating: "a", count: RegexPattern.maximumInputLength)
        #expect(try regex.matchesWhole(atLimit))
        #expect(throws: CSEError(.regexInputTooLong, "")) { try regex.matchesWhole(atLimit + "a") }
    }

    @Test("ICU fallback: a value of exactly maximumFallbackInputLength UTF-16 units is matched; one more is regex.inputTooLong")
    func fallbackInputLength() throws {
        let regex = try RegexPattern("(?<=a)a")
        #expect(!regex.usesBuiltinEngine)
        let atLimit = String(repeating: "a", count: RegexPattern.maximumFallbackInputLength)
        #expect(try regex.numberOfMatches(in: atLimit, limit: 2) == 2)
        #expect(throws: CSEError(.regexInputTooLong, "")) { try regex.numberOfMatches(in: atLimit + "a") }
        // UTF-16 units: an astral scalar counts twice.
        let astral = String(repeating: "😀", count: RegexPattern.maximumFallbackInputLength / 2 + 1)
        #expect(throws: CSEError(.regexInputTooLong, "")) { try regex.numberOfMatches(in: astral) }
    }

    @Test("IIN CSV: a line of exactly maximumLineLength bytes loads; one more byte is iin.lineTooLong")
    func iinLineLength() throws {
        let limits = IINTable.Limits(maximumLineLength: 64)
        let row = "400000,499999,p,,,"
        let atLimit = row + String(repeating: "x", count: 64 - row.utf8.count)
        #expect(try IINTable(csv: atLimit + "\r\n", limits: limits).rangeCount == 1, "CRLF does not count")
        #expect(throws: CSEError(.iinLineTooLong, "")) { try IINTable(csv: atLimit + "x\n", limits: limits) }
    }

    @Test("IIN CSV: exactly maximumRows rows load; one more is iin.tooManyRows (comments and the header do not count)")
    func iinRows() throws {
        let limits = IINTable.Limits(maximumRows: 5)
        let rows = "# comment\n" + IINTable.csvHeader + "\n" + String(repeating: "400000,499999,p,,,\n", count: 5)
        #expect(try IINTable(csv: rows, limits: limits).rangeCount == 5)
        #expect(throws: CSEError(.iinTooManyRows, "")) { try IINTable(csv: rows + "510000,559999,q,,,\n", limits: limits) }
    }

    @Test("IIN CSV: exactly maximumFileBytes loads; one more byte is iin.fileTooLarge")
    func iinFileBytes() throws {
        let row = "400000,499999,p,,,\n"
        let limits = IINTable.Limits(maximumFileBytes: row.utf8.count * 3)
        #expect(try IINTable(csv: String(repeating: row, count: 3), limits: limits).rangeCount == 3)
        let error = #expect(throws: CSEError.self) { try IINTable(csv: String(repeating: row, count: 3) + "#", limits: limits) }
        #expect(error?.code == .iinFileTooLarge)
        #expect(IINTable.Limits.default.maximumFileBytes == 512 << 20)
    }

    /// Before the file-size bound, `IINTable(contentsOfFile:)` read an endless file until memory
    /// ran out; now it stops after `maximumFileBytes`.
    @Test("an endless file (/dev/zero) stops at maximumFileBytes with iin.fileTooLarge")
    func endlessFile() throws {
        let error = #expect(throws: CSEError.self) {
            try IINTable(contentsOfFile: "/dev/zero", limits: IINTable.Limits(maximumFileBytes: 1 << 20))
        }
        #expect(error?.code == .iinFileTooLarge)
    }
}
