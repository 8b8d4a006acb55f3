extension CardBrand {
    /// Whether a PAN of `digitCount` digits is allowed for this brand (for example only 15 for
    /// American Express, only 19 for Meeza).
    /// - Parameter digitCount: The number of digits of the PAN.
    package func allowsPANLength(_ digitCount: Int) -> Bool {
        panLengths.contains(digitCount)
    }

    /// Checks a complete card number against this brand's rules.
    ///
    /// ASCII spaces are ignored. The checks, each reported when it fails:
    /// - characters: only ASCII digits are allowed; anything else (including Arabic-Indic digits)
    ///   fails with code `luhn` and `reason=notDigits`, like the Worldline Luhn rule, and stops
    ///   further checks;
    /// - length: code `length` with `allowedLengths` when the digit count is not one of
    ///   ``panLengths``;
    /// - check digit: code `luhn` when the brand ``usesLuhn`` and the ISO/IEC 7812-1 Annex B
    ///   check digit is wrong.
    ///
    /// The IIN itself is not checked here; use ``CardBrandTable/brands(forPartialNumber:)``.
    /// - Parameter pan: The card number.
    /// - Returns: Valid, or the failures. They never contain the number.
    package func validatePAN(_ pan: String) -> ValidationResult {
        guard let digits = CardDigits(pan), digits.count > 0 else {
            return .invalid(.luhn, [ValidationReason.parameterName: .reason(.notDigits)])
        }
        var failures = [ValidationFailure]()
        if !allowsPANLength(digits.count) {
            failures.append(
                ValidationFailure(
                    .length,
                    [
                        "allowedLengths": .strings(panLengths.map(String.init)),
                        "brand": .string(id),
                    ]))
        }
        if usesLuhn && !digits.luhnValid {
            failures.append(ValidationFailure(.luhn))
        }
        return ValidationResult(failures: failures)
    }

    /// Checks a card security code (CVV, CVC, CID, …) against this brand: exactly
    /// ``CardSecurityCode/length`` ASCII digits (4 for American Express, 3 for the others).
    /// - Parameter code: The security code as entered; no spaces are removed.
    /// - Returns: Valid, or one `length` failure with `minLength`, `maxLength` and `name`; it
    ///   never contains the code.
    package func validateSecurityCode(_ code: String) -> ValidationResult {
        var count = 0
        var allDigits = true
        for byte in code.utf8 {
            if byte &- 0x30 >= 10 { allDigits = false; break }
            count += 1
            if count > securityCode.length { break }
        }
        if allDigits && count == securityCode.length { return .valid }
        return .invalid(
            .length,
            [
                "minLength": .int(securityCode.length), "maxLength": .int(securityCode.length),
                "name": .string(securityCode.name),
            ])
    }
}
