import CSECore
import CSEServerAPI

/// `--challenge-indicator VALUE` of `cse worldline create-payment`: the Direct API's list.
struct WorldlineChallengeIndicatorArgument: ArgumentValue {
    /// The library's value.
    let value: WorldlineThreeDSecure.ChallengeIndicator

    /// The value whose documented spelling is `argument`.
    init?(argument: String) {
        guard let value = WorldlineThreeDSecure.ChallengeIndicator(rawValue: argument) else { return nil }
        self.value = value
    }

    /// The documented values.
    static var allValueStrings: [String] { WorldlineThreeDSecure.ChallengeIndicator.allCases.map(\.rawValue) }
}

/// `--exemption-request VALUE` of `cse worldline create-payment`: the Direct API's list.
struct WorldlineExemptionArgument: ArgumentValue {
    /// The library's value.
    let value: WorldlineThreeDSecure.ExemptionRequest

    /// The value whose documented spelling is `argument`.
    init?(argument: String) {
        guard let value = WorldlineThreeDSecure.ExemptionRequest(rawValue: argument) else { return nil }
        self.value = value
    }

    /// The documented values.
    static var allValueStrings: [String] { WorldlineThreeDSecure.ExemptionRequest.allCases.map(\.rawValue) }
}

/// `--device-channel browser|app` of `cse worldline create-payment`.
enum WorldlineDeviceChannelArgument: String, CaseIterable, ArgumentValue {
    case browser, app

    /// The library's value (`Browser`, `AppBased`).
    var channel: WorldlineThreeDSecure.DeviceChannel { self == .browser ? .browser : .app }
}

/// `--merchant-initiated recurring|unscheduled|instalment` of `cse worldline create-payment`.
enum WorldlineMerchantInitiatedArgument: String, CaseIterable, ArgumentValue {
    case recurring, unscheduled, instalment

    /// The library's kind of series.
    var kind: WorldlineCardOnFile.Kind {
        switch self {
        case .recurring: .recurring
        case .unscheduled: .unscheduled
        case .instalment: .instalment
        }
    }
}

/// What the Worldline token commands share.
enum WorldlineTokenSupport {
    /// The options of `cse worldline token get|delete`.
    struct Options: CommandOptions {
        let server: ServerCallOptions.Keys

        init(_ declare: inout OptionDeclarations) {
            server = WorldlineCommandSupport.serverKeys(&declare)
        }
    }

    /// How a token create whose outcome is unknown is settled on Worldline.
    static let settle =
        "settle it by running 'cse worldline token create' again with the same sealed card: the platform keeps one token "
        + "per card number and returns the same token (isNewToken false), never a second one"

    /// The exit statuses of the token commands.
    static let exitStatus = """
        Exit status: 0 done; 1 refused or nothing done: server.unknownPayment (the platform knows
        no such token: deleted or never made), worldline.apiError naming the platform's error id
        (a card the vault refuses), serverAPI.authenticationFailed; 64 usage.
        """
}

/// `cse worldline token create`: CreateToken from the output of `cse seal` on stdin.
struct WorldlineTokenCreateCommand: NetworkCommand {
    static let spec = CommandSpec(
        name: "worldline token create",
        abstract: "Save a card as a token (Worldline CreateToken) from the output of 'cse seal' on standard input.",
        discussion: """
            Reads {"encryptedCustomerInput",…} (the output of 'cse seal') or a bare compact JWE on
            standard input, never plain card data, and posts it to /v2/{merchantId}/tokens. Prints
            {"token","isNewToken","status","paymentProductId","brand","cardNumber","expiryDate"}
            with the card number masked. The token can be charged: it is printed whole on
            standard output, as the result, and nowhere else.

            Worldline keeps one token per card number: a card already saved returns its existing
            token with "isNewToken":false (exit 0; the output says so, the token is unchanged).

            \(WorldlineTokenSupport.exitStatus) 75 unknown (server.outcomeUnknown: the answer was
            lost or unreadable): run the same command again with the same sealed card, which returns
            the same token instead of making a second one.
            """,
        options: Options.self)

    /// The options of `cse worldline token create`.
    struct Options: CommandOptions {
        let product: OptionKey<String?>
        let server: ServerCallOptions.Keys

        init(_ declare: inout OptionDeclarations) {
            product = declare.value("product", "ID", help: "The paymentProductId, when known (the sealed input usually names it).")
            server = WorldlineCommandSupport.serverKeys(&declare, journal: true)
        }
    }

    let options: ServerCallOptions
    let product: Int?

    init(arguments: ParsedArguments<Options>) throws(UsageError) {
        options = try ServerCallOptions(arguments: arguments.group(\.server))
        if let text = arguments[\.product] {
            guard let value = Int(text), (1...99_999).contains(value) else {
                throw UsageError("The value for '--product' must be a payment product id from 1 to 99999.")
            }
            product = value
        } else {
            product = nil
        }
    }

    func runAsync() async throws(CSEError) -> Int32 {
        let request = try WorldlineTokenRequest(
            encryptedCustomerInput: try WorldlineCommandSupport.sealedInput(try WorldlineCommandSupport.standardInput()),
            paymentProductID: product)
        let outcome = try await WorldlineCommandSupport.client(options).createToken(request)
        return PaymentOutcomeOutput.finish(outcome, settle: WorldlineTokenSupport.settle, id: { _ in nil }, status: \.status) {
            token in
            var object = token.json.objectValue ?? JSONObject()
            if token.isNewToken == false {
                object["note"] = .string("the card was already saved: this is its existing token, unchanged")
            }
            return .object(object)
        }
    }
}

/// `cse worldline token get`: GetToken.
struct WorldlineTokenGetCommand: NetworkCommand {
    static let spec = CommandSpec(
        name: "worldline token get",
        abstract: "Print a saved card (Worldline GetToken), its number masked.",
        discussion: """
            GET /v2/{merchantId}/tokens/{tokenId}, signed with GCS v1HMAC. Prints {"token",
            "paymentProductId","brand","cardNumber","expiryDate"} with the card number masked.

            \(WorldlineTokenSupport.exitStatus)
            """,
        options: WorldlineTokenSupport.Options.self,
        positionals: [.init("ID", help: "The token.")])

    let options: ServerCallOptions
    let token: String

    init(arguments: ParsedArguments<WorldlineTokenSupport.Options>) throws(UsageError) {
        options = try ServerCallOptions(arguments: arguments.group(\.server))
        token = arguments.positionals.first ?? ""
    }

    func runAsync() async throws(CSEError) -> Int32 {
        let saved = try await WorldlineCommandSupport.client(options).getToken(token)
        JSONLine.write(saved.json)
        return ExitCode.success
    }
}

/// `cse worldline token delete`: DeleteToken.
struct WorldlineTokenDeleteCommand: NetworkCommand {
    static let spec = CommandSpec(
        name: "worldline token delete",
        abstract: "Delete a saved card (Worldline DeleteToken).",
        discussion: """
            DELETE /v2/{merchantId}/tokens/{tokenId}, signed with GCS v1HMAC, without a body.
            Prints {"deleted":true}. A payment with the deleted token is refused afterwards
            (server.unknownPayment), and CreateSession lists it among the invalid tokens. When the
            answer to a delete is lost, delete again: server.unknownPayment then says it is gone.

            \(WorldlineTokenSupport.exitStatus)
            """,
        options: WorldlineTokenSupport.Options.self,
        positionals: [.init("ID", help: "The token.")])

    let options: ServerCallOptions
    let token: String

    init(arguments: ParsedArguments<WorldlineTokenSupport.Options>) throws(UsageError) {
        options = try ServerCallOptions(arguments: arguments.group(\.server))
        token = arguments.positionals.first ?? ""
    }

    func runAsync() async throws(CSEError) -> Int32 {
        try await WorldlineCommandSupport.client(options).deleteToken(token)
        JSONLine.write(.object(JSONObject([("deleted", .bool(true))])))
        return ExitCode.success
    }
}
