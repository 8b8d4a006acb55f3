import CSECore
import Foundation
import Testing
import TestSupport

/// `JSONValue.validate` is `parse` without building the value: for every input it must give
/// `parse`'s verdict, the same error code at the same offset, or accept what `parse` accepts.
@Suite("Strict JSON: validate gives parse's verdict")
struct JSONValidateTests {
    static func verdict(_ check: () throws(CSEError) -> Void) -> String {
        do {
            try check()
            return "ok"
        } catch {
            return "\(error.code.rawValue)@\(error.context["offset"] ?? error.context["limit"] ?? "-")"
        }
    }

    static func agree(_ bytes: [UInt8], limits: JSONLimits = .default) -> (parse: String, validate: String) {
        let parsed = verdict { () throws(CSEError) in _ = try JSONValue.parse(bytes, limits: limits) }
        let validated = verdict { () throws(CSEError) in try JSONValue.validate(bytes, limits: limits) }
        return (parsed, validated)
    }

    /// Hand-picked documents for every rule of the grammar, valid and not.
    static let documents: [String] = [
        #"{"a":1,"b":[true,false,null],"c":{"d":"e"}}"#, #"[]"#, #"{}"#, #""text""#, "-0.5e+10", "0", "01", "1.", "-",
        #"{"a":1,"a":2}"#, #"{"a":1,"\u0061":2}"#, #"{"k":"\ud83d\ude00","l":"\u00e9"}"#, #""\ud800""#, #""\udc00x""#,
        #"{"a":"b" "c":1}"#, #"[1,]"#, #"{"a":1,}"#, "[1 2]", #""a\qb""#, "\"tab\there\"", #"  {"ws" : [ 1 , 2 ] }  "#,
        #"{"x":"é","y":"日本"}"#, "nul", "true false", #"{"a":{"b":{"c":[[[{}]]]}}}"#,
        "{" + (0..<40).map { #""k\#($0)":\#($0)"# }.joined(separator: ",") + #","k33":0}"#,
        "{" + (0..<40).map { #""k\#($0)":\#($0)"# }.joined(separator: ",") + "}",
        "{" + (0..<17).map { #""k\#($0)":[\#($0)]"# }.joined(separator: ",") + #","k3":{}}"#,
    ]

    static func corpus() -> [[UInt8]] {
        var all = documents.map { Array($0.utf8) }
        all.append([0x22, 0xC3, 0x28, 0x22])  // invalid UTF-8 in a value string
        all.append(Array(#"{"\#u{FF}":1}"#.utf8))  // valid two-byte name
        all.append([0x7B, 0x22, 0xFF, 0x22, 0x3A, 0x31, 0x7D])  // invalid UTF-8 in a name
        // The fuzz seeds of the JSON-reading targets, line by line.
        for target in ["product", "cli-lines", "gateway"] {
            let folder = TestPaths.packageRoot.appendingPathComponent("Tests/FuzzCorpus/\(target)")
            for name in (try? FileManager.default.contentsOfDirectory(atPath: folder.path))?.sorted() ?? [] {
                guard let data = FileManager.default.contents(atPath: folder.appendingPathComponent(name).path) else { continue }
                all.append(contentsOf: data.split(separator: 0x0A, omittingEmptySubsequences: true).map(Array.init))
            }
        }
        return all
    }

    /// Member names as validation compares them: plain ASCII names as bytes, decoded ones as
    /// canonically equivalent `String`s, and past 16 names in a hash set — each with the same
    /// verdict as parse, which compares `String`s throughout.
    @Test(
        "duplicate member names: plain, escaped, canonically equivalent, and past the hash-set threshold",
        arguments: [
            (#"{"ab":1,"ab":2}"#, true), (#"{"ab":1,"ba":2}"#, false), (#"{"ab":1,"abc":2}"#, false),
            (#"{"":1,"":2}"#, true), (#"{"":1,"a":2}"#, false),
            (#"{"a":1,"\u0061":2}"#, true), (#"{"\u0061":1,"a":2}"#, true), (#"{"\u0061":1,"\u0061":2}"#, true),
            (#"{"K":1,"\u212A":2}"#, true), (#"{"\u212A":1,"K":2}"#, true), (#"{"K":1,"\u212B":2}"#, false),
            ("{\"K\":1,\"\u{212A}\":2}", true), ("{\"\u{E9}\":1,\"e\u{301}\":2}", true), (#"{";":1,"\u037E":2}"#, true),
            (#"{"a\"b":1,"a\"b":2}"#, true), (#"{"a/b":1,"a\/b":2}"#, true), (#"{"x":{"a":1},"y":{"a":2}}"#, false),
        ])
    func duplicateNames(document: String, duplicate: Bool) {
        let (parsed, validated) = Self.agree(Array(document.utf8))
        #expect(parsed == validated, "\(document)")
        #expect(parsed.hasPrefix("json.duplicateKey") == duplicate, "\(document): \(parsed)")
    }

    @Test(
        "a late duplicate of each kind is found once an object has more than 16 names",
        arguments: [#""K3""#, #""\u004B3""#, "\"\u{212A}3\""])
    func lateDuplicates(name: String) {
        for plain in [true, false] {
            let names = (0..<20).map { plain ? #""K\#($0)""# : #""\u004B\#($0)""# }
            let document = "{" + names.map { $0 + ":0" }.joined(separator: ",") + "," + name + ":1}"
            let (parsed, validated) = Self.agree(Array(document.utf8))
            #expect(parsed == validated)
            #expect(parsed.hasPrefix("json.duplicateKey"), "\(document)")
        }
    }

    @Test("hand-picked documents and the fuzz seeds of product, cli-lines and gateway")
    func documentsAndSeeds() {
        let corpus = Self.corpus()
        #expect(corpus.count > 60)
        for bytes in corpus {
            let (parsed, validated) = Self.agree(bytes)
            #expect(parsed == validated, "\(String(decoding: bytes.prefix(80), as: UTF8.self).debugDescription)")
        }
    }

    @Test("every proper prefix, and 40 seeded byte mutations of each document")
    func prefixesAndMutations() {
        var rng = SplitMix64(seed: 0x15_0A_11D)
        let alphabet = Array(#"{}[]:,"\ue0-9.+aZ "#.utf8) + [0x00, 0x0A, 0xC3, 0xFF]
        for document in Self.documents.map({ Array($0.utf8) }) {
            for end in 0..<document.count {
                let (parsed, validated) = Self.agree(Array(document[..<end]))
                #expect(parsed == validated, "prefix \(end) of \(String(decoding: document, as: UTF8.self))")
            }
            for _ in 0..<40 where !document.isEmpty {
                var mutated = document
                let position = Int(rng.next() % UInt64(mutated.count))
                switch rng.next() % 3 {
                case 0: mutated[position] = alphabet[Int(rng.next() % UInt64(alphabet.count))]
                case 1: mutated.remove(at: position)
                default: mutated.insert(alphabet[Int(rng.next() % UInt64(alphabet.count))], at: position)
                }
                let (parsed, validated) = Self.agree(mutated)
                #expect(parsed == validated, "\(String(decoding: mutated, as: UTF8.self).debugDescription)")
            }
        }
    }

    /// Plain documents are validated without allocating (issue #37); these sit on the edges of
    /// that fast path: its depth cap of 32 and its 64 open member names, a small depth limit, and
    /// every number form.
    @Test("plain documents at the edges of the allocation-free check agree with parse")
    func plainEdges() {
        func nested(_ depth: Int) -> [UInt8] {
            Array((String(repeating: #"{"a":"#, count: depth) + "1" + String(repeating: "}", count: depth)).utf8)
        }
        for depth in [1, 2, 3, 31, 32, 33, 40, 64, 65] {
            for limits in [JSONLimits.default, JSONLimits(maxBytes: 1 << 20, maxDepth: 2), JSONLimits(maxBytes: 1 << 20, maxDepth: 40)] {
                let (parsed, validated) = Self.agree(nested(depth), limits: limits)
                #expect(parsed == validated, "depth \(depth), limit \(limits.maxDepth)")
            }
        }
        for count in [63, 64, 65, 100] {
            let names = (0..<count).map { #""n\#($0)":0"# }.joined(separator: ",")
            for document in ["{" + names + "}", "{" + names + #","n7":1}"#, #"{"outer":{"# + names + "}}"] {
                let (parsed, validated) = Self.agree(Array(document.utf8))
                #expect(parsed == validated, "\(count) names")
            }
        }
        for number in [
            "0", "-0", "10", "-10.25", "1e5", "1E+5", "1e-5", "0.0e0", "01", "-01", "1.", ".5", "1e", "1e+", "-", "+1", "1.5.5", "0x1",
            "1f",
        ] {
            let (parsed, validated) = Self.agree(Array("[\(number)]".utf8))
            #expect(parsed == validated, "\(number)")
        }
    }

    @Test("the size and depth limits apply to validate too")
    func limits() {
        let deep = Array(String(repeating: "[", count: 70).utf8) + Array(String(repeating: "]", count: 70).utf8)
        #expect(Self.agree(deep).validate.hasPrefix("json.tooDeep"))
        let small = JSONLimits(maxBytes: 8, maxDepth: 64)
        #expect(Self.agree(Array(#"{"a":"bcdef"}"#.utf8), limits: small) == ("json.tooLarge@8", "json.tooLarge@8"))
    }
}
