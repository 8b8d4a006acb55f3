import CSECore
import CSECrypto

/// Makes text from a platform response safe for an error or a log line (issue #24, point 9): the
/// caller's own secrets (``secrets``) and any `Basic`/`Bearer` credential become `<redacted>`
/// (``SecretMasking/redactingSecrets(_:secrets:)``); then printable ASCII only, at most `limit`
/// characters, and every digit run of 8 or more digits, where a single character that is not a
/// letter or a digit between digits does not end the run (``SecretMasking/isSeparator(_:)``),
/// starred out, so an echoed card number never reaches a message whatever separates its groups.
struct SafeText {
    /// The caller's secrets to redact by value: API keys, passwords, phrases.
    let secrets: [SecureBytes]

    /// No secrets of the caller: shapes only.
    static let shapesOnly = SafeText(secrets: [])

    /// ``shapesOnly``'s ``of(_:limit:)``.
    static func of(_ text: String, limit: Int = 160) -> String { shapesOnly.of(text, limit: limit) }

    /// `text` made safe.
    func of(_ text: String, limit: Int = 160) -> String {
        let redacted = withSecrets(0, []) { SecretMasking.redactingSecrets(text, secrets: $0) }
        let scalars = Array(redacted.unicodeScalars.prefix(limit))
        var out = scalars.map { $0.isASCII && $0.value >= 0x20 && $0.value < 0x7F ? Character($0) : "?" }
        var i = 0
        while i < out.count {
            guard out[i].isASCII, out[i].isNumber else { i += 1; continue }
            var j = i
            var digits = 0
            var lastDigit = i
            while j < out.count {
                if out[j].isASCII && out[j].isNumber {
                    digits += 1
                    lastDigit = j
                } else if !(SecretMasking.isSeparator(out[j].unicodeScalars.first!) && j + 1 < out.count && out[j + 1].isASCII
                    && out[j + 1].isNumber)
                {
                    break
                }
                j += 1
            }
            if digits >= 8 {
                for k in i...lastDigit where out[k].isNumber { out[k] = "*" }
            }
            i = j
        }
        return String(out)
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
