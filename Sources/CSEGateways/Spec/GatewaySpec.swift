package import CSECore

/// A document a spec table cites: its title, address and section.
package struct SpecSource: Hashable, Sendable {
    /// The id rows use to cite it (for example `aps-ios-operations`).
    package let id: String
    /// The document's title and version.
    package let document: String
    /// Where it was read.
    package let url: String
    /// The section the facts come from.
    package let section: String

    /// Creates a source.
    package init(id: String, document: String, url: String, section: String) {
        self.id = id
        self.document = document
        self.url = url
        self.section = section
    }
}

/// Caller-supplied facts that cross-field rules may test but that are not request parameters:
/// the operation chosen (`operation`), or whether a Paysafe caller is a partner using a shared
/// API key (`partnerSharedKey` = `true`).
package struct GatewayValidationContext: Hashable, Sendable {
    /// The values by key.
    package var values: [String: String]

    /// Creates a context.
    package init(values: [String: String] = [:]) { self.values = values }
}

/// One gateway operation's parameter table and cross-field rules, loaded from
/// `Vectors/gateways/*.json` (see ``GatewayTables``). The single engine behind every gateway:
/// APS, Paysafe and Mastercard differ only in their tables.
package struct GatewaySpec: Sendable {
    /// The gateway id: `aps`, `paysafe` or `mastercard`.
    package let gateway: String
    /// The operations this table validates (for example `AUTHORIZATION` and `PURCHASE`).
    package let operations: [String]
    /// The documents the table cites.
    package let sources: [SpecSource]
    /// The parameters, in table order (errors follow this order).
    package let parameters: [ParameterSpec]
    /// The cross-field rules, in table order.
    package let rules: [CrossFieldRule]
    /// Whether parameters that are not in the table are errors (APS answers them with message
    /// 027 "Invalid extra parameters").
    package let rejectsUnknownParameters: Bool

    /// Creates a spec.
    package init(
        gateway: String, operations: [String], sources: [SpecSource], parameters: [ParameterSpec],
        rules: [CrossFieldRule], rejectsUnknownParameters: Bool
    ) {
        self.gateway = gateway
        self.operations = operations
        self.sources = sources
        self.parameters = parameters
        self.rules = rules
        self.rejectsUnknownParameters = rejectsUnknownParameters
    }

    /// The row for a parameter name, if any.
    package func parameter(named name: String) -> ParameterSpec? {
        parameters.first { $0.name.isByteEqual(to: name) }
    }

    /// Validates a request given as JSON (a flat object, nested objects, or both: see
    /// ``GatewayMap/init(json:)``).
    /// - Parameters:
    ///   - json: The request.
    ///   - context: Facts the rules may test.
    /// - Returns: Every error found; never the values.
    /// - Throws: ``CSEError/Code/gatewayInputNotObject`` or a `gatewayMap.*` error when the JSON
    ///   cannot be read as one map.
    package func validate(
        json: JSONValue, context: GatewayValidationContext = GatewayValidationContext()
    ) throws(CSEError) -> GatewayValidationResult {
        validate(try GatewayMap(json: json), context: context)
    }

    /// Validates a request map.
    /// - Parameters:
    ///   - request: The request.
    ///   - context: Facts the rules may test.
    /// - Returns: Every error found; never the values.
    package func validate(
        _ request: GatewayMap, context: GatewayValidationContext = GatewayValidationContext()
    ) -> GatewayValidationResult {
        SpecValidator(spec: self, request: request, context: context).run()
    }
}
