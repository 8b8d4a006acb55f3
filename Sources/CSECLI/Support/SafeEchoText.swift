import CSECore

/// Free text from the user — file paths, directories — and, as a last line of defence, every
/// error line `cse` prints. Identifiers (member names, subcommands, `env:` variable names) use
/// ``SafeEcho/name(_:)`` instead, which echoes only identifier-shaped names; a path is kept
/// readable, because the user needs it to find the file, but can never drive the terminal or
/// repeat a card number.
extension SafeEcho {
    /// The longest error message printed (in characters).
    static let errorLineLimit = 4096

    /// `text` made safe to print on a terminal or in a log: every C0 or C1 control character,
    /// DEL and bidirectional-format character (which could move the cursor, recolour or reorder
    /// what the reader sees) becomes `?`; card numbers are redacted by the package's one digit-run
    /// rule (`SecretMasking.redactingCardNumbers`: 12 or more digits, spaces and one other separator allowed between digits,
    /// become `<redacted N chars>`); and the result keeps at most `limit` characters (then `…`).
    ///
    ///     SafeEcho.text("keys/\u{1B}[2Jx.pem") == "keys/?[2Jx.pem"
    ///     SafeEcho.text("/tmp/4111 1111 1111 1111.pem") == "/tmp/<redacted 19 chars>.pem"
    static func text(_ text: String, limit: Int = 256) -> String {
        let out = SecretMasking.redactingCardNumbers(Array(text.unicodeScalars)) {
            isUnsafe($0) ? "?" : $0
        }
        guard out.count > limit else { return String(out) }
        return String(String.UnicodeScalarView(out.prefix(limit))) + "…"
    }

    /// `text` with every control, DEL and bidirectional-format character replaced by `?`, and
    /// nothing else changed: for values the user needs verbatim (reconciliation keys), which the
    /// digit-run redaction of ``text(_:limit:)`` would hide.
    static func withoutControls(_ text: String) -> String {
        String(String.UnicodeScalarView(text.unicodeScalars.map { isUnsafe($0) ? "?" : $0 }))
    }

    private static func isUnsafe(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F: return true
        case 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069, 0x061C: return true
        default: return false
        }
    }
}
