import CSECore
import CSEValidation

/// Why a value does not have its format: a stable code and the broken limits (never the value).
struct FormatFailure {
    let code: ValidationCode
    let limits: [String: String]

    init(_ code: ValidationCode = .format, _ limits: [String: String] = [:]) {
        self.code = code
        self.limits = limits
    }
}

/// The implementations of ``ParameterFormat/Kind``. Every check is linear in the value and never
/// traps; formats that depend on another parameter read it from the same request.
enum FormatChecks {
    static func check(
        _ format: ParameterFormat, text: String, kind: ParameterValue.Kind,
        in validator: SpecValidator
    ) -> FormatFailure? {
        let limits = ["format": format.kind.rawValue]
        func fail(_ extra: [String: String] = [:]) -> FormatFailure {
            FormatFailure(.format, limits.merging(extra) { $1 })
        }
        switch format.kind {
        case .email:
            return EmailAddressValidator.matches(text) ? nil : fail()
        case .ipAddress:
            return IPAddressText.isIPv4(text) || IPAddressText.isIPv6(text) ? nil : fail()
        case .currencyCode:
            return isUpperASCII(text, count: 3) && Currency(code: text) != nil ? nil : fail()
        case .countryAlpha2:
            return CountryCodes.alpha2.containsByteEqual(text) ? nil : fail()
        case .countryAlpha3:
            return CountryCodes.alpha3.containsByteEqual(text) ? nil : fail()
        case .date:
            return CalendarDateText.isValid(text) ? nil : fail()
        case .month:
            let b = Array(text.utf8)
            guard b.count == 2, let m = Int(text), (1...12).contains(m) else { return fail() }
            return nil
        case .hex:
            return text.utf8.allSatisfy { $0.isASCIIDigit || ($0 | 0x20 >= 0x61 && $0 | 0x20 <= 0x66) } ? nil : fail()
        case .integer:
            return integer(text, format: format, limits: limits)
        case .minorUnitAmount:
            return minorUnitAmount(text, format: format, limits: limits, in: validator)
        case .decimalAmount:
            return decimalAmount(text, format: format, limits: limits, in: validator)
        case .cardNumber:
            return cardNumber(text)
        case .securityCode:
            return securityCode(text, format: format, in: validator)
        case .basicCredentials:
            return BasicCredentials.isWellFormed(text) ? nil : fail()
        case .applePayPaymentData:
            return isApplePayPaymentData(text) ? nil : fail()
        default:
            return fail([ValidationReason.parameterName: ValidationReason.unknownFormat.rawValue])
        }
    }

    static func isUpperASCII(_ text: String, count: Int) -> Bool {
        text.utf8.count == count && text.utf8.allSatisfy { $0 >= 0x41 && $0 <= 0x5A }
    }

    /// `-?[0-9]+` without leading zeros, as Int64, or `nil`.
    static func parseInteger(_ text: String) -> Int64? {
        let digits = text.hasPrefix("-") ? text.dropFirst() : Substring(text)
        guard !digits.isEmpty, digits.utf8.allSatisfy({ $0.isASCIIDigit }),
            digits == "0" || digits.first != "0"
        else { return nil }
        return Int64(text)
    }

    static func rangeFailure(_ value: Int64?, _ format: ParameterFormat, _ limits: [String: String]) -> FormatFailure? {
        var bounds = limits
        if let min = format.minimum { bounds["minimum"] = String(min) }
        if let max = format.maximum { bounds["maximum"] = String(max) }
        guard let value else { return FormatFailure(.range, bounds) }  // overflow
        if let min = format.minimum, value < min { return FormatFailure(.range, bounds) }
        if let max = format.maximum, value > max { return FormatFailure(.range, bounds) }
        return nil
    }

    static func integer(_ text: String, format: ParameterFormat, limits: [String: String]) -> FormatFailure? {
        let digits = text.hasPrefix("-") ? text.dropFirst() : Substring(text)
        guard !digits.isEmpty, digits.utf8.allSatisfy({ $0.isASCIIDigit }) else {
            return FormatFailure(.format, limits)
        }
        guard digits == "0" || digits.first != "0" else { return FormatFailure(.format, limits) }
        return rangeFailure(Int64(text), format, limits)
    }

    static func minorUnitAmount(
        _ text: String, format: ParameterFormat, limits: [String: String],
        in validator: SpecValidator
    ) -> FormatFailure? {
        guard text.utf8.allSatisfy({ $0.isASCIIDigit }), !text.isEmpty,
            text == "0" || text.first != "0"
        else { return FormatFailure(.format, limits) }
        if let field = format.relatedField, let code = validator.value(field).text,
            let currency = Currency(code: code), isUpperASCII(code, count: 3), currency.minorUnits == nil
        {
            return FormatFailure(
                .format,
                limits.merging(["currency": code, ValidationReason.parameterName: ValidationReason.currencyHasNoMinorUnits.rawValue]) { $1 }
            )
        }
        return rangeFailure(Int64(text), format, limits)
    }

    static func decimalAmount(
        _ text: String, format: ParameterFormat, limits: [String: String],
        in validator: SpecValidator
    ) -> FormatFailure? {
        guard !text.hasPrefix("-") else { return FormatFailure(.format, limits) }
        // Without a readable currency only the grammar can be checked; the currency row reports
        // the currency itself.
        let currency = format.relatedField.flatMap { validator.value($0).text }.flatMap { code in
            isUpperASCII(code, count: 3) ? Currency(code: code) : nil
        }
        let probe = currency ?? Currency(code: "CLF")!  // 4 decimals: the widest ISO 4217 minor unit
        do throws(CSEError) {
            let minor = try probe.minorAmount(fromMajor: text)
            return rangeFailure(minor, format, limits)
        } catch {
            switch error.code {
            case .amountTooManyDecimals:
                return FormatFailure(
                    .format,
                    limits.merging([
                        "currency": probe.code,
                        "minorUnits": String(probe.minorUnits ?? 0),
                    ]) { $1 })
            case .amountOverflow:
                return FormatFailure(.range, limits)
            case .currencyNoMinorUnits:
                return FormatFailure(
                    .format,
                    limits.merging([
                        "currency": probe.code, ValidationReason.parameterName: ValidationReason.currencyHasNoMinorUnits.rawValue,
                    ]) { $1 })
            default:
                return FormatFailure(.format, limits)
            }
        }
    }

    static func cardNumber(_ text: String) -> FormatFailure? {
        guard text.utf8.allSatisfy({ $0.isASCIIDigit }), !text.isEmpty else {
            return FormatFailure(.format, ["format": "cardNumber"])
        }
        if let brand = CardBrandTable.embedded.brand(forPartialNumber: text) {
            let result = brand.validatePAN(text)
            guard let first = result.failures.first else { return nil }
            if first.code == .length {
                return FormatFailure(
                    .length, ["brand": brand.id, "allowedLengths": brand.panLengths.map(String.init).joined(separator: ",")])
            }
            return FormatFailure(.luhn, ["brand": brand.id])
        }
        guard (12...19).contains(text.utf8.count) else {
            return FormatFailure(.length, ["minLength": "12", "maxLength": "19"])
        }
        return LuhnValidator.hasValidCheckDigit(text) ? nil : FormatFailure(.luhn)
    }

    static func securityCode(_ text: String, format: ParameterFormat, in validator: SpecValidator) -> FormatFailure? {
        if let field = format.relatedField, let pan = validator.value(field).text,
            let brand = CardBrandTable.embedded.brand(forPartialNumber: pan)
        {
            guard brand.validateSecurityCode(text).isValid else {
                return FormatFailure(
                    .length,
                    [
                        "brand": brand.id, "minLength": String(brand.securityCode.length),
                        "maxLength": String(brand.securityCode.length),
                    ])
            }
            return nil
        }
        let count = text.utf8.count
        guard text.utf8.allSatisfy({ $0.isASCIIDigit }), (3...4).contains(count) else {
            return FormatFailure(.length, ["minLength": "3", "maxLength": "4"])
        }
        return nil
    }

    static func isApplePayPaymentData(_ text: String) -> Bool {
        guard let json = try? JSONValue.parse(text, limits: JSONLimits(maxBytes: 64 << 10, maxDepth: 8)),
            case .object(let object) = json,
            object["data"]?.stringValue?.isEmpty == false,
            object["signature"]?.stringValue?.isEmpty == false,
            object["version"]?.stringValue?.isEmpty == false,
            object["header"]?.objectValue != nil
        else { return false }
        return true
    }
}

/// HTTP Basic credentials (RFC 7617 §2) as Paysafe's API keys are given: base64 of
/// `username:password`.
package enum BasicCredentials {
    /// Whether `key` is canonical, padded standard base64 (RFC 4648 §4) of UTF-8 text that holds a
    /// `:` with a non-empty username before it and a non-empty password after it. The decoded
    /// bytes are wiped before returning.
    package static func isWellFormed(_ key: String) -> Bool {
        var text = Array(key.utf8)
        defer { secureZero(&text) }
        return text.withUnsafeBytes { isWellFormed(utf8: $0) }
    }

    /// ``isWellFormed(_:)`` for a key given as UTF-8 bytes (for example from a wiping buffer).
    package static func isWellFormed(utf8 key: UnsafeRawBufferPointer) -> Bool {
        guard var bytes = try? Base64.decode(key, alphabet: .standard, padding: .required) else { return false }
        defer { secureZero(&bytes) }
        guard let colon = bytes.firstIndex(of: UInt8(ascii: ":")), colon > 0, colon < bytes.count - 1,
            String(validating: bytes, as: UTF8.self) != nil
        else { return false }
        return !bytes.contains { $0 < 0x20 || $0 == 0x7F }
    }
}
