import CSEValidation
import Foundation
import Testing
import TestSupport

@Suite("Brand-aware card checks: PAN length, Luhn, CVC, masking")
struct CardCheckTests {
    @Test(
        "PAN lengths per brand",
        arguments: [
            (CardBrand.americanExpress, 15, true), (.americanExpress, 16, false), (.meeza, 19, true), (.meeza, 16, false),
            (.visa, 16, true), (.visa, 13, false), (.mastercard, 16, true), (.mastercard, 19, false),
            (.maestro, 12, true), (.dinersClub, 14, true), (.unionPay, 17, true),
        ])
    func panLengths(_ brand: CardBrand, _ length: Int, _ allowed: Bool) {
        #expect(brand.allowsPANLength(length) == allowed, "\(brand.id) \(length)")
    }

    @Test("validatePAN: length and Luhn")
    func validatePAN() {
        #expect(CardBrand.americanExpress.validatePAN("3782 822463 10005").isValid)
        #expect(CardBrand.visa.validatePAN("4111111111111111").isValid)
        #expect(CardBrand.visa.validatePAN("4111111111111112") == .invalid(.luhn))
        let amexLength = CardBrand.americanExpress.validatePAN("4111111111111111")
        #expect(amexLength == .invalid(.length, ["allowedLengths": .strings(["15"]), "brand": .string("american-express")]))
        #expect(CardBrand.visa.validatePAN("4222222222222").failures.map(\.code) == [.length], "13-digit Visa is not in the table")
        #expect(CardBrand.meeza.validatePAN("5078090000000000002").failures.map(\.code) == [], "19-digit Luhn-valid Meeza")
    }

    @Test(
        "validatePAN: non-digits are invalid, never a trap",
        arguments: [
            "", " ", "٤١١١١١١١١١١١١١١١", "4111-1111-1111-1111", "4111\u{0}111111111111", String(repeating: "4", count: 10_240),
        ])
    func validatePANBadInput(_ value: String) {
        #expect(!CardBrand.visa.validatePAN(value).isValid, "\(value.utf8.count) bytes")
    }

    @Test(
        "security code length per brand",
        arguments: [
            (CardBrand.americanExpress, "1234", true), (.americanExpress, "123", false), (.visa, "123", true),
            (.visa, "1234", false), (.visa, "12a", false), (.visa, "١٢٣", false), (.visa, "", false),
            (.visa, "12\u{0}", false), (.visa, String(repeating: "1", count: 10_240), false),
        ])
    func securityCodes(_ brand: CardBrand, _ code: String, _ valid: Bool) {
        let result = brand.validateSecurityCode(code)
        #expect(result.isValid == valid, "\(brand.id) \(code.utf8.count) bytes")
        if !valid {
            #expect(
                result
                    == .invalid(
                        .length,
                        [
                            "minLength": .int(brand.securityCode.length),
                            "maxLength": .int(brand.securityCode.length),
                            "name": .string(brand.securityCode.name),
                        ]))
        }
    }

    @Test("masked PAN keeps at most the first 6 and last 4 digits")
    func maskedPAN() {
        #expect(CardBrand.maskedPAN("4005550000000001") == "400555******0001")
        #expect(CardBrand.maskedPAN("4005 5500 0000 0001") == "400555******0001")
        #expect(CardBrand.maskedPAN("378282246310005") == "378282*****0005")
        #expect(CardBrand.maskedPAN("4111111111") == "**********")
        #expect(CardBrand.maskedPAN("") == "")
    }

    @Test(
        "the Luhn check agrees with the shared luhn-vectors.json",
        .enabled(if: TestPaths.sharedVectors != nil, "needs ../shared/vectors"))
    func luhnVectors() throws {
        struct File: Decodable {
            struct Row: Decodable {
                let pan: String
                let luhnValid: Bool
                enum CodingKeys: String, CodingKey { case pan, luhnValid = "luhn_valid" }
            }
            let valid: [Row], invalid: [Row], publishedButNotLuhnValid: [Row]
        }
        let file = try #require(try VectorFiles.shared(File.self, "cards/luhn-vectors.json"))
        let anyLength = CardBrand(
            id: "any", name: "Any", iinRanges: [], panLengths: Array(1...19),
            securityCode: CardSecurityCode(name: "CVV", length: 3), usesLuhn: true)
        var count = 0
        for (key, rows) in [("valid", file.valid), ("invalid", file.invalid), ("publishedButNotLuhnValid", file.publishedButNotLuhnValid)] {
            for row in rows {
                let pan = row.pan
                let expected = row.luhnValid
                #expect(anyLength.validatePAN(pan).isValid == expected, "\(key) \(CardBrand.maskedPAN(pan))")
                count += 1
            }
        }
        #expect(count >= 29)
    }
}
