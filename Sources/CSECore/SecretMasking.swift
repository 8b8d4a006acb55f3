/// Masks secrets before they can reach an error, a log line or a `description`.
public enum SecretMasking {
    /// Masks a primary account number (card number) to at most its first 6 and last 4 digits,
    /// replacing every other character with `*`, as PCI DSS 3.4 permits.
    ///
    /// Values of 10 characters or fewer keep no clear digits at all, since showing 6 + 4 of them
    /// would reveal the whole number. Spaces are removed first.
    ///
    ///     SecretMasking.maskPAN("4005550000000001") == "400555******0001"
    ///
    /// - Parameter pan: A card number, possibly formatted with spaces.
    /// - Returns: The masked form, the same length as the digits-only input.
    public static func maskPAN(_ pan: String) -> String {
        let chars = Array(pan.unicodeScalars.filter { $0 != " " })
        guard chars.count > 10 else { return String(repeating: "*", count: chars.count) }
        var out = String.UnicodeScalarView()
        for (index, scalar) in chars.enumerated() {
            out.append(index < 6 || index >= chars.count - 4 ? scalar : "*")
        }
        return String(out)
    }

    /// Replaces a secret with a fixed marker that reveals only its length class.
    /// - Parameter secret: A CVV, key, phrase or plaintext.
    /// - Returns: `<redacted N chars>`.
    public static func redact(_ secret: String) -> String {
        "<redacted \(secret.unicodeScalars.count) chars>"
    }
}
