import CSECore
import Foundation
import TestSupport
import Testing

/// Error codes are stable API (`domain.name`, docs/SECURITY.md): callers switch on them and the CLI
/// prints them. Each module declares its own codes as `static let` constants in an
/// `extension CSEError.Code`, so nothing but this test sees them all at once.
@Suite("CSEError codes: every code is declared once, with its own name and its own raw value")
struct CSEErrorCodeUniquenessTests {
    struct Declaration { let name: String; let rawValue: String; let file: String }

    /// Every `static let name = Self("raw")` inside an `extension CSEError.Code { … }` under Sources/.
    static func declarations() throws -> [Declaration] {
        let sources = TestPaths.packageRoot.appendingPathComponent("Sources")
        guard let files = FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil) else { return [] }
        var found: [Declaration] = []
        for case let url as URL in files where url.pathExtension == "swift" {
            var inCodeExtension = false
            for line in try String(contentsOf: url, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false) {
                if line.hasPrefix("extension CSEError.Code") { inCodeExtension = true; continue }
                if line == "}" { inCodeExtension = false; continue }
                guard inCodeExtension, let letRange = line.range(of: "static let "), let open = line.range(of: " = Self(\"") else {
                    continue
                }
                let name = String(line[letRange.upperBound..<open.lowerBound])
                guard let close = line[open.upperBound...].firstIndex(of: "\"") else { continue }
                let rawValue = String(line[open.upperBound..<close])
                found.append(Declaration(name: name, rawValue: rawValue, file: url.lastPathComponent))
            }
        }
        return found
    }

    @Test("no two declarations share a raw value or a name, and every raw value is domain.name")
    func unique() throws {
        let all = try Self.declarations()
        #expect(all.count >= 100, "the scan found only \(all.count) codes; did the declaration form change?")
        for (rawValue, group) in Dictionary(grouping: all, by: \.rawValue) where group.count > 1 {
            Issue.record("raw value \(rawValue) is declared \(group.count) times: \(group.map { "\($0.name) in \($0.file)" })")
        }
        for (name, group) in Dictionary(grouping: all, by: \.name) where group.count > 1 {
            Issue.record("code name \(name) is declared \(group.count) times: \(group.map { "\($0.rawValue) in \($0.file)" })")
        }
        for code in all {
            let segments = code.rawValue.split(separator: ".", omittingEmptySubsequences: false)
            let wellFormed =
                segments.count >= 2
                && segments.enumerated().allSatisfy { index, segment in
                    // The domain starts with a lower-case letter; later segments may be a
                    // platform's own numeric code (`aps.message.008`).
                    guard let first = segment.utf8.first, first &- 0x61 < 26 || (index > 0 && first &- 0x30 < 10) else { return false }
                    return segment.utf8.allSatisfy { ($0 | 0x20) &- 0x61 < 26 || $0 &- 0x30 < 10 }
                }
            #expect(wellFormed, "\(code.name) = \(code.rawValue) in \(code.file) is not domain.name")
        }
    }

    @Test("the scan sees every public code of the API listing (docs/api)")
    func scanCoversListing() throws {
        let names = Set(try Self.declarations().map(\.name))
        let listing = TestPaths.packageRoot.appendingPathComponent("docs/api")
        let files = try FileManager.default.contentsOfDirectory(atPath: listing.path).filter { $0.hasSuffix(".txt") }
        var listed = 0
        for file in files {
            for line in try String(contentsOf: listing.appendingPathComponent(file), encoding: .utf8).split(separator: "\n")
            where line.hasPrefix("CSEError.Code.") && line.contains("  static let ") {
                listed += 1
                let name = String(line.dropFirst("CSEError.Code.".count).prefix { $0 != " " })
                #expect(names.contains(name), "\(name) (\(file)) was not found by the source scan")
            }
        }
        #expect(listed > 0)
    }
}
