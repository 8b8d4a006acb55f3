#if canImport(Glibc)
import Glibc
#endif

/// The HTTP `Date` header value in the IMF-fixdate form of RFC 9110 §5.6.7, for example
/// `Fri, 06 Jun 2014 13:39:43 GMT`, which the Worldline `v1HMAC` signature covers.
public enum HTTPDate {
    /// The IMF-fixdate of a time in whole seconds since the Unix epoch (UTC).
    public static func imfFixdate(secondsSinceEpoch seconds: Int64) -> String {
        var time = time_t(seconds)
        var parts = tm()
        gmtime_r(&time, &parts)
        let days = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        func two(_ n: Int32) -> String { n < 10 ? "0\(n)" : "\(n)" }
        let year = Int(parts.tm_year) + 1900
        let yearText = String(repeating: "0", count: max(0, 4 - String(year).count)) + String(year)
        return "\(days[Int(parts.tm_wday)]), \(two(parts.tm_mday)) \(months[Int(parts.tm_mon)]) \(yearText) "
            + "\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec)) GMT"
    }

    /// The IMF-fixdate of the current system time.
    public static func now() -> String {
        var spec = timespec()
        clock_gettime(CLOCK_REALTIME, &spec)
        return imfFixdate(secondsSinceEpoch: Int64(spec.tv_sec))
    }
}
