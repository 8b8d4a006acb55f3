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
}
