import CSECore
import CSEValidation
import Foundation
import Testing
import TestSupport

/// Rows of Vectors/iban/iban-registry.json.
enum IBANVectors {
    struct Country: Sendable, CustomTestStringConvertible {
        let code: String, name: String, length: Int, bban: String, sepa: Bool, swiftRegistry: Bool, example: String
        var testDescription: String { code }
    }

    /// Vectors/iban/iban-registry.json.
    struct File: Decodable {
        struct Row: Decodable {
            let code: String, name: String, length: Int, bban: String, sepa: Bool, swiftRegistry: Bool, example: String
        }
        struct Territory: Decodable { let code: String, ibanPrefix: String }
        let countries: [Row]
        let territories: [Territory]
    }

    static let file: File = try! VectorFiles.project(File.self, "iban/iban-registry.json")

    static let countries: [Country] = file.countries.map {
        Country(
            code: $0.code, name: $0.name, length: $0.length, bban: $0.bban, sepa: $0.sepa, swiftRegistry: $0.swiftRegistry,
            example: $0.example)
    }

    static let territories: [(code: String, prefix: String)] = file.territories.map { ($0.code, $0.ibanPrefix) }

    /// An independent ISO 7064 MOD 97-10 + ISO 13616 check (country format ignored), written
    /// from the standard without sharing code with the library.
    static func mod97Valid(_ iban: String) -> Bool {
        let chars = Array(iban)
        guard chars.count >= 5, let cd = Int(String(chars[2...3])), (2...98).contains(cd) else { return false }
        var remainder = 0
        for ch in chars[4...] + chars[0..<4] {
            guard
                let value = ch.isASCII
                    ? (ch.isNumber
                        ? ch.wholeNumberValue
                        : ch.isLetter && ch.isUppercase
                            ? Int(ch.asciiValue!) - 55 : nil) : nil
            else { return false }
            remainder = (remainder * (value < 10 ? 10 : 100) + value) % 97
        }
        return remainder == 1
    }

    /// Whether `iban` fits its country's length and BBAN structure in the vector table.
    static func fitsFormat(_ iban: String) -> Bool {
        let chars = Array(iban)
        guard chars.count >= 4, let country = countries.first(where: { $0.code == String(chars[0...1]) }),
            chars.count == country.length, chars[0].isUppercase, chars[1].isUppercase,
            chars[2].isNumber, chars[3].isNumber
        else { return false }
        var position = 4
        var number = 0
        for ch in country.bban {
            if let d = ch.wholeNumberValue { number = number * 10 + d; continue }
            if ch == "!" { continue }
            for _ in 0..<number {
                let c = chars[position]
                let ok: Bool
                switch ch {
                case "n": ok = c.isASCII && c.isNumber
                case "a": ok = c.isASCII && c.isUppercase
                default: ok = c.isASCII && (c.isNumber || c.isUppercase)
                }
                if !ok { return false }
                position += 1
            }
            number = 0
        }
        return position == chars.count
    }
}

@Suite("IBAN (ISO 13616): registry examples, mutations, reasons")
struct IBANTests {
    @Test("every registry example IBAN validates", arguments: IBANVectors.countries)
    func registryExampleValidates(_ country: IBANVectors.Country) {
        let result = IBAN.check(country.example)
        #expect(result.isValid, "\(country.code): \(result)")
        #expect(result.country?.code == country.code, "\(country.code)")
        #expect(IBANValidator().validate(country.example, in: ValidationContext()).isValid, "\(country.code)")
        #expect(IBANVectors.mod97Valid(country.example) && IBANVectors.fitsFormat(country.example), "\(country.code): independent check")
    }

    @Test(
        "every single-character substitution and adjacent transposition is rejected unless itself valid",
        arguments: IBANVectors.countries)
    func mutationsAreRejected(_ country: IBANVectors.Country) {
        let alphabet = Array("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ")
        let original = Array(country.example)
        var mutants = [String]()
        for i in original.indices {
            for replacement in alphabet where replacement != original[i] {
                var copy = original
                copy[i] = replacement
                mutants.append(String(copy))
            }
        }
        for i in 0..<(original.count - 1) where original[i] != original[i + 1] {
            var copy = original
            copy.swapAt(i, i + 1)
            mutants.append(String(copy))
        }
        var accepted = 0
        for mutant in mutants {
            let expected = IBANVectors.mod97Valid(mutant) && IBANVectors.fitsFormat(mutant)
            let result = IBAN.check(mutant)
            #expect(result.isValid == expected, "\(country.code) mutant \(mutant): library \(result), independent \(expected)")
            if result.isValid { accepted += 1 }
        }
        // MOD 97-10 detects all single substitutions and adjacent transpositions of digits; the
        // rare accepted mutants are letter substitutions that land on another valid IBAN.
        #expect(accepted <= mutants.count / 20, "\(country.code): \(accepted) of \(mutants.count) mutants valid")
    }

    @Test("ING-JS reference vectors (reference §2)")
    func referenceVectors() {
        #expect(IBAN.check("GB33BUKB20201555555555").isValid)
        #expect(IBAN.check("GB94BARC20201530093459").failure == .checksum)
    }

    @Test("shared iban-edge-cases.json", .enabled(if: TestPaths.sharedVectors != nil, "needs ../shared/vectors"))
    func sharedEdgeCases() throws {
        /// `valid` is a Boolean, or the string "lowercase" for a case the file leaves to the implementation.
        struct EdgeCases: Decodable {
            struct Case: Decodable { let iban: String, valid: AnyJSON, why: String? }
            let cases: [Case]
        }
        let cases = try #require(try VectorFiles.shared(EdgeCases.self, "iban/iban-edge-cases.json")).cases
        #expect(cases.count == 8)
        for (index, testCase) in cases.enumerated() {
            let iban = testCase.iban
            // "lowercase" is a documented decision: case is folded, so it is valid.
            let expected = testCase.valid == .bool(true) || testCase.valid == .string("lowercase")
            #expect(IBAN.check(iban).isValid == expected, "case \(index) (\(testCase.why ?? "")): \(IBAN.check(iban))")
        }
    }

    @Test(
        "the failure says why",
        arguments: [
            ("DE89370400440532013001", "checksum"),
            ("DE8937040044053201300", "length"),
            ("DE893704004405320130000", "length"),
            ("DE89A70400440532013000", "structure"),
            ("XX89370400440532013000", "unknownCountry"),
            ("GB00WEST12345698765432", "checksum"),
            ("DEAB370400440532013000", "structure"),
            ("DE89-3704-0044-0532-0130-00", "structure"),
            ("1E89370400440532013000", "unknownCountry"),
            ("D", "length"),
            ("", "length"),
        ])
    func failureReasons(_ value: String, _ reason: String) {
        #expect(IBAN.check(value).failure?.rawValue == reason, "\(value)")
        #expect(IBANValidator().validate(value, in: ValidationContext()) == .invalid(.iban, ["reason": .string(reason)]), "\(value)")
    }

    @Test("check digits 00, 01 and 99 are never valid even when MOD 97 matches")
    func reservedCheckDigits() {
        // GB82WEST12345698765432 has check digits 82; 82 + 97 = 179 is not two digits, but for
        // a valid IBAN with check digits 97 or 98 the residue twins are 00 and 01.
        for country in IBANVectors.countries {
            let chars = Array(country.example)
            let cd = Int(String(chars[2...3]))!
            let twins = [cd + 97, cd - 97].filter { (0...99).contains($0) }
            for twin in twins {
                var copy = chars
                let digits = Array(twin < 10 ? "0\(twin)" : "\(twin)")
                copy[2] = digits[0]; copy[3] = digits[1]
                #expect(IBAN.check(String(copy)).failure == .checksum, "\(country.code) with check digits \(twin)")
            }
        }
    }

    @Test("print format, lower case and line breaks are normalised")
    func normalisation() throws {
        #expect(IBAN.check("GB82 WEST 1234 5698 7654 32").isValid)
        #expect(IBAN.check("gb82west12345698765432").isValid)
        #expect(IBAN.check(" GB82\tWEST1234\n5698765432\r\n").isValid)
        let iban = try IBAN("gb82 west 1234 5698 7654 32")
        #expect(iban.electronicFormat == "GB82WEST12345698765432")
        #expect(iban.printFormat == "GB82 WEST 1234 5698 7654 32")
        #expect(iban.countryCode == "GB" && iban.checkDigits == "82" && iban.bban == "WEST12345698765432")
        #expect(iban.country.name.contains("United Kingdom"))
    }

    @Test("IBAN(_:) throws typed errors without the value")
    func typedErrors() {
        #expect(throws: CSEError(.ibanChecksum, "")) { try IBAN("GB94BARC20201530093459") }
        #expect(throws: CSEError(.ibanUnknownCountry, "")) { try IBAN("XX89370400440532013000") }
        #expect(throws: CSEError(.ibanLength, "")) { try IBAN("DE8937040044053201300") }
        #expect(throws: CSEError(.ibanStructure, "")) { try IBAN("DE89A70400440532013000") }
        do {
            _ = try IBAN("GB94BARC20201530093459")
        } catch {
            #expect(!error.description.contains("20201530093459"))
        }
    }

    @Test("experimental formats can be refused")
    func experimentalCountries() throws {
        let experimental = try #require(IBANVectors.countries.first { !$0.swiftRegistry })
        #expect(IBAN.check(experimental.example).isValid)
        #expect(IBAN.check(experimental.example, acceptsExperimentalCountries: false).failure == .unknownCountry)
        #expect(IBANValidator(acceptsExperimentalCountries: false).validate("DE89370400440532013000", in: ValidationContext()).isValid)
    }

    @Test("territories use their parent's prefix", arguments: IBANVectors.territories.map(\.code))
    func territories(_ code: String) throws {
        let territory = try #require(IBANTerritory.all.first { $0.code == code })
        let parent = try #require(territory.country)
        #expect(IBAN.check(parent.example).isValid, "\(code)")
        // The territory's own code is not an IBAN prefix.
        #expect(IBANCountry.named(code) == nil, "\(code)")
    }

    @Test(
        "bad input is an invalid result, never a trap",
        arguments: [
            "", " ", "٤١١١", "GB82WEST1234569876543٢", "GB82WEST\u{0}2345698765432", String(repeating: "A", count: 10_240),
            "GB" + String(repeating: "9", count: 10_240), String(repeating: "\u{0}", count: 64), "ĞB82WEST12345698765432",
            "GB82WEST12345698765432\u{FEFF}",
        ])
    func badInput(_ value: String) {
        let result = IBAN.check(value)
        #expect(!result.isValid, "\(value.utf8.count) bytes")
        #expect(!IBANValidator().validate(value, in: ValidationContext()).isValid)
    }
}
