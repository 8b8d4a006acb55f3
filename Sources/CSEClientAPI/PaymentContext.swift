public import CSECore

/// An amount in minor units of a currency (`amountOfMoney`; the Connect reference limits the
/// amount to 12 digits and the currency to ISO 4217 alpha-3).
public struct AmountOfMoney: Hashable, Sendable, CustomStringConvertible {
    /// The amount in minor units (cents), 0 … 999 999 999 999.
    public let amount: Int64
    /// The ISO 4217 alphabetic currency code, for example `EUR`.
    public let currencyCode: String

    /// Creates an amount.
    /// - Throws: ``CSEError/Code/clientAPIInvalidContext`` for a negative or 13-digit amount, or a
    ///   currency that is not three upper-case ASCII letters.
    public init(amount: Int64, currencyCode: String) throws(CSEError) {
        guard (0...999_999_999_999).contains(amount) else {
            throw CSEError(.clientAPIInvalidContext, "the amount must be 0 to 12 digits of minor units", context: ["member": "amount"])
        }
        try PaymentContext.requireUpperLetters(
            currencyCode, count: 3, member: "currencyCode", reason: "the currency code must be three upper-case letters (ISO 4217)")
        self.amount = amount
        self.currencyCode = currencyCode
    }

    /// `{"amount":1000,"currencyCode":"EUR"}` (the amount a JSON number, as WL-JS and
    /// WL-Android send it).
    package var jsonValue: JSONValue {
        .object(JSONObject([("amount", .number(String(amount))), ("currencyCode", .string(currencyCode))]))
    }

    /// `1000 EUR`.
    public var description: String { "\(amount) \(currencyCode)" }
}

/// What a product list, product, IIN lookup or network list is asked for: the amount, the
/// customer's country and whether the payment recurs or is paid in instalments (WL-Android
/// `PaymentContext`; research note §1.3).
public struct PaymentContext: Hashable, Sendable, CustomStringConvertible {
    /// The amount and currency.
    public let amountOfMoney: AmountOfMoney
    /// The customer's country, ISO 3166-1 alpha-2, for example `NL`.
    public let countryCode: String
    /// Whether the payment is recurring.
    public let isRecurring: Bool
    /// Whether the payment is paid in instalments.
    public let isInstallments: Bool

    /// Creates a context.
    /// - Throws: ``CSEError/Code/clientAPIInvalidContext`` for a country that is not two
    ///   upper-case ASCII letters.
    public init(
        amountOfMoney: AmountOfMoney, countryCode: String, isRecurring: Bool = false,
        isInstallments: Bool = false
    ) throws(CSEError) {
        try Self.requireUpperLetters(
            countryCode, count: 2, member: "countryCode", reason: "the country code must be two upper-case letters (ISO 3166-1)")
        self.amountOfMoney = amountOfMoney
        self.countryCode = countryCode
        self.isRecurring = isRecurring
        self.isInstallments = isInstallments
    }

    /// Creates a context from an amount in minor units and a currency.
    /// - Throws: ``CSEError/Code/clientAPIInvalidContext``.
    public init(
        amount: Int64, currencyCode: String, countryCode: String, isRecurring: Bool = false,
        isInstallments: Bool = false
    ) throws(CSEError) {
        try self.init(
            amountOfMoney: try AmountOfMoney(amount: amount, currencyCode: currencyCode),
            countryCode: countryCode, isRecurring: isRecurring, isInstallments: isInstallments)
    }

    /// The query of the product calls, in the order WL-JS writes it: `countryCode`,
    /// `currencyCode`, `amount` (minor units, also when 0), `isRecurring` (`true`/`false`); then
    /// `isInstallments` only when `true` (the SDKs never send it).
    package var queryItems: [(name: String, value: String)] {
        var items = [
            ("countryCode", countryCode), ("currencyCode", amountOfMoney.currencyCode),
            ("amount", String(amountOfMoney.amount)), ("isRecurring", isRecurring ? "true" : "false"),
        ]
        if isInstallments { items.append(("isInstallments", "true")) }
        return items.map { (name: $0.0, value: $0.1) }
    }

    /// The IIN request's `paymentContext`: `{"amountOfMoney":{…},"countryCode":"NL",
    /// "isRecurring":false,"isInstallments":false}` with JSON numbers and Booleans (WL-JS,
    /// WL-Android and the Connect reference; not WL-Swift's strings).
    package var jsonValue: JSONValue {
        .object(
            JSONObject([
                ("amountOfMoney", amountOfMoney.jsonValue), ("countryCode", .string(countryCode)),
                ("isRecurring", .bool(isRecurring)), ("isInstallments", .bool(isInstallments)),
            ]))
    }

    /// Hashes the amount and one word that packs the five code letters and the two flags
    /// (the response caches' key). Equal contexts hash equally; the packing is one-to-one
    /// because the initialisers admit only three and two upper-case ASCII letters. One word
    /// instead of two string hashes halves the cost of a cached product lookup.
    public func hash(into hasher: inout Hasher) {
        var word: UInt64 = (isRecurring ? 2 : 0) | (isInstallments ? 1 : 0)
        for byte in amountOfMoney.currencyCode.utf8 { word = word << 8 | UInt64(byte) }
        for byte in countryCode.utf8 { word = word << 8 | UInt64(byte) }
        hasher.combine(amountOfMoney.amount)
        hasher.combine(word)
    }

    /// `1000 EUR NL recurring`.
    public var description: String {
        "\(amountOfMoney) \(countryCode)" + (isRecurring ? " recurring" : "") + (isInstallments ? " installments" : "")
    }

    static func isUpperLetters(_ text: String, count: Int) -> Bool {
        text.utf8.count == count && text.utf8.allSatisfy { $0 >= 0x41 && $0 <= 0x5A }
    }

    /// Throws ``CSEError/Code/clientAPIInvalidContext`` with `reason`, naming `member`, unless
    /// `text` is `count` upper-case ASCII letters.
    static func requireUpperLetters(_ text: String, count: Int, member: String, reason: String) throws(CSEError) {
        guard isUpperLetters(text, count: count) else {
            throw CSEError(.clientAPIInvalidContext, reason, context: ["member": member])
        }
    }
}
