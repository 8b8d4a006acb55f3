/// Deterministic JSON output (RFC 8259) without Foundation.
///
/// Strings are escaped as RFC 8259 §7 requires: `"` and `\` are escaped, control characters
/// U+0000–U+001F use the short escapes where they exist (`\n`, `\t`, …) and `\u00XX` otherwise.
/// Everything else, including `/` and non-ASCII text, is written as raw UTF-8, so the output of
/// a given value is always the same bytes (unlike Apple's `JSONSerialization`, which escapes `/`
/// and orders keys by hash).
public enum JSONWriter {
    private static let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)

    /// Appends `string` as a quoted, escaped JSON string.
    public static func appendString(_ string: String, to output: inout [UInt8]) {
        output.append(0x22)
        var string = string
        string.withUTF8 { utf8 in
            var runStart = 0
            for i in 0..<utf8.count {
                let b = utf8[i]
                guard b < 0x20 || b == 0x22 || b == 0x5C else { continue }
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

    /// Appends the compact serialization of `value` (no insignificant whitespace, members in
    /// their stored order).
    public static func append(_ value: JSONValue, to output: inout [UInt8]) {
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
    /// The compact, deterministic serialization (see ``JSONWriter``) as UTF-8 bytes.
    public var serializedBytes: [UInt8] {
        var out: [UInt8] = []
        JSONWriter.append(self, to: &out)
        return out
    }

    /// The compact, deterministic serialization as a string.
    public var serialized: String { String(decoding: serializedBytes, as: UTF8.self) }
}
