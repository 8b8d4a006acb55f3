import CSEClientAPI
import CSECore
import CSECrypto
import CSEPayments
import CSEValidation

// `cse session …`: the Client API calls of a session, JSON on stdout with the platform's member
// names. Card numbers come from standard input only.

/// A `cse session …` command: the one option group every session command shares
/// (``SessionOptions/Keys``, declared for the command's context use, beside any option of its
/// own), one Client API call, and the call's JSON on stdout.
protocol SessionCallCommand: NetworkCommand {
    /// Makes the call; its result is what the command prints.
    func response() async throws(CSEError) -> JSONValue
}

extension SessionCallCommand {
    /// Prints the call's JSON.
    func runAsync() async throws(CSEError) -> Int32 {
        JSONLine.write(try await response())
        return ExitCode.success
    }
}

/// The options of a session command that takes no context: the session group alone.
struct SessionWithoutContextOptions: CommandOptions {
    let session: SessionOptions.Keys
    init(_ declare: inout OptionDeclarations) { session = SessionOptions.Keys(&declare, context: .none) }
}

/// The options of a session command that needs a payment context: the session group with it.
struct SessionInContextOptions: CommandOptions {
    let session: SessionOptions.Keys
    init(_ declare: inout OptionDeclarations) { session = SessionOptions.Keys(&declare, context: .required) }
}

/// What `cse session product ID` and `cse session networks ID` share: a session in a context and
/// the product id.
struct SessionProductCall: Sendable {
    let session: SessionOptions
    let productID: String

    init(_ arguments: ParsedArguments<SessionInContextOptions>) throws(UsageError) {
        session = try SessionOptions(arguments: arguments.group(\.session))
        productID = arguments.positionals.first ?? ""
    }
}

/// `cse session publickey`.
struct SessionPublicKeyCommand: SessionCallCommand {
    typealias Options = SessionWithoutContextOptions
    static let spec = CommandSpec(
        name: "session publickey",
        abstract: "Fetch the session's encryption key: {\"keyId\",\"publicKey\"}.",
        discussion: "Writes the Client API response {\"keyId\":\"…\",\"publicKey\":\"<base64 SubjectPublicKeyInfo>\"}.",
        options: Options.self)

    let session: SessionOptions

    init(arguments: ParsedArguments<Options>) throws(UsageError) { session = try SessionOptions(arguments: arguments.group(\.session)) }

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
    typealias Options = SessionInContextOptions
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

    init(arguments: ParsedArguments<Options>) throws(UsageError) { session = try SessionOptions(arguments: arguments.group(\.session)) }

    func response() async throws(CSEError) -> JSONValue {
        try await session.session().basicPaymentProducts(for: try session.requiredContext()).jsonValue
    }
}

/// `cse session product ID`.
struct SessionProductCommand: SessionCallCommand {
    typealias Options = SessionInContextOptions
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

    let call: SessionProductCall

    init(arguments: ParsedArguments<Options>) throws(UsageError) { call = try SessionProductCall(arguments) }

    func response() async throws(CSEError) -> JSONValue {
        try await call.session.session().paymentProduct(id: call.productID, for: try call.session.requiredContext()).clientAPIJSONValue
    }
}

/// `cse session networks ID`.
struct SessionNetworksCommand: SessionCallCommand {
    typealias Options = SessionInContextOptions
    static let spec = CommandSpec(
        name: "session networks",
        abstract: "Fetch the card networks of a payment product: {\"networks\":[…]}.",
        options: Options.self,
        positionals: [.init("ID", help: "The payment product id, e.g. 302.")])

    let call: SessionProductCall

    init(arguments: ParsedArguments<Options>) throws(UsageError) { call = try SessionProductCall(arguments) }

    func response() async throws(CSEError) -> JSONValue {
        try await call.session.session().paymentProductNetworks(id: call.productID, for: try call.session.requiredContext()).jsonValue
    }
}

/// `cse session iin`.
struct SessionIINCommand: SessionCallCommand {
    /// The session group, context optional (all or nothing).
    struct Options: CommandOptions {
        let session: SessionOptions.Keys
        init(_ declare: inout OptionDeclarations) { session = SessionOptions.Keys(&declare, context: .optional) }
    }
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

    init(arguments: ParsedArguments<Options>) throws(UsageError) { session = try SessionOptions(arguments: arguments.group(\.session)) }

    func response() async throws(CSEError) -> JSONValue {
        let number = try StandardInputValue.read()
        return try await session.session().iinDetails(partialCardNumber: number, for: try session.context()).clientAPIJSONValue
    }
}

/// The options of `cse session dcc` and `cse session surcharge`: the session group with the
/// amount and currency, and the card's product id.
struct SessionCardServiceOptions: CommandOptions {
    let session: SessionOptions.Keys
    let product: OptionKey<String?>

    init(_ declare: inout OptionDeclarations) {
        session = SessionOptions.Keys(&declare, context: .amountOnly)
        product = declare.value("product", "ID", help: "The card's payment product id, when known.")
    }
}

/// What `cse session dcc` and `cse session surcharge` share: a card number on standard input,
/// an amount, one POST, the platform's response as it came.
struct SessionCardService: Sendable {
    let session: SessionOptions
    let productID: String?

    init(_ arguments: ParsedArguments<SessionCardServiceOptions>) throws(UsageError) {
        session = try SessionOptions(arguments: arguments.group(\.session))
        productID = arguments[\.product]
    }

    /// Reads the card number and makes `call`.
    func response(
        _ call: (ClientAPISession, CardSource, AmountOfMoney) async throws(CSEError) -> JSONValue
    ) async throws(CSEError) -> JSONValue {
        let number = try StandardInputValue.read()
        return try await call(try session.session(), .card(number: number, paymentProductID: productID), try session.amountOfMoney())
    }
}

/// `cse session dcc`.
struct SessionDCCCommand: SessionCallCommand {
    typealias Options = SessionCardServiceOptions
    static let spec = CommandSpec(
        name: "session dcc",
        abstract: "Ask for a currency conversion quote (services/dccrate) for the card number on standard input.",
        discussion: "Writes the platform's CurrencyConversionResponse {\"dccSessionId\",\"result\",\"proposal\"}.",
        options: Options.self)

    let service: SessionCardService

    init(arguments: ParsedArguments<Options>) throws(UsageError) { service = try SessionCardService(arguments) }

    func response() async throws(CSEError) -> JSONValue {
        try await service.response { (client, card, amount) throws(CSEError) in
            try await client.currencyConversionQuote(cardSource: card, amount: amount).jsonValue
        }
    }
}

/// `cse session surcharge`.
struct SessionSurchargeCommand: SessionCallCommand {
    typealias Options = SessionCardServiceOptions
    static let spec = CommandSpec(
        name: "session surcharge",
        abstract: "Ask for the surcharge (services/surchargecalculation) of the card number on standard input.",
        discussion: "Writes the platform's SurchargeCalculationResponse {\"surcharges\":[…]}.",
        options: Options.self)

    let service: SessionCardService

    init(arguments: ParsedArguments<Options>) throws(UsageError) { service = try SessionCardService(arguments) }

    func response() async throws(CSEError) -> JSONValue {
        try await service.response { (client, card, amount) throws(CSEError) in
            try await client.surchargeCalculation(cardSource: card, amount: amount).jsonValue
        }
    }
}
