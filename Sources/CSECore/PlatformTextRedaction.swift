extension SecretMasking {
    /// The fewest digits in a run that every digit-run redaction replaces: 12, the shortest card
    /// number in use (ISO/IEC 7812; Maestro). The one digit count of the package: a platform's
    /// own error codes (Worldline's 8 digits, `21000020`), status and response codes, amounts,
    /// dates and order numbers or references of up to 11 digits stay readable, while any card
    /// number, however its groups are separated, is hidden. Identifiers a caller needs whole
    /// (a payment id, a `fort_id`) are not passed through it: they are printed as results.
    package static let cardNumberDigits = 12

    /// Text from a platform (an error message, an error id, a field name it echoes) made safe for
    /// an error, a log line or stderr (issue #24, point 9; issue #31, point 3): the one redaction
    /// rule of every platform's text and of the CLI. In this order:
    ///
    /// 1. **The caller's own secrets, by value**: every occurrence of one of `secrets` (the
    ///    session id, an API key or password, a DPAN or cryptogram the request carried, as bytes)
    ///    becomes `<redacted>`; secrets shorter than 6 bytes are not searched (they would match
    ///    ordinary text).
    /// 2. **Credentials by shape**: the token after `Basic` or `Bearer` (any case, then spaces)
    ///    becomes `<redacted>`, so an echoed `Authorization` value never prints.
    /// 3. **Card numbers by shape**: a run of ``cardNumberDigits`` or more ASCII digits becomes
    ///    `<redacted N chars>`; between two digits of a run may stand spaces and tabs and at most
    ///    one other character that is neither a letter nor a digit (`-`, `.`, `/`, `_`, …), as in
    ///    `4111 1111`, `4111-1111`, `4111  1111`, `4111 - 1111`.
    /// 4. Anything but printable ASCII becomes `?` (no control, C1, bidi or line-break
    ///    character), and at most `limit` characters are kept (then `…`).
    ///
    ///     platformText("card 4111.1111.1111.1111 refused") == "card <redacted 19 chars> refused"
    ///     platformText("errorCode 21000020") == "errorCode 21000020"
    ///     platformText("Authorization: Basic bWVyY2hhbnQ6cGFzcw==") == "Authorization: Basic <redacted>"
    ///
    /// - Parameters:
    ///   - text: The platform's text.
    ///   - limit: The most characters kept.
    ///   - secrets: The caller's secrets, as UTF-8 bytes.
    /// - Returns: The safe text.
    package static func platformText(_ text: String, limit: Int = 160, secrets: [UnsafeRawBufferPointer] = []) -> String {
        let out = redactingCardNumbers(Array(redactingSecrets(text, secrets: secrets).unicodeScalars)) {
            $0.isASCII && $0.value >= 0x20 && $0.value < 0x7F ? $0 : "?"
        }
        guard out.count > limit else { return String(out) }
        return String(String.UnicodeScalarView(out.prefix(limit))) + "…"
    }

    /// ``platformText(_:limit:secrets:)`` for secrets held as strings (a session id).
    package static func platformText(_ text: String, limit: Int = 160, values: [String]) -> String {
        platformText(redactingSecrets(text, values: values), limit: limit)
    }

    /// `scalars` with every run of ``cardNumberDigits`` or more ASCII digits, in which spaces,
    /// tabs and at most one other ``isSeparator(_:)`` character between two digits do not end
    /// the run, replaced by
    /// `<redacted N chars>`, and every other scalar passed through `other` (which replaces what
    /// must not be printed). The one digit-run rule of `platformText` and the CLI's `SafeEcho`.
    package static func redactingCardNumbers(
        _ scalars: [Unicode.Scalar], other: (Unicode.Scalar) -> Unicode.Scalar
    ) -> String.UnicodeScalarView {
        var out = String.UnicodeScalarView()
        var index = 0
        while index < scalars.count {
            guard isDigit(scalars[index]) else {
                out.append(other(scalars[index]))
                index += 1
                continue
            }
            var end = index
            var digits = 0
            while end < scalars.count {
                if isDigit(scalars[end]) {
                    digits += 1
                    end += 1
                } else if let next = nextDigitAfterGap(scalars, from: end) {
                    end = next
                } else {
                    break
                }
            }
            if digits >= cardNumberDigits {
                out.append(contentsOf: redact(String(String.UnicodeScalarView(scalars[index..<end]))).unicodeScalars)
            } else {
                out.append(contentsOf: scalars[index..<end])
            }
            index = end
        }
        return out
    }

    /// Steps 1 and 2 of ``platformText(_:limit:secrets:)``: `text` with every
    /// occurrence of one of the caller's `secrets` (6 bytes or more) and every `Basic`/`Bearer`
    /// credential token replaced by `<redacted>`. For redactions that then treat digit runs
    /// their own way.
    package static func redactingSecrets(_ text: String, secrets: [UnsafeRawBufferPointer] = []) -> String {
        var bytes = Array(text.utf8)
        for secret in secrets where secret.count >= 6 { bytes = replacingOccurrences(of: secret, in: bytes) }
        bytes = redactingCredentialTokens(bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// ``redactingSecrets(_:secrets:)`` for secrets held as strings (a session id).
    package static func redactingSecrets(_ text: String, values: [String]) -> String {
        guard !values.isEmpty else { return redactingSecrets(text) }
        var out = text
        for value in values {
            var bytes = Array(value.utf8)
            out = bytes.withUnsafeBytes { redactingSecrets(out, secrets: [$0]) }
            secureZero(&bytes)
        }
        return out
    }

    private static func isDigit(_ scalar: Unicode.Scalar) -> Bool { scalar.value >= 0x30 && scalar.value <= 0x39 }

    /// The index of the digit that ends the gap starting at `start`, when the gap may stand inside
    /// a written card number: spaces and tabs, and at most one other ``isSeparator(_:)`` character
    /// (`4111 1111`, `4111-1111`, `4111  1111`, `4111 - 1111`); `nil` for any other gap (a letter,
    /// two punctuation characters, the end of the text).
    private static func nextDigitAfterGap(_ scalars: [Unicode.Scalar], from start: Int) -> Int? {
        var index = start
        var others = 0
        while index < scalars.count, !isDigit(scalars[index]) {
            let scalar = scalars[index]
            guard isSeparator(scalar) else { return nil }
            if scalar != " " && scalar != "\t" {
                others += 1
                guard others <= 1 else { return nil }
            }
            index += 1
        }
        return index < scalars.count && index > start ? index : nil
    }

    /// A character that may stand between the digit groups of a written card number, so that it
    /// does not end a digit run: anything but a letter or a digit (`4111 1111`, `4111-1111`,
    /// `4111.1111`, `4111/1111`, `4111_1111`). The one rule of every digit-run redaction.
    package static func isSeparator(_ scalar: Unicode.Scalar) -> Bool { !scalar.properties.isAlphabetic && !isDigit(scalar) }

    private static let marker = Array("<redacted>".utf8)

    /// `bytes` with every occurrence of `needle` replaced by `<redacted>`.
    private static func replacingOccurrences(of needle: UnsafeRawBufferPointer, in bytes: [UInt8]) -> [UInt8] {
        guard needle.count <= bytes.count else { return bytes }
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var i = 0
        while i < bytes.count {
            if i + needle.count <= bytes.count, bytes[i] == needle[0],
                (0..<needle.count).allSatisfy({ bytes[i + $0] == needle[$0] })
            {
                out.append(contentsOf: marker)
                i += needle.count
            } else {
                out.append(bytes[i])
                i += 1
            }
        }
        return out
    }

    /// `bytes` with the token after each `Basic` or `Bearer` (ASCII case-insensitive, at a word
    /// start, followed by spaces) replaced by `<redacted>`: the token is the run of base64,
    /// base64url and token68 characters (RFC 7235 §2.1) that follows.
    private static func redactingCredentialTokens(_ bytes: [UInt8]) -> [UInt8] {
        func lower(_ b: UInt8) -> UInt8 { b >= 0x41 && b <= 0x5A ? b | 0x20 : b }
        func isWord(_ b: UInt8) -> Bool { (b >= 0x30 && b <= 0x39) || (lower(b) >= 0x61 && lower(b) <= 0x7A) }
        func isToken(_ b: UInt8) -> Bool {
            isWord(b) || b == 0x2B || b == 0x2F || b == 0x3D || b == 0x2D || b == 0x2E || b == 0x5F || b == 0x7E
        }
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var i = 0
        scan: while i < bytes.count {
            if i == 0 || !isWord(bytes[i - 1]) {
                for scheme in ["basic", "bearer"] {
                    let word = Array(scheme.utf8)
                    guard i + word.count < bytes.count, (0..<word.count).allSatisfy({ lower(bytes[i + $0]) == word[$0] }) else { continue }
                    var j = i + word.count
                    guard bytes[j] == 0x20 else { continue }
                    while j < bytes.count, bytes[j] == 0x20 { j += 1 }
                    var end = j
                    while end < bytes.count, isToken(bytes[end]) { end += 1 }
                    guard end > j else { continue }
                    out.append(contentsOf: bytes[i..<j])
                    out.append(contentsOf: marker)
                    i = end
                    continue scan
                }
            }
            out.append(bytes[i])
            i += 1
        }
        return out
    }
}
