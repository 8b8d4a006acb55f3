internal import CSECore

/// HTTP dates (RFC 9110 §5.6.7): the `Date` header CSEKit sends in the IMF-fixdate form (for
/// example `Fri, 06 Jun 2014 13:39:43 GMT`, which the Worldline `v1HMAC` signature covers), and
/// the three forms a recipient must accept when it reads one (`Retry-After`).
public enum HTTPDate {
    /// The IMF-fixdate of a time in whole seconds since the Unix epoch (UTC).
    public static func imfFixdate(secondsSinceEpoch seconds: Int64) -> String {
        let parts = CivilCalendar.fields(unixTime: seconds)
        let days = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        let yearText = String(repeating: "0", count: max(0, 4 - String(parts.year).count)) + String(parts.year)
        return "\(days[parts.weekday]), \(two(parts.day)) \(months[parts.month - 1]) \(yearText) "
            + "\(two(parts.hour)):\(two(parts.minute)):\(two(parts.second)) GMT"
    }

    /// The IMF-fixdate of the current system time.
    public static func now() -> String { imfFixdate(secondsSinceEpoch: SystemClock.unixSeconds()) }

    private static let months = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]
    private static let shortDays = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"]
    private static let longDays = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]

    /// Unix seconds for an IMF-fixdate (`Sun, 06 Nov 1994 08:49:37 GMT`), an RFC 850 date
    /// (`Sunday, 06-Nov-94 08:49:37 GMT`, the two-digit year read as RFC 9110 says: a year more
    /// than 50 years ahead of `now` is in the past century) or an asctime date
    /// (`Sun Nov  6 08:49:37 1994`); `nil` for anything else.
    package static func parse(_ text: String, now: Int64) -> Int64? {
        let words = text.split(separator: " ").map { $0.lowercased() }
        if words.count == 6, words[0].hasSuffix(","), shortDays.contains(String(words[0].dropLast())), words[5] == "gmt" {
            // IMF-fixdate: day, DD Mon YYYY HH:MM:SS GMT
            guard words[1].count == 2, let day = Int(words[1]), let month = months.firstIndex(of: words[2]),
                words[3].count == 4, let year = Int(words[3])
            else { return nil }
            return timestamp(year: year, month: month + 1, day: day, time: words[4])
        }
        if words.count == 4, words[0].hasSuffix(","), longDays.contains(String(words[0].dropLast())), words[3] == "gmt" {
            // rfc850-date: Weekday, DD-Mon-YY HH:MM:SS GMT
            let parts = words[1].split(separator: "-", omittingEmptySubsequences: false)
            guard parts.count == 3, parts[0].count == 2, let day = Int(parts[0]), let month = months.firstIndex(of: String(parts[1])),
                parts[2].count == 2, let twoDigits = Int(parts[2])
            else { return nil }
            let currentYear = CivilCalendar.date(unixTime: now).year
            var year = currentYear - currentYear % 100 + twoDigits
            if year > currentYear + 50 { year -= 100 }
            return timestamp(year: year, month: month + 1, day: day, time: words[2])
        }
        if words.count == 5, shortDays.contains(words[0]) {
            // asctime-date: Mon DD HH:MM:SS YYYY (DD space-padded, so split drops the padding)
            guard let month = months.firstIndex(of: words[1]), (1...2).contains(words[2].count), let day = Int(words[2]),
                words[4].count == 4, let year = Int(words[4])
            else { return nil }
            return timestamp(year: year, month: month + 1, day: day, time: words[3])
        }
        return nil
    }

    private static func timestamp(year: Int, month: Int, day: Int, time: String) -> Int64? {
        let parts = time.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 3, parts.allSatisfy({ $0.count == 2 }), let hour = Int(parts[0]), let minute = Int(parts[1]),
            let second = Int(parts[2]), (0...23).contains(hour), (0...59).contains(minute), (0...60).contains(second),
            (1...31).contains(day), (1...12).contains(month)
        else { return nil }
        return CivilCalendar.unixTime(year: year, month: month, day: day, hour: hour, minute: minute, second: second)
    }
}

extension String {
    /// Without leading and trailing spaces and horizontal tabs (RFC 9110 §5.6.3 OWS).
    func trimmingSpaces() -> String {
        let bytes = Array(utf8)
        guard let first = bytes.firstIndex(where: { $0 != 0x20 && $0 != 0x09 }) else { return "" }
        let last = bytes.lastIndex(where: { $0 != 0x20 && $0 != 0x09 })!
        return String(decoding: bytes[first...last], as: UTF8.self)
    }
}
