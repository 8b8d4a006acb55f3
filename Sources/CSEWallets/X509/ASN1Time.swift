internal import COpenSSL
internal import CSECore
internal import Glibc

/// The Unix time of an ASN.1 `UTCTime` or `GeneralizedTime` (RFC 5280 §4.1.2.5, RFC 5652 §11.3),
/// read into fields by OpenSSL and counted by `CivilCalendar`; `nil` when OpenSSL refuses it.
func unixSeconds(of time: UnsafePointer<ASN1_TIME>?) -> Int64? {
    guard let time else { return nil }
    var fields = tm()
    guard ASN1_TIME_to_tm(time, &fields) == 1 else {
        ERR_clear_error()
        return nil
    }
    return CivilCalendar.unixTime(
        year: Int(fields.tm_year) + 1900, month: Int(fields.tm_mon) + 1, day: Int(fields.tm_mday),
        hour: Int(fields.tm_hour), minute: Int(fields.tm_min), second: Int(fields.tm_sec))
}
