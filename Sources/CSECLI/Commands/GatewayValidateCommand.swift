public import CSECore
import CSEGateways

/// `cse validate --gateway G --operation O`: checks one gateway request (a JSON object on
/// standard input) against its spec table and prints `{"valid":…,"errors":[…]}`.
public struct GatewayValidateCommand: CLICommand {
    /// The command's description.
    public static let spec = CommandSpec(
        name: "validate",
        abstract: "Validate a payment gateway request read from standard input.",
        discussion: """
            Reads one JSON object and checks it against the gateway's parameter table and
            cross-field rules (Vectors/gateways, docs/GATEWAYS.md). Prints
            {"valid":true|false,"errors":[{"field","code","limits",…}]} and exits 0 when valid,
            1 when not. Errors never contain the values sent.
              aps         SDK_TOKEN | AUTHORIZATION | PURCHASE   (the flat parameter object)
              paysafe     setup | tokenize   ({"apiKey","environment"} | the tokenize options)
              mastercard  updateSession      (the gateway's nested JSON; dotted keys accepted;
                                              apiVersion as a top-level key)
            Paysafe errors also carry {"paysafe":{"code","displayMessage","detailedMessage","correlationId"}}.
            """,
        options: [
            .value("gateway", "GATEWAY", required: true, help: "aps, paysafe or mastercard."),
            .value("operation", "OPERATION", required: true, help: "The operation (see above)."),
            .flag("partner-shared-key", help: "Paysafe tokenize: the caller is a partner using a shared API key (accountId becomes mandatory)."),
        ])

    let gateway: String
    let operation: String
    let partnerSharedKey: Bool

    /// Validates the arguments.
    public init(arguments: ParsedArguments) throws(UsageError) {
        gateway = arguments.required("gateway")
        operation = arguments.required("operation")
        partnerSharedKey = arguments.has("partner-shared-key")
        do throws(CSEError) {
            _ = try GatewayTables.spec(gateway: gateway, operation: operation)
        } catch {
            throw UsageError("Unknown gateway operation; use one of \(error.context["known"] ?? "").")
        }
        if partnerSharedKey && !(gateway == "paysafe" && operation == "tokenize") {
            throw UsageError("'--partner-shared-key' applies only to --gateway paysafe --operation tokenize.")
        }
    }

    /// Validates standard input and prints the report.
    public func run() throws(CSEError) -> Int32 {
        let input = try Files.readStandardInput(limit: 1 << 20)
        let (report, valid) = try Self.report(gateway: gateway, operation: operation, input: input,
                                              partnerSharedKey: partnerSharedKey)
        StandardStreams.write(report + [0x0A], to: 1)
        return valid ? ExitCode.success : ExitCode.failure
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
    public static func report(gateway: String, operation: String, input: [UInt8],
                              partnerSharedKey: Bool = false) throws(CSEError) -> ([UInt8], Bool) {
        let json = try JSONValue.parse(input)
        let result: GatewayValidationResult
        switch gateway {
        case "aps": result = try APSValidation.validate(json, operation: operation)
        case "paysafe" where operation == "setup": result = try PaysafeValidation.validateSetup(json)
        case "paysafe": result = try PaysafeValidation.validateTokenize(json, partnerSharedKey: partnerSharedKey)
        default: result = try GatewayTables.spec(gateway: gateway, operation: operation).validate(json: json)
        }
        let correlationId = gateway == "paysafe" && !result.isValid ? try PaysafeError.newCorrelationId() : ""
        var errors: [JSONValue] = []
        for error in result.errors {
            var object = JSONObject([("field", .string(error.field)), ("code", .string(error.code.rawValue))])
            if !error.limits.isEmpty {
                object["limits"] = .object(JSONObject(error.limits.sorted { $0.key < $1.key }.map { ($0.key, .string($0.value)) }))
            }
            if gateway == "paysafe", let code = error.gatewayCode {
                let p = PaysafeError(code: code, correlationId: correlationId)
                object["paysafe"] = .object(JSONObject([
                    ("code", .number(String(p.code))), ("displayMessage", .string(p.displayMessage)),
                    ("detailedMessage", .string(p.detailedMessage)), ("correlationId", .string(p.correlationId)),
                ]))
            }
            errors.append(.object(object))
        }
        let report = JSONValue.object(JSONObject([("valid", .bool(result.isValid)), ("errors", .array(errors))]))
        return (report.serializedBytes, result.isValid)
    }
}
