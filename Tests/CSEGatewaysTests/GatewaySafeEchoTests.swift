import CSECore
import CSEGateways
import CSEValidation
import Testing

/// Issue #13 F06 (library half) and F14 (gateway names): member names from the request reach
/// results and errors only through the one safe-echo rule, and names match by bytes.
@Suite("gateway results and errors echo names safely (F06) and match them by bytes (F14)")
struct GatewaySafeEchoTests {
    @Test("an unknown parameter named like a card number is <redacted 16 chars> in the result")
    func unknownParameterRedacted() throws {
        let result = try GW.validate(gateway: "aps", operation: "PURCHASE", GW.apsPurchase(["4111111111111111": "x"]))
        #expect(GW.pairs(result) == ["<redacted 16 chars>:unknownParameter"])
        #expect(!result.description.contains("4111"))
    }

    @Test(
        "control characters and spaces in a name are redacted component by component",
        arguments: [
            ("x.\u{1B}[31mred", "x.<redacted 8 chars>"), ("4111 1111 1111 1111", "<redacted 19 chars>"),
            ("order.4111 1111 1111 1111", "<redacted 25 chars>"), ("a.b c", "a.<redacted 3 chars>"),
        ])
    func controlCharactersRedacted(name: String, echoed: String) throws {
        let result = try GW.validate(gateway: "aps", operation: "PURCHASE", GW.apsPurchase([name: "x"]))
        #expect(result.errors.map(\.field) == [echoed])
    }

    @Test("table names are echoed verbatim: every parameter of every table passes the rule")
    func tableNamesUnchanged() throws {
        let result = try GW.validate(gateway: "aps", operation: "PURCHASE", GW.apsPurchase(["customer_email": "not-an-email"]))
        #expect(result.errors.first?.field == "customer_email")
        for name in ["sourceOfFunds.provided.card.number", "card_security_code", "merchant_identifier", "apiKey"] {
            #expect(FieldIssue(field: name, code: .required, origin: .gateway(code: nil)).field == name)
        }
    }

    @Test("a path conflict names the path through the same rule, never a card number")
    func conflictPathRedacted() throws {
        let json = try GW.json(#"{"order.4111 1111 1111 1111":"a","order":{"4111 1111 1111 1111":"b"}}"#)
        do {
            _ = try GatewayMap(json: json)
            Issue.record("the conflict was not detected")
        } catch {
            #expect(error.code == .gatewayMapConflict)
            #expect(error.context["path"] == "<redacted 25 chars>")
            #expect(!error.description.contains("4111"))
        }
        var map = GatewayMap()
        try map.set("x", at: "a.\u{1B}[2J")
        #expect(map.description == "GatewayMap(a.<redacted 4 chars>)")
    }

    @Test("an unknown gateway or operation is echoed safely in the error context")
    func unknownOperationRedacted() throws {
        do {
            _ = try GatewayTables.spec(gateway: "aps", operation: "4111111111111111")
            Issue.record("an unknown operation was accepted")
        } catch {
            #expect(error.context["operation"] == "<redacted 16 chars>")
        }
    }

    @Test("names, allowed values and country codes match by bytes: KELVIN SIGN is not K")
    func bytesNotCanonicalEquivalence() throws {
        // "KW" (Kuwait) with U+212A KELVIN SIGN is canonically equivalent to "KW" but not the code.
        #expect(throws: CSEError(.gatewayUnknownOperation, "")) { try GatewayTables.spec(gateway: "aps", operation: "SDK_TO\u{212A}EN") }
        let json = try GW.json(#"{"\u212Aey":"a"}"#)
        let map = try GatewayMap(json: json)
        #expect(map[at: "Key"] == nil)
        #expect(map[at: "\u{212A}ey"] == .string("a"))
    }
}
