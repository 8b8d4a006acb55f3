extension CommandLineTool {
    /// Every subcommand with its name (its spec's `name`), in the order `cse --help` lists them.
    /// The dispatcher finds the command of a command line by these names, so that it builds no
    /// other command's spec: each spec's code is in its command's file, and a one-shot process
    /// then maps only that file's pages (Benchmarks/README.md, "One-shot memory"). A test checks
    /// each name against its spec.
    static let namedCommands: [(name: String, command: any CLICommand.Type)] = [
        ("demo", DemoCommand.self),
        ("seal", SealCommand.self),
        ("validate", ValidateCommand.self),
        ("format", FormatCommand.self),
        ("unformat", UnformatCommand.self),
        ("iin", IINCommand.self),
        ("check", CheckCommand.self),
        ("encrypt", EncryptCommand.self),
        ("decrypt", DecryptCommand.self),
        ("keygen", KeygenCommand.self),
        ("wallet decrypt", WalletDecryptCommand.self),
        ("wallet verify", WalletVerifyCommand.self),
        ("session publickey", SessionPublicKeyCommand.self),
        ("session products", SessionProductsCommand.self),
        ("session product", SessionProductCommand.self),
        ("session networks", SessionNetworksCommand.self),
        ("session iin", SessionIINCommand.self),
        ("session dcc", SessionDCCCommand.self),
        ("session surcharge", SessionSurchargeCommand.self),
        ("worldline create-session", WorldlineCreateSessionCommand.self),
        ("worldline create-payment", WorldlineCreatePaymentCommand.self),
        ("worldline get-payment", WorldlineGetPaymentCommand.self),
        ("worldline sign", WorldlineSignCommand.self),
        ("worldline webhook-verify", WorldlineWebhookVerifyCommand.self),
        ("worldline capture", WorldlineCaptureCommand.self),
        ("worldline refund", WorldlineRefundCommand.self),
        ("worldline cancel", WorldlineCancelCommand.self),
        ("worldline token create", WorldlineTokenCreateCommand.self),
        ("worldline token get", WorldlineTokenGetCommand.self),
        ("worldline token delete", WorldlineTokenDeleteCommand.self),
        ("aps sdk-token", APSSDKTokenCommand.self),
        ("aps purchase", APSPurchaseCommand.self),
        ("aps authorize", APSAuthorizeCommand.self),
        ("aps check-status", APSCheckStatusCommand.self),
        ("aps capture", APSCaptureCommand.self),
        ("aps refund", APSRefundCommand.self),
        ("aps void", APSVoidCommand.self),
        ("aps update-token", APSUpdateTokenCommand.self),
        ("aps feedback-verify", APSFeedbackVerifyCommand.self),
        ("aps sign", SignCommand.self),
        ("aps verify", VerifyCommand.self),
        ("mastercard session create", MastercardSessionCreateCommand.self),
        ("mastercard session update", MastercardSessionUpdateCommand.self),
        ("mastercard session get", MastercardSessionGetCommand.self),
        ("mastercard pay", MastercardPayCommand.self),
        ("mastercard authorize", MastercardAuthorizeCommand.self),
        ("mastercard retrieve", MastercardRetrieveCommand.self),
        ("mastercard webhook-verify", MastercardWebhookVerifyCommand.self),
        ("mastercard capture", MastercardCaptureCommand.self),
        ("mastercard refund", MastercardRefundCommand.self),
        ("mastercard void", MastercardVoidCommand.self),
        ("mastercard authenticate", MastercardAuthenticateCommand.self),
        ("mastercard token create", MastercardTokenCreateCommand.self),
        ("mastercard token get", MastercardTokenGetCommand.self),
        ("mastercard token delete", MastercardTokenDeleteCommand.self),
        ("paysafe token", PaysafeTokenCommand.self),
        ("paysafe wallet-token", PaysafeWalletTokenCommand.self),
        ("paysafe pay", PaysafePayCommand.self),
        ("paysafe lookup", PaysafeLookupCommand.self),
        ("paysafe settle", PaysafeSettleCommand.self),
        ("paysafe refund", PaysafeRefundCommand.self),
        ("paysafe void", PaysafeVoidCommand.self),
        ("paysafe customer create", PaysafeCustomerCreateCommand.self),
        ("paysafe customer get", PaysafeCustomerGetCommand.self),
        ("paysafe customer delete", PaysafeCustomerDeleteCommand.self),
        ("paysafe customer save-card", PaysafeCustomerSaveCardCommand.self),
        ("paysafe customer update-card", PaysafeCustomerUpdateCardCommand.self),
        ("paysafe customer delete-card", PaysafeCustomerDeleteCardCommand.self),
        ("paysafe customer app-token", PaysafeCustomerAppTokenCommand.self),
        ("paysafe webhook-verify", PaysafeWebhookVerifyCommand.self),
        ("journal list", JournalListCommand.self),
        ("journal settle", JournalSettleCommand.self),
    ]

    /// Every subcommand, in the order `cse --help` lists them.
    static var commands: [any CLICommand.Type] { namedCommands.map(\.command) }
}

extension CommandLineTool {
    /// Former command names, kept so that scripts keep working: each runs its command after a
    /// warning on standard error, and no help text, completion script or manual lists it.
    static let deprecatedNames: [(name: String, command: any CLICommand.Type)] = [
        ("sign", SignCommand.self), ("verify", VerifyCommand.self),
    ]
}

extension CommandLineTool {
    /// Every command group (a command whose name starts with a group's name belongs to it).
    static let groups: [CommandGroup] = [
        CommandGroup(
            name: "wallet", abstract: "Apple Pay and Google Pay payment tokens: verify, or verify and decrypt, with the merchant's keys."),
        CommandGroup(name: "session", abstract: "Call the Worldline Client API for a session (products, key, IIN, DCC, surcharge)."),
        CommandGroup(name: "worldline", abstract: "Worldline server API calls: sessions, payments, saved cards, signatures, webhooks."),
        CommandGroup(name: "worldline token", abstract: "Save, read and delete Worldline card-on-file tokens."),
        CommandGroup(
            name: "aps", abstract: "Amazon Payment Services server calls: SDK token, payments, capture, refund, void, status, feedback."),
        CommandGroup(
            name: "mastercard",
            abstract: "Mastercard Gateway server calls: sessions, tokens, payments, capture, refund, void, retrieval, webhooks."
        ),
        CommandGroup(name: "mastercard session", abstract: "Create, update and retrieve Mastercard Gateway sessions."),
        CommandGroup(name: "mastercard token", abstract: "Create, update, retrieve and delete Mastercard Gateway card-on-file tokens."),
        CommandGroup(
            name: "paysafe",
            abstract:
                "Paysafe server calls: single-use card and wallet tokens, payments, settlements, refunds, voids, lookups, saved cards, webhooks."
        ),
        CommandGroup(name: "paysafe customer", abstract: "Paysafe customers and their saved cards (Customer Vault, multi-use handles)."),
        CommandGroup(name: "journal", abstract: "The payment journal: list its entries, settle the open ones with the platform's lookup."),
    ]
}
