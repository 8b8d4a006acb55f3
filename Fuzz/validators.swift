// Fuzz target `validators`: the field validators on hostile values. Input:
// `selector first NUL second NUL month-byte year-byte`. Differential checks: IBAN against a naive
// ISO 13616 / ISO 7064 MOD 97-10 model, the two IBAN APIs against each other, expiry parsing
// against validation, Luhn check against the validator, currency amounts through a
// major → minor → major round trip. Regular expressions have their own target, `regex`.
import CSECore
import CSEValidation

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzValidators(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    var input = FuzzInput(data, size)
    let selector = input.byte()
    let first = text(input.field())
    let second = text(input.field())
    let month = Int(input.byte() % 12) + 1
    let now = CalendarMonth(year: 2000 + Int(input.byte() % 100), month: month)!
    let context = ValidationContext(currentMonth: now)
    switch selector % 5 {
    case 0: checkIBAN(first)
    case 1: checkExpiry(first, now: now, context: context)
    case 2: checkCards(first, context: context)
    case 3: checkAmount(first, currency: second)
    default: checkSimpleValidators(first, second, context: context)
    }
    return 0
}

func checkIBAN(_ value: String) {
    let result = IBAN.check(value)
    let parsed = try? IBAN(value)
    require(result.isValid == (parsed != nil), "IBAN.check and IBAN.init disagree")
    let model = naiveIBANChecksumHolds(value)
    if result.isValid {
        require(model, "accepted an IBAN whose MOD 97-10 check fails")
        require(parsed?.electronicFormat.count ?? 0 <= 34, "IBAN longer than 34")
    } else if result.failure == .checksum {
        require(!model, "rejected an IBAN whose MOD 97-10 check holds")
    }
    _ = IBANValidator().validate(value, in: ValidationContext())
}

/// ISO 13616-1: drop spaces, upper-case, move the first four characters to the end, letters to
/// 10…35, the number mod 97 must be 1, check digits 02…98.
func naiveIBANChecksumHolds(_ value: String) -> Bool {
    let chars = Array(value.unicodeScalars.filter { !" \t\n\r".unicodeScalars.contains($0) }.map { Character($0).uppercased() }.joined())
    guard chars.count >= 5, chars.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) }) else { return false }
    var remainder = 0
    for c in chars[4...] + chars[..<4] {
        let v = c.isNumber ? Int(String(c))! : Int(c.asciiValue! - 65 + 10)
        remainder = (v >= 10 ? remainder * 100 + v : remainder * 10 + v) % 97
    }
    guard let check = Int(String(chars[2...3])) else { return false }
    return remainder == 1 && (2...98).contains(check)
}

func checkExpiry(_ value: String, now: CalendarMonth, context: ValidationContext) {
    let verdict = ExpirationDateValidator().validate(value, in: context)
    let month = ExpirationDateValidator.expiryMonth(of: value, relativeTo: now)
    if verdict.isValid {
        require(month != nil, "a valid expiry date has no month")
        if let month { require(!(month < now), "a past expiry date is valid") }
    }
}

func checkCards(_ value: String, context: ValidationContext) {
    let digits = DigitNormalizer.asciiDigits(value)
    let luhn = LuhnValidator.hasValidCheckDigit(digits)
    require(LuhnValidator().validate(digits, in: context).isValid == luhn, "Luhn validator and check disagree")
    let brands = CardBrandTable.embedded.brands(forPartialNumber: digits)
    if let brand = CardBrandTable.embedded.brand(forPartialNumber: digits) {
        require(brands.contains(brand), "brand(for:) is not among brands(for:)")
        _ = brand.validatePAN(digits)
        _ = brand.validateSecurityCode(value)
    }
    _ = CardBrandTable.embedded.iinDetails(forPartialNumber: digits, allowedProductIDs: ["1", "3"])
    // maskPAN keeps at most the first 6 and last 4 characters: a run of 13 or more digits
    // never survives whole.
    let pure = String(String.UnicodeScalarView(value.unicodeScalars.filter { $0.value >= 0x30 && $0.value <= 0x39 }))
    if pure.count >= 13 { require(!SecretMasking.maskPAN(value).contains(pure), "maskPAN kept the whole number") }
}

func checkAmount(_ major: String, currency: String) {
    guard let currency = Currency(code: currency.isEmpty ? "EUR" : String(currency.prefix(3))) else { return }
    do throws(CSEError) {
        let minor = try currency.minorAmount(fromMajor: major)
        let back = try currency.majorString(fromMinor: minor)
        require((try? currency.minorAmount(fromMajor: back)) == minor, "amount round trip")
    } catch {
        require(error.code.rawValue.hasPrefix("amount.") || error.code.rawValue.hasPrefix("currency."), "unexpected code \(error.code)")
    }
}

func checkSimpleValidators(_ value: String, _ other: String, context: ValidationContext) {
    _ = EmailAddressValidator().validate(value, in: context)
    _ = ResidentIDNumberValidator().validate(value, in: context)
    _ = RequiredValidator().validate(value, in: context)
    _ = TermsAndConditionsValidator().validate(value, in: context)
    let a = other.utf8.reduce(0) { ($0 &* 31 &+ Int($1)) % 1000 } - 500
    let b = value.utf8.count % 50
    _ = LengthValidator(minLength: a, maxLength: b).validate(value, in: context)
    _ = RangeValidator(minValue: a, maxValue: b).validate(value, in: context)
    _ = FixedListValidator(allowedValues: [other, "x"]).validate(value, in: context)
    _ = BoletoBancarioRequirednessValidator(fiscalNumberLength: b).validate(
        value,
        in: ValidationContext(
            currentMonth: context.currentMonth, fieldValues: ["fiscalNumber": other]))
}
