import CSECore
import CSEGateways
import CSEValidation
import Testing

/// Issue #12: gateways and operations are typed values parsed once, and the library has one
/// gateway validation entry point.
@Suite("Gateway operations as types and the one validation entry point")
struct GatewayOperationTests {
    @Test("the typed operations are exactly the (gateway, operation) pairs of the embedded tables, in table order")
    func operationsMatchTables() throws {
        let tablePairs = try GatewayTables.all.flatMap { spec in spec.operations.map { "\(spec.gateway):\($0)" } }
        #expect(GatewayOperation.allCases.map(\.description) == tablePairs)
        #expect(Gateway.allCases.map(\.rawValue) == ["aps", "paysafe", "mastercard"])
        for operation in GatewayOperation.allCases {
            #expect(try GatewayOperation(gateway: operation.gateway.rawValue, operation: operation.name) == operation)
            #expect(try GatewayTables.spec(for: operation).operations.contains(operation.name))
        }
    }

    @Test("an unknown pair is gateway.unknownOperation listing what exists; spellings are case-sensitive")
    func unknownOperation() {
        for (gateway, operation) in [("aps", "REFUND"), ("APS", "PURCHASE"), ("paysafe", "Tokenize"), ("visa", "setup")] {
            do {
                _ = try GatewayOperation(gateway: gateway, operation: operation)
                Issue.record("\(gateway):\(operation) was accepted")
            } catch {
                #expect(error.code == .gatewayUnknownOperation)
                #expect(
                    error.context["known"]
                        == "aps:SDK_TOKEN,aps:AUTHORIZATION,aps:PURCHASE,paysafe:setup,paysafe:tokenize,mastercard:updateSession")
            }
        }
    }

    @Test("the partner shared key applies to Paysafe tokenize only")
    func partnerSharedKeyOnlyForTokenize() throws {
        #expect(GatewayOperation.allCases.filter(\.acceptsPartnerSharedKey) == [.paysafeTokenize])
        let request = Array(#"{"apiKey":"","environment":"TEST"}"#.utf8)
        #expect(throws: CSEError(.gatewayOptionNotApplicable, "")) {
            try GatewayValidator.validate(request, operation: .paysafeSetup, partnerSharedKey: true)
        }
        let partner = try GatewayValidator.validate(Array("{}".utf8), operation: .paysafeTokenize, partnerSharedKey: true)
        #expect(partner.errors(for: "accountId").map(\.code) == [.required])
    }

    @Test("the request is JSON text: text that is not JSON is a json error, JSON that is not an object gatewayInputNotObject")
    func requestText() {
        #expect(throws: CSEError(.jsonSyntax, "")) { try GatewayValidator.validate(Array("{".utf8), operation: .apsPurchase) }
        for operation in GatewayOperation.allCases {
            #expect(throws: CSEError(.gatewayInputNotObject, "")) { try GatewayValidator.validate(Array("[]".utf8), operation: operation) }
        }
    }

    @Test("an invalid Paysafe result carries a fresh correlation id; other results carry none")
    func correlationID() throws {
        let setup = Array(#"{"apiKey":"","environment":"TEST"}"#.utf8)
        let first = try GatewayValidator.validate(setup, operation: .paysafeSetup)
        let second = try GatewayValidator.validate(setup, operation: .paysafeSetup)
        #expect(!first.isValid && first.correlationID != nil && first.correlationID != second.correlationID)
        #expect(first.errors.map(\.gatewayCode) == [9167])
        let aps = try GatewayValidator.validate(.object(JSONObject([])), operation: .apsPurchase)
        #expect(!aps.isValid && aps.correlationID == nil)
    }

    @Test("every issue a gateway reports has the gateway origin and the gateway description form")
    func gatewayIssues() throws {
        let result = try GatewayValidator.validate(.object(JSONObject([("command", .string("AUTHORIZATION"))])), operation: .apsPurchase)
        #expect(result.errors.allSatisfy { if case .gateway = $0.origin { true } else { false } })
        let rule = try #require(result.errors.first { $0.parameters["rule"] != nil })
        #expect(rule.description == "command: allowedValues (allowedValues=PURCHASE, rule=operation-purchase)")
        let product = FieldIssue(field: "cvv", code: .length, parameters: ["minLength": .int(3), "maxLength": .int(4)])
        #expect(product.description == "cvv: length(maxLength=4, minLength=3)" && product.gatewayCode == nil)
    }
}
