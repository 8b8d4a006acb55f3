import CSECore
import CSEServerAPI
import CSEValidation

/// `--authorization-mode final|pre|sale` of `cse worldline create-payment`.
enum WorldlineAuthorizationModeArgument: String, CaseIterable, ArgumentValue {
    case final, pre, sale

    /// The library's mode.
    var mode: WorldlineAuthorizationMode {
        switch self {
        case .final: .finalAuthorization
        case .pre: .preAuthorization
        case .sale: .sale
        }
    }
}

/// What the Worldline capture, refund and cancel commands share (issue #33).
enum WorldlineLifecycleSupport {
    /// `--reference R`, `--idempotence-key K` and the server call's options, declared last by
    /// each command.
    struct Keys: Sendable {
        let reference: OptionKey<String?>
        let idempotenceKey: OptionKey<IdempotenceKeyArgument?>
        let server: ServerCallOptions.Keys

        init(_ declare: inout OptionDeclarations, operation: String) {
            reference = declare.value(
                "reference", "R", help: "The merchant reference of this \(operation) (operationReferences; at most 40 characters).")
            idempotenceKey = declare.value(
                "idempotence-key", "KEY", as: IdempotenceKeyArgument.self,
                help: "The X-GCS-Idempotence-Key (1-40 printable ASCII characters): the key of an earlier attempt retries it safely.")
            server = WorldlineCommandSupport.serverKeys(&declare, journal: true)
        }
    }

    /// What every capture, refund and cancel reads besides its amounts: the call, the payment id,
    /// the operation's reference and idempotence key.
    struct Target: Sendable {
        let options: ServerCallOptions
        let id: String
        let reference: String?
        let idempotenceKey: IdempotenceKey?

        init(_ arguments: ParsedArguments<Keys>, id: String?) throws(UsageError) {
            options = try ServerCallOptions(arguments: arguments.group(\.server))
            self.id = id ?? ""
            reference = arguments[\.reference]
            idempotenceKey = arguments[\.idempotenceKey]?.key
        }

        /// The client of the call.
        func client() throws(CSEError) -> WorldlineServerClient { try WorldlineCommandSupport.client(options) }

        /// Prints the outcome of a capture or refund named `operation` and returns the exit status.
        func finish(_ outcome: PaymentOutcome<WorldlineOperation>, _ operation: String) -> Int32 {
            PaymentOutcomeOutput.finish(
                outcome, settle: WorldlineLifecycleSupport.settle(operation), id: \.id, status: \.status,
                json: { WorldlineLifecycleSupport.json($0, paymentID: id) })
        }
    }

    /// How an unknown outcome of `operation` is settled on Worldline.
    static func settle(_ operation: String) -> String {
        "settle it by running the same command again with the same --idempotence-key (a finished \(operation) is replayed, "
            + "never booked twice), or with 'cse worldline get-payment ID' for the payment's status"
    }

    /// The exit statuses, as every money-moving command's.
    static let exitStatus = """
        Exit status: 0 the platform accepted it (the output names the status; CAPTURE_REQUESTED and
        REFUND_REQUESTED complete later in the normal course); 1 refused or nothing processed:
        server.unknownPayment (404 UNKNOWN_PAYMENT_ID), server.operationNotAllowed
        (ACTION_NOT_ALLOWED_ON_TARGET), server.referenceInUse (the key's answer names another
        operation), worldline.paymentRejected, or worldline.apiError naming the platform's own error
        id (an amount over what is left has no id of its own); 75 unknown (server.outcomeUnknown):
        stderr names the idempotence key, the reference and the payment id: run the same command
        again with '--idempotence-key KEY'.
        """

    /// The operation's JSON with the payment id it belongs to.
    static func json(_ operation: WorldlineOperation, paymentID: String) -> JSONValue {
        var object = operation.json.objectValue ?? JSONObject()
        object["paymentId"] = .string(paymentID)
        return .object(object)
    }

    /// An amount option's value in minor units, at least 1.
    static func amount(_ value: AmountArgument?) throws(UsageError) -> Int64? {
        guard let value else { return nil }
        guard value.minorUnits >= 1 else { throw UsageError("The value for '--amount' must be at least 1 (minor units).") }
        return Int64(value.minorUnits)
    }
}

/// `cse worldline capture`: CapturePayment.
struct WorldlineCaptureCommand: NetworkCommand {
    static let spec = CommandSpec(
        name: "worldline capture",
        abstract: "Capture all or part of an authorised payment (Worldline CapturePayment).",
        discussion: """
            POST /v2/{merchantId}/payments/{paymentId}/capture, signed with GCS v1HMAC, with an
            X-GCS-Idempotence-Key (--idempotence-key, or a new random one). Without --amount the
            whole amount still authorised is captured and the capture is final; --final makes a
            partial capture the last one. Prints {"kind":"capture","id","status","statusCategory",
            "statusCode","amount","currencyCode","merchantReference","paymentId","idempotenceKey"}.

            \(WorldlineLifecycleSupport.exitStatus)
            """,
        options: Options.self,
        positionals: [.init("ID", help: "The payment id, for example 3066019730_0.")])

    /// The options of `cse worldline capture`.
    struct Options: CommandOptions {
        let amount: OptionKey<AmountArgument?>
        let final: OptionKey<Bool>
        let operation: WorldlineLifecycleSupport.Keys

        init(_ declare: inout OptionDeclarations) {
            amount = declare.value(
                "amount", "MINOR", as: AmountArgument.self, help: "The amount in minor units (default: all that is still authorised).")
            final = declare.flag("final", help: "This is the last capture: release the rest of the authorisation.")
            operation = WorldlineLifecycleSupport.Keys(&declare, operation: "capture")
        }
    }

    let target: WorldlineLifecycleSupport.Target
    let amount: Int64?
    let isFinal: Bool

    init(arguments: ParsedArguments<Options>) throws(UsageError) {
        target = try WorldlineLifecycleSupport.Target(arguments.group(\.operation), id: arguments.positionals.first)
        amount = try WorldlineLifecycleSupport.amount(arguments[\.amount])
        isFinal = arguments[\.final]
    }

    func runAsync() async throws(CSEError) -> Int32 {
        let request = try WorldlineCaptureRequest(amount: amount, isFinal: isFinal, merchantReference: target.reference)
        return target.finish(
            try await target.client().capturePayment(target.id, request, idempotenceKey: target.idempotenceKey), "capture")
    }
}

/// `cse worldline refund`: RefundPayment.
struct WorldlineRefundCommand: NetworkCommand {
    static let spec = CommandSpec(
        name: "worldline refund",
        abstract: "Refund all or part of a captured payment (Worldline RefundPayment).",
        discussion: """
            POST /v2/{merchantId}/payments/{paymentId}/refund, signed with GCS v1HMAC, with an
            X-GCS-Idempotence-Key (--idempotence-key, or a new random one). Several partial refunds
            each need their own key. Prints {"kind":"refund","id","status","statusCategory",
            "statusCode","amount","currencyCode","merchantReference","paymentId","idempotenceKey"}.
            A refund the acquirer declined (402 with a refundResult) is worldline.paymentRejected.

            \(WorldlineLifecycleSupport.exitStatus)
            """,
        options: Options.self,
        positionals: [.init("ID", help: "The payment id, for example 3066019730_0.")])

    /// The options of `cse worldline refund`.
    struct Options: CommandOptions {
        let amount: OptionKey<AmountArgument>
        let currency: OptionKey<CurrencyArgument>
        let operation: WorldlineLifecycleSupport.Keys

        init(_ declare: inout OptionDeclarations) {
            amount = declare.required("amount", "MINOR", as: AmountArgument.self, help: "The amount in minor units (e.g. 500 for 5.00).")
            currency = declare.required("currency", "CUR", as: CurrencyArgument.self, help: "The payment's currency, ISO 4217 (e.g. EUR).")
            operation = WorldlineLifecycleSupport.Keys(&declare, operation: "refund")
        }
    }

    let target: WorldlineLifecycleSupport.Target
    let amount: Int64
    let currency: String

    init(arguments: ParsedArguments<Options>) throws(UsageError) {
        target = try WorldlineLifecycleSupport.Target(arguments.group(\.operation), id: arguments.positionals.first)
        amount = try WorldlineLifecycleSupport.amount(arguments[\.amount]) ?? 0
        currency = arguments[\.currency].currency.code
    }

    func runAsync() async throws(CSEError) -> Int32 {
        let request = try WorldlineRefundRequest(amount: amount, currencyCode: currency, merchantReference: target.reference)
        return target.finish(
            try await target.client().refundPayment(target.id, request, idempotenceKey: target.idempotenceKey), "refund")
    }
}

/// `cse worldline cancel`: CancelPayment.
struct WorldlineCancelCommand: NetworkCommand {
    static let spec = CommandSpec(
        name: "worldline cancel",
        abstract: "Cancel all or part of an authorisation not yet captured (Worldline CancelPayment).",
        discussion: """
            POST /v2/{merchantId}/payments/{paymentId}/cancel, signed with GCS v1HMAC, with an
            X-GCS-Idempotence-Key (--idempotence-key, or a new random one). Without --amount the
            whole authorisation is released; --amount with --currency releases part of it, and
            --final makes that the last cancellation. Prints the payment as it stands after the
            cancellation ({"id","status":"CANCELLED" or "PENDING_CAPTURE",…,"idempotenceKey"}) with
            any card number masked.

            \(WorldlineLifecycleSupport.exitStatus)
            """,
        options: Options.self,
        positionals: [.init("ID", help: "The payment id, for example 3066019730_0.")])

    /// The options of `cse worldline cancel`.
    struct Options: CommandOptions {
        let amount: OptionKey<AmountArgument?>
        let currency: OptionKey<CurrencyArgument?>
        let final: OptionKey<Bool>
        let operation: WorldlineLifecycleSupport.Keys

        init(_ declare: inout OptionDeclarations) {
            amount = declare.value(
                "amount", "MINOR", as: AmountArgument.self, help: "The amount to release in minor units, with --currency (default: all).")
            currency = declare.value("currency", "CUR", as: CurrencyArgument.self, help: "The payment's currency, ISO 4217, with --amount.")
            declare.together([amount, currency])
            final = declare.flag("final", help: "This is the last cancellation: nothing stays authorised.")
            operation = WorldlineLifecycleSupport.Keys(&declare, operation: "cancellation")
        }
    }

    let target: WorldlineLifecycleSupport.Target
    let amount: Int64?
    let currency: String?
    let isFinal: Bool

    init(arguments: ParsedArguments<Options>) throws(UsageError) {
        target = try WorldlineLifecycleSupport.Target(arguments.group(\.operation), id: arguments.positionals.first)
        amount = try WorldlineLifecycleSupport.amount(arguments[\.amount])
        currency = arguments[\.currency]?.currency.code
        isFinal = arguments[\.final]
    }

    func runAsync() async throws(CSEError) -> Int32 {
        let request = try WorldlineCancelRequest(
            amount: amount, currencyCode: currency, isFinal: isFinal, merchantReference: target.reference)
        let outcome = try await target.client().cancelPayment(target.id, request, idempotenceKey: target.idempotenceKey)
        return PaymentOutcomeOutput.finish(
            outcome, settle: WorldlineLifecycleSupport.settle("cancellation"), id: \.id, status: \.status, json: \.json)
    }
}
