package import CSECore
import CSEValidation

/// The Amazon Payment Services (PayFort) mobile SDK request checks, driven by
/// `aps-sdk-token.json` and `aps-sdk-operation.json`.
package enum APSValidation {
    /// Validates a flat APS request for an operation. For `AUTHORIZATION` and `PURCHASE` the
    /// `command` parameter must name the same operation.
    /// - Parameters:
    ///   - json: The request parameters.
    ///   - operation: ``GatewayOperation/apsSDKToken``, ``GatewayOperation/apsAuthorization`` or
    ///     ``GatewayOperation/apsPurchase``.
    /// - Returns: Every error found.
    /// - Throws: ``CSEError/Code/gatewayUnknownOperation`` for another gateway's operation, or an
    ///   input error.
    package static func validate(_ json: JSONValue, operation: GatewayOperation) throws(CSEError) -> GatewayValidationResult {
        guard operation.gateway == .aps else {
            throw CSEError(.gatewayUnknownOperation, "not an APS operation", context: ["operation": operation.description])
        }
        return try GatewayTables.spec(for: operation).validate(
            json: json, context: GatewayValidationContext(values: ["operation": operation.name]))
    }

    /// Converts a major-unit amount to the minor units APS expects (`500` AED → `50000`,
    /// `100` JOD → `100000`), per ISO 4217.
    /// - Throws: The errors of ``CurrencyAmount/minorAmount(fromMajor:currencyCode:)``.
    package static func minorUnits(fromMajor major: String, currency: String) throws(CSEError) -> Int64 {
        try CurrencyAmount.minorAmount(fromMajor: major, currencyCode: currency)
    }
}
