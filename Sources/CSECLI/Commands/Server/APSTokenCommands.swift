import CSECore
import CSEGateways
import CSEServerAPI

/// `--status active|inactive` of `cse aps update-token`.
enum APSTokenStatusArgument: String, CaseIterable, ArgumentValue {
    case active, inactive

    /// The library's status.
    var status: APSToken.Status { self == .active ? .active : .inactive }
}

/// `cse aps update-token`: UPDATE_TOKEN on a saved card.
struct APSUpdateTokenCommand: NetworkCommand {
    static let spec = CommandSpec(
        name: "aps update-token",
        abstract: "Update or deactivate a saved card on Amazon Payment Services (UPDATE_TOKEN).",
        discussion: """
            POSTs service_command UPDATE_TOKEN to FortAPI/paymentApi, signed with the SHA request
            phrase, and prints the answer once its signature verifies with the SHA response phrase:
            the token's masked card number, BIN, brand, expiry, holder name, status and creation
            date (research notes, lifecycle §3.3). --status inactive is APS's way to delete a saved
            card: payments with it are then refused (aps.token.unknown). With no change given, APS
            answers the token as it is. The token name is a credential: it is sent, and printed on
            standard output only as the result; never in an error.

            Exit status: 0 updated (58000); 1 refused: aps.token.unknown (059044: no such token),
            aps.token.nameInUse (059114: the new name is another token's), or APS's aps.message.NNN;
            75 unknown (server.outcomeUnknown: no verified answer; APS documents no way to read a
            token, so send the same update again, which changes nothing twice; after
            --new-token-name, an update of the new name with no change says whether the rename was
            made: 58000, or 59044 when it was not); 64 usage.
            """,
        options: Options.self)

    /// The options of `cse aps update-token`.
    struct Options: CommandOptions {
        let reference: OptionKey<APSReferenceArgument>
        let tokenName: OptionKey<String>
        let status: OptionKey<APSTokenStatusArgument?>
        let newTokenName: OptionKey<String?>
        let expiryDate: OptionKey<String?>
        let holderName: OptionKey<String?>
        let language: OptionKey<APSLanguageArgument>
        let server: ServerCallOptions.Keys

        init(_ declare: inout OptionDeclarations) {
            reference = declare.required(
                "merchant-reference", "R", as: APSReferenceArgument.self,
                help: "A reference of this request (1-40 letters, digits, '-', '_', '.').")
            tokenName = declare.required(
                "token-name", "T", help: "The saved card's token_name, as a verified answer or feedback gave it.")
            status = declare.value(
                "status", "S", as: APSTokenStatusArgument.self, help: "active or inactive (inactive: payments with it are refused).")
            newTokenName = declare.value("new-token-name", "N", help: "Rename the token (1-100 letters, digits, '.', '@', '-', '_').")
            expiryDate = declare.value("expiry-date", "YYMM", help: "The card's new expiry date, YYMM.")
            holderName = declare.value("holder-name", "NAME", help: "The card holder's name (card_holder_name).")
            language = declare.value("language", "LANG", as: APSLanguageArgument.self, default: .en, help: "en (default) or ar.")
            server = APSPaymentSupport.keys(&declare)
        }
    }

    let options: ServerCallOptions
    let reference: String
    let tokenName: String
    let status: APSToken.Status?
    let newTokenName: String?
    let expiryDate: String?
    let holderName: String?
    let language: String

    init(arguments: ParsedArguments<Options>) throws(UsageError) {
        options = try ServerCallOptions(arguments: arguments.group(\.server))
        reference = arguments[\.reference].reference
        tokenName = arguments[\.tokenName]
        status = arguments[\.status]?.status
        newTokenName = arguments[\.newTokenName]
        expiryDate = arguments[\.expiryDate]
        holderName = arguments[\.holderName]
        language = arguments[\.language].rawValue
    }

    func runAsync() async throws(CSEError) -> Int32 {
        let update = try APSTokenUpdate(
            merchantReference: reference, tokenName: tokenName, status: status, newTokenName: newTokenName, expiryDate: expiryDate,
            holderName: holderName, language: language)
        let outcome = try await APSPaymentSupport.client(options).updateToken(update)
        return PaymentOutcomeOutput.finish(
            outcome,
            settle:
                "send the same 'cse aps update-token' again (the same values twice change nothing); after --new-token-name, "
                + "an update of the new name with no change tells whether the rename was made",
            id: { _ in nil }, status: { $0.responseCode.description }, json: { .object($0.parameters) })
    }
}
