import CSECore
import CSEServerAPI
import CSEValidation

/// What `cse mastercard capture`, `refund` and `void` share: the order, the new transaction id,
/// the optional reference, the gateway options, and the outcome's exit status.
enum MastercardLifecycleSupport {
    /// The options of `cse mastercard capture|refund`.
    struct AmountOptions: CommandOptions {
        let order: OptionKey<MastercardIDArgument>
        let transaction: OptionKey<MastercardIDArgument>
        let amount: OptionKey<AmountArgument>
        let currency: OptionKey<CurrencyArgument>
        let reference: OptionKey<String?>
        let gateway: MastercardCommandSupport.Options

        init(_ declare: inout OptionDeclarations) {
            order = declare.required("order", "ID", as: MastercardIDArgument.self, help: "The order of the authorisation (or payment).")
            transaction = declare.required(
                "transaction", "ID", as: MastercardIDArgument.self,
                help: "A new transaction id for this operation; the same id retries safely.")
            amount = declare.required(
                "amount", "MINOR", as: AmountArgument.self, help: "The amount in minor units (2345 is 23.45 EUR; sent in major units).")
            currency = declare.required("currency", "CUR", as: CurrencyArgument.self, help: "The order's currency, ISO 4217 (e.g. EUR).")
            reference = declare.value("reference", "REF", help: "Your reference of this operation (transaction.reference).")
            gateway = MastercardCommandSupport.Options(&declare, journal: true)
        }
    }

    /// The options of `cse mastercard void`.
    struct VoidOptions: CommandOptions {
        let order: OptionKey<MastercardIDArgument>
        let transaction: OptionKey<MastercardIDArgument>
        let target: OptionKey<MastercardIDArgument>
        let reference: OptionKey<String?>
        let gateway: MastercardCommandSupport.Options

        init(_ declare: inout OptionDeclarations) {
            order = declare.required("order", "ID", as: MastercardIDArgument.self, help: "The order of the authorisation.")
            transaction = declare.required(
                "transaction", "ID", as: MastercardIDArgument.self, help: "A new transaction id for this void; the same id retries safely.")
            target = declare.required(
                "target", "TXN", as: MastercardIDArgument.self, help: "The transaction voided: the order's authorisation.")
            reference = declare.value("reference", "REF", help: "Your reference of this operation (transaction.reference).")
            gateway = MastercardCommandSupport.Options(&declare, journal: true)
        }
    }

    /// Sends `request` and prints its outcome: the gateway's answer with card numbers masked
    /// (its `response.gatewayCode` and `order.status` name the status), or the refusal, or the
    /// unknown outcome with the ids that settle it.
    static func run(_ request: MastercardLifecycleRequest, gateway: MastercardCommandSupport.Parsed) async throws(CSEError) -> Int32 {
        let outcome = try await gateway.client().perform(request)
        return PaymentOutcomeOutput.finish(
            outcome,
            settle:
                "settle it with 'cse mastercard retrieve \(request.orderID) \(request.transactionID)', or run the same command again (the same ids are the same transaction)",
            id: \.transactionID, status: { $0.gatewayCode ?? $0.result }, json: \.maskedValue)
    }

    static let exitStatus = """
        Exit status: 0 approved or pending (result SUCCESS with an approving gateway code, or
        PENDING/SUBMITTED: follow it with 'cse mastercard retrieve'); 1 refused, nothing processed:
        server.amountExceedsRemaining, server.operationNotAllowed, server.unknownPayment,
        server.referenceInUse (the gateway's INVALID_REQUEST is the cause; the order, read with
        RETRIEVE ORDER, tells which), mastercard.invalidRequest otherwise, or
        mastercard.transactionDeclined; 75 unknown (server.outcomeUnknown: no answer was read,
        result UNKNOWN, or SERVER_BUSY/SERVER_FAILED): run the same command again (the same ids
        are the same transaction) or 'cse mastercard retrieve ORDER TRANSACTION', never with a new
        transaction id.
        """
}

/// `cse mastercard capture` and `cse mastercard refund`: one command per operation.
protocol MastercardAmountCommand: NetworkCommand where Options == MastercardLifecycleSupport.AmountOptions {
    /// The operation sent.
    static var operation: MastercardLifecycleRequest.Operation { get }
    /// The request, checked.
    var request: Result<MastercardLifecycleRequest, CSEError> { get }
    /// The gateway options.
    var gateway: MastercardCommandSupport.Parsed { get }
    /// Makes the command from parsed options.
    init(request: Result<MastercardLifecycleRequest, CSEError>, gateway: MastercardCommandSupport.Parsed)
}

extension MastercardAmountCommand {
    init(arguments: ParsedArguments<MastercardLifecycleSupport.AmountOptions>) throws(UsageError) {
        let gateway = try MastercardCommandSupport.Parsed(arguments.group(\.gateway))
        let amount = Int64(arguments[\.amount].minorUnits)
        let currency = arguments[\.currency].currency
        let (order, transaction, reference) = (arguments[\.order].id, arguments[\.transaction].id, arguments[\.reference])
        let request = Result { () throws(CSEError) -> MastercardLifecycleRequest in
            Self.operation == .capture
                ? try .capture(orderID: order, transactionID: transaction, amount: amount, currency: currency, reference: reference)
                : try .refund(orderID: order, transactionID: transaction, amount: amount, currency: currency, reference: reference)
        }
        self.init(request: request, gateway: gateway)
    }

    func runAsync() async throws(CSEError) -> Int32 { try await MastercardLifecycleSupport.run(request.get(), gateway: gateway) }
}

/// `cse mastercard capture`: CAPTURE all or part of an authorisation.
struct MastercardCaptureCommand: MastercardAmountCommand {
    static let spec = CommandSpec(
        name: "mastercard capture", abstract: "Capture an authorised Mastercard Gateway order, in full or in part (CAPTURE).",
        discussion: """
            PUT …/order/{order}/transaction/{transaction} with apiOperation CAPTURE and
            transaction.amount/currency (the amount given in minor units, sent as a decimal in major
            units by the ISO 4217 table); no source of funds. Each capture is a new transaction id on
            the order; several partial captures may follow each other up to the authorised amount.
            Prints the gateway's answer with card numbers masked.

            """ + MastercardLifecycleSupport.exitStatus,
        options: MastercardLifecycleSupport.AmountOptions.self)
    static let operation = MastercardLifecycleRequest.Operation.capture
    let request: Result<MastercardLifecycleRequest, CSEError>
    let gateway: MastercardCommandSupport.Parsed
}

/// `cse mastercard refund`: REFUND all or part of what an order captured.
struct MastercardRefundCommand: MastercardAmountCommand {
    static let spec = CommandSpec(
        name: "mastercard refund", abstract: "Refund a captured Mastercard Gateway order, in full or in part (REFUND).",
        discussion: """
            PUT …/order/{order}/transaction/{transaction} with apiOperation REFUND and
            transaction.amount/currency (minor units given, major units sent); no source of funds.
            Each refund is a new transaction id on the order; several partial refunds may follow
            each other up to the captured amount. Prints the gateway's answer with card numbers
            masked.

            """ + MastercardLifecycleSupport.exitStatus,
        options: MastercardLifecycleSupport.AmountOptions.self)
    static let operation = MastercardLifecycleRequest.Operation.refund
    let request: Result<MastercardLifecycleRequest, CSEError>
    let gateway: MastercardCommandSupport.Parsed
}

/// `cse mastercard void`: VOID an authorisation.
struct MastercardVoidCommand: NetworkCommand {
    static let spec = CommandSpec(
        name: "mastercard void", abstract: "Void a Mastercard Gateway authorisation (VOID).",
        discussion: """
            PUT …/order/{order}/transaction/{transaction} with apiOperation VOID and
            transaction.targetTransactionId (the authorisation voided); no amount, no source of
            funds. The transaction id is new, not the target's. Releases the hold on the payer's
            card while nothing is captured. Prints the gateway's answer with card numbers masked.

            """ + MastercardLifecycleSupport.exitStatus,
        options: MastercardLifecycleSupport.VoidOptions.self)

    let request: Result<MastercardLifecycleRequest, CSEError>
    let gateway: MastercardCommandSupport.Parsed

    init(arguments: ParsedArguments<MastercardLifecycleSupport.VoidOptions>) throws(UsageError) {
        gateway = try MastercardCommandSupport.Parsed(arguments.group(\.gateway))
        let (order, transaction, target, reference) = (
            arguments[\.order].id, arguments[\.transaction].id, arguments[\.target].id, arguments[\.reference]
        )
        request = Result { () throws(CSEError) -> MastercardLifecycleRequest in
            try .void(orderID: order, transactionID: transaction, targetTransactionID: target, reference: reference)
        }
    }

    func runAsync() async throws(CSEError) -> Int32 { try await MastercardLifecycleSupport.run(request.get(), gateway: gateway) }
}
