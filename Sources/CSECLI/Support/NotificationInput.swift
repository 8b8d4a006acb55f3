import CSECore
import CSEServerAPI

/// What the webhook verifiers (`cse worldline|mastercard|paysafe webhook-verify`) share: the body
/// read raw from standard input, bounded, and the delivery's headers. (`cse aps feedback-verify`
/// reads a form, whose one final line break it drops, within the same bound.)
enum NotificationInput {
    /// The body on standard input, byte for byte (a signature covers every byte, a final line
    /// break included), at most ``NotificationLimits/maximumBodyByteCount``.
    /// - Throws: `cli.inputTooLarge` over the limit (nothing is verified), `cli.emptyInput`,
    ///   `cli.read`.
    static func body() throws(CSEError) -> [UInt8] {
        try Files.readStandardInput(limit: NotificationLimits.maximumBodyByteCount, keepingTrailingLineBreak: true)
    }

    /// A `--header 'NAME: VALUE'` argument as a header field: the name before the first colon (an
    /// RFC 9110 §5.6.2 token), the value after it without surrounding spaces and tabs.
    /// - Throws: A usage error that never quotes the argument (it may hold a secret).
    static func header(_ argument: String) throws(UsageError) -> (name: String, value: String) {
        guard let field = field(Array(argument.utf8)[...]) else {
            throw UsageError("The value for '--header' must be 'NAME: VALUE' (a header field as received).")
        }
        return field
    }

    /// The header fields of a file as a server logs them: one `NAME: VALUE` per line (LF or
    /// CRLF), empty lines skipped, repeated fields kept in order. The file holds a secret header,
    /// so it is read as a secret file (the mode warning), at most 64 KiB.
    /// - Throws: `cli.file` and the other file errors; `invalid` (with the line number, never the
    ///   line) for a line that is not a header field.
    static func headers(
        file path: String, invalid: (_ line: Int) -> CSEError
    ) throws(CSEError) -> [(name: String, value: String)] {
        var bytes = try Files.readSecret(path, kind: "headers file", limit: 64 << 10)
        defer { secureZero(&bytes) }
        var fields: [(name: String, value: String)] = []
        for (index, line) in bytes.split(separator: 0x0A, omittingEmptySubsequences: false).enumerated() {
            let content = line.last == 0x0D ? line.dropLast() : line
            if content.isEmpty { continue }
            guard let field = field(content) else { throw invalid(index + 1) }
            fields.append(field)
        }
        return fields
    }

    /// `NAME: VALUE` as a field: the name an RFC 9110 §5.6.2 token, the value visible ASCII or
    /// UTF-8, spaces and tabs around it dropped.
    private static func field(_ bytes: ArraySlice<UInt8>) -> (name: String, value: String)? {
        guard let colon = bytes.firstIndex(of: UInt8(ascii: ":")), colon > bytes.startIndex,
            bytes[..<colon].allSatisfy(isTokenByte),
            bytes[(colon + 1)...].allSatisfy({ $0 == 0x09 || ($0 >= 0x20 && $0 != 0x7F) })
        else { return nil }
        let value = bytes[(colon + 1)...].drop { $0 == 0x20 || $0 == 0x09 }
        let end = value.lastIndex { $0 != 0x20 && $0 != 0x09 }.map { $0 + 1 } ?? value.startIndex
        return (String(decoding: bytes[..<colon], as: UTF8.self), String(decoding: value[value.startIndex..<end], as: UTF8.self))
    }

    /// RFC 9110 §5.6.2 `tchar`.
    private static func isTokenByte(_ byte: UInt8) -> Bool {
        byte.isASCIIDigit || ((byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z"))
            || Array("!#$%&'*+-.^_`|~".utf8).contains(byte)
    }
}
