public import CSECore

extension CSEError.Code {
    /// The amount is not a plain decimal number (`-?[0-9]+(\.[0-9]+)?`).
    public static let amountInvalidFormat = Self("amount.invalidFormat")
    /// The amount has more decimals than the currency's minor units.
    public static let amountTooManyDecimals = Self("amount.tooManyDecimals")
    /// The amount in minor units does not fit a signed 64-bit integer.
    public static let amountOverflow = Self("amount.overflow")
}

extension Currency {
    /// Converts a major-unit decimal string to an integer amount in minor units, exactly.
    ///
    /// The grammar is `-?[0-9]+(\.[0-9]+)?` in ASCII: no grouping separators, no exponent, no
    /// spaces, no locale (a comma is not a decimal separator), and non-ASCII digits such as `٤`
    /// are rejected. Integer arithmetic only, never binary floating point.
    ///
    ///     try Currency.named("AED").minorAmount(fromMajor: "500") == 50000
    ///     try Currency.named("JOD").minorAmount(fromMajor: "100") == 100000
    ///
    /// - Parameter major: The amount in major units, for example `12.34`.
    /// - Returns: The amount in minor units, for example 1234.
    /// - Throws: `CSEError` ``CSEError/Code/amountInvalidFormat``,
    ///   ``CSEError/Code/amountTooManyDecimals`` (more decimals than ``minorUnits``, even when
    ///   they are zeros), ``CSEError/Code/amountOverflow`` (outside `Int64`), or
    ///   ``CSEError/Code/currencyNoMinorUnits``.
    public func minorAmount(fromMajor major: String) throws(CSEError) -> Int64 {
        guard let exponent = minorUnits else {
            throw CSEError(.currencyNoMinorUnits, "ISO 4217 defines no minor unit for this currency", context: ["currency": code])
        }
        var negative = false
        var magnitude: UInt64 = 0
        var seenDigit = false
        var decimals = -1  // -1 until the decimal point is seen
        var position = 0
        for byte in major.utf8 {
            defer { position += 1 }
            if position == 0 && byte == UInt8(ascii: "-") { negative = true; continue }
            if byte == UInt8(ascii: ".") {
                guard seenDigit, decimals < 0 else { throw Currency.formatError() }
                decimals = 0
                continue
            }
            let digit = byte &- 0x30
            guard digit < 10 else { throw Currency.formatError() }
            if decimals >= 0 {
                decimals += 1
                guard decimals <= exponent else {
                    throw CSEError(
                        .amountTooManyDecimals, "more decimals than the currency's minor units",
                        context: ["currency": code, "minorUnits": String(exponent)])
                }
            }
            seenDigit = true
            let (times10, o1) = magnitude.multipliedReportingOverflow(by: 10)
            let (sum, o2) = times10.addingReportingOverflow(UInt64(digit))
            guard !o1, !o2 else { throw Currency.overflowError() }
            magnitude = sum
        }
        guard seenDigit, decimals != 0 else { throw Currency.formatError() }
        for _ in max(decimals, 0)..<exponent {
            let (times10, overflow) = magnitude.multipliedReportingOverflow(by: 10)
            guard !overflow else { throw Currency.overflowError() }
            magnitude = times10
        }
        if negative {
            guard magnitude <= UInt64(Int64.max) + 1 else { throw Currency.overflowError() }
            return magnitude == UInt64(Int64.max) + 1 ? Int64.min : -Int64(magnitude)
        }
        guard magnitude <= UInt64(Int64.max) else { throw Currency.overflowError() }
        return Int64(magnitude)
    }

    /// Formats an amount in minor units as a major-unit decimal string with exactly
    /// ``minorUnits`` decimals, for example 1234 EUR → `12.34`, 500 JPY → `500`,
    /// 100000 JOD → `100.000`, -5 EUR → `-0.05`.
    /// - Parameter minor: The amount in minor units.
    /// - Returns: The major-unit string (ASCII, `.` as the decimal point, no grouping).
    /// - Throws: `CSEError` ``CSEError/Code/currencyNoMinorUnits`` for currencies without a
    ///   minor unit.
    public func majorString(fromMinor minor: Int64) throws(CSEError) -> String {
        guard let exponent = minorUnits else {
            throw CSEError(.currencyNoMinorUnits, "ISO 4217 defines no minor unit for this currency", context: ["currency": code])
        }
        var digits = Array(String(minor.magnitude).utf8)
        if exponent > 0 {
            if digits.count <= exponent {
                digits.insert(contentsOf: repeatElement(UInt8(ascii: "0"), count: exponent + 1 - digits.count), at: 0)
            }
            digits.insert(UInt8(ascii: "."), at: digits.count - exponent)
        }
        if minor < 0 { digits.insert(UInt8(ascii: "-"), at: 0) }
        return String(decoding: digits, as: UTF8.self)
    }

    private static func formatError() -> CSEError {
        CSEError(.amountInvalidFormat, "not a plain decimal amount (-?[0-9]+(.[0-9]+)?)")
    }

    private static func overflowError() -> CSEError {
        CSEError(.amountOverflow, "the amount in minor units does not fit a signed 64-bit integer")
    }
}

/// Conversions between major and minor units by currency code.
package enum CurrencyAmount {
    /// Converts a major-unit decimal string to minor units for a currency code.
    /// - Parameters:
    ///   - major: The amount in major units, for example `500`.
    ///   - currencyCode: An ISO 4217 alphabetic code, for example `AED`.
    /// - Returns: The amount in minor units, for example 50000.
    /// - Throws: `CSEError` ``CSEError/Code/currencyUnknown`` or any error of
    ///   ``Currency/minorAmount(fromMajor:)``.
    package static func minorAmount(fromMajor major: String, currencyCode: String) throws(CSEError) -> Int64 {
        try Currency.named(currencyCode).minorAmount(fromMajor: major)
    }

    /// Formats an amount in minor units as a major-unit string for a currency code.
    /// - Parameters:
    ///   - minor: The amount in minor units.
    ///   - currencyCode: An ISO 4217 alphabetic code.
    /// - Returns: The major-unit string.
    /// - Throws: `CSEError` ``CSEError/Code/currencyUnknown`` or
    ///   ``CSEError/Code/currencyNoMinorUnits``.
    package static func majorString(fromMinor minor: Int64, currencyCode: String) throws(CSEError) -> String {
        try Currency.named(currencyCode).majorString(fromMinor: minor)
    }
}
