import CSECore
import CSECrypto
import CSEGateways
import CSEHTTP
import CSEServerAPI

/// `cse aps sdk-token`: an Amazon Payment Services SDK token for a device.
struct APSSDKTokenCommand: NetworkCommand {
    static let spec = CommandSpec(
        name: "aps sdk-token",
        abstract: "Request an Amazon Payment Services mobile SDK token for a device (SDK_TOKEN).",
        discussion: """
            POSTs service_command=SDK_TOKEN, access_code, merchant_identifier, language, device_id
            and the signature (SHA request phrase) to FortAPI/paymentApi, verifies the response
            signature with the SHA response phrase before reading any field, and prints
            {"sdk_token","response_code","response_message"}. A wrong or missing response signature,
            or a response for another request, is an error and no token is printed; an APS failure
            is the error aps.message.NNN naming the message code.
            """,
        options: Options.self)

    /// The options of `cse aps sdk-token`.
    struct Options: CommandOptions {
        let deviceID: OptionKey<String>
        let language: OptionKey<APSLanguageArgument?>
        let server: ServerCallOptions.Keys

        init(_ declare: inout OptionDeclarations) {
            deviceID = declare.required("device-id", "ID", help: "The device id the mobile SDK reports.")
            language = declare.value("language", "LANG", as: APSLanguageArgument.self, help: "en (default) or ar.")
            server = ServerCallOptions.Keys(
                &declare,
                credentialsHelp:
                    "APS credentials {\"access_code\",\"merchant_identifier\",\"sha_request_phrase\",\"sha_response_phrase\",\"sha_type\"}",
                environment: .choice)
        }
    }

    let options: ServerCallOptions
    let deviceID: String
    let language: String

    init(arguments: ParsedArguments<Options>) throws(UsageError) {
        options = try ServerCallOptions(arguments: arguments.group(\.server))
        deviceID = arguments[\.deviceID]
        language = (arguments[\.language] ?? .en).rawValue
    }

    func runAsync() async throws(CSEError) -> Int32 {
        let credentials = try APSCredentials(document: try options.credentials())
        let client = try APSSDKTokenClient(
            credentials: credentials, environment: options.environment(options.isProduction ? .apsProduction : .apsTest),
            configuration: options.configuration)
        let token = try await client.sdkToken(deviceID: deviceID, language: language)
        var members: [(String, JSONValue)] = [
            ("sdk_token", .string(token.token)), ("response_code", .string(token.responseCode.description)),
        ]
        if let message = token.responseMessage { members.append(("response_message", .string(message))) }
        JSONLine.write(.object(JSONObject(members)))
        return ExitCode.success
    }
}

/// The Mastercard session commands' shared options.
enum MastercardCommandSupport {
    /// The options of every `cse mastercard session …` command.
    struct Options: CommandOptions {
        let region: OptionKey<RegionArgument?>
        let apiVersion: OptionKey<MastercardAPIVersionArgument?>
        let server: ServerCallOptions.Keys

        /// Declares the options of a command that moves no money.
        init(_ declare: inout OptionDeclarations) { self.init(&declare, journal: false) }

        /// Declares the options; `journal` for a command that moves money.
        init(_ declare: inout OptionDeclarations, journal: Bool) {
            region = MastercardCommandSupport.regionKey(&declare)
            apiVersion = MastercardCommandSupport.apiVersionKey(&declare)
            server = ServerCallOptions.Keys(
                &declare, credentialsHelp: "Mastercard credentials {\"merchantId\",\"apiPassword\"}", journal: journal)
        }
    }

    struct Parsed: Sendable {
        let options: ServerCallOptions
        let region: MastercardRegion
        let apiVersion: Int
        /// The `ID` positional of `update` and `get`.
        let sessionID: String

        init(_ arguments: ParsedArguments<Options>) throws(UsageError) {
            options = try ServerCallOptions(arguments: arguments.group(\.server))
            sessionID = arguments.positionals.first ?? ""
            region = arguments[\.region]?.region ?? .mtf
            apiVersion = arguments[\.apiVersion]?.value ?? MastercardSessionClient.defaultAPIVersion
        }

        func client() throws(CSEError) -> MastercardSessionClient {
            try MastercardCommandSupport.client(options, region: region, apiVersion: apiVersion)
        }
    }

    /// Declares `--region R`; `prefix` starts its help (a command of several platforms says whose).
    static func regionKey(_ declare: inout OptionDeclarations, prefix: String = "") -> OptionKey<RegionArgument?> {
        declare.value(
            "region", "R", as: RegionArgument.self,
            help: prefix + "ap, eu, na, in, cn, mtf (default) or ksa: https://{region}.gateway.mastercard.com.")
    }

    /// Declares `--api-version N`; `prefix` as for ``regionKey(_:prefix:)``.
    static func apiVersionKey(_ declare: inout OptionDeclarations, prefix: String = "") -> OptionKey<MastercardAPIVersionArgument?> {
        declare.value(
            "api-version", "N", as: MastercardAPIVersionArgument.self,
            help: prefix
                + "\(prefix.isEmpty ? "The" : "the") API version, 39 or later (default \(MastercardSessionClient.defaultAPIVersion)).")
    }

    /// The gateway client of `options` in `region` at `apiVersion`: the one way a command makes it.
    static func client(
        _ options: ServerCallOptions, region: MastercardRegion, apiVersion: Int
    ) throws(CSEError)
        -> MastercardSessionClient
    {
        let credentials = try MastercardCredentials(document: try options.credentials())
        return try MastercardSessionClient(
            credentials: credentials, environment: options.environment(.mastercard(region)), apiVersion: apiVersion,
            configuration: options.configuration)
    }
}

/// A `cse mastercard session …` command: the Mastercard options, one call, and the session it
/// returns printed with the card number masked and the security code removed.
protocol MastercardSessionCommand: NetworkCommand where Options == MastercardCommandSupport.Options {
    /// The options, read once.
    var parsed: MastercardCommandSupport.Parsed { get }
    init(parsed: MastercardCommandSupport.Parsed)
    /// Makes the call.
    func session() async throws(CSEError) -> MastercardSession
}

extension MastercardSessionCommand {
    init(arguments: ParsedArguments<Options>) throws(UsageError) { self.init(parsed: try MastercardCommandSupport.Parsed(arguments)) }

    func runAsync() async throws(CSEError) -> Int32 {
        JSONLine.write(try await session().maskedValue)
        return ExitCode.success
    }
}

/// `cse mastercard session create`.
struct MastercardSessionCreateCommand: MastercardSessionCommand {
    static let spec = CommandSpec(
        name: "mastercard session create",
        abstract: "Create a Mastercard Gateway session (POST …/session).",
        discussion: "Prints the gateway's response JSON (session.id, session.updateStatus, …).",
        options: MastercardCommandSupport.Options.self)

    let parsed: MastercardCommandSupport.Parsed

    func session() async throws(CSEError) -> MastercardSession { try await parsed.client().createSession() }
}

/// `cse mastercard session update ID`.
struct MastercardSessionUpdateCommand: MastercardSessionCommand {
    static let spec = CommandSpec(
        name: "mastercard session update",
        abstract: "Update a Mastercard Gateway session (PUT …/session/{id}) with the JSON on standard input.",
        discussion: """
            Reads the update as JSON (nested, or with dotted member names as GatewayMap paths), checks
            it with the mastercard-update-session rules and sends it. Prints the gateway's response
            with the card number masked and the security code removed.
            """,
        options: MastercardCommandSupport.Options.self,
        positionals: [.init("ID", help: "The session id.")])

    let parsed: MastercardCommandSupport.Parsed

    func session() async throws(CSEError) -> MastercardSession {
        var input = try Files.readStandardInput(limit: 1 << 20)
        defer { secureZero(&input) }
        let update = try GatewayMap(parsing: input)
        return try await parsed.client().updateSession(id: parsed.sessionID, with: update)
    }
}

/// `cse mastercard session get ID`.
struct MastercardSessionGetCommand: MastercardSessionCommand {
    static let spec = CommandSpec(
        name: "mastercard session get",
        abstract: "Retrieve a Mastercard Gateway session (GET …/session/{id}).",
        discussion: "Prints the gateway's response with the card number masked and the security code removed.",
        options: MastercardCommandSupport.Options.self,
        positionals: [.init("ID", help: "The session id.")])

    let parsed: MastercardCommandSupport.Parsed

    func session() async throws(CSEError) -> MastercardSession { try await parsed.client().retrieveSession(id: parsed.sessionID) }
}

/// `cse paysafe token`: a single-use card token for the card object on stdin.
struct PaysafeTokenCommand: NetworkCommand {
    static let spec = CommandSpec(
        name: "paysafe token",
        abstract: "Create a Paysafe single-use card token for the card object on standard input.",
        discussion: """
            Reads the card in Paysafe's shape, {"cardNum","cardExpiry":{"month","year"},"holderName",…}
            (or wrapped as {"card":{…}}), and POSTs it to /customervault/v1/singleusetokens with the
            single-use-token API key. Prints {"id","paymentToken","timeToLiveSeconds","card":{…}} with
            the card shown only as BIN and last digits.
            """,
        options: Options.self)

    /// The options of `cse paysafe token`.
    struct Options: CommandOptions {
        let server: ServerCallOptions.Keys

        init(_ declare: inout OptionDeclarations) {
            server = ServerCallOptions.Keys(&declare, credentialsHelp: "Paysafe credentials {\"apiKey\"}", environment: .choice)
        }
    }

    let options: ServerCallOptions

    init(arguments: ParsedArguments<Options>) throws(UsageError) { options = try ServerCallOptions(arguments: arguments.group(\.server)) }

    func runAsync() async throws(CSEError) -> Int32 {
        var input = try Files.readStandardInput(limit: 64 * 1024)
        defer { secureZero(&input) }
        let object = try JSONObjectInput.parse(input, orElse: "the card must be a JSON object")
        let card = object["card"]?.objectValue ?? object
        let credentials = try PaysafeCredentials(document: try options.credentials())
        let client = try PaysafeTokenClient(
            credentials: credentials, environment: options.environment(options.isProduction ? .paysafeProduction : .paysafeTest),
            configuration: options.configuration)
        JSONLine.write(try await client.createSingleUseToken(card: card).json)
        return ExitCode.success
    }
}
