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

    /// Makes an untrusted name safe to echo in an error: an algorithm, a PEM label, a key type.
    ///
    /// Such names help the reader find the mistake, but the text comes from the input and could
    /// be anything, including a card number pasted into the wrong place. The result keeps at most
    /// `limit` Unicode scalars, replaces anything but printable ASCII with `?`, and is
    /// ``redact(_:)`` instead when the text holds 8 or more ASCII digits (no JOSE, PEM or JWK
    /// name does; `A256CBC-HS512` has 7; a card number has at least 12).
    ///
    ///     SecretMasking.echoName("A256GCMKW") == "A256GCMKW"
    ///     SecretMasking.echoName("4111 1111 1111 1111") == "<redacted 19 chars>"
    ///
    /// - Parameters:
    ///   - name: The untrusted name.
    ///   - limit: The most scalars kept (32 by default).
    /// - Returns: The printable name, or a redaction marker.
    package static func echoName(_ name: String, limit: Int = 32) -> String {
        var digits = 0
        for scalar in name.unicodeScalars where scalar.value >= 0x30 && scalar.value <= 0x39 {
            digits += 1
            if digits >= 8 { return redact(name) }
        }
        return String(String.UnicodeScalarView(name.unicodeScalars.prefix(limit).map {
            $0.isASCII && $0.value >= 0x20 && $0.value < 0x7F ? $0 : "?"
        }))
    }
}
