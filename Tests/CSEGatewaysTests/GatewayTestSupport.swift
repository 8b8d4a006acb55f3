public import CSECore
import CSEGateways
import CSEValidation
import Foundation
import TestSupport

/// Helpers shared by the gateway tests.
enum GW {
    /// A project vector under `Vectors/gateways/`, parsed.
    static func vector(_ name: String) throws -> JSONValue {
        try JSONValue.parse(Array(try TestPaths.projectFile("gateways/" + name)))
    }

    /// Parses JSON text written in a test.
    static func json(_ text: String) throws -> JSONValue { try JSONValue.parse(text) }

    /// `field:code` pairs of a result, in order.
    static func pairs(_ result: GatewayValidationResult) -> [String] {
        result.errors.map { "\($0.field):\($0.code.rawValue)" }
    }

    /// Runs the validation the CLI runs for a gateway and an operation: the library's one entry point.
    static func validate(
        gateway: String, operation: String, _ json: JSONValue,
        partnerSharedKey: Bool = false
    ) throws -> GatewayValidationResult {
        try GatewayValidator.validate(
            json, operation: try GatewayOperation(gateway: gateway, operation: operation), partnerSharedKey: partnerSharedKey)
    }

    /// A valid APS PURCHASE request to vary in tests.
    static func apsPurchase(_ changes: [String: JSONValue?] = [:]) -> JSONValue {
        var object = JSONObject([
            ("command", .string("PURCHASE")), ("merchant_reference", .string("XYZ9239-yu898")),
            ("amount", .string("10000")), ("currency", .string("AED")), ("language", .string("en")),
            ("customer_email", .string("customer1@domain.com")), ("sdk_token", .string("Dwp78q3")),
        ])
        for (key, value) in changes { object[key] = value ?? nil }
        return .object(object)
    }
}

/// String literals as JSON strings, to keep test tables short.
extension JSONValue: ExpressibleByStringLiteral {
    public init(stringLiteral value: String) { self = .string(value) }
}
