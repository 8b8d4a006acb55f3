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
        return String(
            String.UnicodeScalarView(
                name.unicodeScalars.prefix(limit).map {
                    $0.isASCII && $0.value >= 0x20 && $0.value < 0x7F ? $0 : "?"
                }))
    }

    /// The one rule for echoing a user-supplied identifier or dotted path (a JSON member name, a
    /// gateway parameter path, a field id, a gateway or operation name) in an error, a result or
    /// CLI output.
    ///
    /// Names help the reader find the mistake, but the text comes from the input and may be a
    /// card number or a CVV typed into the wrong place, or carry terminal escape sequences. The
    /// text is kept when it has at most 64 UTF-8 bytes and at most 4 ASCII digits in all, and
    /// every `.`-separated component starts with an ASCII letter followed by ASCII letters,
    /// digits, `_` or `-`: every name in the gateway tables and product definitions does. When
    /// only some components fail that shape, each of those becomes `<redacted N chars>` and the
    /// others stay (`order.<redacted 5 chars>`); anything else is ``redact(_:)`` as a whole.
    ///
    ///     SecretMasking.echoIdentifier("sourceOfFunds.provided.card.number") == "sourceOfFunds.provided.card.number"
    ///     SecretMasking.echoIdentifier("order.4111 1111 1111 1111") == "<redacted 24 chars>"
    ///     SecretMasking.echoIdentifier("order.\u{1B}[31m") == "order.<redacted 5 chars>"
    ///
    /// - Parameter name: The untrusted name or path.
    /// - Returns: The name, the path with unsafe components redacted, or a redaction marker.
    package static func echoIdentifier(_ name: String) -> String {
        let utf8 = name.utf8
        guard !utf8.isEmpty, utf8.count <= 64 else { return redact(name) }
        var digits = 0
        for byte in utf8 where byte &- 0x30 < 10 { digits += 1 }
        guard digits <= 4 else { return redact(name) }
        let components = name.split(separator: ".", omittingEmptySubsequences: false)
        var safe = 0
        for component in components where isIdentifierComponent(component) { safe += 1 }
        if safe == components.count { return name }
        guard safe > 0 else { return redact(name) }
        return components.map { isIdentifierComponent($0) ? String($0) : redact(String($0)) }.joined(separator: ".")
    }

    /// `[A-Za-z][A-Za-z0-9_-]*`.
    private static func isIdentifierComponent(_ component: Substring) -> Bool {
        var first = true
        for byte in component.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"): break
            case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"), UInt8(ascii: "-"): if first { return false }
            default: return false
            }
            first = false
        }
        return !first
    }
}
