import CSECore
import CSEServerAPI

/// `cse paysafe settle`, `refund` and `void`: one operation kind each, the same options and run.
protocol PaysafeOperationCommand: NetworkCommand where Options == PaysafeOperationSupport.Options {
    /// The operation the command sends.
    static var kind: PaysafeOperation.Kind { get }
    /// The parsed options.
    var parsed: PaysafeOperationSupport.Arguments { get }
    /// A command with parsed options.
    init(parsed: PaysafeOperationSupport.Arguments)
}

extension PaysafeOperationCommand {
    init(arguments: ParsedArguments<PaysafeOperationSupport.Options>) throws(UsageError) {
        self.init(parsed: try PaysafeOperationSupport.Arguments(arguments))
    }

    func runAsync() async throws(CSEError) -> Int32 { try await PaysafeOperationSupport.run(Self.kind, parsed) }
}

/// What `cse paysafe settle`, `refund` and `void` share (issue #33): the options, and how a
/// command sends its operation and reports the outcome.
enum PaysafeOperationSupport {
    /// The options of the three commands.
    struct Options: CommandOptions {
        let amount: OptionKey<AmountArgument>
        let reference: OptionKey<PaysafeReferenceArgument>
        let account: OptionKey<String?>
        let server: ServerCallOptions.Keys

        init(_ declare: inout OptionDeclarations) {
            amount = declare.required(
                "amount", "MINOR", as: AmountArgument.self,
                help: "The amount in minor units (e.g. 2345 for 23.45); less than what is left is partial.")
            reference = declare.required(
                "merchant-ref", "R", as: PaysafeReferenceArgument.self, help: "Your unique reference of this operation (merchantRefNum).")
            account = declare.value("account", "ID", help: "A Card Payments account id: the Card Payments API (its auths and settlements).")
            server = ServerCallOptions.Keys(
                &declare, credentialsHelp: PaysafePaymentSupport.credentialsHelp, environment: .choice, journal: true)
        }
    }

    /// The parsed arguments of one command.
    struct Arguments {
        let options: ServerCallOptions
        let targetID: String
        let amount: Int
        let reference: String
        let account: String?

        init(_ arguments: ParsedArguments<Options>) throws(UsageError) {
            options = try ServerCallOptions(arguments: arguments.group(\.server))
            targetID = arguments.positionals.first ?? ""
            amount = arguments[\.amount].minorUnits
            reference = arguments[\.reference].reference
            account = arguments[\.account]
        }
    }

    /// The exit statuses, shared by the three commands' help.
    static let exitStatus = """
        Exit status: 0 accepted, COMPLETED or still PENDING (a settlement or refund stays PENDING
        until Paysafe batches it; the output names the status); 1 declined
        (paysafe.operationDeclined), or refused before processing: server.unknownPayment (no
        such payment or settlement), server.referenceInUse (the reference belongs to another
        amount), paysafe.apiError with Paysafe's code (an amount over what is left, or a state
        that allows no such operation: Paysafe's answer does not tell them apart); 75 unknown
        (server.outcomeUnknown naming the reference: run 'cse paysafe lookup --kind …' or the
        same command again, which Paysafe refuses as a duplicate and which then reports the
        first operation).
        """

    /// Sends the operation and prints its outcome.
    static func run(_ kind: PaysafeOperation.Kind, _ arguments: Arguments) async throws(CSEError) -> Int32 {
        let request = try PaysafeOperationRequest(
            kind: kind, targetID: arguments.targetID, merchantReference: arguments.reference, amount: Int64(arguments.amount),
            accountID: arguments.account)
        let outcome = try await PaysafePaymentSupport.client(arguments.options).submit(request)
        let account = arguments.account.map { " --account \(SafeEcho.withoutControls($0))" } ?? ""
        return PaymentOutcomeOutput.finish(
            outcome,
            settle:
                "settle it with 'cse paysafe lookup --kind \(PaysafeLookupKind(kind).rawValue) --merchant-ref \(SafeEcho.withoutControls(arguments.reference))\(account)', or run the same command again (the reference makes a repeat a duplicate, not a second \(kind))",
            id: \.id, status: \.status, json: \.json)
    }
}

/// `cse paysafe lookup --kind`: what a merchant reference names.
enum PaysafeLookupKind: String, CaseIterable, ArgumentValue {
    case payment, settlement, refund, void

    /// The lookup kind of an operation.
    init(_ kind: PaysafeOperation.Kind) {
        switch kind {
        case .settlement: self = .settlement
        case .refund: self = .refund
        case .voidAuthorization: self = .void
        }
    }

    /// The operation looked up, or `nil` for payments.
    var operation: PaysafeOperation.Kind? {
        switch self {
        case .payment: return nil
        case .settlement: return .settlement
        case .refund: return .refund
        case .void: return .voidAuthorization
        }
    }
}

/// `cse paysafe settle`: a settlement (capture) of an authorisation.
struct PaysafeSettleCommand: PaysafeOperationCommand {
    static let spec = CommandSpec(
        name: "paysafe settle",
        abstract: "Settle (capture) all or part of a Paysafe authorisation.",
        discussion: """
            POST /paymenthub/v1/payments/{PAYMENT-ID}/settlements with {"merchantRefNum","amount",
            "dupCheck":true}; with --account ID the Card Payments API's
            /cardpayments/v1/accounts/{ID}/auths/{PAYMENT-ID}/settlements. The payment was made with
            'cse paysafe pay --authorize-only'. Prints {"kind","id","status","merchantRefNum",
            "amount","currencyCode","availableToRefund"}; the id is what 'cse paysafe refund' takes.

            \(PaysafeOperationSupport.exitStatus)
            """,
        options: PaysafeOperationSupport.Options.self,
        positionals: [.init("PAYMENT-ID", help: "The payment's id (Card Payments: the auth's id).")])

    static let kind = PaysafeOperation.Kind.settlement
    let parsed: PaysafeOperationSupport.Arguments
}

/// `cse paysafe refund`: a refund of a settlement.
struct PaysafeRefundCommand: PaysafeOperationCommand {
    static let spec = CommandSpec(
        name: "paysafe refund",
        abstract: "Refund all or part of a Paysafe settlement.",
        discussion: """
            POST /paymenthub/v1/settlements/{SETTLEMENT-ID}/refunds with {"merchantRefNum","amount",
            "dupCheck":true}; with --account ID the Card Payments API's
            /cardpayments/v1/accounts/{ID}/settlements/{SETTLEMENT-ID}/refunds. A refund targets a
            settlement: the id 'cse paysafe settle' printed, or a sale's settlements[].id. Several
            partial refunds each take their own reference. Prints {"kind","id","status",
            "merchantRefNum","amount","currencyCode"}.

            \(PaysafeOperationSupport.exitStatus)
            """,
        options: PaysafeOperationSupport.Options.self,
        positionals: [.init("SETTLEMENT-ID", help: "The settlement's id.")])

    static let kind = PaysafeOperation.Kind.refund
    let parsed: PaysafeOperationSupport.Arguments
}

/// `cse paysafe void`: a void authorisation, which releases the payer's hold.
struct PaysafeVoidCommand: PaysafeOperationCommand {
    static let spec = CommandSpec(
        name: "paysafe void",
        abstract: "Void all or part of a Paysafe authorisation that is not settled (release the hold).",
        discussion: """
            POST /paymenthub/v1/payments/{PAYMENT-ID}/voidauths with {"merchantRefNum","amount"};
            with --account ID the Card Payments API's
            /cardpayments/v1/accounts/{ID}/auths/{PAYMENT-ID}/voidauths. Prints {"kind","id",
            "status","merchantRefNum","amount","currencyCode"}.

            \(PaysafeOperationSupport.exitStatus)
            """,
        options: PaysafeOperationSupport.Options.self,
        positionals: [.init("PAYMENT-ID", help: "The payment's id (Card Payments: the auth's id).")])

    static let kind = PaysafeOperation.Kind.voidAuthorization
    let parsed: PaysafeOperationSupport.Arguments
}
