@testable import CSECore
import Foundation
import Testing
import TestSupport

/// Issue #24, point 15: no value written to JSON can carry a raw C1 control (U+009B is a one-byte
/// CSI that terminals obey), a bidirectional override that reorders what a reader sees, or a
/// Unicode line break. The writer escapes them as `\uXXXX`; an independent parser (Python's
/// `json`) reads back the same string.
@Suite("JSON writer: C1 controls, bidi controls and Unicode line breaks are escaped")
struct JSONWriterControlEscapeTests {
    /// Every code point the writer escapes beyond RFC 8259's required set.
    static let escaped: [UInt32] =
        Array(0x80...0x9F) + [0x200E, 0x200F] + Array(0x2028...0x202E) + Array(0x2066...0x2069)
    /// Neighbours that stay raw UTF-8.
    static let raw: [UInt32] = [0x7E, 0x7F, 0xA0, 0xE9, 0x200D, 0x2010, 0x2027, 0x202F, 0x2065, 0x206A, 0x20AC, 0x1F600]

    /// What both writers produce for `text`.
    static func written(_ text: String) -> (append: String, write: String) {
        var appended: [UInt8] = []
        JSONWriter.appendString(text, to: &appended)
        let capacity = JSONWriter.maximumQuotedLength(of: text)
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: capacity, alignment: 1)
        defer { buffer.deallocate() }
        let count = JSONWriter.write(string: text, to: buffer)
        let direct = Array(UnsafeRawBufferPointer(start: buffer, count: count))
        return (String(decoding: appended, as: UTF8.self), String(decoding: direct, as: UTF8.self))
    }

    @Test("each such code point is written \\uXXXX by both writers, alone and inside long ASCII runs")
    func escapesEach() {
        for code in Self.escaped {
            let scalar = String(Character(Unicode.Scalar(code)!))
            let hex = String(code, radix: 16)
            let expected = "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            for text in [scalar, "abcdefghijkl" + scalar + "mnopqrstuvwx", scalar + scalar] {
                let (appended, direct) = Self.written(text)
                #expect(appended == direct, "U+\(hex)")
                #expect(appended.contains(expected), "U+\(hex): \(appended)")
                #expect(!appended.unicodeScalars.contains { $0.value == code }, "U+\(hex) written raw")
            }
        }
    }

    @Test("their neighbours, and all other non-ASCII text, stay raw UTF-8")
    func neighboursRaw() {
        for code in Self.raw {
            let text = "price " + String(Character(Unicode.Scalar(code)!)) + " 12345678"
            let (appended, direct) = Self.written(text)
            #expect(appended == "\"" + text + "\"", "U+\(String(code, radix: 16))")
            #expect(direct == appended)
        }
    }

    @Test("Python's json parser reads every escaped string back as the original")
    func independentParser() throws {
        let text = Self.escaped.map { String(Character(Unicode.Scalar($0)!)) }.joined(separator: "x") + "é€😀\"\\\n"
        let (appended, direct) = Self.written(text)
        #expect(appended == direct)
        // The parser's view, as the code points it decoded.
        let script = "import json,sys; print(' '.join(str(ord(c)) for c in json.loads(sys.stdin.read())))"
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = ["-c", script]
        let input = Pipe(), output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        input.fileHandleForWriting.write(Data(appended.utf8))
        try input.fileHandleForWriting.close()
        let decoded = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        #expect(
            decoded.split(separator: " ").compactMap { UInt32($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
                == text.unicodeScalars.map(\.value))
        // And the package's own parser agrees.
        #expect(try JSONValue.parse(appended) == .string(text))
    }

    @Test("a serialized value escapes them in member names and nested strings too")
    func serializedValues() throws {
        let value = JSONValue.object(JSONObject([("name\u{202E}", .array([.string("\u{9B}31m"), .string("a\u{2028}b")]))]))
        #expect(value.serialized == #"{"name\u202e":["\u009b31m","a\u2028b"]}"#)
    }
}
