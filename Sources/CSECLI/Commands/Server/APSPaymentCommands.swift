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
protocol APSPaymentCommand: NetworkCommand where Options: APSPaymentCommandOptions {
    /// The APS `command` sent.
    static var command: APSPaymentRequest.Command { get }
    /// The parsed options.
    var parsed: APSPaymentOptions.Parsed { get }
    /// Makes the command from parsed options.
    init(parsed: APSPaymentOptions.Parsed)
}

/// The options of one of `cse aps purchase|authorize`: the payment keys declared for its command.
protocol APSPaymentCommandOptions: CommandOptions {
    /// The keys.
    var payment: APSPaymentOptions { get }
}

/// The options of `cse aps purchase`.
struct APSPurchaseOptions: APSPaymentCommandOptions {
    let payment: APSPaymentOptions
    init(_ declare: inout OptionDeclarations) { payment = APSPaymentOptions(&declare, command: .purchase) }
}

/// The options of `cse aps authorize`.
struct APSAuthorizeOptions: APSPaymentCommandOptions {
    let payment: APSPaymentOptions
    init(_ declare: inout OptionDeclarations) { payment = APSPaymentOptions(&declare, command: .authorization) }
}

/// `--merchant-initiated recurring|unscheduled|instalment` of `cse aps purchase`.
extension APSMerchantInitiated: ArgumentValue {}

/// `--recurring-mode unscheduled|variable|fixed`.
enum APSRecurringModeArgument: String, CaseIterable, ArgumentValue {
    case unscheduled, variable, fixed

    /// The library's mode.
    var mode: APSAgreement.Mode {
        switch self {
        case .unscheduled: .unscheduled
        case .variable: .variable
        case .fixed: .fixed
        }
    }
}

/// `--recurring-transactions-count N` and `--recurring-days-between-payments N`: 1 to 999.
struct APSRecurringCountArgument: ArgumentValue {
    /// The number.
    let value: Int
    /// A number 1…999 without sign or leading zero.
    init?(argument: String) {
        guard (1...3).contains(argument.utf8.count), argument.utf8.allSatisfy(\.isASCIIDigit), !argument.hasPrefix("0"),
            let value = Int(argument)
        else { return nil }
        self.value = value
    }
    /// Open: a number.
    static var allValueStrings: [String] { [] }
    /// The rule.
    static var valueDescription: String { "a number from 1 to 999" }
}

/// `--recurring-expiry-date YYYY-MM-DD`.
struct APSCalendarDateArgument: ArgumentValue {
    /// The date as given.
    let date: String
    /// A calendar date `YYYY-MM-DD`.
    init?(argument: String) {
        guard APSAgreement.isCalendarDate(argument) else { return nil }
        date = argument
    }
    /// Open: a date.
    static var allValueStrings: [String] { [] }
    /// The rule.
    static var valueDescription: String { "a date YYYY-MM-DD" }
}

/// The options of `cse aps purchase|authorize`.
struct APSPaymentOptions: Sendable {
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
    let returnURL: OptionKey<String?>
    let rememberMe: OptionKey<Bool>
    /// `--merchant-initiated` (`cse aps purchase` only: APS charges a saved card without the
    /// payer with PURCHASE only, "Recurring Payments API").
    let merchantInitiated: OptionKey<APSMerchantInitiated?>?
    let agreement: OptionKey<String?>
    let recurringMode: OptionKey<APSRecurringModeArgument?>
    let transactionsCount: OptionKey<APSRecurringCountArgument?>
    let expiryDate: OptionKey<APSCalendarDateArgument?>
    let daysBetweenPayments: OptionKey<APSRecurringCountArgument?>
    let server: ServerCallOptions.Keys

    init(_ declare: inout OptionDeclarations, command: APSPaymentRequest.Command) {
        tokenName = declare.value(
            "token-name", "T",
            help: "The card's token (token_name): from the mobile SDK, or a saved card's from a verified answer or feedback.")
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
        returnURL = declare.value(
            "return-url", "URL", help: "Where APS sends the payer back after a 3-D Secure challenge (return_url, at most 400 characters).")
        rememberMe = declare.flag(
            "remember-me", help: "Save the card (remember_me YES): the verified answer's token_name is the saved card's permanent token.")
        merchantInitiated =
            command == .purchase
            ? declare.value(
                "merchant-initiated", "KIND", as: APSMerchantInitiated.self,
                help: "Charge a saved card without the payer (eci RECURRING): recurring, unscheduled or instalment; needs --agreement.")
            : nil
        agreement = declare.value(
            "agreement", "ID", help: "The recurring agreement (agreement_id): set up by a payer payment, charged by --merchant-initiated.")
        recurringMode = declare.value(
            "recurring-mode", "MODE", as: APSRecurringModeArgument.self,
            help: "recurring_mode: unscheduled, variable or fixed (default: from --merchant-initiated).")
        transactionsCount = declare.value(
            "recurring-transactions-count", "N", as: APSRecurringCountArgument.self, help: "recurring_transactions_count: 1 to 999.")
        expiryDate = declare.value(
            "recurring-expiry-date", "DATE", as: APSCalendarDateArgument.self, help: "recurring_expiry_date: YYYY-MM-DD.")
        daysBetweenPayments = declare.value(
            "recurring-days-between-payments", "N", as: APSRecurringCountArgument.self,
            help: "recurring_days_between_payments: 1 to 999.")
        server = APSPaymentSupport.keys(&declare, journal: true)
        declare.oneOf([tokenName, wallet])
        declare.need(wallet, by: [appleCredentials, appleHeaderOrder])
        declare.need(appleCredentials, by: [wallet])
        declare.need(customerIP, by: [wallet])
        declare.need(tokenName, by: [rememberMe, agreement], reason: "a saved card and an agreement are a token's")
        declare.need(agreement, by: [recurringMode, transactionsCount, expiryDate, daysBetweenPayments])
        declare.conflict(
            [daysBetweenPayments], with: recurringMode.is(.unscheduled), reason: "an unscheduled agreement has no schedule")
        if let merchantInitiated {
            declare.need(agreement, by: [merchantInitiated], reason: "APS charges a saved card with its token_name and agreement_id")
            declare.conflict(
                [returnURL, rememberMe, customerIP], with: merchantInitiated,
                reason: "the payer is not there: no 3-D Secure, and the card is saved already")
            declare.conflict(
                [recurringMode.where { $0 != .unscheduled }, daysBetweenPayments], with: merchantInitiated.is(.unscheduled),
                reason: "an unscheduled payment has no schedule")
            declare.conflict(
                [recurringMode.is(.unscheduled)], with: merchantInitiated.where { $0 != .unscheduled },
                reason: "recurring and instalment payments are scheduled")
            declare.conflict(
                [recurringMode.is(.variable)], with: merchantInitiated.is(.instalment), reason: "instalments are FIXED")
            declare.need(
                transactionsCount, by: [merchantInitiated.is(.instalment)], reason: "an instalment plan has a number of payments")
        }
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
        let returnURL: String?
        let rememberMe: Bool
        let merchantInitiated: APSMerchantInitiated?
        let agreementID: String?
        let recurringMode: APSAgreement.Mode?
        let transactionsCount: Int?
        let expiryDate: String?
        let daysBetweenPayments: Int?

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
            returnURL = arguments[\.returnURL]
            rememberMe = arguments[\.rememberMe]
            merchantInitiated = arguments[\.merchantInitiated]
            agreementID = arguments[\.agreement]
            recurringMode = arguments[\.recurringMode]?.mode
            transactionsCount = arguments[\.transactionsCount]?.value
            expiryDate = arguments[\.expiryDate]?.date
            daysBetweenPayments = arguments[\.daysBetweenPayments]?.value
        }

        func request(_ command: APSPaymentRequest.Command) throws(CSEError) -> APSPaymentRequest {
            let agreement = try agreementID.map { (id: String) throws(CSEError) in
                try APSAgreement(
                    id: id, mode: recurringMode, transactionsCount: transactionsCount, expiryDate: expiryDate,
                    daysBetweenPayments: daysBetweenPayments)
            }
            if let tokenName, let merchantInitiated, let agreement {
                return try .merchantInitiated(
                    merchantInitiated, merchantReference: reference, amount: Int64(amount), currency: currency, customerEmail: email,
                    tokenName: tokenName, agreement: agreement, language: language)
            }
            if let tokenName {
                return try APSPaymentRequest(
                    command, merchantReference: reference, amount: Int64(amount), currency: currency, customerEmail: email,
                    tokenName: tokenName, customerIP: customerIP, language: language, returnURL: returnURL, rememberMe: rememberMe,
                    agreement: agreement)
            }
            let token = try JSONObjectInput.parse(
                try Files.readStandardInput(limit: 64 * 1024), orElse: "the Apple Pay token must be a JSON object")
            return try APSPaymentRequest(
                applePay: command, merchantReference: reference, amount: Int64(amount), currency: currency, customerEmail: email,
                customerIP: customerIP ?? "", token: token, language: language, headerOrder: appleHeaderOrder)
        }

        func run(_ command: APSPaymentRequest.Command) async throws(CSEError) -> Int32 {
            let request = try request(command)
            let outcome = try await APSPaymentSupport.client(options, appleCredentials: appleCredentials).pay(request)
            // APS has no call that reads a token: the card a lost payment saved is named by its feedback.
            let token = request.savesCard ? " (the saved card's token_name comes with its feedback: 'cse aps feedback-verify')" : ""
            return PaymentOutcomeOutput.finish(
                outcome,
                settle:
                    "settle it with 'cse aps check-status --merchant-reference \(SafeEcho.withoutControls(reference))'\(token); do not send the purchase again",
                resume: APSPaymentSupport.resume(reference), id: \.fortID,
                status: { $0.responseCode.description }, json: { APSPaymentSupport.json($0, request) })
        }
    }

    static let discussion = """
        With --wallet apple-pay, the PKPaymentToken on standard input goes as apple_data,
        apple_signature, apple_header and apple_paymentMethod with digital_wallet APPLE_PAY, signed
        with the Apple Pay credential set (--apple-credentials); APS decrypts it. Otherwise:
        POSTs the command with token_name, signed with the SHA request phrase, to
        FortAPI/paymentApi, and verifies the answer's signature with the SHA response phrase before
        reading it. Prints the signed answer (card number masked, no signature).

        A card enrolled in 3-D Secure needs --return-url: APS puts the payment on hold (status 20)
        with a 3ds_url where the payer's browser goes; after the challenge APS sends the browser to
        the return URL with the signed result ('cse aps feedback-verify' checks it; settle the
        order with the feedback or 'cse aps check-status').

        Saved cards: --remember-me saves the card; the verified answer of the approved payment
        (or its verified feedback, after a challenge) carries the permanent token_name, printed
        as "savedCard". --agreement ID on a payer payment sets up a recurring agreement (printed
        as "agreementSetUp"); 'cse aps purchase --merchant-initiated recurring|unscheduled|instalment
        --agreement ID --token-name SAVED' charges it later without the payer (eci RECURRING,
        PURCHASE only). 'cse aps update-token' changes or deactivates a saved card.

        Exit status: 0 approved (14, 02); 3 pending (20 on hold for 3-D Secure, with "outcome":"pending"
        and the action {"type":"redirect","url":3ds_url,"method":"GET"}: send the payer there; 19 and
        40: APS decides later; stderr names how to resume); 1 declined (aps.transactionDeclined), a token unknown or inactive
        (aps.token.unknown), or refused before processing (aps.message.NNN); 75 unknown
        (server.outcomeUnknown naming the merchant reference: no verified answer, status 15,
        messages 006/051/071). Never send the same payment again after 75: run 'cse aps
        check-status --merchant-reference R'. A reference APS has seen before (066, 007, 047) is
        settled the same way, and reported as that order's outcome.
        """
}

extension APSPaymentSupport {
    /// How a pending APS payment goes on (issue #34): the payer follows the action, APS sends the
    /// browser back to the return URL, and the order is settled with the feedback or CHECK_STATUS.
    static func resume(_ reference: String) -> String {
        let reference = SafeEcho.withoutControls(reference)
        return "after the payer's 3-D Secure challenge APS sends the browser to the return URL: verify it with 'cse aps "
            + "feedback-verify --merchant-reference \(reference)', then settle the order with its feedback or 'cse aps check-status "
            + "--merchant-reference \(reference)' (19 and 40: APS decides later, check-status reads it); do not send the purchase again"
    }

    /// The printed answer: the verified parameters, plus what the merchant keeps: `savedCard`
    /// (the permanent token of a card saved with `--remember-me`, from the verified answer) and
    /// `agreementSetUp` (the agreement an approved payer payment set up).
    static func json(_ transaction: APSTransaction, _ request: APSPaymentRequest) -> JSONValue {
        var object = transaction.parameters
        guard transaction.isApproved, let tokenName = transaction.tokenName else { return .object(object) }
        if request.savesCard {
            object["savedCard"] = .object(savedCard(transaction, tokenName))
        }
        if request.setsUpAgreement, let agreement = request.agreement {
            object["agreementSetUp"] = .object(
                JSONObject([("agreementId", .string(agreement.id)), ("tokenName", .string(tokenName))]))
        }
        return .object(object)
    }

    /// `{"tokenName","cardNumber","brand","expiryDate"}` of a verified answer or feedback.
    static func savedCard(_ transaction: APSTransaction, _ tokenName: String) -> JSONObject {
        var card = JSONObject([("tokenName", .string(tokenName))])
        for (member, name) in [("cardNumber", "card_number"), ("brand", "payment_option"), ("expiryDate", "expiry_date")] {
            if let value = transaction.parameters[name] { card[member] = value }
        }
        return card
    }
}

extension APSPaymentCommand {
    init(arguments: ParsedArguments<Options>) throws(UsageError) {
        self.init(parsed: try APSPaymentOptions.Parsed(arguments.group(\.payment)))
    }

    func runAsync() async throws(CSEError) -> Int32 { try await parsed.run(Self.command) }
}

/// `cse aps purchase`.
struct APSPurchaseCommand: APSPaymentCommand {
    static let spec = CommandSpec(
        name: "aps purchase", abstract: "Take a payment with a stored card on Amazon Payment Services (PURCHASE, server to server).",
        discussion: APSPaymentOptions.discussion, options: APSPurchaseOptions.self)
    typealias Options = APSPurchaseOptions
    static let command = APSPaymentRequest.Command.purchase
    let parsed: APSPaymentOptions.Parsed
}

/// `cse aps authorize`.
struct APSAuthorizeCommand: APSPaymentCommand {
    static let spec = CommandSpec(
        name: "aps authorize", abstract: "Authorise a payment with a stored card on Amazon Payment Services (AUTHORIZATION).",
        discussion: APSPaymentOptions.discussion, options: APSAuthorizeOptions.self)
    typealias Options = APSAuthorizeOptions
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
            after verifying the answer's signature; it settles a payment, capture, refund or void
            that exited 75, and exits by the last operation: 0 approved (14, 02) or a capture,
            refund or void done (04, 06, 08); 3 pending (19, 40, or 20 on hold for 3-D Secure,
            with "outcome":"pending" and the action {"type":"redirect","url":3ds_url,"method":"GET"}
            when APS names the 3ds_url); 1 declined (aps.transactionDeclined), a failed capture,
            refund or void (as the command names it), or an order APS does not know (11036:
            server.unknownPayment, the payment was not processed); 75 undecided (15, 10). CHECK_STATUS
            mainly reflects financial completion: a payment whose 3-D Secure the payer did not
            finish may need the feedback as well.
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
        let client = try APSPaymentSupport.client(options)
        let order = try await client.checkStatus(merchantReference: reference)
        return PaymentOutcomeOutput.finish(
            client.statusOutcome(of: order, merchantReference: reference),
            settle: "APS does not know the outcome yet; run 'cse aps check-status' again later",
            resume: APSPaymentSupport.resume(reference),
            id: \.fortID, status: { $0.responseCode.description }, json: { .object($0.parameters) })
    }
}

/// `cse aps feedback-verify`: checks a transaction feedback as APS posts it, or the parameters
/// APS sends to `return_url` after a 3-D Secure challenge.
struct APSFeedbackVerifyCommand: CLICommand {
    static let spec = CommandSpec(
        name: "aps feedback-verify",
        abstract: "Verify an Amazon Payment Services transaction feedback, or a 3-D Secure return, on standard input.",
        discussion: """
            Reads the body exactly as APS posted it (form-encoded by default, or JSON), or the
            return to return_url after a 3-D Secure challenge (the whole URL or its query string,
            or the form the browser posted); detected by content, or forced with --format. Checks
            its signature over every received non-empty parameter but 'signature', as decoded,
            with the SHA response phrase, in constant time, before reading anything else. With
            --merchant-reference, a verified body of another order (a replayed return) is refused
            (aps.feedback.otherOrder, exit 1). Prints {"valid":true,"outcome":…,"transaction":{…}}
            and "tokenName" when the verified parameters name the card's token_name (after a
            payment with remember_me, the saved card's permanent token: keep it from here, never
            from the app). The outcome is succeeded (approved, or a capture, refund or void that
            succeeded: status 04, 06, 08, or that APS completes later: 19; exit 0), pending (a
            payment's 19, 40, or 20 on hold for 3-D Secure with "action"
            {"type":"redirect","url":3ds_url,"method":"GET"}; exit 3, stderr names how to resume), refused
            (declined, or a capture, refund or void that failed: 05, 07, 09; exit 1), notProcessed
            (status 00: 1) or unknown (status 15 uncertain, 10, or a status APS does not document:
            75, settle it with 'cse aps check-status'); a wrong or missing signature is the error
            aps.feedback.signature (exit 1) and nothing is printed on stdout. The browser's return
            is display data: settle the order with the server-to-server feedback or 'cse aps
            check-status'. The body is at most 1 MiB. XML feedback is not read.
            """,
        options: Options.self)

    /// The options of `cse aps feedback-verify`.
    struct Options: CommandOptions {
        let format: OptionKey<FeedbackFormatArgument?>
        let reference: OptionKey<APSReferenceArgument?>
        let credentials: OptionKey<String>

        init(_ declare: inout OptionDeclarations) {
            format = declare.value(
                "format", "F", as: FeedbackFormatArgument.self, help: "form, json or query (default: detected from the body).")
            reference = declare.value(
                "merchant-reference", "R", as: APSReferenceArgument.self,
                help: "The order you expect (the one you stored before sending the payer away): another order's body is refused.")
            credentials = declare.required("credentials", "FILE", help: APSPaymentSupport.credentialsHelp + " (a JSON file, or env:NAME).")
        }
    }

    let format: APSPaymentClient.FeedbackFormat
    let reference: String?
    let credentialsSpec: String

    init(arguments: ParsedArguments<Options>) throws(UsageError) {
        format = arguments[\.format]?.format ?? .automatic
        reference = arguments[\.reference]?.reference
        credentialsSpec = arguments[\.credentials]
    }

    func run() throws(CSEError) -> Int32 {
        let body = try Files.readStandardInput(limit: NotificationLimits.maximumBodyByteCount)
        let credentials = try APSCredentials(document: try ServerCallOptions.credentials(credentialsSpec))
        let transaction = try APSPaymentClient.verifyFeedback(body, format: format, credentials: credentials, merchantReference: reference)
        let standing = transaction.standing
        var members: [(String, JSONValue)] = [
            ("valid", .bool(true)), ("outcome", .string(standing.rawValue)), ("transaction", .object(transaction.parameters)),
        ]
        if standing == .pending, let action = transaction.action { members.append(("action", action.json)) }
        if let tokenName = transaction.tokenName { members.append(("tokenName", .string(tokenName))) }
        JSONLine.write(.object(JSONObject(members)))
        switch standing {
        case .succeeded: return ExitCode.success
        case .pending:
            let reference = transaction.merchantReference ?? "R"
            StandardStreams.err("cse: the payment is pending; \(APSPaymentSupport.resume(reference))\n")
            return ExitCode.pending
        case .refused, .notProcessed: return ExitCode.failure
        case .unknown: return ExitCode.outcomeUnknown
        }
    }
}
