/// Deterministic JSON output (RFC 8259) without Foundation.
///
/// Strings are escaped as RFC 8259 §7 requires: `"` and `\` are escaped, control characters
/// U+0000–U+001F use the short escapes where they exist (`\n`, `\t`, …) and `\u00XX` otherwise.
/// So that no value from a platform, a product or an IIN table can steer a terminal or reorder
/// what a reader sees (issue #24, point 15), these are written as `\uXXXX` too: the C1 controls
/// U+0080–U+009F (U+009B is a one-byte CSI), the bidirectional marks and controls
/// U+200E, U+200F, U+202A–U+202E and U+2066–U+2069, and the line and paragraph separators U+2028
/// and U+2029. Everything else, including `/` and other non-ASCII text, is written as raw UTF-8,
/// so the output of a given value is always the same bytes (unlike Apple's `JSONSerialization`,
/// which escapes `/` and orders keys by hash).
@usableFromInline
package enum JSONWriter {
    private static var hexDigits: [UInt8] { Base16.digits }

    /// Whether the byte needs a closer look: below 0x20, 0x7F and above (one unsigned compare:
    /// `b - 0x20` wraps below 0x20), `"` or `\`. The same three compares as RFC 8259's set alone,
    /// so ASCII text costs what it did; DEL stays raw, and non-ASCII bytes are checked by
    /// ``escapedScalar(_:at:)`` (only `0xC2` and `0xE2` lead an escaped code point).
    @inline(__always)
    private static func mayEscape(_ b: UInt8) -> Bool {
        (b &- 0x20) >= 0x5F || b == 0x22 || b == 0x5C
    }

    /// How many leading bytes of `utf8` are known to need no escape, in whole 8-byte words: the
    /// byte loops of ``appendString(_:to:)`` and ``write(string:to:)`` start there
    /// (``ASCIIScan/jsonPlainWordsEnd(_:from:count:delete:)``, DEL included: it may be escaped
    /// below, so non-ASCII text and DEL take the byte loop).
    @inline(__always)
    private static func plainPrefixLength(_ utf8: UnsafeBufferPointer<UInt8>) -> Int {
        guard let base = utf8.baseAddress else { return 0 }
        return ASCIIScan.jsonPlainWordsEnd(UnsafeRawPointer(base), from: 0, count: utf8.count, delete: true)
    }

    /// The code point written as `\uXXXX` that starts at `i` (its lead byte is `0xC2` or
    /// `0xE2`) and its UTF-8 length, or `nil` when it is written raw.
    @inline(__always)
    private static func escapedScalar(_ utf8: UnsafeBufferPointer<UInt8>, at i: Int) -> (scalar: UInt16, length: Int)? {
        guard i + 1 < utf8.count else { return nil }
        let second = utf8[i + 1]
        if utf8[i] == 0xC2 {
            // U+0080–U+009F: C2 80–C2 9F.
            return second <= 0x9F ? (0x80 + UInt16(second & 0x1F), 2) : nil
        }
        guard i + 2 < utf8.count else { return nil }
        let third = utf8[i + 2]
        switch (second, third) {
        case (0x80, 0x8E), (0x80, 0x8F), (0x80, 0xA8...0xAE): return (0x2000 + UInt16(third & 0x3F), 3)  // U+200E/F, U+2028–U+202E
        case (0x81, 0xA6...0xA9): return (0x2040 + UInt16(third & 0x3F), 3)  // U+2066–U+2069
        default: return nil
        }
    }

    /// The four hexadecimal digits of `scalar`, after `\u`.
    @inline(__always)
    private static func hex4(_ scalar: UInt16) -> [UInt8] {
        let digits = hexDigits
        return [
            digits[Int(scalar >> 12)], digits[Int(scalar >> 8 & 0xF)], digits[Int(scalar >> 4 & 0xF)], digits[Int(scalar & 0xF)],
        ]
    }

    /// Whether any byte of `utf8` would be escaped by ``appendString(_:to:)`` (or is not
    /// ASCII): `false` means the bytes can stand between quotes as they are.
    package static func needsEscaping(_ utf8: ArraySlice<UInt8>) -> Bool {
        utf8.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return false }
            let plain = ASCIIScan.jsonPlainWordsEnd(UnsafeRawPointer(base), from: 0, count: buffer.count, delete: true)
            for i in plain..<buffer.count where mayEscape(buffer[i]) { return true }
            return false
        }
    }

    /// Appends `string` as a quoted, escaped JSON string.
    package static func appendString(_ string: String, to output: inout [UInt8]) {
        output.append(0x22)
        var string = string
        string.withUTF8 { utf8 in
            var runStart = 0
            for i in plainPrefixLength(utf8)..<utf8.count {
                let b = utf8[i]
                guard mayEscape(b) else { continue }
                if b >= 0x7F {
                    // A continuation byte never leads, so the loop passes over the rest of it.
                    guard b == 0xC2 || b == 0xE2, let (scalar, length) = escapedScalar(utf8, at: i) else { continue }
                    if runStart < i { output.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<i])) }
                    runStart = i + length
                    output.append(contentsOf: [0x5C, UInt8(ascii: "u")])
                    output.append(contentsOf: hex4(scalar))
                    continue
                }
                if runStart < i { output.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<i])) }
                runStart = i + 1
                output.append(0x5C)
                switch b {
                case 0x22: output.append(0x22)
                case 0x5C: output.append(0x5C)
                case 0x0A: output.append(UInt8(ascii: "n"))
                case 0x0D: output.append(UInt8(ascii: "r"))
                case 0x09: output.append(UInt8(ascii: "t"))
                case 0x08: output.append(UInt8(ascii: "b"))
                case 0x0C: output.append(UInt8(ascii: "f"))
                default:
                    output.append(contentsOf: [UInt8(ascii: "u"), 0x30, 0x30, hexDigits[Int(b >> 4)], hexDigits[Int(b & 0xF)]])
                }
            }
            if runStart < utf8.count { output.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart...])) }
        }
        output.append(0x22)
    }

    /// The most bytes ``write(string:to:)`` can write for `string`: two quotes plus six per
    /// UTF-8 byte (the `\u00XX` form).
    /// - Parameter string: The string to be written.
    @inlinable @inline(__always)
    package static func maximumQuotedLength(of string: String) -> Int { 2 + 6 * string.utf8.count }

    /// Writes `string` as a quoted, escaped JSON string at `out`, byte for byte what
    /// ``appendString(_:to:)`` appends, for writers that fill one exactly sized buffer instead of
    /// growing an array (no capacity checks per append).
    /// - Parameters:
    ///   - string: The string to write.
    ///   - out: The destination, with room for ``maximumQuotedLength(of:)`` bytes.
    /// - Returns: The number of bytes written.
    package static func write(string: String, to out: UnsafeMutableRawPointer) -> Int {
        var string = string
        return string.withUTF8 { utf8 in
            var o = 0
            func put(_ byte: UInt8) {
                out.storeBytes(of: byte, toByteOffset: o, as: UInt8.self)
                o += 1
            }
            func copy(_ range: Range<Int>) {
                guard !range.isEmpty, let base = utf8.baseAddress else { return }
                (out + o).copyMemory(from: base + range.lowerBound, byteCount: range.count)
                o += range.count
            }
            put(0x22)
            var runStart = 0
            for i in plainPrefixLength(utf8)..<utf8.count {
                let b = utf8[i]
                guard mayEscape(b) else { continue }
                if b >= 0x7F {
                    guard b == 0xC2 || b == 0xE2, let (scalar, length) = escapedScalar(utf8, at: i) else { continue }
                    copy(runStart..<i)
                    runStart = i + length
                    put(0x5C); put(UInt8(ascii: "u"))
                    let digits = hex4(scalar)
                    put(digits[0]); put(digits[1]); put(digits[2]); put(digits[3])
                    continue
                }
                copy(runStart..<i)
                runStart = i + 1
                put(0x5C)
                switch b {
                case 0x22: put(0x22)
                case 0x5C: put(0x5C)
                case 0x0A: put(UInt8(ascii: "n"))
                case 0x0D: put(UInt8(ascii: "r"))
                case 0x09: put(UInt8(ascii: "t"))
                case 0x08: put(UInt8(ascii: "b"))
                case 0x0C: put(UInt8(ascii: "f"))
                default:
                    put(UInt8(ascii: "u")); put(0x30); put(0x30)
                    put(hexDigits[Int(b >> 4)]); put(hexDigits[Int(b & 0xF)])
                }
            }
            copy(runStart..<utf8.count)
            put(0x22)
            return o
        }
    }

    /// Appends the compact serialization of `value` (no insignificant whitespace, members in
    /// their stored order).
    package static func append(_ value: JSONValue, to output: inout [UInt8]) {
        switch value {
        case .null: output.append(contentsOf: "null".utf8)
        case .bool(let b): output.append(contentsOf: (b ? "true" : "false").utf8)
        case .number(let text): output.append(contentsOf: text.utf8)
        case .string(let s): appendString(s, to: &output)
        case .array(let elements):
            output.append(UInt8(ascii: "["))
            for (i, element) in elements.enumerated() {
                if i > 0 { output.append(UInt8(ascii: ",")) }
                append(element, to: &output)
            }
            output.append(UInt8(ascii: "]"))
        case .object(let object):
            output.append(UInt8(ascii: "{"))
            for (i, (key, member)) in object.enumerated() {
                if i > 0 { output.append(UInt8(ascii: ",")) }
                appendString(key, to: &output)
                output.append(UInt8(ascii: ":"))
                append(member, to: &output)
            }
            output.append(UInt8(ascii: "}"))
        }
    }
}

extension JSONValue {
    /// The compact, deterministic serialization (see `JSONWriter`) as UTF-8 bytes.
    package var serializedBytes: [UInt8] {
        var out: [UInt8] = []
        JSONWriter.append(self, to: &out)
        return out
    }

    /// The compact, deterministic serialization as a string.
    package var serialized: String { String(decoding: serializedBytes, as: UTF8.self) }
}
