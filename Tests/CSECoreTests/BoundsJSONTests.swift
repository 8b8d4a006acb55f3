import CSECore
import Testing

/// JSON bounds at their exact edges (docs/SECURITY.md, "Limits"): a document of exactly
/// `maxBytes` bytes and exactly `maxDepth` levels parses; one byte or one level more is a typed
/// error, checked before any value is built.
@Suite("Bounds: JSON size and depth at the edge")
struct BoundsJSONTests {
    @Test("the defaults are 1 MiB and depth 64")
    func defaults() {
        #expect(JSONLimits.default.maxBytes == 1 << 20)
        #expect(JSONLimits.default.maxDepth == 64)
    }

    @Test("exactly maxBytes parses; maxBytes + 1 is json.tooLarge", arguments: [16, 1_000, 1 << 20])
    func size(limit: Int) throws {
        let limits = JSONLimits(maxBytes: limit)
        let atLimit = "\"" + String(repeating: "a", count: limit - 2) + "\""
        #expect(try JSONValue.parse(atLimit, limits: limits) == .string(String(repeating: "a", count: limit - 2)))
        #expect(throws: CSEError(.jsonTooLarge, "")) { try JSONValue.parse(atLimit + " ", limits: limits) }
    }

    @Test("exactly maxDepth nested arrays or objects parse; one more level is json.tooDeep", arguments: [1, 8, 64])
    func depth(limit: Int) throws {
        let limits = JSONLimits(maxDepth: limit)
        let arrays = { (n: Int) in String(repeating: "[", count: n) + String(repeating: "]", count: n) }
        let objects = { (n: Int) in String(repeating: #"{"a":"#, count: n) + "0" + String(repeating: "}", count: n) }
        #expect(throws: Never.self) { try JSONValue.parse(arrays(limit), limits: limits) }
        #expect(throws: Never.self) { try JSONValue.parse(objects(limit), limits: limits) }
        #expect(throws: CSEError(.jsonTooDeep, "")) { try JSONValue.parse(arrays(limit + 1), limits: limits) }
        #expect(throws: CSEError(.jsonTooDeep, "")) { try JSONValue.parse(objects(limit + 1), limits: limits) }
    }

    @Test("a hostile depth far past the limit fails fast with json.tooDeep, not a stack overflow")
    func hostileDepth() {
        #expect(throws: CSEError(.jsonTooDeep, "")) { try JSONValue.parse(String(repeating: #"{"a":["#, count: 100_000)) }
    }
}
