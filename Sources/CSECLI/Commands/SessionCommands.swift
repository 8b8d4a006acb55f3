import CSEClientAPI
import CSECore
import CSECrypto
import CSEPayments
import CSEValidation

// `cse session …`: the Client API calls of a session, JSON on stdout with the platform's member
// names. Card numbers come from standard input only.

/// `cse session publickey`.
struct SessionPublicKeyCommand: AsyncCLICommand {
    static let spec = CommandSpec(
        name: "session publickey",
        abstract: "Fetch the session's encryption key: {\"keyId\",\"publicKey\"}.",
        discussion: "Writes the Client API response {\"keyId\":\"…\",\"publicKey\":\"<base64 SubjectPublicKeyInfo>\"}.",
        options: SessionOptions.options(context: .none))

    let session: SessionOptions

    init(arguments: ParsedArguments) throws(UsageError) {
        session = try SessionOptions(arguments: arguments, context: .none)
    }

    func runAsync() async throws(CSEError) -> Int32 {
        let key = try await session.session().publicKey()
        SessionOutput.write(
            .object(
                JSONObject([
                    ("keyId", .string(key.keyID)), ("publicKey", .string(Base64.encode(key.key.derRepresentation))),
                ])))
        return ExitCode.success
    }
}

/// `cse session products`.
struct SessionProductsCommand: AsyncCLICommand {
    static let spec = CommandSpec(
        name: "session products",
        abstract: "List the payment products of a context, with their accounts on file.",
        discussion: """
            Writes {"paymentProducts":[…]} as the platform returns it, after the SDKs' rules:
            products 117, 5700, 5772 and 5784 are dropped, and so are Apple Pay (302) and Google
            Pay (320), which a Linux host cannot use.
            """,
        options: SessionOptions.options(context: .required))

    let session: SessionOptions

    init(arguments: ParsedArguments) throws(UsageError) {
        session = try SessionOptions(arguments: arguments, context: .required)
    }

    func runAsync() async throws(CSEError) -> Int32 {
        SessionOutput.write(try await session.session().basicPaymentProducts(for: try session.requiredContext()).jsonValue)
        return ExitCode.success
    }
}

/// `cse session product ID`.
struct SessionProductCommand: AsyncCLICommand {
    static let spec = CommandSpec(
        name: "session product",
        abstract: "Fetch one payment product with its fields.",
        discussion: """
            Writes the product in the Client API format after the SDKs' post-processing: fields
            in display order, an expiryDate list shown as text, default masks for expiryDate and
            cardNumber. Products 117, 5700, 5772 and 5784 are refused without a call.
            """,
        options: SessionOptions.options(context: .required),
        positionals: [.init("ID", help: "The payment product id, e.g. 1.")])

    let session: SessionOptions
    let productID: String

    init(arguments: ParsedArguments) throws(UsageError) {
        session = try SessionOptions(arguments: arguments, context: .required)
        productID = arguments.positionals.first ?? ""
    }

    func runAsync() async throws(CSEError) -> Int32 {
        let product = try await session.session().paymentProduct(id: productID, for: try session.requiredContext())
        SessionOutput.write(product.clientAPIJSONValue)
        return ExitCode.success
    }
}

/// `cse session networks ID`.
struct SessionNetworksCommand: AsyncCLICommand {
    static let spec = CommandSpec(
        name: "session networks",
        abstract: "Fetch the card networks of a payment product: {\"networks\":[…]}.",
        options: SessionOptions.options(context: .required),
        positionals: [.init("ID", help: "The payment product id, e.g. 302.")])

    let session: SessionOptions
    let productID: String

    init(arguments: ParsedArguments) throws(UsageError) {
        session = try SessionOptions(arguments: arguments, context: .required)
        productID = arguments.positionals.first ?? ""
    }

    func runAsync() async throws(CSEError) -> Int32 {
        let networks = try await session.session().paymentProductNetworks(id: productID, for: try session.requiredContext())
        SessionOutput.write(networks.jsonValue)
        return ExitCode.success
    }
}

/// `cse session iin`.
struct SessionIINCommand: AsyncCLICommand {
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
        options: SessionOptions.options(context: .optional))

    let session: SessionOptions

    init(arguments: ParsedArguments) throws(UsageError) {
        session = try SessionOptions(arguments: arguments, context: .optional)
    }

    func runAsync() async throws(CSEError) -> Int32 {
        let number = try StandardInputValue.read()
        let details = try await session.session().iinDetails(partialCardNumber: number, for: try session.context())
        SessionOutput.write(details.clientAPIJSONValue)
        return ExitCode.success
    }
}

/// `cse session dcc` and `cse session surcharge`: a card number on standard input, an amount, one
/// POST, the platform's response as it came.
protocol SessionCardServiceCommand: AsyncCLICommand {
    /// The Client API call.
    static func call(_ session: ClientAPISession, card: CardSource, amount: AmountOfMoney) async throws(CSEError) -> JSONValue
    var session: SessionOptions { get }
    var productID: String? { get }
}

extension SessionCardServiceCommand {
    /// The options both commands take.
    static var cardServiceOptions: [CommandSpec.Option] {
        SessionOptions.options(context: .amountOnly) + [.value("product", "ID", help: "The card's payment product id, when known.")]
    }

    func runAsync() async throws(CSEError) -> Int32 {
        let number = try StandardInputValue.read()
        let client = try session.session()
        let result = try await Self.call(
            client, card: .card(number: number, paymentProductID: productID), amount: try session.amountOfMoney())
        SessionOutput.write(result)
        return ExitCode.success
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

    init(arguments: ParsedArguments) throws(UsageError) {
        session = try SessionOptions(arguments: arguments, context: .amountOnly)
        productID = arguments["product"]
    }

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

    init(arguments: ParsedArguments) throws(UsageError) {
        session = try SessionOptions(arguments: arguments, context: .amountOnly)
        productID = arguments["product"]
    }

    static func call(_ session: ClientAPISession, card: CardSource, amount: AmountOfMoney) async throws(CSEError) -> JSONValue {
        try await session.surchargeCalculation(cardSource: card, amount: amount).jsonValue
    }
}

/// One JSON document and a line break on stdout.
enum SessionOutput {
    static func write(_ value: JSONValue) {
        StandardStreams.write(value.serializedBytes + [0x0A], to: 1)
    }
}
