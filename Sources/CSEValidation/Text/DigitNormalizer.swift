/// An explicit, opt-in conversion of non-ASCII decimal digits to ASCII.
///
/// CSEKit's validators and masks treat only ASCII `0`...`9` as digits: an Arabic-Indic `٤١١١`
/// fails the Luhn check and is dropped by a `9` mask placeholder. An integrator who wants to
/// accept digits typed on, say, an Arabic or Devanagari keyboard calls ``asciiDigits(_:)`` on the
/// raw input first, deliberately, before masking and validation.
public enum DigitNormalizer {
    /// Replaces every Unicode decimal digit (general category `Nd`, for example Arabic-Indic
    /// U+0660…U+0669, Extended Arabic-Indic U+06F0…U+06F9, Devanagari U+0966…U+096F or fullwidth
    /// U+FF10…U+FF19) with the ASCII digit of the same value, and leaves every other scalar alone.
    ///
    /// Only `Nd` scalars are mapped. Other numeric characters such as superscripts (`²`), circled
    /// digits (`①`), vulgar fractions or CJK numerals (`三`) have no decimal digit role and are
    /// kept as they are.
    ///
    /// - Parameter text: Any text.
    /// - Returns: `text` with its decimal digits converted to ASCII; linear in the length of `text`.
    public static func asciiDigits(_ text: String) -> String {
        var needsWork = false
        for scalar in text.unicodeScalars where scalar.value > 0x7F && asciiDigit(for: scalar) != nil {
            needsWork = true
            break
        }
        guard needsWork else { return text }
        var scalars = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            scalars.append(scalar.value > 0x7F ? (asciiDigit(for: scalar) ?? scalar) : scalar)
        }
        return String(scalars)
    }

    /// The ASCII digit for a non-ASCII `Nd` scalar, or `nil`.
    private static func asciiDigit(for scalar: Unicode.Scalar) -> Unicode.Scalar? {
        let properties = scalar.properties
        guard properties.generalCategory == .decimalNumber,
            let value = properties.numericValue, value >= 0, value <= 9, value == value.rounded()
        else { return nil }
        return Unicode.Scalar(UInt8(0x30 + Int(value)))
    }
}
