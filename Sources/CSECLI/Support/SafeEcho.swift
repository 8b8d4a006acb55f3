import CSECore

/// Decides what of the user's input may appear in an error. Field *names* are echoed so the user
/// can find the mistake, but only when they look like identifiers: a name that could be a card
/// number or CVV pasted into the wrong place is redacted.
enum SafeEcho {
    /// `name` itself when it starts with a letter, has at most 64 characters from
    /// `[A-Za-z0-9_.-]` and at most 4 digits; otherwise `<redacted N chars>`.
    static func name(_ name: String) -> String {
        var digits = 0
        var count = 0
        for (index, byte) in name.utf8.enumerated() {
            count += 1
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"): continue
            case UInt8(ascii: "0")...UInt8(ascii: "9") where index > 0: digits += 1
            case UInt8(ascii: "_"), UInt8(ascii: "."), UInt8(ascii: "-"): if index == 0 { return SecretMasking.redact(name) }
            default: return SecretMasking.redact(name)
            }
        }
        guard count > 0, count <= 64, digits <= 4 else { return SecretMasking.redact(name) }
        return name
    }
}
