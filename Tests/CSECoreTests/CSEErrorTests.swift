import CSECore
import Testing

@Suite("CSEError")
struct CSEErrorTests {
    @Test("errors compare by code only and print code, reason and sorted context")
    func equalityAndDescription() {
        let a = CSEError(.init("demo.code"), "first", context: ["line": "3", "limit": "9"])
        let b = CSEError(.init("demo.code"), "second")
        #expect(a == b)
        #expect(a.description == "demo.code: first (limit=9, line=3)")
        #expect(a.debugDescription == "CSEError(demo.code: first (limit=9, line=3))")
    }

    @Test("an error carries the lower layer's error that caused it, typed, and prints it after its own")
    func underlyingError() throws {
        let header = Array(#"{"alg":"#.utf8) + Array(repeating: UInt8(ascii: "["), count: 20) + Array("]".utf8)
        let parse = try #require(throws: CSEError.self) { try JSONValue.parse(header, limits: JSONLimits(maxBytes: 100, maxDepth: 8)) }
        let outer = CSEError(.init("demo.malformed"), "the header is not valid JSON", context: ["segment": "1"], underlying: parse)
        #expect(outer.underlying?.code == .jsonTooDeep)
        #expect(outer.underlying?.underlying == nil)
        #expect(outer.description == "demo.malformed: the header is not valid JSON (segment=1); caused by \(parse.description)")
        #expect(outer == CSEError(.init("demo.malformed"), "another reason"), "equality stays by code only")
        #expect(CSEError(.init("demo.code"), "no cause").underlying == nil)
    }

    @Test(
        "a PAN is masked to first 6 and last 4",
        arguments: [
            ("4005550000000001", "400555******0001"),
            ("4005 5500 0000 0001", "400555******0001"),
            ("378282246310005", "378282*****0005"),
            ("1234567890", "**********"),
            ("", ""),
        ])
    func panMasking(input: String, expected: String) {
        #expect(SecretMasking.maskPAN(input) == expected)
    }
}
