import CSEValidation
import CSECore

/// The `--now YYYY-MM` option: the month expiry checks treat as the current one.
enum MonthOption {
    /// Parses `YYYY-MM` (four-digit year, two-digit month 01–12).
    /// - Returns: The month, or the system clock's month when `text` is `nil`.
    /// - Throws: ``UsageError`` for any other spelling.
    static func parse(_ text: String?) throws(UsageError) -> CalendarMonth? {
        guard let text else { return nil }
        let bytes = Array(text.utf8)
        guard bytes.count == 7, bytes[4] == UInt8(ascii: "-"),
            bytes.enumerated().allSatisfy({ $0.offset == 4 || $0.element.isASCIIDigit }),
            let year = Int(String(decoding: bytes[0..<4], as: UTF8.self)),
            let month = Int(String(decoding: bytes[5..<7], as: UTF8.self)),
            let value = CalendarMonth(year: year, month: month)
        else {
            throw UsageError("The value for '--now' must be a month written YYYY-MM, for example 2026-05.")
        }
        return value
    }
}
