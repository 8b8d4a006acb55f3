import CSECore
import CSEServerAPI

/// `cse mastercard token create`: Create Token from a session, or Create or Update Token under an
/// id of the merchant's (payment-lifecycle research notes §2.3).
struct MastercardTokenCreateCommand: NetworkCommand {
    /// The options.
    struct Options: CommandOptions {
        let session: OptionKey<String>
        let tokenID: OptionKey<MastercardIDArgument?>
        let gateway: MastercardCommandSupport.Options

        init(_ declare: inout OptionDeclarations) {
            session = declare.required("session", "ID", help: "The session that holds the card (the mobile SDK put it there).")
            tokenID = declare.value(
                "token-id", "ID", as: MastercardIDArgument.self,
                help: "Your own id for the token (Create or Update Token; the repository must allow merchant-supplied ids).")
            gateway = MastercardCommandSupport.Options(&declare, journal: true)
        }
    }

    static let spec = CommandSpec(
        name: "mastercard token create",
        abstract: "Save the card of a Mastercard Gateway session as a card-on-file token (Create Token).",
        discussion: """
            POST …/token with exactly {"session":{"id"},"sourceOfFunds":{"type":"CARD"}}, or with
            --token-id PUT …/token/{id} (Create or Update Token: the same id again replaces the card
            stored under it, for example after the payer's card was renewed). Prints
            {"token","status","repositoryId","card":{"brand","number","expiry","scheme"},"newToken"}:
            the token whole (it is the result: keep it with the customer; it can be charged, so
            treat it as a credential), the card number masked. "newToken" is false when the
            repository already held the card (a unique-card repository answers with the card's
            token) or when --token-id replaced a stored card.

            Exit status: 0 stored; 1 refused, nothing stored (mastercard.tokenRefused: the
            repository refused the card; mastercard.invalidRequest: a session without a card, an
            unknown session); 75 unknown (server.outcomeUnknown: no answer was read). With
            --token-id, settle an unknown outcome with 'cse mastercard token get ID'; without it
            nothing names the token before it is read: run the same command again (a unique-card
            repository answers with the same token) or look for the card in Merchant
            Administration.
            """,
        options: Options.self)

    let gateway: MastercardCommandSupport.Parsed
    let session: String
    let tokenID: String?

    init(arguments: ParsedArguments<Options>) throws(UsageError) {
        gateway = try MastercardCommandSupport.Parsed(arguments.group(\.gateway))
        session = arguments[\.session]
        tokenID = arguments[\.tokenID]?.id
    }

    func runAsync() async throws(CSEError) -> Int32 {
        let client = try gateway.client()
        let outcome: PaymentOutcome<MastercardToken>
        if let tokenID {
            outcome = try await client.saveToken(id: tokenID, sessionID: session)
        } else {
            outcome = try await client.createToken(sessionID: session)
        }
        let settle =
            tokenID == nil
            ? "nothing names the token before it is read: run the same command again (a unique-card repository answers with the "
                + "same token), or look for the card in Merchant Administration"
            : "settle it with 'cse mastercard token get ID' (merchantReference is the token id you chose)"
        return PaymentOutcomeOutput.finish(
            outcome, settle: settle,
            id: { _ in nil }, status: \.status, json: \.value)
    }
}

/// `cse mastercard token get ID` and `cse mastercard token delete ID`: the positional token and
/// the gateway options.
struct MastercardTokenArguments: Sendable {
    let gateway: MastercardCommandSupport.Parsed
    let token: String

    init(_ arguments: ParsedArguments<MastercardCommandSupport.Options>) throws(UsageError) {
        gateway = try MastercardCommandSupport.Parsed(arguments)
        token = arguments.positionals.first ?? ""
    }
}

/// `cse mastercard token get ID`: Retrieve Token.
struct MastercardTokenGetCommand: NetworkCommand {
    static let spec = CommandSpec(
        name: "mastercard token get",
        abstract: "Retrieve a Mastercard Gateway card-on-file token (GET …/token/{id}).",
        discussion: """
            Prints {"token","status","repositoryId","card":{"brand","number","expiry","scheme"}}
            with the card number masked. Exit status: 0 found; 1 mastercard.tokenUnknown (never
            created, or deleted); this is how a 'token create --token-id ID' whose outcome is
            unknown is settled.
            """,
        options: MastercardCommandSupport.Options.self,
        positionals: [.init("ID", help: "The token.")])

    let arguments: MastercardTokenArguments

    init(arguments: ParsedArguments<MastercardCommandSupport.Options>) throws(UsageError) {
        self.arguments = try MastercardTokenArguments(arguments)
    }

    func runAsync() async throws(CSEError) -> Int32 {
        JSONLine.write(try await arguments.gateway.client().retrieveToken(id: arguments.token).value)
        return ExitCode.success
    }
}

/// `cse mastercard token delete ID`: Delete Token.
struct MastercardTokenDeleteCommand: NetworkCommand {
    static let spec = CommandSpec(
        name: "mastercard token delete",
        abstract: "Delete a Mastercard Gateway card-on-file token (DELETE …/token/{id}).",
        discussion: """
            The card is no longer stored, and a payment with the token is refused
            (mastercard.tokenUnknown, exit 1). Prints {"deleted":true}. Exit status: 0 deleted; 1
            mastercard.tokenUnknown (no such token: already deleted, which also settles a delete
            whose answer was lost).
            """,
        options: MastercardCommandSupport.Options.self,
        positionals: [.init("ID", help: "The token.")])

    let arguments: MastercardTokenArguments

    init(arguments: ParsedArguments<MastercardCommandSupport.Options>) throws(UsageError) {
        self.arguments = try MastercardTokenArguments(arguments)
    }

    func runAsync() async throws(CSEError) -> Int32 {
        try await arguments.gateway.client().deleteToken(id: arguments.token)
        JSONLine.write(.object(JSONObject([("deleted", .bool(true))])))
        return ExitCode.success
    }
}
