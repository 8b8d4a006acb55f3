import CSECore
import Glibc
import Testing

/// `CivilCalendar` replaced every `timegm` and `gmtime_r` of the library and the CLI (issue #31,
/// point 3); C's functions are the oracle here, so the replacement counts exactly as they did.
@Suite("CivilCalendar: proleptic Gregorian dates and POSIX Unix time (POSIX.1-2017 §4.16)")
struct CivilCalendarTests {
    /// Unix seconds by C's `timegm`.
    private static func timegmSeconds(year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int) -> Int64 {
        var fields = tm()
        (fields.tm_year, fields.tm_mon, fields.tm_mday) = (Int32(year - 1900), Int32(month - 1), Int32(day))
        (fields.tm_hour, fields.tm_min, fields.tm_sec) = (Int32(hour), Int32(minute), Int32(second))
        return Int64(timegm(&fields))
    }

    @Test("the Unix time of every day from 1600 to 2400, at a time of day, is timegm's")
    func unixTimeMatchesTimegm() {
        var mismatches = 0
        for year in stride(from: 1600, through: 2400, by: 1) {
            for month in 1...12 {
                for day in 1...CivilCalendar.dayCount(year: year, month: month) {
                    let (hour, minute, second) = (day % 24, (day * 7) % 60, (month * 11) % 60)
                    let ours = CivilCalendar.unixTime(year: year, month: month, day: day, hour: hour, minute: minute, second: second)
                    if ours != Self.timegmSeconds(year: year, month: month, day: day, hour: hour, minute: minute, second: second) {
                        mismatches += 1
                    }
                }
            }
        }
        #expect(mismatches == 0)
    }

    @Test("the fields of a Unix time are gmtime_r's, weekday included, before and after 1970")
    func fieldsMatchGmtime() {
        var mismatches = 0
        var seconds: Int64 = -11_000_000_000  // 1621
        while seconds < 13_000_000_000 {  // 2381
            var time = time_t(seconds)
            var parts = tm()
            gmtime_r(&time, &parts)
            let expected = CivilCalendar.Fields(
                year: Int(parts.tm_year) + 1900, month: Int(parts.tm_mon) + 1, day: Int(parts.tm_mday), hour: Int(parts.tm_hour),
                minute: Int(parts.tm_min), second: Int(parts.tm_sec), weekday: Int(parts.tm_wday))
            if CivilCalendar.fields(unixTime: seconds) != expected { mismatches += 1 }
            seconds += 86_399 * 3 + 7_919  // steps through every time of day and weekday
        }
        #expect(mismatches == 0)
        #expect(
            CivilCalendar.fields(unixTime: -1)
                == CivilCalendar.Fields(year: 1969, month: 12, day: 31, hour: 23, minute: 59, second: 59, weekday: 3))
    }

    @Test("a date exists only if its day is within its month; February has 29 days in leap years only")
    func dateExistence() {
        #expect(CivilCalendar.isDate(year: 2024, month: 2, day: 29))
        #expect(!CivilCalendar.isDate(year: 2023, month: 2, day: 29))
        #expect(!CivilCalendar.isDate(year: 1900, month: 2, day: 29))
        #expect(CivilCalendar.isDate(year: 2000, month: 2, day: 29))
        #expect(!CivilCalendar.isDate(year: 2021, month: 2, day: 30))
        #expect(!CivilCalendar.isDate(year: 2021, month: 4, day: 31))
        #expect(CivilCalendar.isDate(year: 2021, month: 12, day: 31))
        #expect(!CivilCalendar.isDate(year: 2021, month: 13, day: 1) && !CivilCalendar.isDate(year: 2021, month: 1, day: 0))
    }

    @Test("second 60 counts as the next minute's first, as timegm normalises it")
    func leapSecondNormalises() {
        #expect(
            CivilCalendar.unixTime(year: 2016, month: 12, day: 31, hour: 23, minute: 59, second: 60)
                == CivilCalendar.unixTime(year: 2017, month: 1, day: 1, hour: 0, minute: 0, second: 0))
    }
}
