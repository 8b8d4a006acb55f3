import CSECore
import Testing

/// ``JSONPlainObject`` is a fast path in front of `JSONValue.parse`: it must accept only documents
/// `parse` accepts, give their members and string values exactly, and leave everything else to
/// the parser (`nil`).
@Suite("Plain JSON objects: read in place, or left to the full parser")
struct JSONPlainObjectTests {
    static func read(_ text: String, maxDepth: Int = 2, maxMembers: Int = 12) -> [String]? {
        let bytes = Array(text.utf8)
        return bytes.withUnsafeBytes { buffer in
            guard let object = JSONPlainObject(buffer, maxDepth: maxDepth, maxMembers: maxMembers) else { return nil }
            return object.members.map { member in
                let parent = member.parent.map { String(decoding: buffer[object.members[$0].name], as: UTF8.self) + "." } ?? ""
                let value = member.isObject ? "{…}" : String(decoding: buffer[member.value], as: UTF8.self)
                return parent + String(decoding: buffer[member.name], as: UTF8.self) + "=" + value
            }
        }
    }

    @Test(
        "plain objects give their members and string values, as parse reads them",
        arguments: [
            (#"{"a":"b"}"#, ["a=b"]),
            (#" { "a" : "b" , "c" : { "d" : "e/f+g=" } } "#, ["a=b", "c={…}", "c.d=e/f+g="]),
            (#"{}"#, []),
            ("{\"a\":\"\u{7F}\"}", ["a=\u{7F}"]),
            (#"{"h":{},"x":""}"#, ["h={…}", "x="]),
        ])
    func accepted(text: String, members: [String]) throws {
        #expect(Self.read(text) == members)
        // The same members and values through the full parser.
        let parsed = try JSONValue.parse(Array(text.utf8))
        for member in members where !member.hasSuffix("{…}") {
            let (path, value) = (member.prefix { $0 != "=" }, member.drop { $0 != "=" }.dropFirst())
            var object = try #require(parsed.objectValue)
            let names = path.split(separator: ".").map(String.init)
            for name in names.dropLast() { object = try #require(object[name]?.objectValue) }
            #expect(object[names.last!]?.stringValue == String(value))
        }
    }

    @Test(
        "everything else is left to the parser: escapes, non-ASCII, numbers, arrays, duplicates, limits, invalid JSON",
        arguments: [
            #"{"a":"b\/c"}"#, #"{"a\u0062":"c"}"#, #"{"a":"é"}"#, #"{"a":1}"#, #"{"a":true}"#, #"{"a":null}"#,
            #"{"a":["b"]}"#, #"["a"]"#, #""a""#, #"{"a":"b","a":"c"}"#, #"{"h":{"a":"b","a":"c"}}"#,
            #"{"a":{"b":{"c":"d"}}}"#, #"{"a":"b"}x"#, #"{"a":"b"}{}"#, #"{"a":"b",}"#, #"{"a" "b"}"#, #"{"a":"b"#,
            "{\"a\":\"b\u{01}\"}", "", "   ", #"{"a":'b'}"#,
        ])
    func refused(text: String) {
        #expect(Self.read(text) == nil, "\(text)")
    }

    @Test("the member limit counts every level")
    func memberLimit() {
        let twelve = "{" + (0..<11).map { #""k\#($0)":"v""# }.joined(separator: ",") + #","h":{}}"#
        #expect(Self.read(twelve)?.count == 12)
        let thirteen = "{" + (0..<11).map { #""k\#($0)":"v""# }.joined(separator: ",") + #","h":{"x":"y"}}"#
        #expect(Self.read(thirteen) == nil)
        #expect(Self.read(thirteen, maxMembers: 13)?.count == 13)
    }

    @Test("same-named members of different objects are not duplicates")
    func siblingsOnly() {
        #expect(Self.read(#"{"a":"1","h":{"a":"2"},"g":{"a":"3"}}"#) == ["a=1", "h={…}", "h.a=2", "g={…}", "g.a=3"])
    }
}
