import CSECore

/// Calendar dates written `YYYY-MM-DD` (ISO 8601 extended format, proleptic Gregorian).
package enum CalendarDateText {
    /// Whether `text` is exactly `YYYY-MM-DD` with a year 0001–9999, a month 01–12 and a day that
    /// exists in that month (29 February only in leap years).
    package static func isValid(_ text: String) -> Bool {
        let b = Array(text.utf8)
        guard b.count == 10, b[4] == UInt8(ascii: "-"), b[7] == UInt8(ascii: "-") else { return false }
        func number(_ range: Range<Int>) -> Int? {
            var value = 0
            for i in range {
                guard b[i].isASCIIDigit else { return nil }
                value = value * 10 + Int(b[i] - 0x30)
            }
            return value
        }
        guard let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
            year >= 1, (1...12).contains(month), day >= 1
        else { return false }
        let leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
        let days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]
        return day <= days
    }
}
