import CSECore
import CSEGateways
import CSEHTTP
import CSEServerAPI
import CSEValidation

/// What the APS payment commands share: the credentials and the client.
enum APSPaymentSupport {
    static let credentialsHelp =
        "APS credentials {\"access_code\",\"merchant_identifier\",\"sha_request_phrase\",\"sha_response_phrase\",\"sha_type\"}"

    /// The server options; `journal` for a command that moves money.
    static func keys(_ declare: inout OptionDeclarations, journal: Bool = false) -> ServerCallOptions.Keys {
        ServerCallOptions.Keys(&declare, credentialsHelp: credentialsHelp, environment: .choice, journal: journal)
    }

    static func client(_ options: ServerCallOptions, appleCredentials: String? = nil) throws(CSEError) -> APSPaymentClient {
        let credentials = try APSCredentials(document: try options.credentials())
        let apple = try appleCredentials.map { (spec: String) throws(CSEError) in
            try APSCredentials(document: try ServerCallOptions.credentials(spec))
        }
        return try APSPaymentClient(
            credentials: credentials, applePayCredentials: apple,
            environment: options.environment(options.isProduction ? .apsProduction : .apsTest), configuration: options.configuration)
    }
}

/// `cse aps purchase` and `cse aps authorize`: one server-to-server command per APS command.
protocol APSPaymentCommand: NetworkCommand where Options == APSPaymentOptions {
    /// The APS `command` sent.
    static var command: APSPaymentRequest.Command { get }
    /// The parsed options.
    var parsed: APSPaymentOptions.Parsed { get }
    /// Makes the command from parsed options.
    init(parsed: APSPaymentOptions.Parsed)
}

/// The options of `cse aps purchase|authorize`.
struct APSPaymentOptions: CommandOptions {
    let tokenName: OptionKey<String?>
    let wallet: OptionKey<APSWalletArgument?>
    let appleCredentials: OptionKey<String?>
    let appleHeaderOrder: OptionKey<AppleHeaderOrderArgument>
    let reference: OptionKey<APSReferenceArgument>
    let amount: OptionKey<AmountArgument>
    let currency: OptionKey<CurrencyArgument>
    let email: OptionKey<String>
    let customerIP: OptionKey<String?>
    let language: OptionKey<APSLanguageArgument>
    let server: ServerCallOptions.Keys

    init(_ declare: inout OptionDeclarations) {
        tokenName = declare.value("token-name", "T", help: "The stored card (token_name), from the mobile SDK or an earlier payment.")
        wallet = declare.value(
            "wallet", "NAME", as: APSWalletArgument.self, help: "apple-pay: the PKPaymentToken on standard input, decrypted by APS.")
        appleCredentials = declare.value(
            "apple-credentials", "FILE", help: "The Apple Pay credential set (same members as --credentials), for --wallet apple-pay.")
        appleHeaderOrder = declare.value(
            "apple-header-order", "ORDER", as: AppleHeaderOrderArgument.self, default: .dotnet,
            help: "The order apple_header is signed in: dotnet (default: the .NET SDK), php (the PHP SDK) or integrations.")
        reference = declare.required(
            "merchant-reference", "R", as: APSReferenceArgument.self,
            help: "Your unique reference of the order (1-40 letters, digits, '-', '_', '.').")
        amount = declare.required(
            "amount", "MINOR", as: AmountArgument.self, help: "The amount in minor units (ISO 4217: 500 AED is 50000).")
        currency = declare.required("currency", "CUR", as: CurrencyArgument.self, help: "The currency, ISO 4217 (e.g. AED).")
        email = declare.required("customer-email", "E", help: "The payer's e-mail address.")
        customerIP = declare.value("customer-ip", "IP", help: "The payer's IP address.")
        language = declare.value("language", "LANG", as: APSLanguageArgument.self, default: .en, help: "en (default) or ar.")
        server = APSPaymentSupport.keys(&declare, journal: true)
        declare.oneOf([tokenName, wallet])
        declare.need(wallet, by: [appleCredentials, appleHeaderOrder])
        declare.need(appleCredentials, by: [wallet])
        declare.need(customerIP, by: [wallet])
    }

    /// The parsed options.
    struct Parsed: Sendable {
        let options: ServerCallOptions
        let tokenName: String?
        let appleCredentials: String?
        let appleHeaderOrder: APSPaymentRequest.ApplePayHeaderOrder
        let reference: String
        let amount: Int
        let currency: Currency
        let email: String
        let customerIP: String?
        let language: String

        init(_ arguments: ParsedArguments<APSPaymentOptions>) throws(UsageError) {
            options = try ServerCallOptions(arguments: arguments.group(\.server))
            tokenName = arguments[\.tokenName]
            appleCredentials = arguments[\.appleCredentials]
            appleHeaderOrder = arguments[\.appleHeaderOrder].order
            reference = arguments[\.reference].reference
            amount = arguments[\.amount].minorUnits
            currency = arguments[\.currency].currency
            email = arguments[\.email]
            customerIP = arguments[\.customerIP]
            language = arguments[\.language].rawValue
        }

        func run(_ command: APSPaymentRequest.Command) async throws(CSEError) -> Int32 {
            let request: APSPaymentRequest
            if let tokenName {
                request = try APSPaymentRequest(
                    command, merchantReference: reference, amount: Int64(amount), currency: currency, customerEmail: email,
                    tokenName: tokenName, customerIP: customerIP, language: language)
            } else {
                let token = try JSONObjectInput.parse(
                    try Files.readStandardInput(limit: 64 * 1024), orElse: "the Apple Pay token must be a JSON object")
                request = try APSPaymentRequest(
                    applePay: command, merchantReference: reference, amount: Int64(amount), currency: currency, customerEmail: email,
                    customerIP: customerIP ?? "", token: token, language: language, headerOrder: appleHeaderOrder)
            }
            let outcome = try await APSPaymentSupport.client(options, appleCredentials: appleCredentials).pay(request)
            return PaymentOutcomeOutput.finish(
                outcome,
                settle:
                    "settle it with 'cse aps check-status --merchant-reference \(SafeEcho.withoutControls(reference))'; do not send the purchase again",
                id: \.fortID,
                status: { $0.responseCode.description }, json: { .object($0.parameters) })
        }
    }

    static let discussion = """
        With --wallet apple-pay, the PKPaymentToken on standard input goes as apple_data,
        apple_signature, apple_header and apple_paymentMethod with digital_wallet APPLE_PAY, signed
        with the Apple Pay credential set (--apple-credentials); APS decrypts it. Otherwise:
        POSTs the command with token_name, signed with the SHA request phrase, to
        FortAPI/paymentApi, and verifies the answer's signature with the SHA response phrase before
        reading it. Prints the signed answer (card number masked, no signature).

        Exit status: 0 approved (14, 02) or processed with the outcome later (19, 40, or 20: send
        the payer to 3ds_url); 1 declined (aps.transactionDeclined) or refused before processing
        (aps.message.NNN); 75 unknown (server.outcomeUnknown naming the merchant reference: no
        verified answer, status 15, messages 006/051/071). Never send the same payment again after
        75: run 'cse aps check-status --merchant-reference R'. A reference APS has seen before
        (066, 007, 047) is settled the same way, and reported as that order's outcome.
        """
}

extension APSPaymentCommand {
    init(arguments: ParsedArguments<APSPaymentOptions>) throws(UsageError) {
        self.init(parsed: try APSPaymentOptions.Parsed(arguments))
    }

    func runAsync() async throws(CSEError) -> Int32 { try await parsed.run(Self.command) }
}

/// `cse aps purchase`.
struct APSPurchaseCommand: APSPaymentCommand {
    static let spec = CommandSpec(
        name: "aps purchase", abstract: "Take a payment with a stored card on Amazon Payment Services (PURCHASE, server to server).",
        discussion: APSPaymentOptions.discussion, options: APSPaymentOptions.self)
    static let command = APSPaymentRequest.Command.purchase
    let parsed: APSPaymentOptions.Parsed
}

/// `cse aps authorize`.
struct APSAuthorizeCommand: APSPaymentCommand {
    static let spec = CommandSpec(
        name: "aps authorize", abstract: "Authorise a payment with a stored card on Amazon Payment Services (AUTHORIZATION).",
        discussion: APSPaymentOptions.discussion, options: APSPaymentOptions.self)
    static let command = APSPaymentRequest.Command.authorization
    let parsed: APSPaymentOptions.Parsed
}

/// `cse aps check-status`: the reconciliation query.
struct APSCheckStatusCommand: NetworkCommand {
    static let spec = CommandSpec(
        name: "aps check-status",
        abstract: "Ask Amazon Payment Services for the order with a merchant reference (CHECK_STATUS).",
        discussion: """
            Prints the order's last operation as APS reports it (transaction_status,
            transaction_code, fort_id, authorized_amount, captured_amount, refunded_amount),
            after verifying the answer's signature; it settles a capture, refund or void that
            exited 75. An order APS does not know prints response_code 11036: the payment
            was not processed. CHECK_STATUS mainly reflects financial completion: a payment whose
            3-D Secure the payer did not finish may need the feedback as well.
            """,
        options: Options.self)

    /// The options of `cse aps check-status`.
    struct Options: CommandOptions {
        let reference: OptionKey<APSReferenceArgument>
        let server: ServerCallOptions.Keys

        init(_ declare: inout OptionDeclarations) {
            reference = declare.required(
                "merchant-reference", "R", as: APSReferenceArgument.self, help: "The merchant reference of the order.")
            server = APSPaymentSupport.keys(&declare)
        }
    }

    let options: ServerCallOptions
    let reference: String

    init(arguments: ParsedArguments<Options>) throws(UsageError) {
        options = try ServerCallOptions(arguments: arguments.group(\.server))
        reference = arguments[\.reference].reference
    }

    func runAsync() async throws(CSEError) -> Int32 {
        let transaction = try await APSPaymentSupport.client(options).checkStatus(merchantReference: reference)
        JSONLine.write(.object(transaction.parameters))
        return ExitCode.success
    }
}

/// `cse aps feedback-verify`: checks a transaction feedback as APS posts it.
struct APSFeedbackVerifyCommand: CLICommand {
    static let spec = CommandSpec(
        name: "aps feedback-verify",
        abstract: "Verify an Amazon Payment Services transaction feedback (direct or notification) on standard input.",
        discussion: """
            Reads the body exactly as APS posted it (form-encoded by default, or JSON; detected by
            content, or forced with --format) and checks its signature over every received
            parameter but 'signature' with the SHA response phrase, in constant time, before
            reading anything else. Prints {"valid":true,"outcome":…,"transaction":{…}} with the
            outcome succeeded (approved or pending, or a capture, refund or void that succeeded:
            status 04, 06, 08; exit 0), refused (declined, or a capture, refund or void that
            failed: 05, 07, 09; exit 1), notProcessed (status 00: 1) or unknown (status 15
            uncertain, 10, or a status APS does not document: 75, settle it with 'cse aps
            check-status'); a wrong or missing signature is the error aps.feedback.signature
            (exit 1) and nothing is printed on stdout. The body is at most 1 MiB. XML feedback is
            not read.
            """,
        options: Options.self)

    /// The options of `cse aps feedback-verify`.
    struct Options: CommandOptions {
        let format: OptionKey<FeedbackFormatArgument?>
        let credentials: OptionKey<String>

        init(_ declare: inout OptionDeclarations) {
            format = declare.value("format", "F", as: FeedbackFormatArgument.self, help: "form or json (default: detected from the body).")
            credentials = declare.required("credentials", "FILE", help: APSPaymentSupport.credentialsHelp + " (a JSON file, or env:NAME).")
        }
    }

    let format: APSPaymentClient.FeedbackFormat
    let credentialsSpec: String

    init(arguments: ParsedArguments<Options>) throws(UsageError) {
        format = arguments[\.format]?.format ?? .automatic
        credentialsSpec = arguments[\.credentials]
    }

    func run() throws(CSEError) -> Int32 {
        let body = try Files.readStandardInput(limit: NotificationLimits.maximumBodyByteCount)
        let credentials = try APSCredentials(document: try ServerCallOptions.credentials(credentialsSpec))
        let transaction = try APSPaymentClient.verifyFeedback(body, format: format, credentials: credentials)
        let standing = transaction.standing
        JSONLine.write(
            .object(
                JSONObject([
                    ("valid", .bool(true)), ("outcome", .string(standing.rawValue)), ("transaction", .object(transaction.parameters)),
                ])))
        switch standing {
        case .succeeded: return ExitCode.success
        case .refused, .notProcessed: return ExitCode.failure
        case .unknown: return ExitCode.outcomeUnknown
        }
    }
}
