import CSECore
/// The characters a gateway parameter may contain: a base class (the tables' "Alpha",
/// "Alphanumeric", "Numeric") plus an explicit set of allowed special characters.
///
/// Letters are ASCII `A`–`Z`/`a`–`z` unless ``allowsUnicodeLetters`` is set (for names and
/// descriptions that may be written in Arabic, for example); digits are always ASCII `0`–`9`,
/// so Arabic-Indic digits are rejected where a gateway expects numbers.
package struct CharacterClass: Hashable, Sendable, CustomStringConvertible {
    /// The base class of a parameter.
    package struct Base: StableStringValue {
        /// The table spelling: `alpha`, `alphanumeric`, `numeric` or `any`.
        package let rawValue: String
        /// Creates a base class from its table spelling.
        package init(rawValue: String) { self.rawValue = rawValue }

        /// Letters only.
        package static let alpha = Base(rawValue: "alpha")
        /// Letters and digits.
        package static let alphanumeric = Base(rawValue: "alphanumeric")
        /// Digits only.
        package static let numeric = Base(rawValue: "numeric")
        /// Any Unicode scalar except control characters (the tables' "String" without a list).
        package static let any = Base(rawValue: "any")

    }

    /// The base class.
    package let base: Base
    /// Characters allowed in addition to the base class (for example `-`, `_`, `.` and space).
    package let specials: Set<Unicode.Scalar>
    /// Whether non-ASCII letters count as letters.
    package let allowsUnicodeLetters: Bool

    /// Creates a character class.
    /// - Parameters:
    ///   - base: The base class.
    ///   - specials: The allowed special characters, as one string (each scalar is one character).
    ///   - allowsUnicodeLetters: Whether letters outside ASCII are allowed.
    package init(_ base: Base, specials: String = "", allowsUnicodeLetters: Bool = false) {
        self.base = base
        self.specials = Set(specials.unicodeScalars)
        self.allowsUnicodeLetters = allowsUnicodeLetters
    }

    /// Whether the base class is one of the four known classes.
    var isKnown: Bool { [.alpha, .alphanumeric, .numeric, .any].contains(base) }

    /// Whether `scalar` is allowed.
    package func allows(_ scalar: Unicode.Scalar) -> Bool {
        if specials.contains(scalar) { return true }
        let v = scalar.value
        let isDigit = v >= 0x30 && v <= 0x39
        let isASCIILetter = (v >= 0x41 && v <= 0x5A) || (v >= 0x61 && v <= 0x7A)
        let isLetter = isASCIILetter || (allowsUnicodeLetters && v > 0x7F && scalar.properties.isAlphabetic)
        switch base {
        case .alpha: return isLetter
        case .alphanumeric: return isLetter || isDigit
        case .numeric: return isDigit
        default:
            // `any`: everything but C0/C1 controls and DEL.
            return !(v < 0x20 || (v >= 0x7F && v < 0xA0))
        }
    }

    /// Whether every scalar of `value` is allowed.
    package func allowsAll(_ value: String) -> Bool {
        value.unicodeScalars.allSatisfy(allows)
    }

    /// The allowed specials in code-point order, as one string (for error limits).
    package var specialsString: String {
        String(String.UnicodeScalarView(specials.sorted { $0.value < $1.value }))
    }

    /// `base` plus the specials, for example `alphanumeric+[-._]`.
    package var description: String {
        specials.isEmpty ? base.rawValue : "\(base.rawValue)+[\(specialsString)]"
    }
}
