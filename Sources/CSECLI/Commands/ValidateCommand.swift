public import CSECore
import CSEPayments
import CSEValidation

/// `cse validate`: field values on stdin → `{"valid":bool,"errors":[…]}`.
public struct ValidateCommand: CLICommand {
    /// The command's description.
    public static let spec = CommandSpec(
        name: "validate",
        abstract: "Validate customer input against a payment product.",
        discussion: """
            Reads the field values as one JSON object on standard input, masked or unmasked (the
            same input as 'cse seal'; a "clientSessionId" member is ignored), and writes
            {"valid":true|false,"errors":[{"field":"…","code":"…",…parameters}]}. Exit code 0 when
            valid, 1 when not. Errors name fields and rules, never values.
            With --lines, every input line is one JSON object and every output line is
            {"valid":true,"errors":[]}, {"line":N,"valid":false,"errors":[…]} or
            {"line":N,"error":{…}}.
            """,
        options: [
            .value("product", "PRODUCT", required: true, help: "builtin:card, builtin:sepa, or a product JSON file."),
            .value("now", "YYYY-MM", help: "The month expiry checks treat as now (default: the system clock, UTC)."),
            .flag("lines", help: "Batch mode: one JSON object per input line, one output line per input line."),
        ])

    let product: ProductOption
    let now: CalendarMonth?
    let lines: Bool

    /// Validates the arguments.
    public init(arguments: ParsedArguments) throws(UsageError) {
        product = try ProductOption(arguments.required("product"))
        now = try MonthOption.parse(arguments["now"])
        lines = arguments.has("lines")
    }

    /// Validates standard input.
    public func run() throws(CSEError) -> Int32 {
        let product = try product.load()
        let context = ValidationContext(currentMonth: now ?? .now())
        if lines {
            let failures = BatchRunner().run { number, line in
                do throws(CSEError) {
                    let errors = try FieldValuesInput(json: line, product: product, acceptsSessionId: true).request.validate(in: context)
                    return errors.isEmpty ? .output(OutputJSON.validation(errors)) : .rejected(OutputJSON.validation(errors, line: number))
                } catch {
                    return .failure(error)
                }
            }
            return failures == 0 ? ExitCode.success : ExitCode.failure
        }
        var input = try Files.readStandardInput(limit: JSONLimits.default.maxBytes)
        defer { for i in input.indices { input[i] = 0 } }
        let errors = try FieldValuesInput(json: input, product: product, acceptsSessionId: true).request.validate(in: context)
        StandardStreams.write(OutputJSON.validation(errors) + [0x0A], to: 1)
        return errors.isEmpty ? ExitCode.success : ExitCode.failure
    }
}
