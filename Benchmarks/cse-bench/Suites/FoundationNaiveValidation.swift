import Foundation

/// The 4-field card request validated the way a typical Swift payment SDK does it (the Worldline
/// Swift SDK's validators): `NSRegularExpression` with "exactly one match", a Luhn check that walks
/// the `String` by index, `Character` counts for lengths, and a `DateFormatter("MMyy")` expiry
/// compared with `Calendar` components. Regexes and the formatter are built once, as the SDK's
/// validator objects keep them, so this is naive code, not a straw man.
final class FoundationNaiveCardValidation {
    private let expiryRegex: NSRegularExpression
    private let cvvRegex: NSRegularExpression
    private let formatter: DateFormatter
    private let calendar = Calendar(identifier: .gregorian)

    init() {
        do {
            expiryRegex = try NSRegularExpression(pattern: "(?:0[1-9]|1[0-2])[0-9]{2}")
            cvvRegex = try NSRegularExpression(pattern: "^[0-9]{3}[0-9]?$")
        } catch {
            fatalError("naive validation: \(error)")
        }
        formatter = DateFormatter()
        formatter.dateFormat = "MMyy"
    }

    /// Returns `fieldId:code` for every failure, in field order.
    func validate(_ values: [String: String], now: Date) -> [String] {
        var errors: [String] = []
        func check(_ field: String, _ rules: (String) -> [String]) {
            guard let value = values[field], !value.isEmpty else {
                errors.append("\(field):required")
                return
            }
            errors.append(contentsOf: rules(value).map { "\(field):\($0)" })
        }
        check("cardNumber") { value in
            var failures: [String] = []
            if !(12...19).contains(value.count) { failures.append("length") }
            if !Self.luhn(value) { failures.append("luhn") }
            return failures
        }
        check("expiryDate") { value in
            var failures: [String] = []
            if !self.expiryValid(value, now: now) { failures.append("expirationDate") }
            if value.count != 4 { failures.append("length") }
            if !Self.matchesOnce(self.expiryRegex, value) { failures.append("regularExpression") }
            return failures
        }
        check("cvv") { value in
            var failures: [String] = []
            if !(3...4).contains(value.count) { failures.append("length") }
            if !Self.matchesOnce(self.cvvRegex, value) { failures.append("regularExpression") }
            return failures
        }
        check("cardholderName") { value in
            (2...51).contains(value.count) ? [] : ["length"]
        }
        return errors
    }

    static func matchesOnce(_ regex: NSRegularExpression, _ value: String) -> Bool {
        regex.numberOfMatches(in: value, options: [], range: NSRange(location: 0, length: value.count)) == 1
    }

    /// The SDK's Luhn: walk from the right by `String.Index`, `Int(String(character))` per digit.
    static func luhn(_ value: String) -> Bool {
        var sum = 0
        let count = value.count
        for i in 1...count {
            let character = value[value.index(value.startIndex, offsetBy: count - i)]
            guard let digit = Int(String(character)) else { return false }
            if i % 2 == 0 {
                let doubled = digit * 2
                sum += doubled % 10 + doubled / 10
            } else {
                sum += digit
            }
        }
        return sum % 10 == 0
    }

    /// Parse `MMyy`, then: not before the current month, not more than 25 years ahead.
    private func expiryValid(_ value: String, now: Date) -> Bool {
        guard let date = formatter.date(from: value) else { return false }
        let expiry = calendar.dateComponents([.year, .month], from: date)
        let current = calendar.dateComponents([.year, .month], from: now)
        guard let ey = expiry.year, let em = expiry.month, let cy = current.year, let cm = current.month else { return false }
        if ey < cy || (ey == cy && em < cm) { return false }
        return ey <= cy + 25
    }
}
