internal import CSECore

/// A month of the proleptic Gregorian calendar in UTC, used as the clock of expiry checks.
///
/// Validation never reads the system clock implicitly: callers inject the current month through
/// ``ValidationContext``, so results are reproducible.
public struct CalendarMonth: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The Gregorian year, for example 2026.
    public let year: Int
    /// The month, 1 (January) through 12 (December).
    public let month: Int

    /// Creates a month, or returns `nil` when `month` is not 1…12 or `year` is not 1…9999.
    public init?(year: Int, month: Int) {
        guard (1...12).contains(month), (1...9999).contains(year) else { return nil }
        self.year = year
        self.month = month
    }

    /// The month containing `secondsSince1970` (Unix time) in UTC, Gregorian calendar.
    /// Uses the days-from-civil algorithm, so no locale, time zone or Foundation calendar is involved.
    public init(unixTime secondsSince1970: Int64) {
        let date = CivilCalendar.date(unixTime: secondsSince1970)
        self.year = date.year
        self.month = date.month
    }

    /// The current month in UTC according to the system clock.
    public static func now() -> CalendarMonth { CalendarMonth(unixTime: SystemClock.unixSeconds()) }

    /// Orders months chronologically.
    public static func < (lhs: CalendarMonth, rhs: CalendarMonth) -> Bool {
        (lhs.year, lhs.month) < (rhs.year, rhs.month)
    }

    /// `YYYY-MM`.
    public var description: String {
        let m = month < 10 ? "0\(month)" : "\(month)"
        return "\(year)-\(m)"
    }
}

/// What a validator may know besides the value: the injected clock and the other fields' values.
public struct ValidationContext: Sendable {
    /// The current month, for expiry checks. Inject a fixed month in tests.
    public var currentMonth: CalendarMonth
    /// The unmasked values of the other fields of the same request, by field id (used by
    /// cross-field rules such as `boletoBancarioRequiredness`).
    public var fieldValues: [String: String]
    /// The regular-expression work the request may still do (`RegexPattern.maximumStepsPerRequest`),
    /// shared by its fields; `nil` limits each search only. Set by `PaymentRequest.validate`.
    package var regexStepBudget: RegexStepBudget?

    /// Creates a context.
    /// - Parameters:
    ///   - currentMonth: The clock for expiry checks; defaults to the system clock in UTC.
    ///   - fieldValues: The other fields' unmasked values.
    public init(currentMonth: CalendarMonth = .now(), fieldValues: [String: String] = [:]) {
        self.currentMonth = currentMonth
        self.fieldValues = fieldValues
    }
}

/// A rule that checks one field value. Validators are immutable values, safe to share across
/// threads, and never throw for invalid input: they return a ``ValidationResult``.
public protocol FieldValidator: Sendable {
    /// The code this validator reports on failure (also its key in product JSON).
    var code: ValidationCode { get }

    /// Checks `value` (already unmasked).
    /// - Parameters:
    ///   - value: The unmasked field value.
    ///   - context: The clock and the request's other field values.
    /// - Returns: ``ValidationResult/valid`` or the failures with their parameters.
    func validate(_ value: String, in context: ValidationContext) -> ValidationResult
}
