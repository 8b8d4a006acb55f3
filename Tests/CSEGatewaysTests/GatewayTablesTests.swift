import CSECore
import CSEGateways
@testable import CSEGateways
import Foundation
import Testing
import TestSupport

@Suite("Gateway spec tables are data: embedded byte for byte, strictly read, every row cited")
struct GatewayTablesTests {
    static let embedded: [(String, String)] = GatewayTables.embedded.map { ($0.file, $0.text) }

    @Test("each embedded literal equals its Vectors/gateways file byte for byte", arguments: embedded.map(\.0))
    func embeddedEqualsVector(file: String) throws {
        let literal = Self.embedded.first { $0.0 == file }!.1
        let bytes = try TestPaths.projectFile("gateways/" + file)
        #expect(Array(bytes) == Array((literal + "\n").utf8), "\(file): re-embed the JSON file")
    }

    @Test("the one list of tables declares each operation as its table's `operations` member spells it")
    func operationsMatchTheirTables() throws {
        #expect(GatewayOperation.allCases == GatewayTables.embedded.flatMap(\.operations))
        #expect(Set(GatewayTables.embedded.map(\.file)).count == GatewayTables.embedded.count)
        for table in GatewayTables.embedded {
            let object = try #require(try JSONValue.parse(table.text).objectValue)
            let declared = object["operations"]?.arrayValue?.compactMap(\.stringValue) ?? []
            #expect(declared == table.operations.map(\.name), "\(table.file)")
            #expect(table.operations.allSatisfy { $0.gateway.rawValue == object["gateway"]?.stringValue }, "\(table.file)")
        }
    }

    @Test("the five spec tables load, and each gateway operation has exactly one table")
    func tablesLoad() throws {
        let specs = try GatewayTables.all
        #expect(specs.map(\.gateway) == ["aps", "aps", "paysafe", "paysafe", "mastercard"])
        for (gateway, operation) in [
            ("aps", "SDK_TOKEN"), ("aps", "AUTHORIZATION"), ("aps", "PURCHASE"),
            ("paysafe", "setup"), ("paysafe", "tokenize"), ("mastercard", "updateSession"),
        ] {
            #expect(try GatewayTables.spec(gateway: gateway, operation: operation).gateway == gateway)
        }
        #expect(throws: CSEError(.gatewayUnknownOperation, "")) { try GatewayTables.spec(gateway: "aps", operation: "REFUND") }
        #expect(throws: CSEError(.gatewayUnknownOperation, "")) { try GatewayTables.spec(gateway: "APS", operation: "PURCHASE") }
    }

    @Test("every row and rule cites a declared document or is marked as a decision")
    func everyRowCited() throws {
        for spec in try GatewayTables.all {
            let ids = Set(spec.sources.map(\.id))
            for source in spec.sources {
                #expect(source.url.hasPrefix("https://"), "\(spec.gateway) \(source.id)")
                #expect(!source.section.isEmpty && !source.document.isEmpty, "\(spec.gateway) \(source.id)")
            }
            for p in spec.parameters {
                #expect(ids.contains(p.source) || p.source.hasPrefix("decision:"), "\(spec.gateway) \(p.name)")
            }
            for r in spec.rules {
                #expect(ids.contains(r.source) || r.source.hasPrefix("decision:"), "\(spec.gateway) \(r.id)")
            }
        }
    }

    @Test("secrets are marked: card number, security codes and the API key")
    func secretsMarked() throws {
        let aps = try GatewayTables.spec(gateway: "aps", operation: "PURCHASE")
        #expect(aps.parameter(named: "card_number")?.sensitivity == .pan)
        #expect(aps.parameter(named: "card_security_code")?.sensitivity == .securityCode)
        let mc = try GatewayTables.spec(gateway: "mastercard", operation: "updateSession")
        #expect(mc.parameter(named: "sourceOfFunds.provided.card.number")?.sensitivity == .pan)
        #expect(mc.parameter(named: "sourceOfFunds.provided.card.securityCode")?.sensitivity == .securityCode)
        let paysafe = try GatewayTables.spec(gateway: "paysafe", operation: "setup")
        #expect(paysafe.parameter(named: "apiKey")?.sensitivity == .credential)
    }

    @Test("the ISO 3166-1 codes equal Vectors/gateways/iso3166-1.json")
    func countryCodes() throws {
        let json = try GW.vector("iso3166-1.json")
        let rows = json["countries"]?.arrayValue ?? []
        #expect(rows.count == 249 && json["count"]?.intValue == 249)
        #expect(Set(rows.compactMap { $0["alpha2"]?.stringValue }) == CountryCodes.alpha2)
        #expect(Set(rows.compactMap { $0["alpha3"]?.stringValue }) == CountryCodes.alpha3)
        #expect(CountryCodes.alpha2.contains("SA") && CountryCodes.alpha3.contains("ARE") && !CountryCodes.alpha2.contains("UK"))
    }

    static let malformed: [(String, String)] = [
        ("unknown top-level key", #"{"gateway":"x","operations":["o"],"sources":[],"parameters":[],"extra":1}"#),
        (
            "unknown parameter key",
            #"{"gateway":"x","operations":["o"],"sources":[],"parameters":[{"name":"a","source":"decision:x","maxlength":3}]}"#
        ),
        (
            "unknown class",
            #"{"gateway":"x","operations":["o"],"sources":[],"parameters":[{"name":"a","class":"alfa","source":"decision:x"}]}"#
        ),
        (
            "unknown format",
            #"{"gateway":"x","operations":["o"],"sources":[],"parameters":[{"name":"a","format":{"type":"iban"},"source":"decision:x"}]}"#
        ),
        (
            "inverted lengths",
            #"{"gateway":"x","operations":["o"],"sources":[],"parameters":[{"name":"a","minLength":5,"maxLength":2,"source":"decision:x"}]}"#
        ),
        ("undeclared source", #"{"gateway":"x","operations":["o"],"sources":[],"parameters":[{"name":"a","source":"nowhere"}]}"#),
        (
            "rule on unknown field",
            #"{"gateway":"x","operations":["o"],"sources":[],"parameters":[{"name":"a","source":"decision:x"}],"rules":[{"id":"r","if":[{"field":"b","in":["1"]}],"then":{"field":"a","required":true},"source":"decision:x"}]}"#
        ),
        (
            "format naming unknown field",
            #"{"gateway":"x","operations":["o"],"sources":[],"parameters":[{"name":"a","format":{"type":"minorUnitAmount","field":"cur"},"source":"decision:x"}]}"#
        ),
        (
            "duplicate parameter",
            #"{"gateway":"x","operations":["o"],"sources":[],"parameters":[{"name":"a","source":"decision:x"},{"name":"a","source":"decision:x"}]}"#
        ),
        ("empty path component", #"{"gateway":"x","operations":["o"],"sources":[],"parameters":[{"name":"a..b","source":"decision:x"}]}"#),
        (
            "rule without requirement",
            #"{"gateway":"x","operations":["o"],"sources":[],"parameters":[{"name":"a","source":"decision:x"}],"rules":[{"id":"r","then":{"field":"a"},"source":"decision:x"}]}"#
        ),
    ]

    @Test("a malformed table is refused, naming the entry", arguments: malformed.map(\.0))
    func malformedTables(caseID: String) throws {
        let text = Self.malformed.first { $0.0 == caseID }!.1
        do {
            _ = try GatewaySpec(table: try JSONValue.parse(text))
            Issue.record("\(caseID): accepted")
        } catch {
            #expect(error.code == .gatewayTable || error.code == .gatewayMapInvalidPath, "\(caseID): \(error)")
        }
    }
}
