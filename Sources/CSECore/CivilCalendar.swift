/// Proleptic Gregorian dates and Unix time without a calendar library, time zone or locale
/// (H. Hinnant, "chrono-Compatible Low-Level Date Algorithms"): the one copy of the date
/// arithmetic that HTTP dates (RFC 9110 §5.6.7), CMS signing times (RFC 5652 §11.3) and calendar
/// months share.
@usableFromInline
package enum CivilCalendar {
    /// Days since 1970-01-01 of a date (`days_from_civil`); `month` is 1…12.
    @inlinable
    package static func days(year: Int, month: Int, day: Int) -> Int64 {
        let y = Int64(month <= 2 ? year - 1 : year)
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let m = Int64(month), d = Int64(day)
        let dayOfYear = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + d - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The date of a day count since 1970-01-01 (`civil_from_days`).
    @inlinable
    package static func date(days: Int64) -> (year: Int, month: Int, day: Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let month = mp < 10 ? mp + 3 : mp - 9
        return (Int(yearOfEra + era * 400 + (month <= 2 ? 1 : 0)), Int(month), Int(dayOfYear - (153 * mp + 2) / 5 + 1))
    }

    /// The date of a Unix time, in UTC (the day is rounded down, also before 1970).
    @inlinable
    package static func date(unixTime seconds: Int64) -> (year: Int, month: Int, day: Int) {
        date(days: seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400)
    }

    /// The number of days in `month` (1…12) of `year`, leap years as the Gregorian calendar has them.
    @inlinable
    package static func dayCount(year: Int, month: Int) -> Int {
        switch month {
        case 2: return year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// Whether `year-month-day` is a date of the calendar (`2021-02-30` is not).
    @inlinable
    package static func isDate(year: Int, month: Int, day: Int) -> Bool {
        (1...12).contains(month) && day >= 1 && day <= dayCount(year: year, month: month)
    }

    /// The Unix time of a UTC date and time of day (POSIX.1-2017 §4.16 "Seconds Since the
    /// Epoch"): fields are not checked, so a second of 60 is the next minute's first, as `timegm`
    /// counts it.
    @inlinable
    package static func unixTime(year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int) -> Int64 {
        days(year: year, month: month, day: day) * 86_400 + Int64(hour * 3_600 + minute * 60 + second)
    }

    /// The UTC date, time of day and weekday (0 is Sunday, as `tm_wday`) of a Unix time.
    package static func fields(unixTime seconds: Int64) -> Fields {
        let dayNumber = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let date = date(days: dayNumber)
        let secondOfDay = Int(seconds - dayNumber * 86_400)
        let weekday = Int(((dayNumber + 4) % 7 + 7) % 7)  // 1970-01-01 was a Thursday
        return Fields(
            year: date.year, month: date.month, day: date.day, hour: secondOfDay / 3_600,
            minute: secondOfDay / 60 % 60, second: secondOfDay % 60, weekday: weekday)
    }

    /// A UTC date and time of day, as ``fields(unixTime:)`` gives them.
    package struct Fields: Equatable, Sendable {
        /// The year (proleptic Gregorian; 0 is 1 BC).
        package var year: Int
        /// The month, 1…12.
        package var month: Int
        /// The day of the month, 1…31.
        package var day: Int
        /// The hour, 0…23.
        package var hour: Int
        /// The minute, 0…59.
        package var minute: Int
        /// The second, 0…59.
        package var second: Int
        /// The day of the week, 0 (Sunday) … 6 (Saturday).
        package var weekday: Int

        /// A date and time of day from its fields.
        package init(year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int, weekday: Int) {
            (self.year, self.month, self.day) = (year, month, day)
            (self.hour, self.minute, self.second, self.weekday) = (hour, minute, second, weekday)
        }
    }
}
