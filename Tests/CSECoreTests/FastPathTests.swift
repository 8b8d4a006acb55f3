import CSECore
import Foundation
import Testing

/// The allocation-free writers the hot paths use must produce exactly the bytes of the appending
/// forms (and of Foundation, for base64), at every length around their word-sized steps.
@Suite("Fast paths: Base64.encode(_:into:) and JSONWriter.write(string:to:)")
struct FastPathTests {
    /// Lengths 0…40 cover every tail of the 6-byte step and the 3-byte step.
    @Test("encode(_:into:) equals Foundation's base64 (and its url-safe form) for every length 0…40", arguments: 0...40)
    func base64IntoMatchesFoundation(length: Int) {
        let bytes = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 151 &+ 7) }
        let standard = Data(bytes).base64EncodedString()
        let url = standard.replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
        for (alphabet, padding, expected) in [(Base64.Alphabet.standard, true, standard), (.url, false, url)] {
            var out = [UInt8](repeating: 0xEE, count: expected.utf8.count + 3)
            let written = bytes.withUnsafeBytes { input in
                out.withUnsafeMutableBytes { Base64.encode(input, into: $0, alphabet: alphabet, padding: padding) }
            }
            #expect(written == expected.utf8.count, "length \(length)")
            #expect(Array(out[..<written]) == Array(expected.utf8), "length \(length), padding \(padding)")
            #expect(out[written...].allSatisfy { $0 == 0xEE }, "length \(length): wrote past the encoding")
            #expect(Base64.encode(bytes, alphabet: alphabet, padding: padding) == expected)
        }
    }

    @Test("ASCIIScan agrees with a byte-by-byte check with a marked byte at every position, lengths 0…24", arguments: 0...24)
    func asciiScanMatchesByteLoop(length: Int) {
        for marker: UInt8 in [0x0A, 0x0D, 0x7F, 0x80, 0x8A, 0xC3, 0xFF] {
            for position in -1..<length {
                var bytes = (0..<length).map { UInt8(0x20 + ($0 * 7) % 0x5F) }
                if position >= 0 { bytes[position] = marker }
                let ascii = bytes.allSatisfy { $0 < 0x80 }
                let plain = ascii && !bytes.contains(0x0A)
                bytes.withUnsafeBufferPointer { buffer in
                    #expect(ASCIIScan.isASCII(buffer) == ascii, "length \(length), \(marker) at \(position)")
                    #expect(ASCIIScan.isASCIIWithoutLineFeed(buffer) == plain, "length \(length), \(marker) at \(position)")
                }
            }
        }
    }

    @Test("encode(_:into:) writes nothing and returns 0 when the buffer is too small")
    func base64IntoRefusesShortBuffers() {
        let bytes: [UInt8] = Array("any carnal pleas".utf8)
        var out = [UInt8](repeating: 0xEE, count: Base64.encodedLength(of: bytes.count, padding: true) - 1)
        let written = bytes.withUnsafeBytes { input in out.withUnsafeMutableBytes { Base64.encode(input, into: $0) } }
        #expect(written == 0)
        #expect(out.allSatisfy { $0 == 0xEE })
    }

    /// Strings whose escapes sit at every offset of the 8-byte scan, plus non-ASCII text.
    static let jsonStrings: [String] = {
        var strings = ["", "a", "plain ascii text longer than eight", "Crème brûlée ☕ 𝄞", "\u{7F}\u{80}"]
        for special in ["\"", "\\", "\n", "\r", "\t", "\u{08}", "\u{0C}", "\u{00}", "\u{1F}", "\u{01}"] {
            for offset in 0..<18 {
                strings.append(String(repeating: "x", count: offset) + special + String(repeating: "y", count: 17 - offset))
            }
        }
        return strings
    }()

    @Test("write(string:to:) writes the bytes appendString appends (RFC 8259 §7 escapes)", arguments: jsonStrings)
    func jsonWriteMatchesAppend(text: String) {
        var appended: [UInt8] = []
        JSONWriter.appendString(text, to: &appended)
        let capacity = JSONWriter.maximumQuotedLength(of: text)
        var out = [UInt8](repeating: 0xEE, count: capacity)
        let written = out.withUnsafeMutableBytes { JSONWriter.write(string: text, to: $0.baseAddress!) }
        #expect(written <= capacity)
        #expect(Array(out[..<written]) == appended)
        // And the output is JSON that parses back to the same string.
        let parsed = try? JSONValue.parse(Array(out[..<written]))
        #expect(parsed == .string(text))
    }
}
