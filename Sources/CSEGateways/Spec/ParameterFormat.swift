import CSECore
/// A value format a parameter must have beyond its characters and length: an e-mail address, an
/// IP address, an amount in minor units, a card number, and so on.
///
/// An open set of names (the tables' `format.type`); `FormatChecks` implements each. Formats
/// that depend on another parameter name it in ``relatedField`` (the currency of an amount, the
/// card number of a security code).
package struct ParameterFormat: Hashable, Sendable, CustomStringConvertible {
    /// A format name as the tables spell it.
    package struct Kind: StableStringValue {
        /// The table spelling.
        package let rawValue: String
        /// Creates a kind from its table spelling.
        package init(rawValue: String) { self.rawValue = rawValue }

        /// An e-mail address in the Worldline e-mail language (``EmailAddressValidator``).
        package static let email = Kind(rawValue: "email")
        /// An IPv4 dotted quad (RFC 791, no leading zeros) or an IPv6 text address (RFC 4291 §2.2).
        package static let ipAddress = Kind(rawValue: "ipAddress")
        /// An integer amount in the ISO 4217 minor units of the currency in ``relatedField``.
        package static let minorUnitAmount = Kind(rawValue: "minorUnitAmount")
        /// A major-unit decimal string (`12.50`) with no more decimals than the currency in
        /// ``relatedField`` has minor units.
        package static let decimalAmount = Kind(rawValue: "decimalAmount")
        /// An ISO 4217 alphabetic currency code in upper case.
        package static let currencyCode = Kind(rawValue: "currencyCode")
        /// An ISO 3166-1 alpha-2 country code in upper case.
        package static let countryAlpha2 = Kind(rawValue: "countryAlpha2")
        /// An ISO 3166-1 alpha-3 country code in upper case.
        package static let countryAlpha3 = Kind(rawValue: "countryAlpha3")
        /// A calendar date `YYYY-MM-DD` (ISO 8601 extended, Gregorian).
        package static let date = Kind(rawValue: "date")
        /// A card number: a brand from the embedded IIN table with one of its PAN lengths and a
        /// valid Luhn check digit (ISO/IEC 7812-1).
        package static let cardNumber = Kind(rawValue: "cardNumber")
        /// A card security code: 3 or 4 digits, or exactly the brand's length when the card
        /// number in ``relatedField`` identifies a brand.
        package static let securityCode = Kind(rawValue: "securityCode")
        /// An integer (JSON number or digits) within ``minimum``…``maximum``.
        package static let integer = Kind(rawValue: "integer")
        /// A two-digit month `01`–`12`.
        package static let month = Kind(rawValue: "month")
        /// Base64 (RFC 4648 §4, padded) of `username:password` with both parts non-empty.
        package static let basicCredentials = Kind(rawValue: "basicCredentials")
        /// A string holding the JSON of an Apple Pay `PKPaymentToken.paymentData` object
        /// (`data`, `header`, `signature`, `version`).
        package static let applePayPaymentData = Kind(rawValue: "applePayPaymentData")
        /// Lower- or upper-case hexadecimal digits.
        package static let hex = Kind(rawValue: "hex")

        /// Every kind `FormatChecks` implements.
        package static let known: Set<Kind> = [
            .email, .ipAddress, .minorUnitAmount, .decimalAmount, .currencyCode,
            .countryAlpha2, .countryAlpha3, .date, .cardNumber, .securityCode,
            .integer, .month, .basicCredentials, .applePayPaymentData, .hex,
        ]

    }

    /// The format.
    package let kind: Kind
    /// The parameter this format depends on (the currency of an amount, the PAN of a CVV).
    package let relatedField: String?
    /// The smallest allowed integer value (``Kind/integer`` and ``Kind/minorUnitAmount``).
    package let minimum: Int64?
    /// The largest allowed integer value (``Kind/integer`` and ``Kind/minorUnitAmount``).
    package let maximum: Int64?

    /// Creates a format.
    /// - Parameters:
    ///   - kind: The format.
    ///   - relatedField: The parameter it depends on.
    ///   - minimum: The smallest allowed integer value.
    ///   - maximum: The largest allowed integer value.
    package init(_ kind: Kind, relatedField: String? = nil, minimum: Int64? = nil, maximum: Int64? = nil) {
        self.kind = kind
        self.relatedField = relatedField
        self.minimum = minimum
        self.maximum = maximum
    }

    /// The kind, with the related field when there is one.
    package var description: String {
        relatedField.map { "\(kind.rawValue)(\($0))" } ?? kind.rawValue
    }
}
