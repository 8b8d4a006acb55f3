/// A plausible e-mail address, with exactly the Worldline SDK's rule. JSON key `emailAddress`.
///
/// The Worldline SDKs match `^[^@\.]+(\.[^@\.]+)*@([^@\.]+\.)*[^@\.]+\.[^@\.][^@\.]+$`. This
/// type implements that language with a single hand-written pass over the Unicode scalars
/// (linear time, no regex engine, no backtracking):
///
/// - exactly one `@`;
/// - before it, one or more non-empty dot-separated parts (no leading, trailing or double dot);
/// - after it, two or more non-empty dot-separated labels, the last one at least two scalars long.
///
/// Any scalar other than `@` and `.` is allowed in a part, including spaces, quotes and
/// non-ASCII letters, so `"Fred Bloggs"@example.com` is valid and `"Abc@def"@example.com` is not.
/// The whole value is checked (the Swift SDK searched only the first `count` UTF-16 units).
public struct EmailAddressValidator: FieldValidator {
    /// ``ValidationCode/emailAddress``.
    public var code: ValidationCode { .emailAddress }

    /// Creates the validator. It has no parameters.
    public init() {}

    /// Checks `value` against the reference e-mail language.
    /// - Parameters:
    ///   - value: The field value.
    ///   - context: Unused.
    /// - Returns: ``ValidationResult/valid`` or an `emailAddress` failure.
    public func validate(_ value: String, in context: ValidationContext) -> ValidationResult {
        Self.matches(value) ? .valid : .invalid(.emailAddress)
    }

    /// Whether `value` is in the language of the reference regular expression.
    /// - Parameter value: Any text.
    /// - Returns: `true` when the whole value matches.
    package static func matches(_ value: String) -> Bool {
        var inDomain = false
        var partLength = 0  // scalars in the current dot-separated part
        var domainDots = 0
        for scalar in value.unicodeScalars {
            switch scalar {
            case "@":
                // A second "@", an empty local part or a local part ending in ".".
                guard !inDomain, partLength > 0 else { return false }
                inDomain = true
                partLength = 0
            case ".":
                // A leading dot, a double dot, or a dot right after "@".
                guard partLength > 0 else { return false }
                if inDomain { domainDots += 1 }
                partLength = 0
            default:
                partLength += 1
            }
        }
        return inDomain && domainDots > 0 && partLength >= 2
    }
}
