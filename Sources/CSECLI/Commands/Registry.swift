extension CommandLineTool {
    /// Every subcommand, in the order `cse --help` lists them.
    static let commands: [any CLICommand.Type] = [
        DemoCommand.self,
        SealCommand.self, ValidateCommand.self,
        FormatCommand.self, UnformatCommand.self,
        IINCommand.self, CheckCommand.self,
        EncryptCommand.self, DecryptCommand.self, KeygenCommand.self,
        WalletDecryptCommand.self, WalletVerifyCommand.self,
        SessionPublicKeyCommand.self, SessionProductsCommand.self, SessionProductCommand.self, SessionNetworksCommand.self,
        SessionIINCommand.self, SessionDCCCommand.self, SessionSurchargeCommand.self,
        WorldlineCreateSessionCommand.self, WorldlineCreatePaymentCommand.self, WorldlineGetPaymentCommand.self,
        WorldlineSignCommand.self, WorldlineWebhookVerifyCommand.self,
        WorldlineCaptureCommand.self, WorldlineRefundCommand.self, WorldlineCancelCommand.self,
        WorldlineTokenCreateCommand.self, WorldlineTokenGetCommand.self, WorldlineTokenDeleteCommand.self,
        APSSDKTokenCommand.self, APSPurchaseCommand.self, APSAuthorizeCommand.self, APSCheckStatusCommand.self,
        APSCaptureCommand.self, APSRefundCommand.self, APSVoidCommand.self, APSUpdateTokenCommand.self,
        APSFeedbackVerifyCommand.self, SignCommand.self, VerifyCommand.self,
        MastercardSessionCreateCommand.self, MastercardSessionUpdateCommand.self, MastercardSessionGetCommand.self,
        MastercardPayCommand.self, MastercardAuthorizeCommand.self, MastercardRetrieveCommand.self, MastercardWebhookVerifyCommand.self,
        MastercardCaptureCommand.self, MastercardRefundCommand.self, MastercardVoidCommand.self,
        MastercardAuthenticateCommand.self, MastercardTokenCreateCommand.self, MastercardTokenGetCommand.self,
        MastercardTokenDeleteCommand.self,
        PaysafeTokenCommand.self, PaysafeWalletTokenCommand.self, PaysafePayCommand.self, PaysafeLookupCommand.self,
        PaysafeSettleCommand.self, PaysafeRefundCommand.self, PaysafeVoidCommand.self,
        PaysafeCustomerCreateCommand.self, PaysafeCustomerGetCommand.self, PaysafeCustomerDeleteCommand.self,
        PaysafeCustomerSaveCardCommand.self, PaysafeCustomerUpdateCardCommand.self, PaysafeCustomerDeleteCardCommand.self,
        PaysafeCustomerAppTokenCommand.self,
        PaysafeWebhookVerifyCommand.self,
        JournalListCommand.self, JournalSettleCommand.self,
    ]
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
