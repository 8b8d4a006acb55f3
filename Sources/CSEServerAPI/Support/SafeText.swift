import CSECore
import CSECrypto

/// Makes text from a platform response safe for an error or a log line, by the package's one
/// rule (``SecretMasking/platformText(_:limit:secrets:)``): the caller's own secrets
/// (``secrets``) and any `Basic`/`Bearer` credential become `<redacted>`, every run of 12 or more
/// digits (spaces and one other separator allowed between digits) becomes `<redacted N chars>`, and the rest is printable
/// ASCII, at most `limit` characters. Platform error codes (Worldline's 8 digits) stay readable.
struct SafeText {
    /// The caller's secrets to redact by value: API keys, passwords, phrases, and card data the
    /// request carried (a DPAN, a cryptogram, a name).
    let secrets: [SecureBytes]

    /// No secrets of the caller: shapes only.
    static let shapesOnly = SafeText(secrets: [])

    /// ``shapesOnly``'s ``of(_:limit:)``.
    static func of(_ text: String, limit: Int = 160) -> String { shapesOnly.of(text, limit: limit) }

    /// `text` made safe.
    func of(_ text: String, limit: Int = 160) -> String {
        withSecrets(0, []) { SecretMasking.platformText(text, limit: limit, secrets: $0) }
    }

    /// A platform identifier the caller needs whole, such as a Worldline payment id
    /// (`000000850010000188180000200001_0`, which reconciles a payment): the caller's secrets
    /// redacted and printable ASCII only, at most `limit` characters, but digit runs kept.
    static func identifier(_ text: String, limit: Int = 64) -> String {
        String(
            String.UnicodeScalarView(
                SecretMasking.redactingSecrets(text).unicodeScalars.prefix(limit).map {
                    $0.isASCII && $0.value >= 0x20 && $0.value < 0x7F ? $0 : "?"
                }))
    }

    /// Calls `body` with the bytes of every secret, each borrowed for the duration of the call.
    private func withSecrets(_ index: Int, _ borrowed: [UnsafeRawBufferPointer], _ body: ([UnsafeRawBufferPointer]) -> String) -> String {
        guard index < secrets.count else { return body(borrowed) }
        return secrets[index].withUnsafeBytes { withSecrets(index + 1, borrowed + [$0], body) }
    }
}
