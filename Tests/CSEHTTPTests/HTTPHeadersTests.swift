import CSECore
@_spi(CustomTransport) import CSEHTTP
import Testing

@Suite("HTTPHeaders: ordered fields, case-insensitive lookup (RFC 9110 §5), validation at send")
struct HTTPHeadersTests {
    @Test("lookup ignores case and returns the first value; values(for:) returns all in order")
    func lookup() {
        var headers: HTTPHeaders = ["Accept": "application/json", "X-Trace": "1"]
        headers.add(name: "x-trace", value: "2")
        #expect(headers["ACCEPT"] == "application/json")
        #expect(headers["X-TRACE"] == "1")
        #expect(headers.values(for: "x-Trace") == ["1", "2"])
        #expect(headers["Missing"] == nil)
        #expect(headers.count == 3)
    }

    @Test("the sequence keeps insertion order and spelling")
    func order() {
        var headers = HTTPHeaders()
        headers.add(name: "B", value: "1")
        headers.add(name: "a", value: "2")
        headers.add(name: "B", value: "3")
        #expect(headers.map(\.name) == ["B", "a", "B"])
        #expect(headers.map(\.value) == ["1", "2", "3"])
    }

    @Test("replace removes every field of that name (any case) and appends one")
    func replace() {
        var headers: HTTPHeaders = ["Authorization": "old", "Accept": "*/*"]
        headers.add(name: "authorization", value: "older")
        headers.replace(name: "AUTHORIZATION", value: "new")
        #expect(headers.values(for: "authorization") == ["new"])
        #expect(headers.map(\.name) == ["Accept", "AUTHORIZATION"])
    }

    @Test("valid names and values pass validation, including obs-text and inner tabs")
    func valid() throws {
        let headers: HTTPHeaders = [
            "X-GCS-ClientMetaInfo": "eyJh==", "Authorization": "GCS v1Client:abc", "x!#$%&'*+-.^_`|~": "a\tb é", "Empty": "",
        ]
        try headers.validate()
    }

    @Test(
        "CR, LF, NUL, other controls and surrounding whitespace in a value are http.invalidHeader",
        arguments: ["a\r\nX-Injected: 1", "a\nb", "a\rb", "a\u{0}b", "a\u{1}b", "a\u{7F}b", " lead", "trail ", "\ttab"])
    func invalidValue(_ value: String) {
        let headers: HTTPHeaders = ["X-Test": value]
        #expect(throws: CSEError(.httpInvalidHeader, "")) { try headers.validate() }
    }

    @Test(
        "every C1 control (U+0080–U+009F, NEL and CSI among them) and the line and paragraph separators are http.invalidHeader",
        arguments: Array(0x80...0x9F) + [0x2028, 0x2029])
    func invalidUnicodeBreakOrControl(_ codePoint: Int) throws {
        let scalar = try #require(Unicode.Scalar(codePoint))
        for value in ["a\(scalar)b", "\(scalar)", "GCS v1Client:abc\(scalar)X-Injected: 1"] {
            let headers: HTTPHeaders = ["Authorization": value]
            #expect(throws: CSEError(.httpInvalidHeader, "")) { try headers.validate() }
        }
    }

    @Test("the characters next to the refused ranges pass: U+00A0, U+00FF, U+2027, U+202A, U+FEFF is not a break")
    func unicodeNeighboursPass() throws {
        for value in ["a\u{A0}b", "a\u{FF}b", "a\u{2027}b", "a\u{202A}b", "a\u{7E}b"] {
            let headers: HTTPHeaders = ["X-Test": value]
            try headers.validate()
        }
    }

    @Test("a name that is not a token is http.invalidHeader", arguments: ["", "Bad Name", "Bad:Name", "Bad\r\nName", "Bäd", "(x)"])
    func invalidName(_ name: String) {
        var headers = HTTPHeaders()
        headers.add(name: name, value: "v")
        #expect(throws: CSEError(.httpInvalidHeader, "")) { try headers.validate() }
    }

    @Test("neither the error nor the description shows a header value")
    func noValueInText() {
        let secret = "GCS v1Client:4111111111111111\r\n"
        let headers: HTTPHeaders = ["Authorization": secret]
        #expect(!headers.description.contains("4111"))
        do {
            try headers.validate()
            Issue.record("accepted")
        } catch {
            #expect(!error.description.contains("4111"))
            #expect(error.context["header"] == "Authorization")
        }
    }
}
