import CSECore
import CSEServerAPI
import CSEWallets
import CSEValidation

/// What `cse mastercard pay` and `cse mastercard authorize` share: the options, the funding
/// source read from the options or standard input, and the outcome's exit status.
enum MastercardPaymentSupport {
    /// The options of `cse mastercard pay|authorize`.
    struct Options: CommandOptions {
        let order: OptionKey<MastercardIDArgument>
        let transaction: OptionKey<MastercardIDArgument>
        let amount: OptionKey<AmountArgument>
        let currency: OptionKey<CurrencyArgument>
        let session: OptionKey<String?>
        let wallet: OptionKey<Wallet?>
        let decrypted: OptionKey<Bool>
        let authenticationTransaction: OptionKey<String?>
        let gateway: MastercardCommandSupport.Options

        init(_ declare: inout OptionDeclarations) {
            order = declare.required(
                "order", "ID", as: MastercardIDArgument.self, help: "Your order id (1-40 letters, digits, '-', '_', '.').")
            transaction = declare.required(
                "transaction", "ID", as: MastercardIDArgument.self,
                help: "Your transaction id, new for each transaction of the order; the same id retries safely.")
            amount = declare.required(
                "amount", "MINOR", as: AmountArgument.self, help: "The amount in minor units (2345 is 23.45 EUR; sent in major units).")
            currency = declare.required("currency", "CUR", as: CurrencyArgument.self, help: "The currency, ISO 4217 (e.g. EUR).")
            session = declare.value("session", "ID", help: "Pay with the card the mobile SDK put into this session.")
            wallet = declare.value(
                "wallet", "NAME", as: Wallet.self,
                help: "apple-pay or google-pay: the wallet token on standard input, decrypted by the gateway.")
            decrypted = declare.flag("decrypted", help: "With --wallet: read the output of 'cse wallet decrypt' instead (device data).")
            authenticationTransaction = declare.value(
                "authentication-transaction", "ID", help: "The 3-D Secure authentication transaction of this order.")
            gateway = MastercardCommandSupport.Options(&declare, journal: true)
            declare.oneOf([session, wallet])
            declare.need(wallet, by: [decrypted])
        }
    }

    /// The parsed options.
    struct Parsed: Sendable {
        let gateway: MastercardCommandSupport.Parsed
        let orderID: String
        let transactionID: String
        let amount: Int
        let currency: Currency
        let session: String?
        let wallet: Wallet?
        let decrypted: Bool
        let authenticationTransaction: String?

        init(_ arguments: ParsedArguments<Options>) throws(UsageError) {
            gateway = try MastercardCommandSupport.Parsed(arguments.group(\.gateway))
            orderID = arguments[\.order].id
            transactionID = arguments[\.transaction].id
            amount = arguments[\.amount].minorUnits
            currency = arguments[\.currency].currency
            session = arguments[\.session]
            wallet = arguments[\.wallet]
            decrypted = arguments[\.decrypted]
            authenticationTransaction = arguments[\.authenticationTransaction]
        }

        /// The funding source: the session, or the wallet token read from standard input (a bare
        /// token, or the object that carries it: Apple's `PKPaymentToken` with `paymentData`, or
        /// Apple Pay JS's `{"token":{…}}` around it; Google's `PaymentData` with
        /// `paymentMethodData.tokenizationData.token`).
        func source() throws(CSEError) -> MastercardFundingSource {
            // The parser took exactly one of --session and --wallet.
            guard let wallet else { return .session(id: session ?? "") }
            // Decrypted device data holds a DPAN and a cryptogram: the bytes read are wiped at the end.
            var raw = try Files.readStandardInput(limit: 64 * 1024)
            defer { secureZero(&raw) }
            let input = Files.trimmingTrailingWhitespace(raw)
            let value = try JSONValue.parse(input)
            if decrypted {
                let output = try JSONObjectInput.object(value, orElse: "the input must be 'cse wallet decrypt' output")
                return .decryptedDevicePayment(try WalletCard(decryptionOutput: output, from: wallet))
            }
            let token: String
            // Apple Pay JS delivers `{"token":{"paymentData",…},"billingContact",…}`.
            let apple = value["token"]?.objectValue.map(JSONValue.object) ?? value
            if let paymentData = apple["paymentData"], paymentData.objectValue != nil {
                token = paymentData.serialized
            } else if let google = value["paymentMethodData"]?["tokenizationData"]?["token"]?.stringValue {
                token = google
            } else {
                token = String(decoding: input, as: UTF8.self)
            }
            return .walletToken(wallet, token: token)
        }

        /// Sends `operation` and prints its outcome.
        func run(_ operation: MastercardTransactionRequest.Operation) async throws(CSEError) -> Int32 {
            let request = try MastercardTransactionRequest(
                operation, orderID: orderID, transactionID: transactionID, amount: Int64(amount), currency: currency,
                source: try source(), authenticationTransactionID: authenticationTransaction)
            let outcome = try await gateway.client().perform(request)
            return PaymentOutcomeOutput.finish(
                outcome,
                settle:
                    "settle it with 'cse mastercard retrieve \(orderID) \(transactionID)', or run the same command again (the same ids are the same transaction)",
                id: \.transactionID,
                status: { $0.gatewayCode ?? $0.result }, json: \.maskedValue)
        }
    }

    static let discussion = """
        PUT …/order/{order}/transaction/{transaction} with HTTP Basic authentication. The money
        comes from --session (the card the mobile SDK put into the session; --authentication-transaction
        links a 3-D Secure result) or from --wallet (the token on standard input: Apple Pay's
        paymentData or PKPaymentToken, Google Pay's token or PaymentData; API version 47 or later),
        or with --wallet … --decrypted from the output of 'cse wallet decrypt' (the DPAN, expiry and
        cryptogram as device data; member names of medium confidence, see docs/GATEWAYS.md).
        The amount is given in minor units and sent as a decimal in major units, converted with the
        ISO 4217 table. Prints the gateway's answer with card numbers masked.

        Exit status: 0 approved or pending (result SUCCESS with an approving gateway code, or
        PENDING/SUBMITTED: follow it with 'cse mastercard retrieve'); 1 declined
        (mastercard.transactionDeclined) or refused before processing; 75 unknown
        (server.outcomeUnknown: no answer was read, result UNKNOWN, or SERVER_BUSY/SERVER_FAILED).
        The order and transaction ids make the call idempotent: run the same command again to get
        the first answer, never with a new transaction id.
        """
}

/// `cse mastercard pay` and `cse mastercard authorize`: one transaction command per operation.
protocol MastercardTransactionCommand: NetworkCommand where Options == MastercardPaymentSupport.Options {
    /// The operation sent.
    static var operation: MastercardTransactionRequest.Operation { get }
    /// The parsed options.
    var parsed: MastercardPaymentSupport.Parsed { get }
    /// Makes the command from parsed options.
    init(parsed: MastercardPaymentSupport.Parsed)
}

extension MastercardTransactionCommand {
    init(arguments: ParsedArguments<MastercardPaymentSupport.Options>) throws(UsageError) {
        self.init(parsed: try MastercardPaymentSupport.Parsed(arguments))
    }

    func runAsync() async throws(CSEError) -> Int32 { try await parsed.run(Self.operation) }
}

/// `cse mastercard pay`: PAY, authorise and capture.
struct MastercardPayCommand: MastercardTransactionCommand {
    static let spec = CommandSpec(
        name: "mastercard pay", abstract: "Take a payment on the Mastercard Gateway (PAY: authorise and capture).",
        discussion: MastercardPaymentSupport.discussion, options: MastercardPaymentSupport.Options.self)
    static let operation = MastercardTransactionRequest.Operation.pay
    let parsed: MastercardPaymentSupport.Parsed
}

/// `cse mastercard authorize`: AUTHORIZE only.
struct MastercardAuthorizeCommand: MastercardTransactionCommand {
    static let spec = CommandSpec(
        name: "mastercard authorize", abstract: "Authorise a payment on the Mastercard Gateway (AUTHORIZE).",
        discussion: MastercardPaymentSupport.discussion, options: MastercardPaymentSupport.Options.self)
    static let operation = MastercardTransactionRequest.Operation.authorize
    let parsed: MastercardPaymentSupport.Parsed
}

/// `cse mastercard retrieve ORDER [TRANSACTION]`.
struct MastercardRetrieveCommand: NetworkCommand {
    static let spec = CommandSpec(
        name: "mastercard retrieve",
        abstract: "Retrieve a Mastercard Gateway order, or one of its transactions.",
        discussion: """
            GET …/order/{order} (RETRIEVE ORDER) or …/order/{order}/transaction/{transaction}
            (RETRIEVE TRANSACTION), with card numbers masked. This settles a payment that ended
            with exit status 75 or a pending one; a transaction the gateway never received is
            mastercard.invalidRequest, and then the same 'cse mastercard pay' is safe to run again.
            """,
        options: MastercardCommandSupport.Options.self,
        positionals: [.init("ORDER", help: "The order id."), .init("TRANSACTION", required: false, help: "The transaction id.")])

    let parsed: MastercardCommandSupport.Parsed
    let order: String
    let transaction: String?

    init(arguments: ParsedArguments<MastercardCommandSupport.Options>) throws(UsageError) {
        parsed = try MastercardCommandSupport.Parsed(arguments)
        order = arguments.positionals.first ?? ""
        transaction = arguments.positionals.dropFirst().first
    }

    func runAsync() async throws(CSEError) -> Int32 {
        let client = try parsed.client()
        if let transaction {
            JSONLine.write(try await client.retrieveTransaction(orderID: order, transactionID: transaction).maskedValue)
        } else {
            JSONLine.write(try await client.retrieveOrderValue(orderID: order))
        }
        return ExitCode.success
    }
}
