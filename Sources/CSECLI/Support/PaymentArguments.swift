import CSEValidation

/// The value the payment commands read the same way: `--currency` (ISO 4217; `--wallet` is a
/// typed option, a `Wallet`).
extension ParsedArguments {
    /// The currency of a required option, from the embedded ISO 4217 table.
    ///
    /// Deprecated: declare the option `as: CurrencyArgument.self` instead (the parser refuses a bad
    /// code with the one message); kept only while commands written against it are merged.
    /// - Throws: ``UsageError`` naming the option, with `example` as the example code.
    func currency(_ key: KeyPath<Keys, OptionKey<String>>, example: String = "EUR") throws(UsageError) -> Currency {
        guard let currency = Currency(code: self[key]) else {
            throw UsageError("The value for '--\(keys[keyPath: key].name)' must be an ISO 4217 currency code (e.g. \(example)).")
        }
        return currency
    }

}
