package import CSECore
package import CSECrypto

/// A credentials file: one flat JSON object (RFC 8259) whose members are all strings, such as
/// `{"merchantId":"1234","apiKeyId":"…","secretApiKey":"…"}`.
///
/// The document is checked with CSEKit's strict JSON validator, then scanned once more to copy
/// every member value *directly* into a ``SecureBytes`` buffer, so a secret never becomes a Swift
/// `String` (whose memory cannot be wiped). Identifiers that are not secret are turned into text
/// with `text(_:)`. Errors name the member, never a value.
package struct CredentialsDocument: Sendable {
    /// The largest credentials document read.
    package static let maximumByteCount = 16 * 1024

    private var members: [String: SecureBytes] = [:]

    /// Parses a document.
    /// - Parameter bytes: The file's bytes. The caller wipes its own copy.
    /// - Throws: a `json.*` error for malformed JSON, or ``CSEError/Code/serverAPICredentials``
    ///   when it is not an object of strings.
    package init(bytes: UnsafeRawBufferPointer) throws(CSEError) {
        guard bytes.count <= Self.maximumByteCount else {
            throw CSEError(
                .serverAPICredentials, "a credentials document is at most \(Self.maximumByteCount) bytes",
                context: ["limit": String(Self.maximumByteCount)])
        }
        try JSONValue.validate(bytes)
        var scanner = Scanner(bytes: bytes)
        members = try scanner.object()
    }

    /// Parses a document held in an array (see `init(bytes:)` for a buffer).
    package init(bytes: [UInt8]) throws(CSEError) {
        self = try bytes.withCSEBytes { (buffer) throws(CSEError) in try CredentialsDocument(bytes: buffer) }
    }

    /// The member names, sorted.
    package var names: [String] { members.keys.sorted() }

    /// A secret member (API secret, SHA phrase, password, API key), still in a wiping buffer.
    /// - Throws: ``CSEError/Code/serverAPICredentials`` when it is missing or empty.
    package func secret(_ name: String) throws(CSEError) -> SecureBytes {
        guard let value = members[name] else {
            throw CSEError(.serverAPICredentials, "the credentials lack a member", context: ["member": name])
        }
        guard value.count > 0 else {
            throw CSEError(.serverAPICredentials, "a credentials member is empty", context: ["member": name])
        }
        return value
    }

    /// A member that is not secret (a merchant id, an API key id, an access code), as text.
    /// - Throws: ``CSEError/Code/serverAPICredentials`` when it is missing or empty.
    package func text(_ name: String) throws(CSEError) -> String {
        try secret(name).withUnsafeBytes { String(decoding: $0, as: UTF8.self) }
    }

    /// An optional member that is not secret, or `nil` when absent.
    package func optionalText(_ name: String) -> String? {
        members[name].map { $0.withUnsafeBytes { String(decoding: $0, as: UTF8.self) } }
    }

    /// A byte scanner over an already validated document.
    private struct Scanner {
        let bytes: UnsafeRawBufferPointer
        var index = 0

        init(bytes: UnsafeRawBufferPointer) { self.bytes = bytes }

        mutating func skipSpace() {
            while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
        }

        mutating func object() throws(CSEError) -> [String: SecureBytes] {
            skipSpace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "{") else {
                throw CSEError(.serverAPICredentials, "the credentials must be one JSON object")
            }
            index += 1
            var out: [String: SecureBytes] = [:]
            skipSpace()
            if bytes[index] == UInt8(ascii: "}") { index += 1; return out }
            while true {
                skipSpace()
                let nameBytes = try string()
                let name = nameBytes.withUnsafeBytes { String(decoding: $0, as: UTF8.self) }
                skipSpace()
                index += 1  // ':' (validated)
                skipSpace()
                guard bytes[index] == UInt8(ascii: "\"") else {
                    throw CSEError(
                        .serverAPICredentials, "every credentials member must be a JSON string",
                        context: ["member": SecretMasking.echoName(name, limit: 64)])
                }
                out[name] = try string()
                skipSpace()
                let separator = bytes[index]
                index += 1
                if separator == UInt8(ascii: "}") { return out }
            }
        }

        /// Reads a string (the cursor on its opening quote) into a wiping buffer, unescaping.
        mutating func string() throws(CSEError) -> SecureBytes {
            index += 1
            var end = index
            var length = 0
            // First pass: the unescaped length (escapes are validated already).
            while bytes[end] != UInt8(ascii: "\"") {
                if bytes[end] == UInt8(ascii: "\\") {
                    if bytes[end + 1] == UInt8(ascii: "u") {
                        let unit = hex4(at: end + 2)
                        if unit >= 0xD800 && unit < 0xDC00 {
                            length += 4
                            end += 12
                        } else {
                            length += unit < 0x80 ? 1 : unit < 0x800 ? 2 : 3
                            end += 6
                        }
                    } else {
                        length += 1
                        end += 2
                    }
                } else {
                    length += 1
                    end += 1
                }
            }
            let start = index
            let result = SecureBytes(count: length) { out in
                var i = start
                var o = 0
                func put(_ b: UInt8) { out[o] = b; o += 1 }
                while bytes[i] != UInt8(ascii: "\"") {
                    guard bytes[i] == UInt8(ascii: "\\") else { put(bytes[i]); i += 1; continue }
                    let e = bytes[i + 1]
                    if e != UInt8(ascii: "u") {
                        switch e {
                        case UInt8(ascii: "b"): put(0x08)
                        case UInt8(ascii: "f"): put(0x0C)
                        case UInt8(ascii: "n"): put(0x0A)
                        case UInt8(ascii: "r"): put(0x0D)
                        case UInt8(ascii: "t"): put(0x09)
                        default: put(e)  // " \ /
                        }
                        i += 2
                        continue
                    }
                    var scalar = hex4(at: i + 2)
                    i += 6
                    if scalar >= 0xD800 && scalar < 0xDC00 {
                        let low = hex4(at: i + 2)
                        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                        i += 6
                    }
                    switch scalar {
                    case ..<0x80: put(UInt8(scalar))
                    case ..<0x800:
                        put(UInt8(0xC0 | scalar >> 6)); put(UInt8(0x80 | scalar & 0x3F))
                    case ..<0x10000:
                        put(UInt8(0xE0 | scalar >> 12)); put(UInt8(0x80 | scalar >> 6 & 0x3F)); put(UInt8(0x80 | scalar & 0x3F))
                    default:
                        put(UInt8(0xF0 | scalar >> 18)); put(UInt8(0x80 | scalar >> 12 & 0x3F))
                        put(UInt8(0x80 | scalar >> 6 & 0x3F)); put(UInt8(0x80 | scalar & 0x3F))
                    }
                }
            }
            index = end + 1
            return result
        }

        func hex4(at position: Int) -> UInt32 {
            var value: UInt32 = 0
            for k in 0..<4 {
                let c = bytes[position + k]
                let digit: UInt8 =
                    switch c {
                    case 0x30...0x39: c - 0x30
                    case 0x61...0x66: c - 0x61 + 10
                    default: c - 0x41 + 10
                    }
                value = value << 4 | UInt32(digit)
            }
            return value
        }
    }
}
