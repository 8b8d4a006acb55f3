import CSECore

/// A card expiry date, `MMYY` or `MMYYYY`, within a window around the injected clock.
/// JSON key `expirationDate`.
///
/// The value must be exactly 4 or 6 ASCII digits (validate the unmasked value: `12/35` unmasks
/// to `1235`). The month must be 01…12. The date is valid from the current month (inclusive)
/// through December of the current year + ``maximumYearsAhead`` (inclusive; 25 by default, as in
/// the Worldline SDK). The clock is ``ValidationContext/currentMonth``, a Gregorian UTC month:
/// no locale, time zone or `DateFormatter` is involved.
///
/// A two-digit year `YY` means the year ending in `YY` within the 100-year window from the
/// current year − 25 to the current year + 74 (so at 2026, `00` is 2100 and `01` is 2001). For
/// every current year up to 2074 this gives the same verdicts as the Worldline SDK, which
/// prefixes the current century; after that it keeps working across the century boundary.
///
/// Failures carry a `reason` parameter: `format` (not 4 or 6 ASCII digits), `month` (not
/// 01…12), `past` (before the current month) or `tooFarAhead` (after the allowed last year).
public struct ExpirationDateValidator: FieldValidator {
    /// ``ValidationCode/expirationDate``.
    public var code: ValidationCode { .expirationDate }

    /// How many years after the current year are still accepted (every month of that year).
    public let maximumYearsAhead: Int

    /// Creates the validator.
    /// - Parameter maximumYearsAhead: The last accepted year is the current year plus this;
    ///   clamped to 0…9999. The default, 25, is the Worldline SDK's rule.
    public init(maximumYearsAhead: Int = 25) {
        self.maximumYearsAhead = min(max(maximumYearsAhead, 0), 9_999)
    }

    /// Checks `value` against the context's clock.
    /// - Parameters:
    ///   - value: `MMYY` or `MMYYYY`, ASCII digits only.
    ///   - context: Supplies ``ValidationContext/currentMonth``.
    /// - Returns: ``ValidationResult/valid`` or an `expirationDate` failure with a `reason`.
    public func validate(_ value: String, in context: ValidationContext) -> ValidationResult {
        let now = context.currentMonth
        guard let (month, year) = Self.parse(value, currentYear: now.year) else {
            return Self.failure(.format)
        }
        guard (1...12).contains(month) else { return Self.failure(.month) }
        if (year, month) < (now.year, now.month) { return Self.failure(.past) }
        if year > now.year + maximumYearsAhead { return Self.failure(.tooFarAhead) }
        return .valid
    }

    /// The expiry month that `value` denotes, or `nil` when it is not `MMYY`/`MMYYYY` with a
    /// month 01…12 (or the year is outside 1…9999). The window is not checked.
    /// - Parameters:
    ///   - value: `MMYY` or `MMYYYY`, ASCII digits only.
    ///   - now: The clock that resolves a two-digit year.
    /// - Returns: The month, or `nil`.
    package static func expiryMonth(of value: String, relativeTo now: CalendarMonth) -> CalendarMonth? {
        guard let (month, year) = parse(value, currentYear: now.year) else { return nil }
        return CalendarMonth(year: year, month: month)
    }

    /// Splits exactly 4 or 6 ASCII digits into (month, full year). The month is not range-checked.
    static func parse(_ value: String, currentYear: Int) -> (month: Int, year: Int)? {
        // MM then YY or YYYY, accumulated without an array (no allocation per check).
        var count = 0
        var month = 0
        var year = 0
        for byte in value.utf8 {
            guard count < 6, let digit = byte.asciiDigitValue else { return nil }
            if count < 2 { month = month * 10 + digit } else { year = year * 10 + digit }
            count += 1
        }
        switch count {
        case 4:
            return (month, fullYear(twoDigit: year, currentYear: currentYear))
        case 6:
            return (month, year)
        default:
            return nil
        }
    }

    /// The year ending in `yy` within `currentYear - 25 ... currentYear + 74`.
    static func fullYear(twoDigit yy: Int, currentYear: Int) -> Int {
        var year = (currentYear / 100) * 100 + yy
        if year < currentYear - 25 { year += 100 }
        if year > currentYear + 74 { year -= 100 }
        return year
    }

    private static func failure(_ reason: ValidationReason) -> ValidationResult {
        .invalid(.expirationDate, [ValidationReason.parameterName: .reason(reason)])
    }
}
