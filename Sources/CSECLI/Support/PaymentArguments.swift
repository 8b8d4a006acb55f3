import CSEValidation

/// The values the payment commands read the same way: `--currency` (ISO 4217) and `--wallet`.
extension ParsedArguments {
    /// The currency of a required option, from the embedded ISO 4217 table.
    /// - Throws: ``UsageError`` naming the option, with `example` as the example code.
    func currency(_ key: KeyPath<Keys, OptionKey<String>>, example: String = "EUR") throws(UsageError) -> Currency {
        guard let currency = Currency(code: self[key]) else {
            throw UsageError("The value for '--\(keys[keyPath: key].name)' must be an ISO 4217 currency code (e.g. \(example)).")
        }
        return currency
    }

    /// The wallet an optional `--wallet` names, or `nil` when it is not given.
    /// - Throws: ``UsageError`` for a name other than `apple-pay` or `google-pay`.
    func wallet(_ key: KeyPath<Keys, OptionKey<String?>>) throws(UsageError) -> WalletOptions.Kind? {
        guard let name = self[key] else { return nil }
        return try Self.wallet(name, option: keys[keyPath: key].name)
    }

    /// The wallet a required `--wallet` names.
    /// - Throws: ``UsageError`` for a name other than `apple-pay` or `google-pay`.
    func wallet(_ key: KeyPath<Keys, OptionKey<String>>) throws(UsageError) -> WalletOptions.Kind {
        try Self.wallet(self[key], option: keys[keyPath: key].name)
    }

    private static func wallet(_ name: String, option: String) throws(UsageError) -> WalletOptions.Kind {
        guard let kind = WalletOptions.Kind(rawValue: name) else {
            throw UsageError("The value for '--\(option)' must be apple-pay or google-pay.")
        }
        return kind
    }
}
