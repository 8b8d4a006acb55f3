import CSECore
import CSEGateways
import CSEServerAPI
import CSEValidation

/// The options `cse aps capture|refund|void` share after their own: the order's `fort_id`, the
/// language and the server call (each command declares `--merchant-reference` first, with
/// ``reference(_:)``).
struct APSMaintenanceKeys: Sendable {
    let fortID: OptionKey<String?>
    let language: OptionKey<APSLanguageArgument?>
    let server: ServerCallOptions.Keys

    /// `--merchant-reference`, the first option of each command.
    static func reference(_ declare: inout OptionDeclarations) -> OptionKey<APSReferenceArgument> {
        declare.required(
            "merchant-reference", "R", as: APSReferenceArgument.self, help: "The merchant reference of the order (of its authorisation).")
    }

    init(_ declare: inout OptionDeclarations) {
        fortID = declare.value("fort-id", "F", help: "APS's id of the order (fort_id), sent with the operation when given.")
        language = declare.value("language", "LANG", as: APSLanguageArgument.self, help: "en (default) or ar.")
        server = APSPaymentSupport.keys(&declare, journal: true)
    }

    /// The amount options of a capture or refund.
    struct Amount: Sendable {
        let amount: OptionKey<AmountArgument>
        let currency: OptionKey<CurrencyArgument>

        init(_ declare: inout OptionDeclarations) {
            amount = declare.required(
                "amount", "MINOR", as: AmountArgument.self, help: "The amount in minor units (ISO 4217: 500 AED is 50000).")
            currency = declare.required(
                "currency", "CUR", as: CurrencyArgument.self, help: "The currency of the order, ISO 4217 (e.g. AED).")
        }
    }
}

/// What `cse aps capture|refund|void` read from their options, and how they run.
struct APSMaintenanceInvocation: Sendable {
    let options: ServerCallOptions
    let reference: String
    let fortID: String?
    let language: String

    init(reference: String, _ arguments: ParsedArguments<APSMaintenanceKeys>) throws(UsageError) {
        options = try ServerCallOptions(arguments: arguments.group(\.server))
        self.reference = reference
        fortID = arguments[\.fortID]
        language = (arguments[\.language] ?? .en).rawValue
    }

    /// The amount and currency of a capture or refund.
    static func amount(_ arguments: ParsedArguments<APSMaintenanceKeys.Amount>) -> (Int64, Currency) {
        (Int64(arguments[\.amount].minorUnits), arguments[\.currency].currency)
    }

    /// Sends `request` and prints its outcome (exit 0, 1 or 75).
    func run(_ request: APSMaintenanceRequest) async throws(CSEError) -> Int32 {
        let outcome = try await APSPaymentSupport.client(options).perform(request)
        let booked =
            switch request.command {
            case .capture: "captured_amount is the expectedCapturedAmount above"
            case .refund: "refunded_amount is the expectedRefundedAmount above"
            default: "transaction_code is 08000"
            }
        return PaymentOutcomeOutput.finish(
            outcome,
            settle:
                "run 'cse aps check-status --merchant-reference \(SafeEcho.withoutControls(reference))' (the \(request.command.name) "
                + "is booked if \(booked)); do not send it again before",
            id: \.fortID, status: { $0.responseCode.description }, json: { .object($0.parameters) })
    }

    static let discussion = """
        POSTs the command to FortAPI/paymentApi, signed with the SHA request phrase, and prints
        the answer once its signature verifies with the SHA response phrase (card number masked,
        no signature). APS documents no idempotence for maintenance: a capture or refund first
        reads the order's captured and refunded amounts with CHECK_STATUS, and when the answer is
        lost (a cut connection, an HTTP error, an unreadable or badly signed answer, status 15,
        messages 006, 051, 071) asks CHECK_STATUS again instead of sending the command again; if
        the order shows the operation booked, that order is printed and the exit status is 0.

        Exit status: 0 done (04000 capture, 06000 refund, 08000 void; 19 pending; or booked
        per CHECK_STATUS); 1 refused, nothing processed: server.amountExceedsRemaining
        (message 042, 048), server.operationNotAllowed (034), server.unknownPayment (036), or
        APS's own aps.message.NNN; 75 unknown (server.outcomeUnknown naming the merchant
        reference and the amount CHECK_STATUS must show: settle it with 'cse aps
        check-status'; never send the operation again before); 64 usage.
        """
}

/// `cse aps capture`.
struct APSCaptureCommand: NetworkCommand {
    static let spec = CommandSpec(
        name: "aps capture", abstract: "Capture all or part of an authorised Amazon Payment Services order (CAPTURE).",
        discussion: APSMaintenanceInvocation.discussion, options: Options.self)

    /// The options of `cse aps capture`.
    struct Options: CommandOptions {
        let reference: OptionKey<APSReferenceArgument>
        let amount: APSMaintenanceKeys.Amount
        let common: APSMaintenanceKeys

        init(_ declare: inout OptionDeclarations) {
            reference = APSMaintenanceKeys.reference(&declare)
            amount = APSMaintenanceKeys.Amount(&declare)
            common = APSMaintenanceKeys(&declare)
        }
    }

    let invocation: APSMaintenanceInvocation
    let amount: (Int64, Currency)

    init(arguments: ParsedArguments<Options>) throws(UsageError) {
        invocation = try APSMaintenanceInvocation(reference: arguments[\.reference].reference, arguments.group(\.common))
        amount = APSMaintenanceInvocation.amount(arguments.group(\.amount))
    }

    func runAsync() async throws(CSEError) -> Int32 {
        try await invocation.run(
            try .capture(
                merchantReference: invocation.reference, amount: amount.0, currency: amount.1, fortID: invocation.fortID,
                language: invocation.language))
    }
}

/// `cse aps refund`.
struct APSRefundCommand: NetworkCommand {
    static let spec = CommandSpec(
        name: "aps refund", abstract: "Refund all or part of a captured Amazon Payment Services order (REFUND).",
        discussion: APSMaintenanceInvocation.discussion, options: Options.self)

    /// The options of `cse aps refund`.
    struct Options: CommandOptions {
        let reference: OptionKey<APSReferenceArgument>
        let amount: APSMaintenanceKeys.Amount
        let maintenanceReference: OptionKey<String?>
        let common: APSMaintenanceKeys

        init(_ declare: inout OptionDeclarations) {
            reference = APSMaintenanceKeys.reference(&declare)
            amount = APSMaintenanceKeys.Amount(&declare)
            maintenanceReference = declare.value(
                "maintenance-reference", "M", help: "Your reference of this refund, distinct for each partial refund of the order.")
            common = APSMaintenanceKeys(&declare)
        }
    }

    let invocation: APSMaintenanceInvocation
    let amount: (Int64, Currency)
    let maintenanceReference: String?

    init(arguments: ParsedArguments<Options>) throws(UsageError) {
        invocation = try APSMaintenanceInvocation(reference: arguments[\.reference].reference, arguments.group(\.common))
        amount = APSMaintenanceInvocation.amount(arguments.group(\.amount))
        maintenanceReference = arguments[\.maintenanceReference]
    }

    func runAsync() async throws(CSEError) -> Int32 {
        try await invocation.run(
            try .refund(
                merchantReference: invocation.reference, amount: amount.0, currency: amount.1, maintenanceReference: maintenanceReference,
                fortID: invocation.fortID, language: invocation.language))
    }
}

/// `cse aps void`.
struct APSVoidCommand: NetworkCommand {
    static let spec = CommandSpec(
        name: "aps void", abstract: "Release an Amazon Payment Services authorisation before anything is captured (VOID_AUTHORIZATION).",
        discussion: APSMaintenanceInvocation.discussion, options: Options.self)

    /// The options of `cse aps void`.
    struct Options: CommandOptions {
        let reference: OptionKey<APSReferenceArgument>
        let common: APSMaintenanceKeys

        init(_ declare: inout OptionDeclarations) {
            reference = APSMaintenanceKeys.reference(&declare)
            common = APSMaintenanceKeys(&declare)
        }
    }

    let invocation: APSMaintenanceInvocation

    init(arguments: ParsedArguments<Options>) throws(UsageError) {
        invocation = try APSMaintenanceInvocation(reference: arguments[\.reference].reference, arguments.group(\.common))
    }

    func runAsync() async throws(CSEError) -> Int32 {
        try await invocation.run(
            try .voidAuthorization(merchantReference: invocation.reference, fortID: invocation.fortID, language: invocation.language))
    }
}
