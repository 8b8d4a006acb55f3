import CSECore
import CSEHTTP
import CSEServerAPI
import CSEWallets
import CSEValidation

/// What `cse paysafe pay` and `cse paysafe lookup` share.
enum PaysafePaymentSupport {
    static let credentialsHelp = "Paysafe server-to-server credentials {\"apiKey\"} (base64 of username:password)"

    static func client(_ options: ServerCallOptions) throws(CSEError) -> PaysafePaymentClient {
        let credentials = try PaysafeCredentials(document: try options.credentials())
        return try PaysafePaymentClient(
            credentials: credentials, environment: options.environment(options.isProduction ? .paysafeProduction : .paysafeTest),
            configuration: options.configuration)
    }
}

/// `cse paysafe pay`: a payment on the Payments API (payment handle) or the Card Payments API
/// (single-use token and account).
struct PaysafePayCommand: NetworkCommand {
    static let spec = CommandSpec(
        name: "paysafe pay",
        abstract: "Take a Paysafe payment with a payment handle (Payments API) or a single-use card token (Card Payments API).",
        discussion: """
            --payment-handle H posts to /paymenthub/v1/payments with dupCheck on; --token T
            --account ID posts to /cardpayments/v1/accounts/{ID}/auths. The two APIs and their tokens
            are not interchangeable. The merchant reference makes a retry safe: Paysafe refuses a
            second payment with it (409), and then the payment with that reference is looked up and
            its outcome reported, never a failure. Prints {"id","status","merchantRefNum","amount",
            "currencyCode","lastDigits","authCode"}.

            Exit status: 0 completed or still processing (look it up later with 'cse paysafe
            lookup'); 1 declined (paysafe.paymentDeclined) or refused before processing; 75 unknown
            (server.outcomeUnknown naming the merchant reference: run 'cse paysafe lookup' or the
            same command again).
            """,
        options: Options.self)

    /// The options of `cse paysafe pay`.
    struct Options: CommandOptions {
        let amount: OptionKey<AmountArgument>
        let currency: OptionKey<CurrencyArgument>
        let reference: OptionKey<PaysafeReferenceArgument>
        let paymentHandle: OptionKey<String?>
        let token: OptionKey<String?>
        let account: OptionKey<String?>
        let authorizeOnly: OptionKey<Bool>
        let server: ServerCallOptions.Keys

        init(_ declare: inout OptionDeclarations) {
            amount = declare.required("amount", "MINOR", as: AmountArgument.self, help: "The amount in minor units (e.g. 2345 for 23.45).")
            currency = declare.required("currency", "CUR", as: CurrencyArgument.self, help: "The currency, ISO 4217 (e.g. EUR).")
            reference = declare.required(
                "merchant-ref", "R", as: PaysafeReferenceArgument.self, help: "Your unique reference of the payment (merchantRefNum).")
            paymentHandle = declare.value("payment-handle", "H", help: "A payment handle token: the Payments API.")
            token = declare.value("token", "T", help: "A single-use card token ('cse paysafe token'): the Card Payments API.")
            account = declare.value("account", "ID", help: "The Card Payments account id (with --token).")
            authorizeOnly = declare.flag("authorize-only", help: "Authorise without settling (settleWithAuth false).")
            server = ServerCallOptions.Keys(
                &declare, credentialsHelp: PaysafePaymentSupport.credentialsHelp, environment: .choice, journal: true)
            declare.oneOf([paymentHandle, token])
            declare.together([token, account])
        }
    }

    let options: ServerCallOptions
    let amount: Int
    let currency: Currency
    let reference: String
    let source: PaysafePaymentRequest.Source
    let settle: Bool

    init(arguments: ParsedArguments<Options>) throws(UsageError) {
        options = try ServerCallOptions(arguments: arguments.group(\.server))
        amount = arguments[\.amount].minorUnits
        currency = arguments[\.currency].currency
        reference = arguments[\.reference].reference
        // The parser took --payment-handle, or --token with --account.
        if let handle = arguments[\.paymentHandle] {
            source = .paymentHandle(handle)
        } else {
            source = .cardToken(arguments[\.token] ?? "", accountID: arguments[\.account] ?? "")
        }
        settle = !arguments[\.authorizeOnly]
    }

    func runAsync() async throws(CSEError) -> Int32 {
        let request = try PaysafePaymentRequest(
            merchantReference: reference, amount: Int64(amount), currency: currency, source: source, settleWithAuthorization: settle)
        let outcome = try await PaysafePaymentSupport.client(options).pay(request)
        return PaymentOutcomeOutput.finish(
            outcome,
            settle:
                "settle it with 'cse paysafe lookup --merchant-ref \(SafeEcho.withoutControls(reference))', or run the same command again (the reference makes a repeat a duplicate, not a second payment)",
            id: \.id, status: \.status, json: \.json)
    }
}

/// `cse paysafe lookup`: the payments, settlements, refunds or void authorisations with a
/// merchant reference.
struct PaysafeLookupCommand: NetworkCommand {
    static let spec = CommandSpec(
        name: "paysafe lookup",
        abstract: "List the Paysafe payments, settlements, refunds or voids with a merchant reference (how an unknown outcome is settled).",
        discussion: """
            --kind payment (the default): GET /paymenthub/v1/payments?merchantRefNum=R, or with
            --account ID the Card Payments API's /cardpayments/v1/accounts/{ID}/auths?merchantRefNum=R;
            prints {"payments":[{"id","status",…}]}. --kind settlement|refund|void: GET
            /paymenthub/v1/settlements|refunds|voidauths?merchantRefNum=R (with --account, under
            /cardpayments/v1/accounts/{ID}/); prints {"settlements"|"refunds"|"voidAuths":[{"kind",
            "id","status",…}]}. An empty list means nothing was made with the reference, so the same
            command can be sent again.
            """,
        options: Options.self)

    /// The options of `cse paysafe lookup`.
    struct Options: CommandOptions {
        let reference: OptionKey<PaysafeReferenceArgument>
        let kind: OptionKey<PaysafeLookupKind?>
        let account: OptionKey<String?>
        let server: ServerCallOptions.Keys

        init(_ declare: inout OptionDeclarations) {
            reference = declare.required(
                "merchant-ref", "R", as: PaysafeReferenceArgument.self, help: "The merchant reference (merchantRefNum).")
            kind = declare.value(
                "kind", "KIND", as: PaysafeLookupKind.self, help: "payment (default), settlement, refund or void: what the reference names."
            )
            account = declare.value("account", "ID", help: "A Card Payments account id: look up its auths instead.")
            server = ServerCallOptions.Keys(&declare, credentialsHelp: PaysafePaymentSupport.credentialsHelp, environment: .choice)
        }
    }

    let options: ServerCallOptions
    let reference: String
    let kind: PaysafeLookupKind
    let account: String?

    init(arguments: ParsedArguments<Options>) throws(UsageError) {
        options = try ServerCallOptions(arguments: arguments.group(\.server))
        reference = arguments[\.reference].reference
        kind = arguments[\.kind] ?? .payment
        account = arguments[\.account]
    }

    func runAsync() async throws(CSEError) -> Int32 {
        let client = try PaysafePaymentSupport.client(options)
        guard let operation = kind.operation else {
            let payments = try await client.payments(merchantReference: reference, accountID: account)
            JSONLine.write(.object(JSONObject([("payments", .array(payments.map(\.json)))])))
            return ExitCode.success
        }
        let found = try await client.operations(operation, merchantReference: reference, accountID: account)
        JSONLine.write(.object(JSONObject([(operation.listMember, .array(found.map(\.json)))])))
        return ExitCode.success
    }
}

/// `cse paysafe wallet-token`: an Apple Pay or Google Pay token to a Paysafe single-use token.
struct PaysafeWalletTokenCommand: NetworkCommand {
    static let spec = CommandSpec(
        name: "paysafe wallet-token",
        abstract: "Turn an Apple Pay or Google Pay token on standard input into a Paysafe single-use token.",
        discussion: """
            --wallet apple-pay posts the PKPaymentToken (or Apple Pay JS's {"token":…,"billingContact":…})
            to /customervault/v1/applepaysingleusetokens; with --decrypted it reads the output of
            'cse wallet decrypt' and sends its paymentData as decryptedData instead (the merchant
            then holds the card data). --wallet google-pay posts the token (or a whole PaymentData)
            to /customervault/v1/googlepaysingleusetokens; Paysafe documents no decrypted form for
            it. Prints {"id","paymentToken","timeToLiveSeconds","card":{…}}, the token for 'cse
            paysafe pay --token T --account ID' (the Card Payments API). The input bytes are wiped.
            """,
        options: Options.self)

    /// The options of `cse paysafe wallet-token`.
    struct Options: CommandOptions {
        let wallet: OptionKey<Wallet>
        let decrypted: OptionKey<Bool>
        let server: ServerCallOptions.Keys

        init(_ declare: inout OptionDeclarations) {
            wallet = declare.required("wallet", "NAME", as: Wallet.self, help: "apple-pay or google-pay.")
            decrypted = declare.flag("decrypted", help: "Apple Pay: read the output of 'cse wallet decrypt' (decryptedData).")
            server = ServerCallOptions.Keys(
                &declare, credentialsHelp: "Paysafe credentials {\"apiKey\"} (the single-use-token key)", environment: .choice)
            declare.conflict(
                [decrypted], with: wallet.where { $0 != .applePay },
                reason: "Paysafe's Customer Vault has no decrypted Google Pay token")
        }
    }

    let options: ServerCallOptions
    let wallet: Wallet
    let decrypted: Bool

    init(arguments: ParsedArguments<Options>) throws(UsageError) {
        options = try ServerCallOptions(arguments: arguments.group(\.server))
        wallet = arguments[\.wallet]
        decrypted = arguments[\.decrypted]
    }

    func runAsync() async throws(CSEError) -> Int32 {
        var input = try Files.readStandardInput(limit: 64 * 1024)
        defer { secureZero(&input) }
        let object = try JSONObjectInput.parse(input, orElse: "the wallet token must be a JSON object")
        let credentials = try PaysafeCredentials(document: try options.credentials())
        let client = try PaysafeTokenClient(
            credentials: credentials, environment: options.environment(options.isProduction ? .paysafeProduction : .paysafeTest),
            configuration: options.configuration)
        let token: PaysafeSingleUseToken
        switch wallet {
        case .applePay where decrypted:
            // The one reader of 'cse wallet decrypt' output checks the card; Paysafe takes
            // Apple's decrypted object itself ("keep the original format").
            _ = try WalletCard(decryptionOutput: object, from: .applePay)
            guard let data = object["paymentData"]?.objectValue else {
                throw CSEError(
                    .serverAPIInvalidArgument, "the input is not Apple Pay output of 'cse wallet decrypt'",
                    context: ["argument": "paymentData"])
            }
            token = try await client.createApplePaySingleUseToken(token: JSONObject(), decrypted: data)
        case .applePay:
            token = try await client.createApplePaySingleUseToken(token: object)
        case .googlePay:
            token = try await client.createGooglePaySingleUseToken(token: object)
        }
        JSONLine.write(token.json)
        return ExitCode.success
    }
}
