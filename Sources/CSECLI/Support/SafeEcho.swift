import CSECore

/// Decides what of the user's input may appear in CLI output. Field *names* and paths are echoed
/// so the user can find the mistake, through the one rule the library's errors and results use
/// (``SecretMasking/echoIdentifier(_:)``): a name that could be a card number or CVV pasted into
/// the wrong place, or that carries control characters, is redacted.
enum SafeEcho {
    /// ``SecretMasking/echoIdentifier(_:)``: `name` itself when it has at most 64 bytes and 4
    /// digits and each `.`-separated component is `[A-Za-z][A-Za-z0-9_-]*`; otherwise
    /// `<redacted N chars>` (for the unsafe components of a path, or for the whole).
    static func name(_ name: String) -> String {
        SecretMasking.echoIdentifier(name)
    }
}
