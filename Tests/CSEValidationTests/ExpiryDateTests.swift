import CSEValidation
import Testing

@Suite("expirationDate (MMYY / MMYYYY, injected UTC clock)")
struct ExpiryDateTests {
    let validator = ExpirationDateValidator()

    private func reason(_ result: ValidationResult) -> String? {
        guard let failure = result.failures.first, case .string(let reason)? = failure.parameters["reason"] else {
            return nil
        }
        return reason
    }

    // WL ValidatorExpirationDateTestCase, run at a fixed month (the reference used the real clock).
    @Test(
        "WL test facts at a fixed clock of 2026-05",
        arguments: [
            ("testValid 1244", "1244", nil),
            ("testValidFullYear 122044 (decision: valid, see COMPATIBILITY)", "122044", nil),
            ("testInvalidNonNumerical", "aaaa", "format"),
            ("testInvalidMonth 1350", "1350", "month"),
            ("testInvalidYearTooEarly 0112", "0112", "past"),
            ("testInvalidYearTooLate 1299", "1299", "tooFarAhead"),
            ("testInvalidInputTooLong 122099", "122099", "tooFarAhead"),
        ] as [(String, String, String?)])
    func worldlineFacts(id: String, value: String, expectedReason: String?) {
        let result = validator.validate(value, in: context(2026, 5))
        #expect(result.isValid == (expectedReason == nil), "case \(id)")
        #expect(reason(result) == expectedReason, "case \(id)")
        if !result.isValid { #expect(codes(result) == ["expirationDate"], "case \(id)") }
    }

    // WL validateDateIsBetween(now: 2018-09-23, futureDate: 2033-09-23, date): the future date is
    // 15 years ahead, so the window here is maximumYearsAhead: 15.
    @Test(
        "WL validateDateIsBetween table, now = 2018-09, last year 2033",
        arguments: [
            ("testValidLowerSameMonthAndYear", 2018, 9, true),
            ("testInValidLowerMonth", 2018, 8, false),
            ("testInValidLowerYear", 2017, 9, false),
            ("testValidUpperSameMonthAndYear", 2033, 9, true),
            ("testValidUpperHigherMonthSameYear", 2033, 11, true),
            ("testInValidUpperHigherYear", 2034, 1, false),
            ("testInValidUpperMuchHigherYear", 2099, 1, false),
        ])
    func dateIsBetween(id: String, year: Int, monthNumber: Int, valid: Bool) {
        let window = ExpirationDateValidator(maximumYearsAhead: 15)
        let mm = monthNumber < 10 ? "0\(monthNumber)" : "\(monthNumber)"
        let yyyy = "\(year)"
        let now = context(2018, 9)
        #expect(window.validate(mm + yyyy, in: now).isValid == valid, "case \(id) MMYYYY")
        #expect(window.validate(mm + String(yyyy.suffix(2)), in: now).isValid == valid, "case \(id) MMYY")
    }

    @Test("the default window ends with December of the current year + 25")
    func defaultWindow() {
        let now = context(2018, 9)
        #expect(validator.validate("1243", in: now).isValid)
        #expect(validator.validate("122043", in: now).isValid)
        #expect(reason(validator.validate("0144", in: now)) == "tooFarAhead")
        // The reference's "1244 valid" holds only from 2019 on; at 2018-09 it is too far ahead.
        #expect(reason(validator.validate("1244", in: now)) == "tooFarAhead")
    }

    @Test("ING-JS facts: the current month is valid as mmyy and mmyyyy, the previous one is not")
    func currentAndPreviousMonth() {
        let now = context(2026, 1)
        #expect(validator.validate("0126", in: now).isValid)
        #expect(validator.validate("012026", in: now).isValid)
        #expect(reason(validator.validate("1225", in: now)) == "past")
        #expect(reason(validator.validate("122025", in: now)) == "past")
        #expect(reason(validator.validate("12345", in: now)) == "format")
    }

    @Test("month 00 and 13 are invalid in both forms", arguments: ["0030", "1330", "002030", "132030", "9930"])
    func badMonths(value: String) {
        #expect(reason(validator.validate(value, in: context())) == "month", "case \(value)")
    }

    @Test(
        "only exactly 4 or 6 ASCII digits parse",
        arguments: [
            ("empty", ""), ("3 digits", "123"), ("5 digits", "12345"), ("7 digits", "1234567"),
            ("masked 12/35", "12/35"), ("leading space", " 1235"), ("trailing newline", "1235\n"),
            ("Arabic-Indic 1235", "١٢٣٥"), ("Extended Arabic-Indic", "۱۲۳۵"), ("fullwidth", "１２３５"),
            ("digit with combining mark", "1235\u{0301}"), ("emoji", "12👍35"), ("sign", "+1235"),
        ])
    func malformed(id: String, value: String) {
        #expect(reason(validator.validate(value, in: context())) == "format", "case \(id)")
    }

    @Test("10 kB values are rejected as malformed after at most 7 bytes")
    func long() {
        for (id, value) in [
            ("digits", Long.digits), ("emoji", Long.emoji), ("combining", Long.combining),
            ("Arabic-Indic", Long.arabicIndic),
        ] {
            #expect(reason(validator.validate(value, in: context())) == "format", "case 10 kB \(id)")
        }
    }

    @Test("two-digit years resolve in a 100-year window around the clock, across the century")
    func centuryWindow() {
        // At 2090-06 the reference would read 0115 as 2015; the window reads 2115 (≤ 2115).
        #expect(validator.validate("0115", in: context(2090, 6)).isValid)
        #expect(validator.validate("1299", in: context(2090, 6)).isValid)
        #expect(validator.validate("0100", in: context(2099, 12)).isValid)
        #expect(ExpirationDateValidator.expiryMonth(of: "0100", relativeTo: month(2099, 12)) == month(2100, 1))
        // At 2026 the window is 2001…2100.
        #expect(ExpirationDateValidator.expiryMonth(of: "1201", relativeTo: month(2026, 5)) == month(2001, 12))
        #expect(ExpirationDateValidator.expiryMonth(of: "1200", relativeTo: month(2026, 5)) == month(2100, 12))
        #expect(ExpirationDateValidator.expiryMonth(of: "1299", relativeTo: month(2026, 5)) == month(2099, 12))
        #expect(ExpirationDateValidator.expiryMonth(of: "1335", relativeTo: month(2026, 5)) == nil)
        #expect(ExpirationDateValidator.expiryMonth(of: "122044", relativeTo: month(2026, 5)) == month(2044, 12))
    }

    @Test("the window parameter is clamped, so extreme values cannot overflow")
    func extremeWindow() {
        let wide = ExpirationDateValidator(maximumYearsAhead: .max)
        #expect(wide.maximumYearsAhead == 9_999)
        #expect(wide.validate("129999", in: context(9999, 12)).isValid)
        let none = ExpirationDateValidator(maximumYearsAhead: -5)
        #expect(none.maximumYearsAhead == 0)
        #expect(none.validate("1226", in: context(2026, 5)).isValid)
        #expect(!none.validate("0127", in: context(2026, 5)).isValid)
    }

    @Test("the clock is the context's: CalendarMonth from Unix time, UTC")
    func clockFromUnixTime() {
        // 2018-09-23T06:33:37Z, the reference test's "now".
        let now = ValidationContext(currentMonth: CalendarMonth(unixTime: 1_537_684_417))
        #expect(validator.validate("0918", in: now).isValid)
        #expect(!validator.validate("0818", in: now).isValid)
    }
}
