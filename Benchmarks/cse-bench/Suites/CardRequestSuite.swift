import CSECore
import CSEPayments
import CSEValidation
import Foundation

/// Validating the 4-field card request of the built-in card product: CSEPayments' compiled
/// validation plan against the Foundation-naive version.
enum CardRequestSuite {
    static var definitions: [Definition] {
        [
            Definition("validate-card-request") { _ in validateCardRequest() },
            Definition("foundation/validate-card-request") { _ in foundationValidate() },
        ]
    }

    /// The request every payment workload uses, on `BuiltinProducts.card`.
    static func request(cardNumber: String? = nil) -> PaymentRequest {
        var request = PaymentRequest(product: BuiltinProducts.card)
        for (key, value) in Fixtures.cardValues {
            mustSucceed { () throws(CSEError) in
                try request.setValue(key == "cardNumber" ? cardNumber ?? value : value, forField: key)
            }
        }
        return request
    }

    static func validateCardRequest() -> Benchmark {
        let request = request()
        let context = ValidationContext(currentMonth: .now())
        guard request.validate(in: context).isEmpty else {
            fatalError("validate-card-request setup: \(request.validate(in: context))")
        }
        let broken = CardRequestSuite.request(cardNumber: "4567350000427978")
        guard broken.validate(in: context).map(\.code) == [.luhn] else {
            fatalError("validate-card-request setup: Luhn failure not found: \(broken.validate(in: context))")
        }
        return Benchmark("validate-card-request") { iterations in
            repeatSinking(iterations) { request.validate(in: context) }
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
