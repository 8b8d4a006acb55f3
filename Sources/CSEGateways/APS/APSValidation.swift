import CSECore
import CSEValidation

/// The Amazon Payment Services (PayFort) mobile SDK request checks, driven by
/// `aps-sdk-token.json` and `aps-sdk-operation.json`.
package enum APSValidation {
    /// The operations: `SDK_TOKEN`, `AUTHORIZATION` and `PURCHASE`.
    package static let operations = GatewayOperation.allCases.filter { $0.gateway == .aps }.map(\.name)

    /// Validates a flat APS request for an operation. For `AUTHORIZATION` and `PURCHASE` the
    /// `command` parameter must name the same operation.
    /// - Parameters:
    ///   - json: The request parameters.
    ///   - operation: `SDK_TOKEN`, `AUTHORIZATION` or `PURCHASE`.
    /// - Returns: Every error found.
    /// - Throws: ``CSEError/Code/gatewayUnknownOperation`` or an input error.
    package static func validate(_ json: JSONValue, operation: String) throws(CSEError) -> GatewayValidationResult {
        let parsed = try GatewayOperation(gateway: Gateway.aps.rawValue, operation: operation)
        return try GatewayTables.spec(for: parsed).validate(json: json, context: GatewayValidationContext(values: ["operation": operation]))
    }

    /// Converts a major-unit amount to the minor units APS expects (`500` AED → `50000`,
    /// `100` JOD → `100000`), per ISO 4217.
    /// - Throws: The errors of ``CurrencyAmount/minorAmount(fromMajor:currencyCode:)``.
    package static func minorUnits(fromMajor major: String, currency: String) throws(CSEError) -> Int64 {
        try CurrencyAmount.minorAmount(fromMajor: major, currencyCode: currency)
    }
}
