import CSEClientAPI
import CSECore
import CSECrypto
import CSEPayments
import CSEValidation

// `cse session …`: the Client API calls of a session, JSON on stdout with the platform's member
// names. Card numbers come from standard input only.

/// A `cse session …` command: the session options its context use calls for, one Client API
/// call, and the call's JSON on stdout.
protocol SessionCallCommand: AsyncCLICommand {
    /// The context options the command takes; its declarations and its parsing both follow it.
    static var contextUse: SessionOptions.ContextUse { get }
    /// The parsed session options.
    var session: SessionOptions { get }
    /// Reads the command's own arguments, beside the session options.
    init(session: SessionOptions, arguments: ParsedArguments) throws(UsageError)
    /// Makes the call; its result is what the command prints.
    func response() async throws(CSEError) -> JSONValue
}

extension SessionCallCommand {
    /// The session option declarations for ``contextUse``.
    static var sessionOptions: [CommandSpec.Option] { SessionOptions.options(context: contextUse) }

    init(arguments: ParsedArguments) throws(UsageError) {
        try self.init(session: try SessionOptions(arguments: arguments, context: Self.contextUse), arguments: arguments)
    }

    func runAsync() async throws(CSEError) -> Int32 {
        JSONLine.write(try await response())
        return ExitCode.success
    }
}

/// `cse session publickey`.
struct SessionPublicKeyCommand: SessionCallCommand {
    static let contextUse = SessionOptions.ContextUse.none
    static let spec = CommandSpec(
        name: "session publickey",
        abstract: "Fetch the session's encryption key: {\"keyId\",\"publicKey\"}.",
        discussion: "Writes the Client API response {\"keyId\":\"…\",\"publicKey\":\"<base64 SubjectPublicKeyInfo>\"}.",
        options: sessionOptions)

    let session: SessionOptions

    init(session: SessionOptions, arguments _: ParsedArguments) { self.session = session }

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
    static let contextUse = SessionOptions.ContextUse.required
    static let spec = CommandSpec(
        name: "session products",
        abstract: "List the payment products of a context, with their accounts on file.",
        discussion: """
            Writes {"paymentProducts":[…]} as the platform returns it, after the SDKs' rules:
            products 117, 5700, 5772 and 5784 are dropped, and so are Apple Pay (302) and Google
            Pay (320), which a Linux host cannot use.
            """,
        options: sessionOptions)

    let session: SessionOptions

    init(session: SessionOptions, arguments _: ParsedArguments) { self.session = session }

    func response() async throws(CSEError) -> JSONValue {
        try await session.session().basicPaymentProducts(for: try session.requiredContext()).jsonValue
    }
}

/// `cse session product ID` and `cse session networks ID`: a product id positional and a context.
protocol SessionProductCallCommand: SessionCallCommand {
    var productID: String { get }
    init(session: SessionOptions, productID: String)
}

extension SessionProductCallCommand {
    static var contextUse: SessionOptions.ContextUse { .required }

    init(session: SessionOptions, arguments: ParsedArguments) {
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
        options: sessionOptions,
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
        options: sessionOptions,
        positionals: [.init("ID", help: "The payment product id, e.g. 302.")])

    let session: SessionOptions
    let productID: String

    func response() async throws(CSEError) -> JSONValue {
        try await session.session().paymentProductNetworks(id: productID, for: try session.requiredContext()).jsonValue
    }
}

/// `cse session iin`.
struct SessionIINCommand: SessionCallCommand {
    static let contextUse = SessionOptions.ContextUse.optional
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
        options: sessionOptions)

    let session: SessionOptions

    init(session: SessionOptions, arguments _: ParsedArguments) { self.session = session }

    func response() async throws(CSEError) -> JSONValue {
        let number = try StandardInputValue.read()
        return try await session.session().iinDetails(partialCardNumber: number, for: try session.context()).clientAPIJSONValue
    }
}

/// `cse session dcc` and `cse session surcharge`: a card number on standard input, an amount, one
/// POST, the platform's response as it came.
protocol SessionCardServiceCommand: SessionCallCommand {
    /// The Client API call.
    static func call(_ session: ClientAPISession, card: CardSource, amount: AmountOfMoney) async throws(CSEError) -> JSONValue
    var productID: String? { get }
    init(session: SessionOptions, productID: String?)
}

extension SessionCardServiceCommand {
    static var contextUse: SessionOptions.ContextUse { .amountOnly }

    /// The options both commands take.
    static var cardServiceOptions: [CommandSpec.Option] {
        sessionOptions + [.value("product", "ID", help: "The card's payment product id, when known.")]
    }

    init(session: SessionOptions, arguments: ParsedArguments) {
        self.init(session: session, productID: arguments["product"])
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
        options: cardServiceOptions)

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
        options: cardServiceOptions)

    let session: SessionOptions
    let productID: String?

    static func call(_ session: ClientAPISession, card: CardSource, amount: AmountOfMoney) async throws(CSEError) -> JSONValue {
        try await session.surchargeCalculation(cardSource: card, amount: amount).jsonValue
    }
}
