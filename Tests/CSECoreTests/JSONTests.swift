import CSECore
import Testing

@Suite("Strict JSON (RFC 8259)")
struct JSONTests {
    @Test("objects keep document order and typed accessors read members")
    func parsesObjects() throws {
        let value = try JSONValue.parse(#" {"b": 1, "a": [true, null, "x"], "n": -12.5e3, "s": "\u00e9\ud83d\ude00\n"} "#)
        guard case .object(let object) = value else { Issue.record("not an object"); return }
        #expect(object.keys == ["b", "a", "n", "s"])
        #expect(value["b"]?.intValue == 1)
        #expect(value["a"] == .array([.bool(true), .null, .string("x")]))
        #expect(value["n"] == .number("-12.5e3"))
        #expect(value["n"]?.intValue == nil)
        #expect(value["s"]?.stringValue == "é😀\n")
    }

    @Test(
        "malformed documents fail with json.syntax",
        arguments: [
            "", "{", "[1,]", "{\"a\":1,}", "01", "1.", "-", ".5", "1e", "[1 2]", "{'a':1}", "tru", "nul",
            "\"abc", "\"\\x\"", "\"\\u12\"", "{\"a\" 1}", "[1]]", "// c\n1", "\"tab\there\"", "NaN", "+1",
        ])
    func syntaxErrors(text: String) {
        let error = #expect(throws: CSEError.self, "\(text)") { _ = try JSONValue.parse(text) }
        #expect(error?.code == .jsonSyntax, "\(text)")
    }

    @Test("lone surrogate escapes are rejected", arguments: [#""\ud800""#, #""\udc00""#, #""\ud800\u0041""#, #""a\ud83d""#])
    func loneSurrogates(text: String) {
        let error = #expect(throws: CSEError.self) { _ = try JSONValue.parse(text) }
        #expect(error?.code == .jsonInvalidUnicode, "\(text)")
    }

    @Test("invalid UTF-8 bytes are rejected")
    func invalidUTF8() {
        for bytes: [UInt8] in [
            [0x22, 0xFF, 0x22], [0x22, 0xC3, 0x22], [0x22, 0xED, 0xA0, 0x80, 0x22], [0x22, 0x5C, 0x6E, 0xC0, 0xAF, 0x22],
        ] {
            let error = #expect(throws: CSEError.self) { _ = try JSONValue.parse(bytes) }
            #expect(error?.code == .jsonInvalidUnicode)
        }
    }

    @Test("duplicate member names are rejected")
    func duplicates() {
        let error = #expect(throws: CSEError.self) { _ = try JSONValue.parse(#"{"a":1,"a":2}"#) }
        #expect(error?.code == .jsonDuplicateKey)
    }

    @Test("depth and size limits give typed errors, not a stack overflow")
    func limits() {
        let deep = String(repeating: "[", count: 100_000)
        let depthError = #expect(throws: CSEError.self) { _ = try JSONValue.parse(deep) }
        #expect(depthError?.code == .jsonTooDeep)
        let big = "\"" + String(repeating: "a", count: 2_000) + "\""
        let sizeError = #expect(throws: CSEError.self) { _ = try JSONValue.parse(big, limits: JSONLimits(maxBytes: 1_000)) }
        #expect(sizeError?.code == .jsonTooLarge)
        #expect(throws: Never.self) { _ = try JSONValue.parse(String(repeating: "[", count: 64) + String(repeating: "]", count: 64)) }
    }

    @Test("the writer escapes per RFC 8259 §7 and writes / and non-ASCII raw")
    func writerEscapes() {
        var out: [UInt8] = []
        JSONWriter.appendString("a\"b\\c/d\u{1}\n\té€😀", to: &out)
        #expect(String(decoding: out, as: UTF8.self) == #""a\"b\\c/d\u0001\n\té€😀""#)
    }

    @Test("parse → serialize → parse is the identity, and serialization is compact and ordered")
    func roundTrip() throws {
        let text = #"{"z":[1,2,{"k":"v"}],"a":null,"m":false,"e":"\u0000"}"#
        let value = try JSONValue.parse(text)
        #expect(value.serialized == text)
        #expect(try JSONValue.parse(value.serialized) == value)
    }

    @Test("every proper prefix of a valid document fails with a typed error")
    func dripFeed() {
        let text = Array(#"{"keyId":"k-1","publicKey":"QUJD","n":[1,-2.5e+3,true,false,null,"\u00e9"]}"#.utf8)
        for length in 0..<text.count {
            #expect(throws: CSEError.self, "prefix \(length)") { _ = try JSONValue.parse(Array(text[0..<length])) }
        }
        #expect(throws: Never.self) { _ = try JSONValue.parse(text) }
    }

    @Test("an object with 50,000 members parses in linear time, and a late duplicate is still found")
    func manyMembers() throws {
        var text = "{"
        for i in 0..<50_000 { text += (i > 0 ? "," : "") + "\"k\(i)\":\(i)" }
        let value = try JSONValue.parse(text + "}")
        #expect(value.objectValue?.count == 50_000)
        #expect(value["k49999"]?.intValue == 49_999)
        let error = #expect(throws: CSEError.self) { _ = try JSONValue.parse(text + ",\"k17\":0}") }
        #expect(error?.code == .jsonDuplicateKey)
    }
}
