import CSEClientAPI
import CSECore
import CSEHTTP
import CSEPayments
import CSEValidation

/// The options every command that talks to the Client API shares: `--session FILE|env:NAME`
/// (the CreateSession response JSON), the payment context (`--country`, `--currency`,
/// `--amount`, `--recurring`), `--ca-file PEM` and `--timeout SECONDS`.
struct SessionOptions: Sendable {
    /// Which context options a command takes.
    enum ContextUse: Sendable {
        /// `--country`, `--currency`, `--amount` required; `--recurring` optional.
        case required
        /// All three or none (`iin`: without them no `paymentContext` is sent).
        case optional
        /// `--currency` and `--amount` required, no country (`dcc`, `surcharge`).
        case amountOnly
        /// None.
        case none
    }

    /// The keys of the session options, declared for one ``ContextUse``: the context keys a use
    /// leaves out are `nil` (and read as not given).
    struct Keys: Sendable {
        /// `--session FILE|env:NAME`.
        let session: OptionKey<String?>
        /// `--country CC` (``ContextUse/required`` and ``ContextUse/optional``).
        let country: OptionKey<String?>?
        /// `--currency CUR` (every use but ``ContextUse/none``).
        let currency: OptionKey<CurrencyArgument?>?
        /// `--amount MINOR` (every use but ``ContextUse/none``).
        let amount: OptionKey<AmountArgument?>?
        /// `--recurring` (``ContextUse/required`` and ``ContextUse/optional``).
        let recurring: OptionKey<Bool>?
        /// `--ca-file` and `--timeout`.
        let transport: TransportOptions.Keys
        /// The context use the keys were declared for, which parsing checks.
        let contextUse: ContextUse

        /// Declares `--session`, the context options `context` calls for, and the transport options.
        init(_ declare: inout OptionDeclarations, context: ContextUse, sessionRequired: Bool = true) {
            contextUse = context
            session = declare.value(
                "session", "FILE", required: sessionRequired,
                help: "The CreateSession response JSON (clientSessionId, customerId, clientApiUrl, assetUrl), or env:NAME.")
            let required = context == .required || context == .amountOnly
            let hasCountry = context == .required || context == .optional
            let hasAmount = context != .none
            country =
                hasCountry
                ? declare.value("country", "CC", required: required, help: "The customer's country, ISO 3166-1 alpha-2 (e.g. NL).") : nil
            currency =
                hasAmount
                ? declare.value(
                    "currency", "CUR", required: required, as: CurrencyArgument.self, help: "The currency, ISO 4217 (e.g. EUR).")
                : nil
            amount =
                hasAmount
                ? declare.value(
                    "amount", "MINOR", required: required, as: AmountArgument.self, help: "The amount in minor units (e.g. 1000 for 10.00)."
                )
                : nil
            recurring = hasCountry ? declare.flag("recurring", help: "A recurring payment.") : nil
            transport = TransportOptions.Keys(&declare)
            if !sessionRequired {
                // Without --session (`cse seal` offline) the context and the transport mean nothing.
                let context: [(any OptionOperand)?] = [country, currency, amount, transport.caFile, transport.timeout, recurring]
                declare.need(session, by: context.compactMap { $0 })
            }
            if context == .optional, let country, let currency, let amount { declare.together([country, currency, amount]) }
        }
    }

    let sessionSpec: String
    let country: String?
    let currency: String?
    let amount: Int?
    let recurring: Bool
    let transport: TransportOptions
    let contextUse: ContextUse

    /// Reads the options; checks that the context options are complete for the context use the
    /// keys were declared for.
    init(arguments: ParsedArguments<Keys>) throws(UsageError) {
        try self.init(arguments: arguments, context: arguments.keys.contextUse)
    }

    /// Reads the options for `context` (`cse seal --session --product ID` requires a context its
    /// keys declared optional); the parser has checked that they are complete (required options,
    /// all three or none, and the rules the command declares).
    init(arguments: ParsedArguments<Keys>, context: ContextUse) throws(UsageError) {
        // Required unless the keys say otherwise (`cse seal`, which reads them only with --session).
        sessionSpec = arguments[\.session] ?? ""
        country = arguments[\.country]
        currency = arguments[\.currency]?.currency.code
        amount = arguments[\.amount]?.minorUnits
        recurring = arguments[\.recurring]
        transport = try TransportOptions(arguments: arguments.group(\.transport))
        contextUse = context
    }

    /// The session data from the file or environment variable.
    /// - Throws: `cli.file`, `cli.missingEnvironment`, `clientAPI.invalidSession`.
    func sessionData() throws(CSEError) -> SessionData {
        try SessionData(json: try KeySource.read(sessionSpec, secretKind: "session file"))
    }

    /// A session configured from the options, sealing with `sealing` (`cse seal --session`).
    func session(sealing: SealingOptions = SealingOptions()) throws(CSEError) -> ClientAPISession {
        var configuration = ClientAPIConfiguration()
        configuration.http = transport.applied(to: configuration.http)
        configuration.sealing = sealing
        return try ClientAPISession(sessionData: try sessionData(), configuration: configuration)
    }

    /// The payment context, when the options give one.
    /// - Throws: `clientAPI.invalidContext`.
    func context() throws(CSEError) -> PaymentContext? {
        guard let country, let currency, let amount else { return nil }
        return try PaymentContext(amount: Int64(amount), currencyCode: currency, countryCode: country, isRecurring: recurring)
    }

    /// The context of a command that requires one (checked at parse time).
    func requiredContext() throws(CSEError) -> PaymentContext {
        guard let context = try context() else {
            throw CSEError(.clientAPIInvalidContext, "the payment context is incomplete")
        }
        return context
    }

    /// The amount of `dcc` and `surcharge`.
    func amountOfMoney() throws(CSEError) -> AmountOfMoney {
        try AmountOfMoney(amount: Int64(amount ?? -1), currencyCode: currency ?? "")
    }
}
