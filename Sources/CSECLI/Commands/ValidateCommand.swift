import CSECore
import CSEGateways
import CSEPayments
import CSEValidation

/// `cse validate`: field values on stdin → `{"valid":bool,"errors":[…]}`.
struct ValidateCommand: CLICommand {
    /// The command's description.
    static let spec = CommandSpec(
        name: "validate",
        abstract: "Validate customer input against a payment product, or a gateway request.",
        discussion: """
            Reads the field values as one JSON object on standard input, masked or unmasked (the
            same input as 'cse seal'; a "clientSessionId" member is ignored), and writes
            {"valid":true|false,"errors":[{"field":"…","code":"…",…parameters}]}. Exit code 0 when
            valid, 1 when not. Errors name fields and rules, never values.
            With --lines, every input line is one JSON object and every output line is
            {"valid":true,"errors":[]}, {"line":N,"valid":false,"errors":[…]} or
            {"line":N,"error":{…}}.

            """ + GatewayValidation.discussion,
        options: Options.self)

    /// The options of `cse validate`.
    struct Options: CommandOptions {
        let product: OptionKey<String?>
        let gateway: OptionKey<String?>
        let operation: OptionKey<String?>
        let partnerSharedKey: OptionKey<Bool>
        let now: OptionKey<MonthArgument?>
        let lines: OptionKey<Bool>

        init(_ declare: inout OptionDeclarations) {
            product = declare.value("product", "PRODUCT", help: "builtin:card, builtin:sepa, or a product JSON file.")
            gateway = declare.value("gateway", "GATEWAY", help: "Instead of a product: aps, paysafe or mastercard.")
            operation = declare.value("operation", "OPERATION", help: "With --gateway: the operation (see above).")
            partnerSharedKey = declare.flag(
                "partner-shared-key",
                help: "Paysafe tokenize: the caller is a partner using a shared API key (accountId becomes mandatory).")
            now = declare.value(
                "now", "YYYY-MM", as: MonthArgument.self, help: "The month expiry checks treat as now (default: the system clock, UTC).")
            lines = declare.flag("lines", help: "Batch mode: one JSON object per input line, one output line per input line.")
            declare.oneOf([product, gateway])
            declare.need(operation, by: [gateway])
            declare.need(gateway, by: [operation, partnerSharedKey])
            // --partner-shared-key only with the operations that take it (Paysafe tokenize).
            let partnerOperations = GatewayOperation.allCases.filter(\.acceptsPartnerSharedKey)
            let gateways = partnerOperations.map(\.gateway.rawValue), names = partnerOperations.map(\.name)
            declare.need(
                gateway.matching(gateways.joined(separator: "|")) { name in gateways.contains { $0.isByteEqual(to: name) } },
                by: [partnerSharedKey])
            declare.need(
                operation.matching(names.joined(separator: "|")) { name in names.contains { $0.isByteEqual(to: name) } },
                by: [partnerSharedKey])
        }
    }

    /// What is validated: a payment product's fields, or a gateway request.
    enum Target {
        case product(ProductOption)
        case gateway(GatewayOperation, partnerSharedKey: Bool)
    }

    let target: Target
    let now: CalendarMonth?
    let lines: Bool

    /// Validates the arguments: exactly one of `--product` and `--gateway`.
    init(arguments: ParsedArguments<Options>) throws(UsageError) {
        now = arguments[\.now]?.month
        lines = arguments[\.lines]
        // The parser took one of --product and --gateway, and --operation with --gateway only.
        if let gateway = arguments[\.gateway] {
            let parsed = try GatewayValidation.operation(gateway: gateway, operation: arguments[\.operation] ?? "")
            target = .gateway(parsed, partnerSharedKey: arguments[\.partnerSharedKey])
        } else {
            target = .product(try ProductOption(arguments[\.product] ?? ""))
        }
    }

    /// Validates standard input.
    func run() throws(CSEError) -> Int32 {
        switch target {
        case .product(let option): return try runProduct(option)
        case .gateway(let operation, let partner): return try runGateway(operation, partner)
        }
    }

    private func runGateway(_ operation: GatewayOperation, _ partner: Bool) throws(CSEError) -> Int32 {
        if lines {
            let failures = try BatchRunner().run { number, line in
                do throws(CSEError) {
                    let result = try GatewayValidation.result(operation, input: line, partnerSharedKey: partner)
                    // A rejected line's report is led by its line number; a valid line's is not.
                    return result.isValid
                        ? .output(GatewayValidation.render(result)) : .rejected(GatewayValidation.render(result, line: number))
                } catch {
                    return .failure(error)
                }
            }
            return failures == 0 ? ExitCode.success : ExitCode.failure
        }
        let input = try Files.readStandardInput(limit: 1 << 20)
        let result = try GatewayValidation.result(operation, input: input, partnerSharedKey: partner)
        StandardStreams.write(GatewayValidation.render(result) + [0x0A], to: 1)
        return result.isValid ? ExitCode.success : ExitCode.failure
    }

    private func runProduct(_ option: ProductOption) throws(CSEError) -> Int32 {
        let product = try option.load()
        let context = ValidationContext(currentMonth: now ?? .now())
        if lines {
            let failures = try BatchRunner().run { number, line in
                do throws(CSEError) {
                    let errors = try FieldValuesInput(json: line, product: product, acceptsSessionID: true).request.validate(in: context)
                    return errors.isEmpty ? .output(OutputJSON.validation(errors)) : .rejected(OutputJSON.validation(errors, line: number))
                } catch {
                    return .failure(error)
                }
            }
            return failures == 0 ? ExitCode.success : ExitCode.failure
        }
        var input = try Files.readStandardInput(limit: JSONLimits.default.maxBytes)
        defer { secureZero(&input) }
        let errors = try FieldValuesInput(json: input, product: product, acceptsSessionID: true).request.validate(in: context)
        StandardStreams.write(OutputJSON.validation(errors) + [0x0A], to: 1)
        return errors.isEmpty ? ExitCode.success : ExitCode.failure
    }
}
