import CSECore
import CSEGateways
import Foundation
import Testing
import TestSupport

@Suite("GatewayMap: bounded path depth, and canonical JSON that always parses back")
struct GatewayMapDepthTests {
    static func dotted(_ count: Int) -> String { (1...count).map { "k\($0)" }.joined(separator: ".") }

    @Test("a path of more than 32 components is refused, from dotted names or nested objects")
    func depthLimit() throws {
        var map = GatewayMap()
        try map.set("v", at: Self.dotted(GatewayMap.maximumPathDepth))
        var refused: CSEError?
        do { try map.set("v", at: Self.dotted(GatewayMap.maximumPathDepth + 1)) } catch { refused = error }
        #expect(refused?.code == .gatewayMapInvalidPath)
        // 20 nested objects holding a 13-component dotted name: 33 components in all.
        var json = "{\"\(Self.dotted(13))\":1}"
        for i in 0..<20 { json = "{\"n\(i)\":\(json)}" }
        let e2 = #expect(throws: CSEError.self) { _ = try GatewayMap(parsing: Array(json.utf8)) }
        #expect(e2?.code == .gatewayMapInvalidPath)
    }

    @Test("the canonical JSON of a maximal map parses back to the same map (fuzz regression)")
    func canonicalReparses() throws {
        // A 32-component path holding a 60-deep array value: deeper than the default JSON limit
        // once serialized, which is what the gateway fuzz target found.
        var value = JSONValue.string("x")
        for _ in 0..<60 { value = .array([value]) }
        var map = GatewayMap()
        try map.set(value, at: Self.dotted(GatewayMap.maximumPathDepth))
        let reparsed = try GatewayMap(parsing: map.serializedBytes)
        #expect(reparsed.serializedBytes == map.serializedBytes)
    }

    @Test(
        "the fuzz finding itself: its request either fails with a gateway code or round-trips",
        .enabled(
            if: FileManager.default.fileExists(
                atPath: TestPaths.packageRoot.appendingPathComponent("Tests/FuzzCorpus/gateway/regression-deep-dotted-path").path)))
    func fuzzFinding() throws {
        let bytes = Array(
            try Data(contentsOf: TestPaths.packageRoot.appendingPathComponent("Tests/FuzzCorpus/gateway/regression-deep-dotted-path")))
        guard let json = try? JSONValue.parse(Array(bytes.dropFirst())) else { return }
        let map: GatewayMap
        do {
            map = try GatewayMap(json: json)
        } catch {
            #expect(error.code.rawValue.hasPrefix("gateway"))
            return
        }
        let reparsed = try GatewayMap(parsing: map.serializedBytes)
        #expect(reparsed.serializedBytes == map.serializedBytes)
    }
}
