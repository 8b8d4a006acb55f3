import CSECore
import CSEServerAPI

/// `--merchant-customer-id ID` of `cse paysafe customer create|get`: 1 to 100 printable ASCII characters.
struct PaysafeMerchantCustomerIDArgument: ArgumentValue {
    /// The id.
    let id: String

    /// The id `argument` is, when Paysafe's rule accepts it.
    init?(argument: String) {
        guard (try? PaysafePaymentClient.checkMerchantCustomerID(argument)) != nil else { return nil }
        id = argument
    }

    /// Open: any id.
    static var allValueStrings: [String] { [] }
    /// The rule.
    static var valueDescription: String { "1 to 100 printable ASCII characters" }
}

/// What the `cse paysafe customer …` commands share (issue #35).
enum PaysafeCustomerSupport {
    /// The exit statuses of the commands that read or change the vault (not `save-card`).
    static let exitStatus = """
        Exit status: 0 done; 1 refused (paysafe.customerNotFound, paysafe.savedCardNotFound,
        paysafe.customerExists, paysafe.apiError with Paysafe's code) or a transport failure; 64 usage.
        """

    /// The options of a command that takes only the server options.
    struct ServerOnly: CommandOptions {
        let server: ServerCallOptions.Keys

        init(_ declare: inout OptionDeclarations) {
            server = ServerCallOptions.Keys(&declare, credentialsHelp: PaysafePaymentSupport.credentialsHelp, environment: .choice)
        }
    }

    /// The options of `customer create` and `customer get`.
    struct MerchantCustomer: CommandOptions {
        let merchantCustomerID: OptionKey<PaysafeMerchantCustomerIDArgument>
        let server: ServerCallOptions.Keys

        init(_ declare: inout OptionDeclarations) {
            merchantCustomerID = declare.required(
                "merchant-customer-id", "ID", as: PaysafeMerchantCustomerIDArgument.self,
                help: "Your own id of the customer (merchantCustomerId).")
            server = ServerCallOptions.Keys(&declare, credentialsHelp: PaysafePaymentSupport.credentialsHelp, environment: .choice)
        }
    }
}

/// `cse paysafe customer create`: a Customer Vault customer.
struct PaysafeCustomerCreateCommand: NetworkCommand {
    static let spec = CommandSpec(
        name: "paysafe customer create",
        abstract: "Create a Paysafe customer (Payments API Customer Vault) with your merchant customer id.",
        discussion: """
            POST /paymenthub/v1/customers with {"merchantCustomerId"}. Prints {"id","merchantCustomerId",
            "status","paymentHandles":[]}; the id is what 'cse paysafe customer save-card|delete-card|app-token'
            take. A merchant customer id Paysafe already holds is refused (paysafe.customerExists):
            read that customer with 'cse paysafe customer get'; so is a lost answer settled.

            \(PaysafeCustomerSupport.exitStatus)
            """,
        options: PaysafeCustomerSupport.MerchantCustomer.self)

    let options: ServerCallOptions
    let merchantCustomerID: String

    init(arguments: ParsedArguments<PaysafeCustomerSupport.MerchantCustomer>) throws(UsageError) {
        options = try ServerCallOptions(arguments: arguments.group(\.server))
        merchantCustomerID = arguments[\.merchantCustomerID].id
    }

    func runAsync() async throws(CSEError) -> Int32 {
        let customer = try await PaysafePaymentSupport.client(options).createCustomer(merchantCustomerID: merchantCustomerID)
        JSONLine.write(customer.json)
        return ExitCode.success
    }
}

/// `cse paysafe customer get`: a customer by merchant customer id, with the saved cards.
struct PaysafeCustomerGetCommand: NetworkCommand {
    static let spec = CommandSpec(
        name: "paysafe customer get",
        abstract: "Read a Paysafe customer by your merchant customer id, with the saved cards (how a lost save-card is settled).",
        discussion: """
            GET /paymenthub/v1/customers?merchantCustomerId=ID&fields=paymentHandles. Prints {"id",
            "merchantCustomerId","status","paymentHandles":[{"id","status","usage","paymentHandleToken",
            "merchantRefNum","card":{"maskedCard","cardType","cardExpiry"}}]}: each saved card with its
            multi-use token (what 'cse paysafe pay --payment-handle' takes) and the card masked.

            \(PaysafeCustomerSupport.exitStatus)
            """,
        options: PaysafeCustomerSupport.MerchantCustomer.self)

    let options: ServerCallOptions
    let merchantCustomerID: String

    init(arguments: ParsedArguments<PaysafeCustomerSupport.MerchantCustomer>) throws(UsageError) {
        options = try ServerCallOptions(arguments: arguments.group(\.server))
        merchantCustomerID = arguments[\.merchantCustomerID].id
    }

    func runAsync() async throws(CSEError) -> Int32 {
        let customer = try await PaysafePaymentSupport.client(options).customer(merchantCustomerID: merchantCustomerID)
        JSONLine.write(customer.json)
        return ExitCode.success
    }
}

/// `cse paysafe customer delete`: a customer and its saved cards.
struct PaysafeCustomerDeleteCommand: NetworkCommand {
    static let spec = CommandSpec(
        name: "paysafe customer delete",
        abstract: "Delete a Paysafe customer and its saved cards.",
        discussion: """
            DELETE /paymenthub/v1/customers/{CUSTOMER}. Prints {"id","deleted":true}. The saved cards'
            tokens pay nothing afterwards.

            \(PaysafeCustomerSupport.exitStatus)
            """,
        options: PaysafeCustomerSupport.ServerOnly.self,
        positionals: [.init("CUSTOMER", help: "The customer's id (from 'cse paysafe customer create|get').")])

    let options: ServerCallOptions
    let customerID: String

    init(arguments: ParsedArguments<PaysafeCustomerSupport.ServerOnly>) throws(UsageError) {
        options = try ServerCallOptions(arguments: arguments.group(\.server))
        customerID = arguments.positionals.first ?? ""
    }

    func runAsync() async throws(CSEError) -> Int32 {
        try await PaysafePaymentSupport.client(options).deleteCustomer(id: customerID)
        JSONLine.write(.object(JSONObject([("id", .string(customerID)), ("deleted", .bool(true))])))
        return ExitCode.success
    }
}

/// `cse paysafe customer save-card`: the single-use handle of a completed payment becomes a saved card.
struct PaysafeCustomerSaveCardCommand: NetworkCommand {
    static let spec = CommandSpec(
        name: "paysafe customer save-card",
        abstract: "Save the card of a completed Paysafe payment for a customer (a multi-use payment handle).",
        discussion: """
            POST /paymenthub/v1/customers/{CUSTOMER}/paymenthandles with {"merchantRefNum",
            "paymentHandleTokenFrom"}: H is the single-use handle token of a payment that completed
            (save it promptly: a single-use handle expires). Prints {"id","status","usage":"MULTI_USE",
            "paymentHandleToken","merchantRefNum","customerId","card":{…},"newCard"}: the token pays
            later with 'cse paysafe pay --payment-handle TOKEN --stored-credential …'. "newCard":false
            when the customer had this card saved already (the answer is that card, with the
            reference it was first saved with).

            Exit status: 0 saved (or already saved); 1 refused: paysafe.handleNotPayable (the handle
            did not complete a payment, expired or is unknown), paysafe.customerNotFound,
            paysafe.apiError; 75 unknown (server.outcomeUnknown naming the reference): list the
            customer's saved cards with 'cse paysafe customer get --merchant-customer-id ID' and look
            for the reference, or run the same command again (a repeat of the reference is a
            duplicate that reports the card saved first); 64 usage.
            """,
        options: Options.self,
        positionals: [.init("CUSTOMER", help: "The customer's id (from 'cse paysafe customer create|get').")])

    /// The options of `cse paysafe customer save-card`.
    struct Options: CommandOptions {
        let paymentHandle: OptionKey<String>
        let reference: OptionKey<PaysafeReferenceArgument>
        let server: ServerCallOptions.Keys

        init(_ declare: inout OptionDeclarations) {
            paymentHandle = declare.required("payment-handle", "H", help: "The single-use payment handle token of a completed payment.")
            reference = declare.required(
                "merchant-ref", "R", as: PaysafeReferenceArgument.self, help: "Your unique reference of this saved card (merchantRefNum).")
            server = ServerCallOptions.Keys(
                &declare, credentialsHelp: PaysafePaymentSupport.credentialsHelp, environment: .choice, journal: true)
        }
    }

    let options: ServerCallOptions
    let customerID: String
    let paymentHandle: String
    let reference: String

    init(arguments: ParsedArguments<Options>) throws(UsageError) {
        options = try ServerCallOptions(arguments: arguments.group(\.server))
        customerID = arguments.positionals.first ?? ""
        paymentHandle = arguments[\.paymentHandle]
        reference = arguments[\.reference].reference
    }

    func runAsync() async throws(CSEError) -> Int32 {
        let request = try PaysafeSaveCardRequest(customerID: customerID, merchantReference: reference, paymentHandleToken: paymentHandle)
        let outcome = try await PaysafePaymentSupport.client(options).saveCard(request)
        return PaymentOutcomeOutput.finish(
            outcome,
            settle:
                "settle it by listing the saved cards of customer \(SafeEcho.withoutControls(customerID)) with 'cse paysafe customer get --merchant-customer-id ID' (the card with merchantRefNum \(SafeEcho.withoutControls(reference)) is the one saved; none: nothing was saved), or run the same command again (the reference makes a repeat a duplicate, not a second card)",
            id: \.handle.id, status: \.handle.status, json: \.json)
    }
}

/// `--expiry MM/YYYY` of `cse paysafe customer update-card`.
struct PaysafeExpiryArgument: ArgumentValue {
    /// The month, 1–12.
    let month: Int
    /// The year, 2000–2099.
    let year: Int

    /// Reads `MM/YYYY`.
    init?(argument: String) {
        let parts = argument.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, parts[0].count == 2, parts[1].count == 4, parts.allSatisfy({ $0.utf8.allSatisfy(\.isASCIIDigit) }),
            let month = Int(parts[0]), let year = Int(parts[1]), (1...12).contains(month), (2000...2099).contains(year)
        else { return nil }
        self.month = month
        self.year = year
    }

    /// Open: any month.
    static var allValueStrings: [String] { [] }
    /// The spelling.
    static var valueDescription: String { "a month as MM/YYYY (e.g. 09/2031)" }
}

/// `cse paysafe customer update-card`: a saved card's expiry or holder name.
struct PaysafeCustomerUpdateCardCommand: NetworkCommand {
    static let spec = CommandSpec(
        name: "paysafe customer update-card",
        abstract: "Update a customer's saved card: a new expiry (a reissued card) or holder name; the token stays.",
        discussion: """
            PUT /paymenthub/v1/customers/{CUSTOMER}/paymenthandles/{HANDLE-ID} with {"card":{"cardExpiry":
            {"month","year"},"holderName"}}, the members given. Prints the saved card as 'customer get'
            lists it (the card masked).

            \(PaysafeCustomerSupport.exitStatus)
            """,
        options: Options.self,
        positionals: [.init("CUSTOMER", help: "The customer's id."), .init("HANDLE-ID", help: "The saved card's id.")])

    /// The options of `cse paysafe customer update-card`.
    struct Options: CommandOptions {
        let expiry: OptionKey<PaysafeExpiryArgument?>
        let holderName: OptionKey<String?>
        let server: ServerCallOptions.Keys

        init(_ declare: inout OptionDeclarations) {
            expiry = declare.value("expiry", "MM/YYYY", as: PaysafeExpiryArgument.self, help: "The card's new expiry.")
            holderName = declare.value("holder-name", "NAME", help: "The card holder's name.")
            server = ServerCallOptions.Keys(&declare, credentialsHelp: PaysafePaymentSupport.credentialsHelp, environment: .choice)
            declare.oneOf([expiry, holderName], exclusive: false)
        }
    }

    let options: ServerCallOptions
    let customerID: String
    let handleID: String
    let expiry: PaysafeExpiryArgument?
    let holderName: String?

    init(arguments: ParsedArguments<Options>) throws(UsageError) {
        options = try ServerCallOptions(arguments: arguments.group(\.server))
        customerID = arguments.positionals.first ?? ""
        handleID = arguments.positionals.dropFirst().first ?? ""
        expiry = arguments[\.expiry]
        holderName = arguments[\.holderName]
    }

    func runAsync() async throws(CSEError) -> Int32 {
        let card = try await PaysafePaymentSupport.client(options).updateSavedCard(
            customerID: customerID, id: handleID, expiry: expiry.map { ($0.month, $0.year) }, holderName: holderName)
        JSONLine.write(card.json)
        return ExitCode.success
    }
}

/// `cse paysafe customer delete-card`: a customer's saved card.
struct PaysafeCustomerDeleteCardCommand: NetworkCommand {
    static let spec = CommandSpec(
        name: "paysafe customer delete-card",
        abstract: "Delete a customer's saved card (multi-use payment handle); its token pays nothing afterwards.",
        discussion: """
            DELETE /paymenthub/v1/customers/{CUSTOMER}/paymenthandles/{HANDLE-ID}. Prints
            {"customerId","id","deleted":true}. A card already deleted, or not the customer's, is
            paysafe.savedCardNotFound.

            \(PaysafeCustomerSupport.exitStatus)
            """,
        options: PaysafeCustomerSupport.ServerOnly.self,
        positionals: [
            .init("CUSTOMER", help: "The customer's id."),
            .init("HANDLE-ID", help: "The saved card's id (the handle's id, not its token)."),
        ])

    let options: ServerCallOptions
    let customerID: String
    let handleID: String

    init(arguments: ParsedArguments<PaysafeCustomerSupport.ServerOnly>) throws(UsageError) {
        options = try ServerCallOptions(arguments: arguments.group(\.server))
        customerID = arguments.positionals.first ?? ""
        handleID = arguments.positionals.dropFirst().first ?? ""
    }

    func runAsync() async throws(CSEError) -> Int32 {
        try await PaysafePaymentSupport.client(options).deleteSavedCard(customerID: customerID, id: handleID)
        JSONLine.write(.object(JSONObject([("customerId", .string(customerID)), ("id", .string(handleID)), ("deleted", .bool(true))])))
        return ExitCode.success
    }
}

/// `cse paysafe customer app-token`: a single-use customer token for the app's saved-card list.
struct PaysafeCustomerAppTokenCommand: NetworkCommand {
    static let spec = CommandSpec(
        name: "paysafe customer app-token",
        abstract: "Make a single-use customer token: the app's SDK shows the customer's saved cards with it.",
        discussion: """
            POST /paymenthub/v1/customers/{CUSTOMER}/singleusecustomertokens with {"merchantRefNum",
            "paymentType":["CARD"]}. Prints {"id","singleUseCustomerToken","timeToLiveSeconds",
            "customerId","paymentHandles":[…]}: hand the token to the app (the SDK's
            singleUseCustomerToken); the saved cards are listed masked.

            \(PaysafeCustomerSupport.exitStatus)
            """,
        options: Options.self,
        positionals: [.init("CUSTOMER", help: "The customer's id.")])

    /// The options of `cse paysafe customer app-token`.
    struct Options: CommandOptions {
        let reference: OptionKey<PaysafeReferenceArgument>
        let server: ServerCallOptions.Keys

        init(_ declare: inout OptionDeclarations) {
            reference = declare.required(
                "merchant-ref", "R", as: PaysafeReferenceArgument.self, help: "Your reference of this token request (merchantRefNum).")
            server = ServerCallOptions.Keys(&declare, credentialsHelp: PaysafePaymentSupport.credentialsHelp, environment: .choice)
        }
    }

    let options: ServerCallOptions
    let customerID: String
    let reference: String

    init(arguments: ParsedArguments<Options>) throws(UsageError) {
        options = try ServerCallOptions(arguments: arguments.group(\.server))
        customerID = arguments.positionals.first ?? ""
        reference = arguments[\.reference].reference
    }

    func runAsync() async throws(CSEError) -> Int32 {
        let token = try await PaysafePaymentSupport.client(options).createCustomerToken(
            customerID: customerID, merchantReference: reference)
        JSONLine.write(token.json)
        return ExitCode.success
    }
}
