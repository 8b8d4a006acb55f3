public import CSECore
internal import CCSEShims

extension CSEError.Code {
    /// The text is not one strict PEM block (RFC 7468 §3): missing or mismatched BEGIN/END lines, a
    /// body that is not base64 lines, headers, or anything but whitespace around the block.
    public static let pemMalformed = Self("pem.malformed")
    /// A well-formed PEM block whose label is not one the caller accepts (for example a
    /// `CERTIFICATE` where a `PUBLIC KEY` was expected).
    public static let pemUnexpectedLabel = Self("pem.unexpectedLabel")
}

/// One PEM block (RFC 7468): a label and the DER bytes of its base64 body.
///
/// Parsing is strict: whitespace may surround the block, the BEGIN and END labels must match, the
/// body must be base64 (RFC 4648 §4, padded, canonical) in lines ended by LF or CRLF, and nothing
/// else (no RFC 1421 headers, no second block) is allowed.
package struct PEMDocument {
    /// The label between `BEGIN ` and `-----`, for example `PUBLIC KEY`.
    package let label: String
    /// The decoded body. Holders of private keys call ``wipe()`` when done.
    package private(set) var derBytes: [UInt8]

    private static let dashes = Array("-----".utf8)
    private static let begin = Array("-----BEGIN ".utf8)
    private static let end = Array("-----END ".utf8)

    /// Parses one PEM block.
    /// - Throws: ``CSEError/Code/pemMalformed`` (the context may name the base64 error code).
    package init(parsing text: some Collection<UInt8>) throws(CSEError) {
        var all = Array(text)
        var body: [UInt8] = []
        // The text may hold a private key: zero our copies whatever happens.
        defer {
            secureZero(&all)
            secureZero(&body)
        }
        var lower = all.startIndex
        var upper = all.endIndex
        while lower < upper, Self.isWhitespace(all[lower]) { lower += 1 }
        while upper > lower, Self.isWhitespace(all[upper - 1]) { upper -= 1 }
        let bytes = all[lower..<upper]
        var index = bytes.startIndex

        // -----BEGIN LABEL-----
        guard bytes[index...].starts(with: Self.begin) else { throw Self.malformed("missing a BEGIN line") }
        index += Self.begin.count
        let labelStart = index
        while index < bytes.endIndex, Self.isLabelCharacter(bytes[index]) { index += 1 }
        let label = bytes[labelStart..<index]
        guard !label.isEmpty, label.first != 0x20, label.last != 0x20 else { throw Self.malformed("bad label") }
        guard bytes[index...].starts(with: Self.dashes) else { throw Self.malformed("bad BEGIN line") }
        index += Self.dashes.count
        index = try Self.skipLineBreak(bytes, at: index)

        // Base64 lines up to -----END
        body.reserveCapacity(bytes.count)
        while !bytes[index...].starts(with: Self.dashes) {
            let lineStart = index
            while index < bytes.endIndex, Self.isBase64Character(bytes[index]) {
                body.append(bytes[index])
                index += 1
            }
            guard index > lineStart else { throw Self.malformed("a body line is empty or holds a non-base64 character") }
            index = try Self.skipLineBreak(bytes, at: index)
        }
        guard !body.isEmpty else { throw Self.malformed("the body is empty") }

        // -----END LABEL-----, then the end of the (trimmed) text.
        guard bytes[index...].starts(with: Self.end) else { throw Self.malformed("missing an END line") }
        index += Self.end.count
        guard bytes[index...].starts(with: label) else { throw Self.malformed("the END label differs from the BEGIN label") }
        index += label.count
        guard bytes[index...].elementsEqual(Self.dashes) else {
            throw Self.malformed("bad END line, or text after it")
        }

        do {
            derBytes = try body.withCSEBytes { (text) throws(CSEError) in
                try Base64.decode(text, alphabet: .standard, padding: .required)
            }
        } catch {
            throw CSEError(.pemMalformed, "the PEM body is not strict base64", context: ["base64": error.code.rawValue])
        }
        self.label = String(decoding: label, as: UTF8.self)
    }

    /// Zeroes the decoded body.
    package mutating func wipe() { secureZero(&derBytes) }

    /// Encodes `der` as a PEM block with 64-character lines and a final line break (RFC 7468 §2).
    static func encode(label: String, der: UnsafeRawBufferPointer) -> String {
        var body: [UInt8] = []
        Base64.encode(der, appendingTo: &body, alphabet: .standard, padding: true)
        defer { secureZero(&body) }
        var out = "-----BEGIN \(label)-----\n"
        var start = 0
        while start < body.count {
            let stop = min(start + 64, body.count)
            out += String(decoding: body[start..<stop], as: UTF8.self)
            out += "\n"
            start = stop
        }
        out += "-----END \(label)-----\n"
        return out
    }

    private static func skipLineBreak(_ bytes: ArraySlice<UInt8>, at index: Int) throws(CSEError) -> Int {
        if bytes[index...].starts(with: [0x0A]) { return index + 1 }
        if bytes[index...].starts(with: [0x0D, 0x0A]) { return index + 2 }
        throw malformed("a line does not end where it should")
    }

    private static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }

    private static func isLabelCharacter(_ byte: UInt8) -> Bool {
        (0x41...0x5A).contains(byte) || byte.isASCIIDigit || byte == 0x20
    }

    private static func isBase64Character(_ byte: UInt8) -> Bool {
        (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) || byte.isASCIIDigit
            || byte == 0x2B || byte == 0x2F || byte == 0x3D
    }

    private static func malformed(_ reason: String) -> CSEError {
        CSEError(.pemMalformed, "not a strict PEM block: \(reason)")
    }
}
