import CSECore
import CSEValidation
import Foundation

/// Validating the 4-field card request: CSEKit's validators against the Foundation-naive version.
enum CardRequestSuite {
    static var definitions: [Definition] {
        [
            Definition("validate-card-request") { _ in validateCardRequest() },
            Definition("foundation/validate-card-request") { _ in foundationValidate() },
        ]
    }

    /// The card product's rules as CSEValidation validators, compiled once.
    static let plan: [(field: String, validators: [any FieldValidator])] = {
        mustSucceed { () throws(CSEError) in
            [
                ("cardNumber", [LengthValidator(minLength: 12, maxLength: 19), LuhnValidator()]),
                ("expiryDate", [ExpirationDateValidator(), LengthValidator(minLength: 4, maxLength: 4),
                                try RegularExpressionValidator(pattern: "(?:0[1-9]|1[0-2])[0-9]{2}")]),
                ("cvv", [LengthValidator(minLength: 3, maxLength: 4), try RegularExpressionValidator(pattern: "^[0-9]{3}[0-9]?$")]),
                ("cardholderName", [LengthValidator(minLength: 2, maxLength: 51)]),
            ]
        }
    }()

    static func validate(_ values: [(key: String, value: String)], context: ValidationContext) -> Int {
        var failures = 0
        for (index, field) in plan.enumerated() {
            let value = values[index].value
            if value.isEmpty { failures += 1; continue }
            for validator in field.validators where !validator.validate(value, in: context).isValid { failures += 1 }
        }
        return failures
    }

    static func validateCardRequest() -> Benchmark {
        let values = Fixtures.cardValues
        let context = ValidationContext()
        guard validate(values, context: context) == 0 else { fatalError("validate-card-request setup: request is invalid") }
        var broken = values
        broken[0].value = "4567350000427978"
        guard validate(broken, context: context) == 1 else { fatalError("validate-card-request setup: Luhn failure not found") }
        return Benchmark("validate-card-request") { iterations in
            repeatSinking(iterations) { validate(values, context: context) }
        }
    }

    static func foundationValidate() -> Benchmark {
        let naive = FoundationNaiveCardValidation()
        let values = Dictionary(uniqueKeysWithValues: Fixtures.cardValues.map { ($0.key, $0.value) })
        let now = Date()
        guard naive.validate(values, now: now).isEmpty else {
            fatalError("foundation/validate-card-request setup: \(naive.validate(values, now: now))")
        }
        var broken = values
        broken["cardNumber"] = "4567350000427978"
        guard naive.validate(broken, now: now) == ["cardNumber:luhn"] else {
            fatalError("foundation/validate-card-request setup: Luhn failure not found")
        }
        return Benchmark("foundation/validate-card-request") { iterations in
            repeatSinking(iterations) { naive.validate(values, now: now) }
        }
    }
}
