import CSECore
import CSEGateways
import Testing
import TestSupport

@Suite("Every example request of the seed documents, checked with the documents' values")
struct DocumentExampleTests {
    struct Example: Sendable, CustomStringConvertible {
        let id: String
        let gateway: String
        let operation: String
        let request: JSONValue
        let errors: [String]
        var description: String { id }
    }

    static let examples: [Example] = {
        guard let json = try? GW.vector("examples.json") else { return [] }
        return (json["examples"]?.arrayValue ?? []).map { row in
            Example(
                id: row["id"]?.stringValue ?? "?", gateway: row["gateway"]?.stringValue ?? "?",
                operation: row["operation"]?.stringValue ?? "?", request: row["request"] ?? .null,
                errors: (row["errors"]?.arrayValue ?? []).map {
                    "\($0["field"]?.stringValue ?? ""):\($0["code"]?.stringValue ?? "")"
                })
        }
    }()

    @Test("the examples file lists every gateway and operation family, each example citing its document")
    func coverage() throws {
        #expect(Self.examples.count == 16)
        #expect(Set(Self.examples.map(\.gateway)) == ["aps", "paysafe", "mastercard"])
        #expect(Set(Self.examples.map(\.operation)) == ["SDK_TOKEN", "AUTHORIZATION", "PURCHASE", "setup", "tokenize", "updateSession"])
        let rows = try GW.vector("examples.json")["examples"]?.arrayValue ?? []
        for row in rows {
            #expect(row["source"]?.stringValue?.hasPrefix("https://") == true, "\(row["id"]?.stringValue ?? "?")")
        }
    }

    @Test("the documents' samples leave out or empty mandatory parameters, and those are the errors")
    func samplesMissMandatoryParameters() {
        let applePay = Self.examples.first { $0.id == "aps-flutter-apple-pay-transaction-details" }!
        #expect(
            applePay.errors.prefix(4) == [
                "merchant_reference:required", "amount:required", "customer_email:required", "sdk_token:required",
            ])
        let exampleColumn = Self.examples.first { $0.id == "aps-ios-operations-example-column" }!
        #expect(exampleColumn.errors.contains("command:required") && exampleColumn.errors.contains("language:required"))
        #expect(
            exampleColumn.errors.contains("merchant_extra:characters"),
            "the table's own example John Smith has a space, which merchant_extra does not allow")
    }

    @Test("each example gives exactly its listed errors", arguments: examples)
    func example(_ example: Example) throws {
        let result = try GW.validate(gateway: example.gateway, operation: example.operation, example.request)
        #expect(GW.pairs(result) == example.errors, "\(example.id): \(result)")
    }

    @Test("the Paysafe authentication example decodes to the page's username:password")
    func paysafeExampleKey() throws {
        let key = Self.examples.first { $0.id == "paysafe-authentication-api-key" }!.request["apiKey"]!.stringValue!
        let decoded = String(decoding: try Base64.decode(key), as: UTF8.self)
        #expect(decoded.hasPrefix("MerchantXYZ:B-tst1-0-51ed39e4-312d02345d3f"))
        #expect(PaysafeValidation.checkAPIKey(key, correlationID: "c") == nil)
    }
}
