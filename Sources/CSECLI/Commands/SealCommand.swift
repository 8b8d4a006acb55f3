import CSECore
import CSECrypto
import CSEDemoKeys
import CSEPayments
import CSEValidation

/// `cse seal`: field values on stdin → validate → `{"encryptedCustomerInput","encodedClientMetaInfo"}`.
struct SealCommand: CLICommand {
    /// The command's description.
    static let spec = CommandSpec(
        name: "seal",
        abstract: "Validate customer input and seal it into encryptedCustomerInput.",
        discussion: """
            Reads the field values as one JSON object on standard input, masked or unmasked
            ({"cardNumber":"4111 1111 1111 1111","expiryDate":"12/35","cvv":"123",…}), validates
            them against the product and writes {"encryptedCustomerInput":"…","encodedClientMetaInfo":"…"}.
            Invalid input is not sealed: the validation errors are written as
            {"valid":false,"errors":[…]} and the exit code is 1.
            The key file may be PEM, DER, a JWK or the Client API response {"keyId","publicKey"};
            --key env:NAME reads it from an environment variable. The bundled TEST-ONLY demo key
            is refused unless --demo is given; --demo without --key uses it.
            The object may carry a "clientSessionId" member, which overrides --session-id (unless
            the product has a field of that name); one of the two is required.
            With --lines, every input line is one such JSON object and every output line is the
            sealed object, {"line":N,"valid":false,"errors":[…]} or {"line":N,"error":{…}}.
            Card data is read only from standard input, never from arguments.
            """,
        options: [
            .value("product", "PRODUCT", required: true, help: "builtin:card, builtin:sepa, or a product JSON file."),
            .value("key", "FILE", help: "The recipient's RSA public key (file, or env:NAME)."),
            .value("kid", "ID", help: "The key id (default: the key file's keyId or kid)."),
            .value("session-id", "ID", help: "The Client API client session id (unless the input carries clientSessionId)."),
            .value("now", "YYYY-MM", help: "The month expiry checks treat as now (default: the system clock, UTC)."),
            .flag("demo", help: "Allow the bundled TEST-ONLY demo key; without --key, use it."),
            .flag("allow-invalid", help: "Seal even when validation fails (a warning naming the fields goes to stderr)."),
            .flag("lines", help: "Batch mode: one JSON object per input line, one output line per input line."),
        ])

    let product: ProductOption
    let keySpec: String?
    let kid: String?
    let sessionId: String?
    let now: CalendarMonth?
    let demo: Bool
    let allowInvalid: Bool
    let lines: Bool

    /// Validates the arguments.
    init(arguments: ParsedArguments) throws(UsageError) {
        product = try ProductOption(arguments.required("product"))
        keySpec = arguments["key"]
        kid = arguments["kid"]
        sessionId = arguments["session-id"]
        now = try MonthOption.parse(arguments["now"])
        demo = arguments.has("demo")
        allowInvalid = arguments.has("allow-invalid")
        lines = arguments.has("lines")
        if keySpec == nil && !demo { throw UsageError("Missing expected argument '--key <file>' (or --demo for the TEST-ONLY demo key).") }
    }

    /// Seals standard input.
    func run() throws(CSEError) -> Int32 {
        let product = try product.load()
        let sealer = try makeSealer()
        let context = ValidationContext(currentMonth: now ?? .now())
        if lines { return runLines(product: product, sealer: sealer, context: context) }

        var input = try Files.readStandardInput(limit: JSONLimits.default.maxBytes)
        defer { secureZero(&input) }
        let parsed = try FieldValuesInput(json: input, product: product, acceptsSessionId: true)
        guard let session = parsed.clientSessionId ?? sessionId else {
            throw CSEError(.cliMissingSessionId, "no client session id: pass --session-id or a clientSessionId member")
        }
        let errors = parsed.request.validate(in: context)
        if !errors.isEmpty {
            let fields = errors.map(\.fieldId).reduce(into: [String]()) { if !$0.contains($1) { $0.append($1) } }
            if !allowInvalid {
                StandardStreams.write(OutputJSON.validation(errors) + [0x0A], to: 1)
                StandardStreams.err("Error: payments.invalidRequest: the payment request does not validate; it was not sealed (fields=\(fields.joined(separator: ",")))\n")
                return ExitCode.failure
            }
            StandardStreams.err("warning: sealing a request that does not validate (fields=\(fields.joined(separator: ",")))\n")
        }
        let sealed = try sealer.seal(parsed.request, clientSessionId: session)
        StandardStreams.write(OutputJSON.sealed(sealed) + [0x0A], to: 1)
        return ExitCode.success
    }

    /// `--lines`: one sealed object, rejection or error per input line.
    private func runLines(product: PaymentProduct, sealer: PaymentRequestSealer, context: ValidationContext) -> Int32 {
        let defaultSessionId = sessionId
        let allowInvalid = allowInvalid
        let failures = BatchRunner().run { number, line in
            do throws(CSEError) {
                let parsed = try FieldValuesInput(json: line, product: product, acceptsSessionId: true)
                guard let session = parsed.clientSessionId ?? defaultSessionId else {
                    throw CSEError(.cliMissingSessionId, "no client session id: pass --session-id or a clientSessionId member")
                }
                if !allowInvalid {
                    let errors = parsed.request.validate(in: context)
                    if !errors.isEmpty { return .rejected(OutputJSON.validation(errors, line: number)) }
                }
                return .output(OutputJSON.sealed(try sealer.seal(parsed.request, clientSessionId: session)))
            } catch {
                return .failure(error)
            }
        }
        return failures == 0 ? ExitCode.success : ExitCode.failure
    }

    /// The sealer for `--key` (or the demo key with `--demo` alone).
    private func makeSealer() throws(CSEError) -> PaymentRequestSealer {
        // The command validates itself (to print the errors), so the sealer never re-validates.
        let options = SealingOptions(allowInvalidRequest: true, allowDemoKey: demo, currentMonth: now)
        guard let keySpec else {
            return try PaymentRequestSealer(publicKeyResponse: DemoKeys.testOnlyPublicKeyResponse, options: options)
        }
        let material = try KeySource.load(keySpec)
        guard let keyId = kid ?? material.keyId else {
            throw CSEError(.cliMissingKeyId, "the key file has no keyId or kid; pass --kid")
        }
        return try PaymentRequestSealer(publicKey: material.publicKey, keyId: keyId, options: options)
    }
}
