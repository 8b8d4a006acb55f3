import CSECore
import CSEJournal
import CSEServerAPI

/// The platforms a journal records, as `--platform` spells them.
enum JournalPlatform: String, CaseIterable, ArgumentValue {
    case worldline, aps, mastercard, paysafe
}

/// `cse journal list`: the journal's entries as JSON lines (issue #36).
struct JournalListCommand: CLICommand {
    static let spec = CommandSpec(
        name: "journal list",
        abstract: "List the payment journal's entries, one JSON object per line (oldest first).",
        discussion: """
            Each line is {"id","platform","operation","amount","currency","merchantReference",
            "idempotenceKey" (when the call had one),"platformIds":{…},"state","code" (of a refusal
            or an unknown outcome),"action" (what a pending payment waits for),"createdAt",
            "updatedAt"}; the times are ISO-8601 UTC. state is open (no outcome recorded: the call
            is in flight or its process died), succeeded, refused, pending, unknown or notSent. An
            absent amount or currency is null. --open lists open, pending and unknown entries: what
            'cse journal settle' settles. The journal holds no card data, token or credential
            (docs/JOURNAL.md).

            Exit status: 0 listed (also when nothing matches); 1 the journal cannot be read
            (journal.unsafeFile, journal.foreignFile, journal.newerSchema, journal.unavailable).
            """,
        options: Options.self)

    /// The options of `cse journal list`.
    struct Options: CommandOptions {
        let journal: OptionKey<String?>
        let open: OptionKey<Bool>
        let platform: OptionKey<JournalPlatform?>
        let since: OptionKey<InstantArgument?>

        init(_ declare: inout OptionDeclarations) {
            journal = JournalOptions.fileKey(&declare, help: "The journal")
            open = declare.flag("open", help: "Only the entries still to settle: open, pending and unknown.")
            platform = declare.value("platform", "P", as: JournalPlatform.self, help: "Only this platform's entries.")
            since = declare.value(
                "since", "ISO-8601", as: InstantArgument.self,
                help: "Only entries recorded at or after this instant, e.g. 2026-12-01T00:00:00Z.")
        }
    }

    let journal: String?
    let filter: JournalFilter

    init(arguments: ParsedArguments<Options>) throws(UsageError) {
        journal = arguments[\.journal]
        filter = JournalFilter(
            openOnly: arguments[\.open], platform: arguments[\.platform]?.rawValue, since: arguments[\.since]?.unixMilliseconds)
    }

    func run() throws(CSEError) -> Int32 {
        for entry in try JournalOptions.open(journal).entries(matching: filter) { JSONLine.write(Self.json(entry)) }
        return ExitCode.success
    }

    /// An entry as `cse journal list` prints it.
    static func json(_ entry: JournalEntry, lookupError: String? = nil) -> JSONValue {
        let intent = entry.intent
        var members: [(String, JSONValue)] = [
            ("id", .number(entry.id.description)), ("platform", .string(intent.platform)), ("operation", .string(intent.operation)),
            ("amount", intent.amount.map { .number(String($0)) } ?? .null), ("currency", intent.currency.map(JSONValue.string) ?? .null),
            ("merchantReference", intent.merchantReference.map(JSONValue.string) ?? .null),
        ]
        if let key = intent.idempotenceKey { members.append(("idempotenceKey", .string(key))) }
        members.append(
            ("platformIds", .object(JSONObject(entry.platformIDs.sorted { $0.key < $1.key }.map { ($0.key, .string($0.value)) }))))
        members.append(("state", .string(entry.state.rawValue)))
        if let code = entry.code { members.append(("code", .string(code))) }
        if let action = entry.action { members.append(("action", .string(action))) }
        members.append(("createdAt", .string(WalletOptions.isoString(entry.createdAt, alwaysMilliseconds: true))))
        members.append(("updatedAt", .string(WalletOptions.isoString(entry.updatedAt, alwaysMilliseconds: true))))
        if let lookupError { members.append(("lookupError", .string(lookupError))) }
        return .object(JSONObject(members))
    }
}

/// `cse journal settle`: every open entry of one platform, settled with the platform's lookup.
struct JournalSettleCommand: NetworkCommand {
    static let spec = CommandSpec(
        name: "journal settle",
        abstract: "Settle the journal's open entries of one platform with the platform's own lookup; never resends a payment.",
        discussion: """
            Looks up every open, pending or unknown entry of --platform with the keys it recorded and
            records what the platform answers: Worldline GetPayment by payment id, a capture or
            refund in the payment's captures or refunds (by its merchant reference), a CreatePayment
            whose id was never read by its idempotence key sent again with an empty body (a replay
            of the first answer, or a refusal that proves it was never sent); Mastercard RETRIEVE
            TRANSACTION by order and transaction ids; APS CHECK_STATUS by merchant reference;
            Paysafe the payments, settlements, refunds or voids with the merchant reference (with
            --account, the Card Payments API). Nothing that may have been processed is sent again.
            Prints each entry that was open, as it now stands, in the form of 'cse journal list'
            (with "lookupError" naming a failed lookup's code). Run it when no command is still
            sending one of the entries.

            --environment test (default) or production: Worldline pre-production or production,
            the APS and Paysafe test or production hosts; Mastercard takes --region instead.

            Exit status: 0 nothing of the platform is left open; 3 some entries are still pending
            (the payer or the platform must act); 75 some outcomes are still unknown (run it again
            later, or reconcile them by the keys it prints); 1 the journal or the credentials
            cannot be used.
            """,
        options: Options.self)

    /// The options of `cse journal settle`.
    struct Options: CommandOptions {
        let journal: OptionKey<String?>
        let platform: OptionKey<JournalPlatform>
        let region: OptionKey<RegionArgument?>
        let apiVersion: OptionKey<MastercardAPIVersionArgument?>
        let account: OptionKey<String?>
        let server: ServerCallOptions.Keys

        init(_ declare: inout OptionDeclarations) {
            journal = JournalOptions.fileKey(&declare, help: "The journal")
            platform = declare.required(
                "platform", "P", as: JournalPlatform.self, help: "worldline, aps, mastercard or paysafe: whose entries to settle.")
            region = MastercardCommandSupport.regionKey(&declare, prefix: "Mastercard: ")
            apiVersion = MastercardCommandSupport.apiVersionKey(&declare, prefix: "Mastercard: ")
            account = declare.value("account", "ID", help: "Paysafe: a Card Payments account id (its auths and settlements).")
            server = ServerCallOptions.Keys(
                &declare, credentialsHelp: "The platform's credentials document (as its own commands take it)", environment: .choice)
            declare.need(platform.where { $0 == .mastercard }, by: [region, apiVersion], reason: "Mastercard's options")
            declare.need(platform.where { $0 == .paysafe }, by: [account], reason: "Paysafe's option")
            if let environment = server.environment {
                declare.conflict([environment], with: platform.where { $0 == .mastercard }, reason: "Mastercard takes --region")
            }
        }
    }

    let journal: String?
    let platform: JournalPlatform
    let options: ServerCallOptions
    let region: MastercardRegion
    let apiVersion: Int
    let account: String?

    init(arguments: ParsedArguments<Options>) throws(UsageError) {
        journal = arguments[\.journal]
        platform = arguments[\.platform]
        options = try ServerCallOptions(arguments: arguments.group(\.server))
        region = arguments[\.region]?.region ?? .mtf
        apiVersion = arguments[\.apiVersion]?.value ?? MastercardSessionClient.defaultAPIVersion
        account = arguments[\.account]
    }

    func runAsync() async throws(CSEError) -> Int32 {
        let settler = JournalSettler(journal: try JournalOptions.open(journal))
        let settlement: JournalSettlement
        // The lookups go out without a journal (none of them moves money): these server options
        // declare no --journal, so their configuration carries none.
        switch platform {
        case .worldline: settlement = try await settler.settle(with: try WorldlineCommandSupport.client(options))
        case .aps: settlement = try await settler.settle(with: try APSPaymentSupport.client(options))
        case .mastercard:
            settlement = try await settler.settle(
                with: try MastercardCommandSupport.client(options, region: region, apiVersion: apiVersion))
        case .paysafe: settlement = try await settler.settle(with: try PaysafePaymentSupport.client(options), accountID: account)
        }
        for result in settlement.entries {
            JSONLine.write(JournalListCommand.json(result.entry, lookupError: result.lookupError?.code.rawValue))
        }
        if settlement.hasUnknown {
            let open = settlement.entries.filter { $0.entry.state == .open || $0.entry.state == .unknown }.map(\.entry.id.description)
            StandardStreams.err(
                "cse: journal entries \(open.joined(separator: ", ")) of \(platform.rawValue) are still unknown; run 'cse journal settle' again later, or reconcile them by the keys 'cse journal list' prints\n"
            )
            return ExitCode.outcomeUnknown
        }
        if settlement.hasPending {
            StandardStreams.err(
                "cse: some journal entries of \(platform.rawValue) are still pending (the payer or the platform must act)\n")
            return ExitCode.pending
        }
        return ExitCode.success
    }
}
