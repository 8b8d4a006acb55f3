import CSEValidation

/// A fixed clock, so no test depends on the date it runs.
func month(_ year: Int, _ month: Int) -> CalendarMonth {
    guard let value = CalendarMonth(year: year, month: month) else {
        fatalError("bad test month \(year)-\(month)")
    }
    return value
}

/// A context at a fixed month with optional other field values.
func context(_ year: Int = 2026, _ monthNumber: Int = 5, fields: [String: String] = [:]) -> ValidationContext {
    ValidationContext(currentMonth: month(year, monthNumber), fieldValues: fields)
}

/// The codes of a result, in order.
func codes(_ result: ValidationResult) -> [String] { result.failures.map(\.code.rawValue) }

/// Long inputs for the bad-input sweeps (10 000 characters each).
enum Long {
    static let digits = String(repeating: "4", count: 10_000)
    static let zeros = String(repeating: "0", count: 10_000)
    static let letters = String(repeating: "a", count: 10_000)
    static let emoji = String(repeating: "👩‍👩‍👧", count: 10_000)
    static let combining = String(repeating: "e\u{301}", count: 10_000)
    static let arabicIndic = String(repeating: "٤", count: 10_000)
}
