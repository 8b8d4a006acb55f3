import CSECore

/// Reads one text value from standard input for `format`, `unformat`, `check` and `iin`.
///
/// The value is all of standard input minus **one** trailing line break (`\n` or `\r\n`), so
/// `echo 4111 | cse …` and `printf 4111 | cse …` mean the same value, while spaces — which a
/// mask's `*` placeholder or a card number may carry — are kept.
enum StandardInputValue {
    /// The largest value accepted (a value is a card number, IBAN, date or e-mail address).
    static let limit = 64 * 1024

    /// Reads the value. The line break is dropped *before* the size check, so a value of
    /// exactly ``limit`` bytes is accepted from `echo` as from `printf`.
    /// - Throws: `cli.emptyInput` when standard input is empty, `cli.inputTooLarge` above
    ///   ``limit``, `cli.notText` when it is not UTF-8, `cli.read` when reading fails.
    static func read() throws(CSEError) -> String {
        var bytes = try Files.readStandardInput(limit: limit)
        defer { secureZero(&bytes) }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw CSEError(.cliNotText, "standard input is not UTF-8 text")
        }
        return text
    }
}
