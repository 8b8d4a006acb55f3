/// `Retry-After` (RFC 9110 §10.2.3): `delay-seconds` or an `HTTP-date` (RFC 9110 §5.6.7, the
/// IMF-fixdate and the two obsolete forms a recipient must accept).
enum RetryAfter {
    /// The longest delay represented; anything longer is past every deadline anyway.
    static let maximumSeconds: Int64 = 1 << 31

    /// The delay the field asks for, measured from `now` (Unix seconds) for a date; zero for a
    /// date in the past; `nil` when the value is neither form.
    static func delay(_ value: String, now: Int64) -> Duration? {
        let text = value.trimmingSpaces()
        if !text.isEmpty, text.utf8.allSatisfy({ (48...57).contains($0) }) {
            let digits = text.drop { $0 == "0" }
            guard digits.count <= 10, let seconds = Int64(digits.isEmpty ? "0" : String(digits)) else {
                return .seconds(maximumSeconds)
            }
            return .seconds(min(seconds, maximumSeconds))
        }
        guard let date = HTTPDate.parse(text, now: now) else { return nil }
        return .seconds(min(max(date - now, 0), maximumSeconds))
    }
}
