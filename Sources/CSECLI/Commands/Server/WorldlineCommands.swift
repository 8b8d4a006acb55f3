import CSEClientAPI
import CSECore
import CSECrypto
import CSEHTTP
import CSEPayments
import CSEServerAPI
import CSEValidation
import CSEWallets

/// The Worldline server commands' shared parts.
enum WorldlineCommandSupport {
    static let credentialsHelp = "Worldline credentials {\"merchantId\",\"apiKeyId\",\"secretApiKey\"}"

    /// `--production` and the options every server command takes; `journal` for a command that
    /// moves money.
    static func serverKeys(_ declare: inout OptionDeclarations, journal: Bool = false) -> ServerCallOptions.Keys {
        ServerCallOptions.Keys(&declare, credentialsHelp: credentialsHelp, environment: .productionFlag, journal: journal)
    }

    /// Standard input (at most 1 MiB), trailing whitespace dropped. Wallet data holds a DPAN and
    /// a cryptogram: the caller wipes the bytes when done.
    /// - Parameter allowingEmpty: Whether empty input is nothing rather than `cli.emptyInput`
    ///   (a payment with a saved card needs no sealed input).
    static func standardInput(allowingEmpty: Bool = false) throws(CSEError) -> [UInt8] {
        var raw: [UInt8]
        do { raw = try Files.readStandardInput(limit: 1 << 20) } catch {
            if allowingEmpty && error.code == .cliEmptyInput { return [] }
            throw error
        }
        defer { secureZero(&raw) }
        return Array(Files.trimmingTrailingWhitespace(raw))
    }

    /// The compact JWE of the output of `cse seal` (`{"encryptedCustomerInput",…}`) or of a bare JWE.
    /// - Throws: ``CSEError/Code/serverAPIInvalidArgument`` for JSON without an
    ///   `encryptedCustomerInput` string; a JSON parse error.
    static func sealedInput(_ input: [UInt8]) throws(CSEError) -> String {
        guard input.first == UInt8(ascii: "{") else { return String(decoding: input, as: UTF8.self) }
        guard let value = try JSONValue.parse(input)["encryptedCustomerInput"]?.stringValue else {
            throw CSEError(
                .serverAPIInvalidArgument, "the input has no encryptedCustomerInput string", context: ["argument": "encryptedCustomerInput"]
            )
        }
        return value
    }

    static func client(_ options: ServerCallOptions) throws(CSEError) -> WorldlineServerClient {
        let credentials = try WorldlineServerCredentials(document: try options.credentials())
        return try WorldlineServerClient(
            credentials: credentials,
            environment: options.environment(options.isProduction ? .worldlineProduction : .worldlinePreproduction),
            configuration: options.configuration)
    }
}

/// `cse worldline create-session`: CreateSession, printing the session JSON `cse seal --session` reads.
struct WorldlineCreateSessionCommand: NetworkCommand {
    static let spec = CommandSpec(
        name: "worldline create-session",
        abstract: "Create a Client API session (Worldline CreateSession) and print its JSON.",
        discussion: """
            POST /v2/{merchantId}/sessions, signed with GCS v1HMAC, with an X-GCS-Idempotence-Key
            (--idempotence-key, or a new random one) that makes a repeat the same request. Prints
            {"clientSessionId","customerId","clientApiUrl","assetUrl","invalidTokens"}, the session
            file that 'cse session … --session' and 'cse seal --session' read. The output holds the
            session id in full: write it only where the session may go.
            """,
        options: Options.self)

    /// The options of `cse worldline create-session`.
    struct Options: CommandOptions {
        let token: OptionKey<[String]>
        let idempotenceKey: OptionKey<IdempotenceKeyArgument?>
        let server: ServerCallOptions.Keys

        init(_ declare: inout OptionDeclarations) {
            token = declare.repeated("token", "T", help: "A stored card token to offer as an account on file (repeatable).")
            idempotenceKey = declare.value(
                "idempotence-key", "KEY", as: IdempotenceKeyArgument.self,
                help: "The X-GCS-Idempotence-Key (1-40 printable ASCII characters): the key of an earlier attempt repeats it.")
            server = WorldlineCommandSupport.serverKeys(&declare)
        }
    }

    let options: ServerCallOptions
    let tokens: [String]
    let idempotenceKey: IdempotenceKey?

    init(arguments: ParsedArguments<Options>) throws(UsageError) {
        options = try ServerCallOptions(arguments: arguments.group(\.server))
        tokens = arguments[\.token]
        idempotenceKey = arguments[\.idempotenceKey]?.key
    }

    func runAsync() async throws(CSEError) -> Int32 {
        let client = try WorldlineCommandSupport.client(options)
        let session = try await client.createSession(tokens: tokens, idempotenceKey: idempotenceKey)
        JSONLine.write(session.jsonValue)
        return ExitCode.success
    }
}

/// `cse worldline create-payment`: CreatePayment with the sealed output of `cse seal` on stdin.
struct WorldlineCreatePaymentCommand: NetworkCommand {
    /// How an unknown outcome is settled on Worldline.
    static let settle =
        "settle it by running the same command again with the same --idempotence-key (a finished payment is replayed), "
        + "or with 'cse worldline get-payment ID' when the keys name a paymentId"

    static let spec = CommandSpec(
        name: "worldline create-payment",
        abstract: "Create a payment (Worldline CreatePayment) from the output of 'cse seal' on standard input.",
        discussion: """
            Reads {"encryptedCustomerInput",…} (the output of 'cse seal') or a bare compact JWE on
            standard input and posts it to /v2/{merchantId}/payments with the order amount, currency
            and merchant reference, with an X-GCS-Idempotence-Key (--idempotence-key, or a new
            random one). Prints {"id","status","statusCategory","statusCode",…,"idempotenceKey"}; a
            card number in the response is shown masked.

            Exit status: 0 the payment was created; 1 the platform refused it
            (worldline.paymentRejected, naming the payment id and status) or nothing was sent;
            75 the outcome is unknown (server.outcomeUnknown): the request may have been
            processed but no answer was read. stderr then names the idempotence key and the
            merchant reference: run the same command again with '--idempotence-key KEY', which
            returns the first outcome instead of paying twice. If standard output cannot be
            written after the platform answered, the payment id, status and key go to stderr
            before the exit status 1.

            --wallet apple-pay|google-pay --session FILE reads the raw wallet token instead and
            seals it for the session as the Worldline client examples do (product 302:
            encryptedPaymentData and transactionId; 320: encryptedPaymentData), fetching the
            session's public key. --wallet … --decrypted reads the output of 'cse wallet decrypt'
            and pays with product 302 or 320 and decryptedPaymentData (DPAN, MMYY expiry,
            cryptogram, ECI, cardholder name). Google Pay needs --return-url for 3-D Secure.

            --authorization-mode final|pre|sale sends authorizationMode: a final authorisation is
            captured in full within 7 days, a pre-authorisation can be captured in part or
            cancelled ('cse worldline capture|cancel'), a sale is captured at approval.

            3-D Secure (cardPaymentMethodSpecificInput.threeDSecure; for Google Pay,
            paymentProduct320SpecificInput.threeDSecure): --return-url URL is where the payer comes
            back after a challenge; --challenge-indicator, --exemption-request and
            --device-channel browser|app are checked against the documented lists;
            --skip-authentication skips 3-D Secure where the account allows it. A card payment the
            payer makes needs --return-url or --skip-authentication (exit 64 otherwise, nothing is
            sent). A challenge is pending (exit 3): {"outcome":"pending","action":{"type":"redirect",
            "url","method":"GET","returnmac"}} or, with --device-channel app,
            {"type":"mobile-challenge","parameters":{…}}. Store the payment id and the returnmac
            with the order BEFORE redirecting the payer; when the payer returns, run
            'cse worldline get-payment STORED-ID --returnmac RECEIVED --expected-returnmac STORED'
            (never take the payment id from the return's query string).

            Saved cards: --tokenize saves the card (the output's creationOutput has the token,
            isNewToken and tokenizationSucceeded, false when a challenge redirected the payer: save
            it afterwards with 'cse worldline token create'). --token T pays with a saved card
            (standard input: the output of 'cse seal' carrying the CVV when the product needs it,
            or nothing). --merchant-initiated recurring|unscheduled|instalment marks a series:
            with --tokenize and the card on standard input it is the first payment, the payer
            present, and the output says "cardOnFile":{"type",…,"sequence":"first"}; with --token
            it is a later payment the merchant makes without the payer (3-D Secure skipped, so
            --return-url, --challenge-indicator, --exemption-request and --device-channel are
            refused), optionally with --initial-transaction ID (initialSchemeTransactionId).
            """,
        options: Options.self)

    /// The options of `cse worldline create-payment`.
    struct Options: CommandOptions {
        let amount: OptionKey<AmountArgument>
        let currency: OptionKey<CurrencyArgument>
        let reference: OptionKey<String?>
        let idempotenceKey: OptionKey<IdempotenceKeyArgument?>
        let wallet: OptionKey<Wallet?>
        let decrypted: OptionKey<Bool>
        let returnURL: OptionKey<String?>
        let session: OptionKey<String?>
        let authorizationMode: OptionKey<WorldlineAuthorizationModeArgument?>
        let challengeIndicator: OptionKey<WorldlineChallengeIndicatorArgument?>
        let exemptionRequest: OptionKey<WorldlineExemptionArgument?>
        let skipAuthentication: OptionKey<Bool>
        let deviceChannel: OptionKey<WorldlineDeviceChannelArgument?>
        let tokenize: OptionKey<Bool>
        let token: OptionKey<String?>
        let merchantInitiated: OptionKey<WorldlineMerchantInitiatedArgument?>
        let initialTransaction: OptionKey<String?>
        let server: ServerCallOptions.Keys

        init(_ declare: inout OptionDeclarations) {
            amount = declare.required("amount", "MINOR", as: AmountArgument.self, help: "The amount in minor units (e.g. 2345 for 23.45).")
            currency = declare.required("currency", "CUR", as: CurrencyArgument.self, help: "The currency, ISO 4217 (e.g. EUR).")
            reference = declare.value("reference", "R", help: "The merchant reference of the order (at most 40 characters).")
            idempotenceKey = declare.value(
                "idempotence-key", "KEY", as: IdempotenceKeyArgument.self,
                help: "The X-GCS-Idempotence-Key (1-40 printable ASCII characters): the key of an earlier attempt retries it safely.")
            wallet = declare.value(
                "wallet", "NAME", as: Wallet.self, help: "apple-pay (product 302) or google-pay (320), with --decrypted.")
            decrypted = declare.flag("decrypted", help: "Read the output of 'cse wallet decrypt' and send decryptedPaymentData.")
            returnURL = declare.value("return-url", "URL", help: "Where the payer returns after a 3-D Secure challenge.")
            session = declare.value("session", "FILE", help: "With --wallet: the Client API session whose key seals the raw token.")
            authorizationMode = declare.value(
                "authorization-mode", "MODE", as: WorldlineAuthorizationModeArgument.self,
                help: "final, pre or sale (authorizationMode; default: the merchant's configuration).")
            challengeIndicator = declare.value(
                "challenge-indicator", "VALUE", as: WorldlineChallengeIndicatorArgument.self,
                help: "threeDSecure.challengeIndicator (the documented values, e.g. challenge-required).")
            exemptionRequest = declare.value(
                "exemption-request", "VALUE", as: WorldlineExemptionArgument.self,
                help: "threeDSecure.exemptionRequest: none, transaction-risk-analysis, low-value or whitelist.")
            skipAuthentication = declare.flag(
                "skip-authentication", help: "threeDSecure.skipAuthentication: skip 3-D Secure (where the account allows it).")
            deviceChannel = declare.value(
                "device-channel", "CHANNEL", as: WorldlineDeviceChannelArgument.self,
                help: "browser (a challenge redirects) or app (a challenge runs in the mobile 3-D Secure SDK).")
            tokenize = declare.flag("tokenize", help: "Save the card (cardPaymentMethodSpecificInput.tokenize).")
            token = declare.value(
                "token", "T", help: "Pay with a saved card (stdin: the output of 'cse seal' with the CVV when needed, or nothing).")
            merchantInitiated = declare.value(
                "merchant-initiated", "KIND", as: WorldlineMerchantInitiatedArgument.self,
                help: "recurring, unscheduled or instalment: with --tokenize the first payment of the series, with --token a later one.")
            initialTransaction = declare.value(
                "initial-transaction", "ID", help: "With --merchant-initiated and --token: the first payment's scheme transaction id.")
            server = WorldlineCommandSupport.serverKeys(&declare, journal: true)
            declare.need(wallet, by: [decrypted, session])
            declare.need(anyOf: [decrypted, session], by: [wallet])
            declare.conflict([decrypted], with: session)
            declare.need(returnURL, by: [wallet.where(\.worldlineNeedsReturnURL)], reason: "3-D Secure")
            declare.conflict(
                [returnURL, challengeIndicator, exemptionRequest, skipAuthentication, deviceChannel], with: wallet.is(.applePay))
            declare.conflict([challengeIndicator, exemptionRequest], with: skipAuthentication)
            declare.conflict([token, tokenize, merchantInitiated], with: wallet)
            declare.conflict([tokenize], with: token, reason: "the card is already saved")
            declare.need(anyOf: [token, tokenize], by: [merchantInitiated], reason: "a series uses a saved card")
            declare.need(token, by: [initialTransaction])
            declare.need(merchantInitiated, by: [initialTransaction])
            declare.conflict(
                [returnURL, challengeIndicator, exemptionRequest, deviceChannel], with: merchantInitiated.and(token),
                reason: "the payer is absent: 3-D Secure is skipped")
            let payer = OptionCondition(name: "card", spelling: "A card payment the payer makes") { line in
                line.values["wallet"] == nil && !(line.values["token"] != nil && line.values["merchant-initiated"] != nil)
            }
            declare.need(anyOf: [returnURL, skipAuthentication], by: [payer], reason: "3-D Secure")
        }
    }

    let options: ServerCallOptions
    let amount: Int
    let currency: String
    let reference: String?
    let idempotenceKey: IdempotenceKey?
    let wallet: Wallet?
    let decrypted: Bool
    let returnURL: String?
    let session: String?
    let authorizationMode: WorldlineAuthorizationMode?
    let challengeIndicator: WorldlineThreeDSecure.ChallengeIndicator?
    let exemptionRequest: WorldlineThreeDSecure.ExemptionRequest?
    let skipAuthentication: Bool
    let deviceChannel: WorldlineThreeDSecure.DeviceChannel?
    let tokenize: Bool
    let token: String?
    let merchantInitiated: WorldlineCardOnFile.Kind?
    let initialTransaction: String?

    init(arguments: ParsedArguments<Options>) throws(UsageError) {
        options = try ServerCallOptions(arguments: arguments.group(\.server))
        challengeIndicator = arguments[\.challengeIndicator]?.value
        exemptionRequest = arguments[\.exemptionRequest]?.value
        skipAuthentication = arguments[\.skipAuthentication]
        deviceChannel = arguments[\.deviceChannel]?.channel
        tokenize = arguments[\.tokenize]
        token = arguments[\.token]
        merchantInitiated = arguments[\.merchantInitiated]?.kind
        initialTransaction = arguments[\.initialTransaction]
        amount = arguments[\.amount].minorUnits
        currency = arguments[\.currency].currency.code
        reference = arguments[\.reference]
        idempotenceKey = arguments[\.idempotenceKey]?.key
        wallet = arguments[\.wallet]
        decrypted = arguments[\.decrypted]
        session = arguments[\.session]
        returnURL = arguments[\.returnURL]
        authorizationMode = arguments[\.authorizationMode]?.mode
    }

    func runAsync() async throws(CSEError) -> Int32 {
        // The wallet data holds a DPAN and a cryptogram: the bytes read are wiped at the end.
        var input = try WorldlineCommandSupport.standardInput(allowingEmpty: token != nil)
        defer { secureZero(&input) }
        // The client makes a key when none is given, and returns the references with the outcome.
        let key = idempotenceKey
        let client = try WorldlineCommandSupport.client(options)
        if let wallet, let session {
            let token = try JSONObjectInput.parse(input, orElse: "the wallet token must be a JSON object")
            var configuration = ClientAPIConfiguration()
            configuration.http = options.transport.applied(to: configuration.http)
            let clientSession = try ClientAPISession(
                sessionData: try SessionData(json: try KeySource.read(session, secretKind: "session file")), configuration: configuration)
            let sealed = try await clientSession.encrypt(try WorldlinePaymentRequest.paymentRequest(sealing: token, from: wallet))
            let request = try WorldlinePaymentRequest(
                encryptedCustomerInput: sealed.encryptedCustomerInput, amount: Int64(amount), currencyCode: currency,
                merchantReference: reference, googlePayReturnURL: wallet.worldlineNeedsReturnURL ? returnURL : nil,
                authorizationMode: authorizationMode, threeDSecure: try threeDSecure())
            return finish(try await client.createPayment(request, idempotenceKey: key))
        }
        if let wallet {
            let output = try JSONObjectInput.parse(input, orElse: "the input must be the JSON object 'cse wallet decrypt' prints")
            let card = try WalletCard(decryptionOutput: output, from: wallet)
            let request = try WorldlineWalletPaymentRequest(
                card: card, amount: Int64(amount), currencyCode: currency, merchantReference: reference, returnURL: returnURL,
                authorizationMode: authorizationMode, threeDSecure: try threeDSecure())
            return finish(try await client.createPayment(request, idempotenceKey: key))
        }
        if let token {
            let cardOnFile = try merchantInitiated.map { (kind) throws(CSEError) in
                try WorldlineCardOnFile(kind: kind, sequence: .subsequent, initialSchemeTransactionID: initialTransaction)
            }
            let request = try WorldlineTokenPaymentRequest(
                token: token, encryptedCustomerInput: input.isEmpty ? nil : try WorldlineCommandSupport.sealedInput(input),
                amount: Int64(amount), currencyCode: currency, merchantReference: reference, authorizationMode: authorizationMode,
                threeDSecure: cardOnFile == nil ? try threeDSecure() : nil, cardOnFile: cardOnFile)
            return finish(try await client.createPayment(request, idempotenceKey: key), cardOnFile: cardOnFile)
        }
        let cardOnFile = try merchantInitiated.map { (kind) throws(CSEError) in try WorldlineCardOnFile(kind: kind, sequence: .first) }
        let request = try WorldlinePaymentRequest(
            encryptedCustomerInput: try WorldlineCommandSupport.sealedInput(input), amount: Int64(amount), currencyCode: currency,
            merchantReference: reference, authorizationMode: authorizationMode, threeDSecure: try threeDSecure(), tokenize: tokenize,
            cardOnFile: cardOnFile)
        return finish(try await client.createPayment(request, idempotenceKey: key), cardOnFile: cardOnFile)
    }

    /// The 3-D Secure input the options give, or `nil` when they give none.
    private func threeDSecure() throws(CSEError) -> WorldlineThreeDSecure? {
        let google = wallet?.worldlineNeedsReturnURL == true
        let url = google ? nil : returnURL
        guard url != nil || challengeIndicator != nil || exemptionRequest != nil || skipAuthentication || deviceChannel != nil else {
            return nil
        }
        return try WorldlineThreeDSecure(
            returnURL: url, challengeIndicator: challengeIndicator, exemptionRequest: exemptionRequest,
            skipAuthentication: skipAuthentication, deviceChannel: deviceChannel)
    }

    /// How a pending payment is resumed on Worldline.
    static let resume =
        "store the payment id and the returnmac with the order, send the payer to the action, and when the payer returns run "
        + "'cse worldline get-payment ID --returnmac RECEIVED --expected-returnmac STORED' (the id you stored, never one from the "
        + "return's query); without an action the platform decides later: read it with 'cse worldline get-payment ID'"

    /// Prints the outcome; a payment of a series names it (`"cardOnFile":{"type","sequence"}`:
    /// the first payment says it set the series up).
    private func finish(_ outcome: PaymentOutcome<WorldlinePayment>, cardOnFile: WorldlineCardOnFile? = nil) -> Int32 {
        PaymentOutcomeOutput.finish(outcome, settle: Self.settle, resume: Self.resume, id: \.id, status: \.status) { payment in
            guard let cardOnFile, var object = payment.json.objectValue else { return payment.json }
            object["cardOnFile"] = cardOnFile.json
            return .object(object)
        }
    }
}

/// `cse worldline get-payment`: GetPayment, the payment as it stands now.
struct WorldlineGetPaymentCommand: NetworkCommand {
    static let spec = CommandSpec(
        name: "worldline get-payment",
        abstract: "Print a payment as it stands now (Worldline GetPayment).",
        discussion: """
            GET /v2/{merchantId}/payments/{paymentId}, signed with GCS v1HMAC. Prints
            {"id","status","statusCategory","statusCode",…} with any card number masked, whatever
            the status: this is how a payment whose creation ended with exit status 75 is settled
            once its id is known, and how a pending one is followed. The output includes
            threeDSecureResults (version, flow, authenticationStatus, ECI, liability, exemption)
            when the platform gives them.

            After a 3-D Secure challenge: --returnmac RECEIVED --expected-returnmac STORED (both or
            neither) compares the RETURNMAC the payer brought back with the one stored with the
            payment id before the redirect, in constant time, and refuses a mismatch
            (worldline.returnMACMismatch, exit 1, nothing sent). The payment id is the one the
            merchant stored, never one taken from the return's query string.
            """,
        options: Options.self,
        positionals: [.init("ID", help: "The payment id, for example 3066019730_0.")])

    /// The options of `cse worldline get-payment`.
    struct Options: CommandOptions {
        let returnMAC: OptionKey<String?>
        let expectedReturnMAC: OptionKey<String?>
        let server: ServerCallOptions.Keys

        init(_ declare: inout OptionDeclarations) {
            returnMAC = declare.value("returnmac", "RECEIVED", help: "The RETURNMAC the payer's return carried.")
            expectedReturnMAC = declare.value(
                "expected-returnmac", "STORED", help: "The RETURNMAC stored with the payment id before the redirect.")
            declare.together([returnMAC, expectedReturnMAC])
            server = WorldlineCommandSupport.serverKeys(&declare)
        }
    }

    let options: ServerCallOptions
    let id: String
    let returnMAC: (received: String, expected: String)?

    init(arguments: ParsedArguments<Options>) throws(UsageError) {
        options = try ServerCallOptions(arguments: arguments.group(\.server))
        id = arguments.positionals.first ?? ""
        if let received = arguments[\.returnMAC], let expected = arguments[\.expectedReturnMAC] {
            returnMAC = (received, expected)
        } else {
            returnMAC = nil
        }
    }

    func runAsync() async throws(CSEError) -> Int32 {
        if let returnMAC { try WorldlineServerClient.checkReturnMAC(received: returnMAC.received, expected: returnMAC.expected) }
        let outcome = try await WorldlineCommandSupport.client(options).paymentOutcome(id: id)
        return PaymentOutcomeOutput.finish(
            outcome, settle: "read it again later with 'cse worldline get-payment ID'",
            resume: "the payer has not finished, or the platform decides later: read it again with 'cse worldline get-payment ID' "
                + "or wait for its payment.* webhook",
            id: \.id, status: \.status, json: \.json)
    }
}

/// `cse worldline sign`: the v1HMAC signature of a string to sign on stdin.
struct WorldlineSignCommand: CLICommand {
    static let spec = CommandSpec(
        name: "worldline sign",
        abstract: "Print the Worldline v1HMAC signature of a string to sign on standard input.",
        discussion: """
            Reads the string to sign exactly as given (method, Content-Type, Date, X-GCS-* headers
            and path, each followed by a line break) and prints base64(HMAC-SHA256) under the secret
            API key. For checking the Worldline server SDK's known answers.
            """,
        options: Options.self)

    /// The options of `cse worldline sign`.
    struct Options: CommandOptions {
        let secretFile: OptionKey<String>

        init(_ declare: inout OptionDeclarations) {
            secretFile = declare.required("secret-file", "FILE", help: "The secret API key (one trailing newline is dropped).")
        }
    }

    let secretPath: String

    init(arguments: ParsedArguments<Options>) throws(UsageError) { secretPath = arguments[\.secretFile] }

    func run() throws(CSEError) -> Int32 {
        let secret = try ServerSecretFile.read(secretPath)
        // The string to sign ends with a line break, which is part of what is signed.
        var input = try Files.readStandardInput(limit: 1 << 20, keepingTrailingLineBreak: true)
        defer { secureZero(&input) }
        guard let text = String(validating: input, as: UTF8.self) else {
            throw CSEError(.cliNotText, "standard input is not UTF-8 text")
        }
        StandardStreams.out(try WorldlineSignature.signature(of: text, secret: secret) + "\n")
        return ExitCode.success
    }
}

/// `cse worldline webhook-verify`: checks X-GCS-Signature over the body on stdin and prints the
/// event it carries.
struct WorldlineWebhookVerifyCommand: CLICommand {
    static let spec = CommandSpec(
        name: "worldline webhook-verify",
        abstract: "Verify a Worldline webhook's X-GCS-Signature over the raw body on standard input, and decode its event.",
        discussion: """
            Reads the body exactly as received (at most 1 MiB) and checks that the signature is
            base64 of HMAC-SHA256 of it under the webhook secret (the secret of the delivery's
            X-GCS-KeyId), compared in constant time; only then is the body read. Prints
            {"valid":true,"event":{"id","type","created","merchantId","apiVersion","payment":{"id",
            "status","statusCategory","statusCode","amount","currencyCode","merchantReference"},
            "refund":{…}}} (members the event lacks are left out) and exits 0. A wrong signature
            is worldline.webhook.signature, a signed body that is not an event
            worldline.webhook.malformed: exit 1, nothing on stdout, nothing of the body on stderr.
            """,
        options: Options.self)

    /// The options of `cse worldline webhook-verify`.
    struct Options: CommandOptions {
        let secretFile: OptionKey<String>
        let signature: OptionKey<String>

        init(_ declare: inout OptionDeclarations) {
            secretFile = declare.required("secret-file", "FILE", help: "The webhook secret for the delivery's key id.")
            signature = declare.required("signature", "SIG", help: "The X-GCS-Signature header value.")
        }
    }

    let secretPath: String
    let signature: String

    init(arguments: ParsedArguments<Options>) throws(UsageError) {
        secretPath = arguments[\.secretFile]
        signature = arguments[\.signature]
    }

    func run() throws(CSEError) -> Int32 {
        let secret = try ServerSecretFile.read(secretPath)
        let body = try NotificationInput.body()
        let event = try WorldlineWebhook.verifiedEvent(signature: signature, body: body, secret: secret)
        JSONLine.write(.object(JSONObject([("valid", .bool(true)), ("event", Self.json(event))])))
        return ExitCode.success
    }

    /// The event's members, those it lacks left out.
    static func json(_ event: WorldlineWebhookEvent) -> JSONValue {
        var members: [(String, JSONValue)] = [("id", .string(event.id)), ("type", .string(event.type.rawValue))]
        if let created = event.created { members.append(("created", .string(created))) }
        if let merchantID = event.merchantID { members.append(("merchantId", .string(merchantID))) }
        if let apiVersion = event.apiVersion { members.append(("apiVersion", .string(apiVersion))) }
        if let payment = event.payment { members.append(("payment", json(payment))) }
        if let refund = event.refund { members.append(("refund", json(refund))) }
        return .object(JSONObject(members))
    }

    static func json(_ resource: WorldlineWebhookEvent.Resource) -> JSONValue {
        var members: [(String, JSONValue)] = [("id", .string(resource.id))]
        if let status = resource.status { members.append(("status", .string(status))) }
        if let category = resource.statusCategory { members.append(("statusCategory", .string(category))) }
        if let code = resource.statusCode { members.append(("statusCode", .number(String(code)))) }
        if let amount = resource.amount { members.append(("amount", .number(String(amount)))) }
        if let currency = resource.currencyCode { members.append(("currencyCode", .string(currency))) }
        if let reference = resource.merchantReference { members.append(("merchantReference", .string(reference))) }
        return .object(JSONObject(members))
    }
}
