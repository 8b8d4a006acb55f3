import CSECore
import Foundation
import Testing
import TestSupport

private struct Base64Vectors: Decodable {
    struct Encode: Decodable { let hex: String; let base64: String; let base64url: String; let ref: String }
    struct Reject: Decodable { let input: String; let alphabet: String; let code: String; let why: String }
    let encode: [Encode]
    let rejects: [Reject]

    static func load() throws -> Base64Vectors {
        try JSONDecoder().decode(Base64Vectors.self, from: TestPaths.projectFile("encoding/base64.json"))
    }
}

@Suite("Base64 and base64url (RFC 4648, RFC 7515 §2)")
struct Base64Tests {
    @Test("every RFC 4648 §9/§10 and RFC 7515 App. C vector encodes and decodes exactly")
    func knownAnswers() throws {
        let vectors = try Base64Vectors.load()
        #expect(vectors.encode.count == 11)
        for v in vectors.encode {
            let bytes = Hex.decode(v.hex)
            #expect(Base64.encode(bytes) == v.base64, "\(v.ref) \(v.hex)")
            #expect(Base64URL.encode(bytes) == v.base64url, "\(v.ref) \(v.hex)")
            #expect(try Base64.decode(v.base64) == bytes, "\(v.ref) \(v.hex)")
            #expect(try Base64URL.decode(v.base64url) == bytes, "\(v.ref) \(v.hex)")
        }
    }

    @Test("the decoder edge cases are rejected with their specific code")
    func edgeCases() throws {
        let vectors = try Base64Vectors.load()
        for r in vectors.rejects {
            let error = #expect(throws: CSEError.self, "\(r.input): \(r.why)") {
                if r.alphabet == "base64" { _ = try Base64.decode(r.input) } else { _ = try Base64URL.decode(r.input) }
            }
            #expect(error?.code.rawValue == r.code, "\(r.input): \(r.why)")
        }
    }

    @Test("the Worldline SDK fact: \"1234\" is MTIzNA== in base64 and MTIzNA in base64url")
    func worldlineFact() {
        #expect(Base64.encode(Array("1234".utf8)) == "MTIzNA==")
        #expect(Base64URL.encode(Array("1234".utf8)) == "MTIzNA")
    }

    @Test(
        "whitespace, misplaced padding and the other alphabet are rejected",
        arguments: [
            ("Zm9v\n", CSEError.Code.base64InvalidCharacter),
            (" Zm9v", .base64InvalidCharacter),
            ("Zg==Zg==", .base64InvalidPadding),
            ("Zm9v-_", .base64InvalidCharacter),
            ("Zg", .base64InvalidPadding),
            ("Zg===", .base64InvalidPadding),
            ("====", .base64InvalidPadding),
            ("Zm9=", .base64NonCanonical),
        ])
    func strictStandard(input: String, code: CSEError.Code) {
        let error = #expect(throws: CSEError.self) { _ = try Base64.decode(input) }
        #expect(error?.code == code, "\(input)")
    }

    @Test("optional padding accepts both forms but still checks canonical bits")
    func optionalPadding() throws {
        #expect(try Base64.decode("Zg", padding: .optional) == [0x66])
        #expect(try Base64.decode("Zg==", padding: .optional) == [0x66])
        #expect(throws: CSEError.self) { _ = try Base64.decode("Zh", padding: .optional) }
    }

    @Test("encode/decode agree with Foundation for every length 0…300 and random bytes")
    func matchesFoundation() throws {
        var generator = SystemRandomNumberGenerator()
        for length in 0...300 {
            let bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
            let foundation = Data(bytes).base64EncodedString()
            #expect(Base64.encode(bytes) == foundation)
            #expect(try Base64.decode(foundation) == bytes)
            let url = foundation.replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
                .replacingOccurrences(of: "=", with: "")
            #expect(Base64URL.encode(bytes) == url)
            #expect(try Base64URL.decode(url) == bytes)
        }
    }

    @Test("every non-alphabet byte value is rejected in every position of a 4-character group")
    func everyBadByte() {
        let alphabet = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/=".utf8)
        for byte in UInt8.min...UInt8.max where !alphabet.contains(byte) {
            for position in 0..<4 {
                var group = Array("QUJD".utf8)
                group[position] = byte
                #expect(throws: CSEError.self) {
                    _ = try group.withUnsafeBytes { try Base64.decode($0) }
                }
            }
        }
    }
}
