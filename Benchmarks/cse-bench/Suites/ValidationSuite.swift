import CSECore
import CSEPayments
import CSEValidation
import Foundation

/// Field validation: the regex engine against `NSRegularExpression`, and the guidance
/// micro-benchmarks (Luhn, IBAN, brand detection, masks, IIN tables).
enum ValidationSuite {
    /// The built-in products' regular expressions (card: expiryDate and cvv), each with values
    /// that pass and values that fail, in the Worldline "exactly one match" mode.
    static let regexCases: [(pattern: String, values: [String])] = {
        let samples = [["1230", "0199", "1330", "12300", "12a0"], ["123", "1234", "12", "12345", "12a"]]
        let patterns = BuiltinProducts.all.flatMap { product in
            product.validationPlan.fields.flatMap { field in
                field.validators.compactMap { ($0 as? RegularExpressionValidator)?.pattern.pattern }
            }
        }
        guard patterns.count == samples.count else { fatalError("regex-validate: the built-in products changed their patterns") }
        return zip(patterns, samples).map { ($0, $1) }
    }()

    /// Patterns outside the built-in subset (lookahead, back-reference), on the ICU fallback: the
    /// cost of ICU's C API as CSEKit calls it (a clone per search, the stepwise budget form)
    /// against `NSRegularExpression` on the plain pattern, as the Worldline SDK calls it.
    static let fallbackCases: [(pattern: String, values: [String])] = [
        ("^(?=.*[0-9])[A-Za-z0-9]{6,12}$", ["abc123", "abcdef", "a1", "abcdefghijk9", "abc-123"]),
        ("(\\d)\\1", ["1123", "1234", "99", "a", "1212"]),
    ]

    static let card = "4567350000427977"
    static let ibans: [(label: String, value: String)] = [
        ("DE", "DE89370400440532013000"),
        ("GB", "GB82WEST12345698765432"),
        ("MT", "MT84MALT011000012345MTLCAST001S"),
    ]

    static var definitions: [Definition] {
        var all: [Definition] = [
            Definition("regex-validate") { _ in regexValidate() },
            Definition("foundation/nsregularexpression") { _ in foundationRegex() },
            Definition("regex-fallback") { _ in regexFallback() },
            Definition("foundation/nsregularexpression-fallback") { _ in
                foundationRegex(fallbackCases, name: "foundation/nsregularexpression-fallback")
            },
            Definition("luhn/16-digits") { _ in
                guard LuhnValidator.hasValidCheckDigit(card), !LuhnValidator.hasValidCheckDigit("4567350000427978") else {
                    fatalError("luhn setup: wrong verdicts")
                }
                return Benchmark("luhn/16-digits") { iterations in
                    repeatSinking(iterations) { LuhnValidator.hasValidCheckDigit(card) }
                }
            },
        ]
        for (label, iban) in ibans {
            all.append(
                Definition("iban/\(label)") { _ in
                    guard IBAN.check(iban).isValid else { fatalError("iban setup: \(label) example is not valid") }
                    return Benchmark("iban/\(label)") { iterations in
                        repeatSinking(iterations) { IBAN.check(iban).isValid }
                    }
                })
        }
        for (label, number) in [("full-pan", card), ("6-digits", String(card.prefix(6)))] {
            all.append(
                Definition("brand-detect/\(label)") { _ in
                    let table = CardBrandTable.embedded
                    guard table.brand(forPartialNumber: number)?.id == "visa" else { fatalError("brand-detect setup: not visa") }
                    return Benchmark("brand-detect/\(label)") { iterations in
                        repeatSinking(iterations) { table.brands(forPartialNumber: number) }
                    }
                })
        }
        all.append(
            Definition("mask-format/card16") { _ in
                let mask = mustSucceed { () throws(CSEError) in try Mask("{{9999}} {{9999}} {{9999}} {{9999}} {{999}}") }
                guard mask.format(card) == "4567 3500 0042 7977 " else { fatalError("mask-format setup: \(mask.format(card))") }
                return Benchmark("mask-format/card16") { iterations in
                    repeatSinking(iterations) { mask.format(card) }
                }
            })
        all.append(contentsOf: IINSuite.definitions)
        return all
    }

    /// Our regex engine, with the verdicts checked against ICU in setup.
    static func regexValidate() -> Benchmark {
        let validators = regexCases.map { entry in
            mustSucceed { () throws(CSEError) in try RegularExpressionValidator(pattern: entry.pattern) }
        }
        let foundation = regexCases.map { entry in mustSucceed { try NSRegularExpression(pattern: entry.pattern) } }
        for (index, entry) in regexCases.enumerated() {
            guard validators[index].pattern.usesBuiltinEngine else {
                fatalError("regex-validate: \(entry.pattern) is not on the built-in engine")
            }
            for value in entry.values {
                let ours = mustSucceed { () throws(CSEError) in try validators[index].matches(value) }
                if ours != foundationMatches(foundation[index], value) {
                    fatalError("regex-validate setup: verdicts differ for /\(entry.pattern)/ on \(value)")
                }
            }
        }
        let cases = regexCases.enumerated().flatMap { index, entry in entry.values.map { (validators[index], $0) } }
        return Benchmark("regex-validate", extras: [("matches_per_op", Double(cases.count))]) { iterations in
            // Both loops read their cases in place, so neither measures copies of its matcher.
            cases.withUnsafeBufferPointer { cases in
                for _ in 0..<iterations {
                    for index in cases.indices {
                        blackHole(mustSucceed { () throws(CSEError) in try cases[index].0.matches(cases[index].1) })
                    }
                }
            }
        }
    }

    /// The ICU fallback (`RegexICUEngine` over ICU's C API), with the verdicts checked against
    /// `NSRegularExpression` in setup.
    static func regexFallback() -> Benchmark {
        let validators = fallbackCases.map { entry in
            mustSucceed { () throws(CSEError) in try RegularExpressionValidator(pattern: entry.pattern) }
        }
        var cases: [(RegularExpressionValidator, String)] = []
        for (index, entry) in fallbackCases.enumerated() {
            guard !validators[index].pattern.usesBuiltinEngine else {
                fatalError("regex-fallback: \(entry.pattern) is on the built-in engine")
            }
            let oracle = mustSucceed { try NSRegularExpression(pattern: entry.pattern) }
            for value in entry.values {
                let ours = mustSucceed { () throws(CSEError) in try validators[index].matches(value) }
                if ours != foundationMatches(oracle, value) {
                    fatalError("regex-fallback setup: verdicts differ for /\(entry.pattern)/ on \(value)")
                }
                cases.append((validators[index], value))
            }
        }
        return Benchmark("regex-fallback", extras: [("matches_per_op", Double(cases.count))]) { iterations in
            cases.withUnsafeBufferPointer { cases in
                for _ in 0..<iterations {
                    for index in cases.indices {
                        blackHole(mustSucceed { () throws(CSEError) in try cases[index].0.matches(cases[index].1) })
                    }
                }
            }
        }
    }

    /// `NSRegularExpression` compiled once, `numberOfMatches == 1` over the whole value (the Worldline SDK).
    static func foundationRegex(
        _ entries: [(pattern: String, values: [String])] = regexCases, name: String = "foundation/nsregularexpression"
    ) -> Benchmark {
        let cases = entries.flatMap { entry in
            let regex = mustSucceed { try NSRegularExpression(pattern: entry.pattern) }
            return entry.values.map { (regex, $0) }
        }
        return Benchmark(name, extras: [("matches_per_op", Double(cases.count))]) { iterations in
            cases.withUnsafeBufferPointer { cases in
                for _ in 0..<iterations {
                    for index in cases.indices { blackHole(foundationMatches(cases[index].0, cases[index].1)) }
                }
            }
        }
    }

    static func foundationMatches(_ regex: NSRegularExpression, _ value: String) -> Bool {
        regex.numberOfMatches(in: value, options: [], range: NSRange(location: 0, length: value.utf16.count)) == 1
    }
}
