import CSEClientAPI
import CSECore
import CSECrypto
import CSEPayments
import CSEValidation

// `cse session …`: the Client API calls of a session, JSON on stdout with the platform's member
// names. Card numbers come from standard input only.

/// The options of a `cse session …` command: the session keys, declared for the command's
/// context use, and any of the command's own.
protocol SessionCallOptions: CommandOptions {
    /// The context options the command takes; its declarations and its parsing both follow it.
    static var contextUse: SessionOptions.ContextUse { get }
    /// `--session`, the context options of ``contextUse`` and the transport options.
    var session: SessionOptions.Keys { get }
}

/// The options of a `cse session …` command that takes only the session keys.
protocol SessionKeysOnly: SessionCallOptions {
    /// Wraps the session keys.
    init(session: SessionOptions.Keys)
}

extension SessionKeysOnly {
    /// Declares the session keys for ``SessionCallOptions/contextUse``.
    init(_ declare: inout OptionDeclarations) {
        self.init(session: SessionOptions.Keys(&declare, context: Self.contextUse))
    }
}

/// `--session` and the transport options, no context (`cse session publickey`).
struct SessionNoContextOptions: SessionKeysOnly {
    static let contextUse = SessionOptions.ContextUse.none
    let session: SessionOptions.Keys
}

/// `--session`, the required context and the transport options (`products`, `product`, `networks`).
struct SessionContextOptions: SessionKeysOnly {
    static let contextUse = SessionOptions.ContextUse.required
    let session: SessionOptions.Keys
}

/// `--session`, the optional context and the transport options (`cse session iin`).
struct SessionOptionalContextOptions: SessionKeysOnly {
    static let contextUse = SessionOptions.ContextUse.optional
    let session: SessionOptions.Keys
}

/// A `cse session …` command: the session options its context use calls for, one Client API
/// call, and the call's JSON on stdout.
protocol SessionCallCommand: NetworkCommand where Options: SessionCallOptions {
    /// The parsed session options.
    var session: SessionOptions { get }
    /// Reads the command's own arguments, beside the session options.
    init(session: SessionOptions, arguments: ParsedArguments<Options>) throws(UsageError)
    /// Makes the call; its result is what the command prints.
    func response() async throws(CSEError) -> JSONValue
}

extension SessionCallCommand {
    init(arguments: ParsedArguments<Options>) throws(UsageError) {
        try self.init(
            session: try SessionOptions(arguments: arguments.group(\.session), context: Options.contextUse), arguments: arguments)
    }

    func runAsync() async throws(CSEError) -> Int32 {
        JSONLine.write(try await response())
        return ExitCode.success
    }
}

/// `cse session publickey`.
struct SessionPublicKeyCommand: SessionCallCommand {
    typealias Options = SessionNoContextOptions
    static let spec = CommandSpec(
        name: "session publickey",
        abstract: "Fetch the session's encryption key: {\"keyId\",\"publicKey\"}.",
        discussion: "Writes the Client API response {\"keyId\":\"…\",\"publicKey\":\"<base64 SubjectPublicKeyInfo>\"}.",
        options: Options.self)

    let session: SessionOptions

    init(session: SessionOptions, arguments _: ParsedArguments<Options>) { self.session = session }

    func response() async throws(CSEError) -> JSONValue {
        let key = try await session.session().publicKey()
        return .object(
            JSONObject([
                ("keyId", .string(key.keyID)), ("publicKey", .string(Base64.encode(key.key.derRepresentation))),
            ]))
    }
}

/// `cse session products`.
struct SessionProductsCommand: SessionCallCommand {
    typealias Options = SessionContextOptions
    static let spec = CommandSpec(
        name: "session products",
        abstract: "List the payment products of a context, with their accounts on file.",
        discussion: """
            Writes {"paymentProducts":[…]} as the platform returns it, after the SDKs' rules:
            products 117, 5700, 5772 and 5784 are dropped, and so are Apple Pay (302) and Google
            Pay (320), which a Linux host cannot use.
            """,
        options: Options.self)

    let session: SessionOptions

    init(session: SessionOptions, arguments _: ParsedArguments<Options>) { self.session = session }

    func response() async throws(CSEError) -> JSONValue {
        try await session.session().basicPaymentProducts(for: try session.requiredContext()).jsonValue
    }
}

/// `cse session product ID` and `cse session networks ID`: a product id positional and a context.
protocol SessionProductCallCommand: SessionCallCommand where Options == SessionContextOptions {
    var productID: String { get }
    init(session: SessionOptions, productID: String)
}

extension SessionProductCallCommand {
    init(session: SessionOptions, arguments: ParsedArguments<Options>) {
        self.init(session: session, productID: arguments.positionals.first ?? "")
    }
}

/// `cse session product ID`.
struct SessionProductCommand: SessionProductCallCommand {
    static let spec = CommandSpec(
        name: "session product",
        abstract: "Fetch one payment product with its fields.",
        discussion: """
            Writes the product in the Client API format after the SDKs' post-processing: fields
            in display order, an expiryDate list shown as text, default masks for expiryDate and
            cardNumber. Products 117, 5700, 5772 and 5784 are refused without a call.
            """,
        options: Options.self,
        positionals: [.init("ID", help: "The payment product id, e.g. 1.")])

    let session: SessionOptions
    let productID: String

    func response() async throws(CSEError) -> JSONValue {
        try await session.session().paymentProduct(id: productID, for: try session.requiredContext()).clientAPIJSONValue
    }
}

/// `cse session networks ID`.
struct SessionNetworksCommand: SessionProductCallCommand {
    static let spec = CommandSpec(
        name: "session networks",
        abstract: "Fetch the card networks of a payment product: {\"networks\":[…]}.",
        options: Options.self,
        positionals: [.init("ID", help: "The payment product id, e.g. 302.")])

    let session: SessionOptions
    let productID: String

    func response() async throws(CSEError) -> JSONValue {
        try await session.session().paymentProductNetworks(id: productID, for: try session.requiredContext()).jsonValue
    }
}

/// `cse session iin`.
struct SessionIINCommand: SessionCallCommand {
    typealias Options = SessionOptionalContextOptions
    static let spec = CommandSpec(
        name: "session iin",
        abstract: "Ask the platform for the IIN details of a partial card number read from standard input.",
        discussion: """
            Reads digits (spaces allowed) from standard input. Fewer than 6 give
            {"status":"NOT_ENOUGH_DIGITS"} without a call; otherwise 8 digits are sent when 8 or
            more were typed, else 6. Writes {"status","paymentProductId","countryCode",
            "isAllowedInContext","cardType","coBrands"}; a platform 404 is {"status":"UNKNOWN"}.
            The context options are optional (all three or none).
            """,
        options: Options.self)

    let session: SessionOptions

    init(session: SessionOptions, arguments _: ParsedArguments<Options>) { self.session = session }

    func response() async throws(CSEError) -> JSONValue {
        let number = try StandardInputValue.read()
        return try await session.session().iinDetails(partialCardNumber: number, for: try session.context()).clientAPIJSONValue
    }
}

/// The options of `cse session dcc` and `cse session surcharge`: the session keys with the amount
/// and currency, and the card's product id.
struct SessionCardServiceOptions: SessionCallOptions {
    static let contextUse = SessionOptions.ContextUse.amountOnly
    let session: SessionOptions.Keys
    let product: OptionKey<String?>

    init(_ declare: inout OptionDeclarations) {
        session = SessionOptions.Keys(&declare, context: Self.contextUse)
        product = declare.value("product", "ID", help: "The card's payment product id, when known.")
    }
}

/// `cse session dcc` and `cse session surcharge`: a card number on standard input, an amount, one
/// POST, the platform's response as it came.
protocol SessionCardServiceCommand: SessionCallCommand where Options == SessionCardServiceOptions {
    /// The Client API call.
    static func call(_ session: ClientAPISession, card: CardSource, amount: AmountOfMoney) async throws(CSEError) -> JSONValue
    var productID: String? { get }
    init(session: SessionOptions, productID: String?)
}

extension SessionCardServiceCommand {
    init(session: SessionOptions, arguments: ParsedArguments<Options>) {
        self.init(session: session, productID: arguments[\.product])
    }

    func response() async throws(CSEError) -> JSONValue {
        let number = try StandardInputValue.read()
        let client = try session.session()
        return try await Self.call(client, card: .card(number: number, paymentProductID: productID), amount: try session.amountOfMoney())
    }
}

/// `cse session dcc`.
struct SessionDCCCommand: SessionCardServiceCommand {
    static let spec = CommandSpec(
        name: "session dcc",
        abstract: "Ask for a currency conversion quote (services/dccrate) for the card number on standard input.",
        discussion: "Writes the platform's CurrencyConversionResponse {\"dccSessionId\",\"result\",\"proposal\"}.",
        options: Options.self)

    let session: SessionOptions
    let productID: String?

    static func call(_ session: ClientAPISession, card: CardSource, amount: AmountOfMoney) async throws(CSEError) -> JSONValue {
        try await session.currencyConversionQuote(cardSource: card, amount: amount).jsonValue
    }
}

/// `cse session surcharge`.
struct SessionSurchargeCommand: SessionCardServiceCommand {
    static let spec = CommandSpec(
        name: "session surcharge",
        abstract: "Ask for the surcharge (services/surchargecalculation) of the card number on standard input.",
        discussion: "Writes the platform's SurchargeCalculationResponse {\"surcharges\":[…]}.",
        options: Options.self)

    let session: SessionOptions
    let productID: String?

    static func call(_ session: ClientAPISession, card: CardSource, amount: AmountOfMoney) async throws(CSEError) -> JSONValue {
        try await session.surchargeCalculation(cardSource: card, amount: amount).jsonValue
    }
}
