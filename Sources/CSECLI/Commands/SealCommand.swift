import CSEClientAPI
import CSECore
import CSECrypto
import CSEDemoKeys
import CSEPayments
import CSEValidation

/// `cse seal`: field values on stdin → validate → `{"encryptedCustomerInput","encodedClientMetaInfo"}`.
struct SealCommand: NetworkCommand {
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
            With --session (the CreateSession response JSON, or env:NAME) the key comes from the
            platform and the session's id goes into every payload: --product ID fetches product ID
            for the context (--country, --currency, --amount, --recurring); --product builtin:card
            uses the built-in card product, sealed with the detected brand's platform product id.
            The key and the product are fetched once, also for a whole --lines batch.
            """,
        options: Options.self)

    /// The options of `cse seal`: its own, then the session options (all optional: `--session`
    /// switches to sealing for a platform session).
    struct Options: CommandOptions {
        let product: OptionKey<String>
        let key: OptionKey<String?>
        let kid: OptionKey<String?>
        let sessionID: OptionKey<String?>
        let now: OptionKey<MonthArgument?>
        let demo: OptionKey<Bool>
        let allowInvalid: OptionKey<Bool>
        let lines: OptionKey<Bool>
        let session: SessionOptions.Keys

        init(_ declare: inout OptionDeclarations) {
            product = declare.required(
                "product", "PRODUCT",
                help: "builtin:card, builtin:sepa, or a product JSON file; with --session, a platform product id or builtin:card.")
            key = declare.value("key", "FILE", help: "The recipient's RSA public key (file, or env:NAME).")
            kid = declare.value("kid", "ID", help: "The key id (default: the key file's keyId or kid).")
            sessionID = declare.value(
                "session-id", "ID", help: "The Client API client session id (unless the input carries clientSessionId).")
            now = declare.value(
                "now", "YYYY-MM", as: MonthArgument.self, help: "The month expiry checks treat as now (default: the system clock, UTC).")
            demo = declare.flag("demo", help: "Allow the bundled TEST-ONLY demo key; without --key, use it.")
            allowInvalid = declare.flag(
                "allow-invalid", help: "Seal even when validation fails (a warning naming the fields goes to stderr).")
            lines = declare.flag("lines", help: "Batch mode: one JSON object per input line, one output line per input line.")
            session = SessionOptions.Keys(&declare, context: .optional, sessionRequired: false)
            let sessionKey = session.session
            declare.conflict(
                [key, kid, sessionID], with: sessionKey,
                reason: "the platform gives the key and the session id")
            declare.conflict([demo], with: sessionKey)
            // The context and transport options need --session (declared by SessionOptions.Keys).
            declare.conflict(
                [product.matching("builtin:…") { $0.hasPrefix("builtin:") && $0 != "builtin:card" }], with: sessionKey,
                reason: "with --session, --product is a platform product id or builtin:card")
            declare.oneOf([key, demo, sessionKey], exclusive: false)
            // A platform product needs the payment context (all of it: SessionOptions.Keys).
            if let country = session.country {
                declare.need(country, by: [product.matching("ID") { !$0.hasPrefix("builtin:") }.and(sessionKey)])
            }
        }
    }

    /// The command line, read where each option is used (each option is written once, in ``Options``).
    let arguments: ParsedArguments<Options>
    let product: ProductOption
    /// `--session` and its context, transport options; `nil` for offline sealing.
    let session: SessionOptions?
    /// With `--session`: the platform product id, or `nil` for `builtin:card`.
    let platformProductID: String?

    /// Validates the arguments.
    init(arguments: ParsedArguments<Options>) throws(UsageError) {
        let sessionArguments = arguments.group(\.session)
        if sessionArguments[\.session] != nil {
            let productText = arguments[\.product]
            // The parser refused the other built-in products with --session.
            if productText == "builtin:card" {
                session = try SessionOptions(arguments: sessionArguments, context: .optional)
                platformProductID = nil
            } else {
                session = try SessionOptions(arguments: sessionArguments, context: .required)
                platformProductID = productText
            }
            // --key, --kid, --session-id and --demo conflict with --session (declared in Options).
        } else {
            // The context and transport options need --session (declared in Options).
            session = nil
            platformProductID = nil
        }
        product = try ProductOption(session == nil ? arguments[\.product] : "builtin:card")
        self.arguments = arguments
    }

    /// With `--session`, the key and the product come from the platform.
    var callsNetwork: Bool { session != nil }

    /// Seals standard input offline (`--key` or `--demo`).
    func run() throws(CSEError) -> Int32 {
        try seal(product: try product.load(), with: .offline(try makeSealer(), sessionID: arguments[\.sessionID]))
    }

    /// Seals standard input for a platform session: the key and the product are fetched once,
    /// also for a whole `--lines` batch.
    func runAsync() async throws(CSEError) -> Int32 {
        guard let session else { return try run() }
        // The session seals: its key, its id and its meta info, as `ClientAPISession.encrypt`.
        let client = try session.session(sealing: sealingOptions)
        let context = try session.context()
        _ = try await client.publicKey()
        let product: PaymentProduct
        if let platformProductID {
            guard let context else { throw CSEError(.clientAPIInvalidContext, "the payment context is incomplete") }
            product = try await client.paymentProduct(id: platformProductID, for: context)
        } else {
            product = BuiltinProducts.card
        }
        return try seal(product: product, with: .session(client))
    }

    /// Who seals: a sealer for `--key` (the session id from the input or `--session-id`), or a
    /// platform session whose key has been fetched (its own session id).
    private enum Sealing: Sendable {
        case offline(PaymentRequestSealer, sessionID: String?)
        case session(ClientAPISession)

        /// Seals one input object; the sealer validates and reports (refused: the error carries
        /// the issues; sealed anyway with `--allow-invalid`: the sealed request does).
        func seal(_ input: some Collection<UInt8>, product: PaymentProduct) throws(CSEError) -> SealedPaymentRequest {
            switch self {
            case .offline(let sealer, let sessionID):
                let parsed = try FieldValuesInput(json: input, product: product, acceptsSessionID: true)
                guard let session = parsed.clientSessionID ?? sessionID else {
                    throw CSEError(.cliMissingSessionID, "no client session id: pass --session-id or a clientSessionId member")
                }
                return try sealer.seal(parsed.request, clientSessionID: session)
            case .session(let client):
                let parsed = try FieldValuesInput(json: input, product: product, acceptsSessionID: false)
                // The key was fetched before the first input and is never dropped here.
                guard let sealed = try client.encryptWithCachedKey(parsed.request) else {
                    throw CSEError(.clientAPIInvalidSession, "the session's public key is not held")
                }
                return sealed
            }
        }
    }

    /// Seals standard input (one request, or one per line with `--lines`).
    private func seal(product: PaymentProduct, with sealing: Sealing) throws(CSEError) -> Int32 {
        if arguments[\.lines] { return try runLines(product: product, sealing: sealing) }
        var input = try Files.readStandardInput(limit: JSONLimits.default.maxBytes)
        defer { secureZero(&input) }
        let sealed: SealedPaymentRequest
        do throws(CSEError) {
            sealed = try sealing.seal(input, product: product)
        } catch let error where error.code == .paymentsInvalidRequest {
            StandardStreams.write(OutputJSON.validation(error.validationIssues) + [0x0A], to: 1)
            StandardStreams.err(
                "Error: payments.invalidRequest: the payment request does not validate; it was not sealed (fields=\(Self.fields(error.validationIssues)))\n"
            )
            return ExitCode.failure
        }
        if !sealed.validationIssues.isEmpty {
            StandardStreams.err("warning: sealing a request that does not validate (fields=\(Self.fields(sealed.validationIssues)))\n")
        }
        StandardStreams.write(OutputJSON.sealed(sealed) + [0x0A], to: 1)
        return ExitCode.success
    }

    /// The failing fields, each once, in the order of the issues, safe to echo.
    private static func fields(_ issues: [FieldIssue]) -> String {
        issues.map { SafeEcho.name($0.field) }.reduce(into: [String]()) { if !$0.contains($1) { $0.append($1) } }
            .joined(separator: ",")
    }

    /// `--lines`: one sealed object, rejection or error per input line.
    private func runLines(product: PaymentProduct, sealing: Sealing) throws(CSEError) -> Int32 {
        let failures = try BatchRunner().run { number, line in
            do throws(CSEError) {
                return .output(OutputJSON.sealed(try sealing.seal(line, product: product)))
            } catch let error where error.code == .paymentsInvalidRequest {
                return .rejected(OutputJSON.validation(error.validationIssues, line: number))
            } catch {
                return .failure(error)
            }
        }
        return failures == 0 ? ExitCode.success : ExitCode.failure
    }

    /// The sealer's options: it validates (against `--now`) and refuses an invalid request
    /// unless `--allow-invalid`.
    private var sealingOptions: SealingOptions {
        SealingOptions(
            allowInvalidRequest: arguments[\.allowInvalid], allowDemoKey: arguments[\.demo], currentMonth: arguments[\.now]?.month)
    }

    /// The sealer for `--key` (or the demo key with `--demo` alone).
    private func makeSealer() throws(CSEError) -> PaymentRequestSealer {
        let options = sealingOptions
        guard let keySpec = arguments[\.key] else {
            return try PaymentRequestSealer(publicKeyResponse: DemoKeys.testOnlyPublicKeyResponse, options: options)
        }
        let material = try KeySource.load(keySpec)
        guard let keyID = arguments[\.kid] ?? material.keyID else {
            throw CSEError(.cliMissingKeyID, "the key file has no keyId or kid; pass --kid")
        }
        return try PaymentRequestSealer(publicKey: material.publicKey, keyID: keyID, options: options)
    }
}
