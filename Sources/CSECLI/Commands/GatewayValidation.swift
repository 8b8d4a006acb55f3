import CSECore
import CSEGateways

/// The gateway half of `cse validate` (`--gateway G --operation O`): checks one gateway request
/// with the library's ``GatewayValidator`` and renders `{"valid":…,"errors":[…]}`.
enum GatewayValidation {
    /// The help text for the gateway mode of `cse validate`: the operations come from the
    /// library's one list (`GatewayOperation.allCases`), the notes on each gateway's input from
    /// here.
    static let discussion = """
        With --gateway and --operation, reads one JSON object and checks it against the gateway's
        parameter table and cross-field rules (Vectors/gateways, docs/GATEWAYS.md):

        """ + Gateway.allCases.map(operationLine).joined()
            + """
            Errors are {"field","code","limits",…}; Paysafe errors also carry
            {"paysafe":{"code","displayMessage","detailedMessage","correlationId"}}.
            """

    /// `  aps         SDK_TOKEN | AUTHORIZATION | PURCHASE   (the flat parameter object)`.
    private static func operationLine(_ gateway: Gateway) -> String {
        let names = GatewayOperation.allCases.filter { $0.gateway == gateway }.map(\.name).joined(separator: " | ")
        let note: String
        switch gateway {
        case .aps: note = "   (the flat parameter object)"
        case .paysafe: note = #"   ({"apiKey","environment"} | the tokenize options)"#
        case .mastercard:
            note = """
                      (the gateway's nested JSON; dotted keys accepted;
                                                  apiVersion as a top-level key)
                """
        }
        let name = gateway.rawValue
        return "  " + name + String(repeating: " ", count: max(1, 12 - name.count)) + names + note + "\n"
    }

    /// Parses `--gateway` and `--operation` once into the typed operation (the parser has checked
    /// that `--partner-shared-key` goes only with an operation that takes it).
    /// - Throws: ``UsageError`` for an unknown operation.
    static func operation(gateway: String, operation: String) throws(UsageError) -> GatewayOperation {
        let parsed: GatewayOperation
        do throws(CSEError) {
            parsed = try GatewayOperation(gateway: gateway, operation: operation)
        } catch {
            throw UsageError("Unknown gateway operation; use one of \(error.context["known"] ?? "").")
        }
        return parsed
    }

    /// Parses `input` and validates it with the library's one entry point.
    /// - Throws: `json.*` errors for unreadable input, `gateway.*` errors otherwise.
    static func result(
        _ operation: GatewayOperation, input: [UInt8], partnerSharedKey: Bool = false
    ) throws(CSEError) -> GatewayValidationResult {
        try GatewayValidator.validate(try JSONValue.parse(input), operation: operation, partnerSharedKey: partnerSharedKey)
    }

    /// The report of a result (the one validation renderer, ``OutputJSON/validation(_:line:correlationID:)``).
    static func render(_ result: GatewayValidationResult, line: Int? = nil) -> [UInt8] {
        OutputJSON.validation(result.errors, line: line, correlationID: result.correlationID)
    }
}
