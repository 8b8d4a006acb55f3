import CSECore
import CSEServerAPI

/// `cse mastercard authenticate`: 3-D Secure in the payer's browser, INITIATE_AUTHENTICATION then
/// AUTHENTICATE_PAYER (payment-lifecycle research notes §2.1).
struct MastercardAuthenticateCommand: NetworkCommand {
    /// The options.
    struct Options: CommandOptions {
        let order: OptionKey<MastercardIDArgument>
        let transaction: OptionKey<MastercardIDArgument>
        let session: OptionKey<String>
        let amount: OptionKey<AmountArgument>
        let currency: OptionKey<CurrencyArgument>
        let returnURL: OptionKey<String>
        let browser: OptionKey<String?>
        let gateway: MastercardCommandSupport.Options

        init(_ declare: inout OptionDeclarations) {
            order = declare.required("order", "ID", as: MastercardIDArgument.self, help: "The order the payment will belong to.")
            transaction = declare.required(
                "transaction", "AUTH", as: MastercardIDArgument.self,
                help: "A new transaction id for the authentication (not the payment's); the same id retries safely.")
            session = declare.required("session", "ID", help: "The session that holds the card.")
            amount = declare.required(
                "amount", "MINOR", as: AmountArgument.self, help: "The amount of the payment in minor units (sent in major units).")
            currency = declare.required("currency", "CUR", as: CurrencyArgument.self, help: "The currency, ISO 4217 (e.g. EUR).")
            returnURL = declare.required(
                "return-url", "URL", help: "Where the gateway sends the payer's browser after a challenge (an unsigned form POST).")
            browser = declare.value(
                "browser", "FILE", help: "The device object your page collected: {\"browser\",\"browserDetails\",\"ipAddress\"}.")
            gateway = MastercardCommandSupport.Options(&declare)
        }
    }

    static let spec = CommandSpec(
        name: "mastercard authenticate",
        abstract: "Authenticate the payer with 3-D Secure in the browser (INITIATE_AUTHENTICATION, AUTHENTICATE_PAYER).",
        discussion: """
            PUT …/order/{order}/transaction/{AUTH} with INITIATE_AUTHENTICATION (channel
            PAYER_BROWSER, purpose PAYMENT_TRANSACTION, 3DS2, the session and currency) and, only
            when the gateway answers PROCEED and AUTHENTICATION_AVAILABLE, AUTHENTICATE_PAYER on the
            same order and transaction (the amount, --return-url as
            authentication.redirectResponseUrl, and the device object of --browser). Prints the
            gateway's answer with card numbers masked.

            Exit status: 0 authenticated without a challenge (successful or attempted): pay with
            'cse mastercard pay … --authentication-transaction AUTH'; 3 the payer must complete a
            challenge: the output has "outcome":"pending" and "action":{"type":"html","html":…},
            the HTML to insert into the payer's page; afterwards the gateway POSTs order.id,
            transaction.id, result and response.gatewayRecommendation to --return-url. That POST is
            NOT signed: never trust it, pay with --authentication-transaction AUTH, which retrieves
            the authentication and pays only if it succeeded. 1 refused:
            mastercard.authentication.unavailable (3-D Secure is unavailable or not supported for
            the card and the gateway says PROCEED: payable with 'pay --authentication-transaction
            AUTH --allow-unauthenticated', you keep the liability),
            mastercard.authentication.doNotProceed (the gateway recommends not to proceed),
            mastercard.authentication.failed (the payer was not authenticated), or
            mastercard.invalidRequest; 75 unknown (server.outcomeUnknown): run the same command
            again (the same ids replay the first answer) or 'cse mastercard retrieve ORDER AUTH'.
            """,
        options: Options.self)

    let gateway: MastercardCommandSupport.Parsed
    let request: Result<MastercardAuthenticationRequest, CSEError>
    let browserPath: String?

    init(arguments: ParsedArguments<Options>) throws(UsageError) {
        gateway = try MastercardCommandSupport.Parsed(arguments.group(\.gateway))
        let order = arguments[\.order].id, transaction = arguments[\.transaction].id, session = arguments[\.session]
        let amount = Int64(arguments[\.amount].minorUnits), currency = arguments[\.currency].currency
        let returnURL = arguments[\.returnURL]
        browserPath = arguments[\.browser]
        let path = browserPath
        request = Result { () throws(CSEError) -> MastercardAuthenticationRequest in
            let device = try path.map { (path) throws(CSEError) -> [UInt8] in try Files.read(path, limit: 64 * 1024) }
            return try MastercardAuthenticationRequest(
                orderID: order, transactionID: transaction, sessionID: session, amount: amount, currency: currency, returnURL: returnURL,
                deviceJSON: device)
        }
    }

    func runAsync() async throws(CSEError) -> Int32 {
        let request = try request.get()
        let outcome = try await gateway.client().authenticate(request)
        if case .succeeded = outcome {
            StandardStreams.err(
                "cse: authenticated without a challenge; pay with 'cse mastercard pay … --order \(request.orderID) "
                    + "--authentication-transaction \(request.transactionID)'\n")
        }
        return PaymentOutcomeOutput.finish(
            outcome,
            settle:
                "settle it with 'cse mastercard retrieve \(request.orderID) \(request.transactionID)', or run the same command again (the same ids are the same transaction)",
            resume:
                "insert the action's HTML into the payer's page; the gateway then POSTs an UNSIGNED result to the return URL: do not trust "
                + "it, pay with 'cse mastercard pay --order \(request.orderID) --authentication-transaction \(request.transactionID) …', "
                + "which retrieves the authentication and checks it",
            id: \.transactionID, status: \.authenticationStatus, json: \.maskedValue)
    }
}
