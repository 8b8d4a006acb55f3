import CSECore
import CSEGateways

/// The gateway half of `cse validate` (`--gateway G --operation O`): checks one gateway request
/// against its spec table and cross-field rules and renders `{"valid":…,"errors":[…]}`.
enum GatewayValidation {
    /// The help text for the gateway mode of `cse validate`.
    static let discussion = """
        With --gateway and --operation, reads one JSON object and checks it against the gateway's
        parameter table and cross-field rules (Vectors/gateways, docs/GATEWAYS.md):
          aps         SDK_TOKEN | AUTHORIZATION | PURCHASE   (the flat parameter object)
          paysafe     setup | tokenize   ({"apiKey","environment"} | the tokenize options)
          mastercard  updateSession      (the gateway's nested JSON; dotted keys accepted;
                                          apiVersion as a top-level key)
        Errors are {"field","code","limits",…}; Paysafe errors also carry
        {"paysafe":{"code","displayMessage","detailedMessage","correlationId"}}.
        """

    /// Checks that the gateway and operation exist and the flags fit them.
    /// - Throws: ``UsageError`` otherwise.
    static func checkArguments(gateway: String, operation: String, partnerSharedKey: Bool) throws(UsageError) {
        do throws(CSEError) {
            _ = try GatewayTables.spec(gateway: gateway, operation: operation)
        } catch {
            throw UsageError("Unknown gateway operation; use one of \(error.context["known"] ?? "").")
        }
        if partnerSharedKey && !(gateway.isByteEqual(to: "paysafe") && operation.isByteEqual(to: "tokenize")) {
            throw UsageError("'--partner-shared-key' applies only to --gateway paysafe --operation tokenize.")
        }
    }

    /// Validates a request and renders the report, for `cse validate` and for any command that
    /// folds `--gateway` in.
    /// - Parameters:
    ///   - gateway: `aps`, `paysafe` or `mastercard`.
    ///   - operation: The operation.
    ///   - input: The request as JSON bytes.
    ///   - partnerSharedKey: Paysafe tokenize only.
    /// - Returns: The compact JSON report and whether the request is valid.
    /// - Throws: `json.*` errors for unreadable input, `gateway.*` errors otherwise.
    static func report(
        gateway: String, operation: String, input: [UInt8],
        partnerSharedKey: Bool = false
    ) throws(CSEError) -> ([UInt8], Bool) {
        let validation = try result(gateway: gateway, operation: operation, input: input, partnerSharedKey: partnerSharedKey)
        return (try render(validation, gateway: gateway), validation.isValid)
    }

    /// Parses `input` and validates it against the gateway's rules for `operation`.
    static func result(
        gateway: String, operation: String, input: [UInt8],
        partnerSharedKey: Bool = false
    ) throws(CSEError) -> GatewayValidationResult {
        let json = try JSONValue.parse(input)
        let result: GatewayValidationResult
        switch gateway {
        case "aps": result = try APSValidation.validate(json, operation: operation)
        case "paysafe" where operation.isByteEqual(to: "setup"): result = try PaysafeValidation.validateSetup(json)
        case "paysafe": result = try PaysafeValidation.validateTokenize(json, partnerSharedKey: partnerSharedKey)
        default: result = try GatewayTables.spec(gateway: gateway, operation: operation).validate(json: json)
        }
        return result
    }

    /// `{["line":N,]"valid":…,"errors":[…]}` for a result; Paysafe errors carry Paysafe's own error
    /// object with a fresh correlation id.
    static func render(_ result: GatewayValidationResult, gateway: String, line: Int? = nil) throws(CSEError) -> [UInt8] {
        let correlationID = gateway.isByteEqual(to: "paysafe") && !result.isValid ? try PaysafeError.newCorrelationID() : ""
        var errors: [JSONValue] = []
        for error in result.errors {
            var object = JSONObject([("field", .string(error.field)), ("code", .string(error.code.rawValue))])
            if !error.limits.isEmpty {
                object["limits"] = .object(JSONObject(error.limits.sorted { $0.key < $1.key }.map { ($0.key, .string($0.value)) }))
            }
            if gateway.isByteEqual(to: "paysafe"), let code = error.gatewayCode {
                let p = PaysafeError(code: code, correlationID: correlationID)
                object["paysafe"] = .object(
                    JSONObject([
                        ("code", .number(String(p.code))), ("displayMessage", .string(p.displayMessage)),
                        ("detailedMessage", .string(p.detailedMessage)), ("correlationId", .string(p.correlationID)),
                    ]))
            }
            errors.append(.object(object))
        }
        var report = JSONObjectWriter()
        if let line { report.int("line", line) }
        report.bool("valid", result.isValid)
        report.value("errors", .array(errors))
        return report.finish()
    }
}
