import CSECore
import CSECrypto
import CSEWallets

/// `cse wallet decrypt`: verifies and decrypts an Apple Pay token on standard input.
struct WalletDecryptCommand: NetworkCommand {
    /// The command's description.
    static let spec = CommandSpec(
        name: "wallet decrypt",
        abstract: "Verify and decrypt an Apple Pay payment token read from standard input.",
        discussion: """
            Reads the paymentData object, a whole PKPaymentToken or {"token":{…}}. Checks the CMS
            signature, the certificate chain to Apple Root CA - G3 and the signing time before
            decrypting with the merchant's Payment Processing certificate and key (pairs of
            --merchant-cert and --merchant-key, in the same order; the token's publicKeyHash picks
            the pair). Prints {"wallet","version","transactionId","signingTime","paymentData"}, where
            paymentData is the whole decrypted object. A refused token exits 1 with its wallet.* code.
            With --lines, one token per line and one output line per input line.
            """,
        options: Options.self)

    /// The options of `cse wallet decrypt`.
    struct Options: CommandOptions {
        let certificates: OptionKey<[String]>
        let keys: OptionKey<[String]>
        let merchantID: OptionKey<String?>
        let common: WalletOptions.Common.Keys
        let google: GooglePayWallet.Keys

        init(_ declare: inout OptionDeclarations) {
            google = GooglePayWallet.Keys(&declare)
            certificates = declare.repeated(
                "merchant-cert", "FILE", help: "A Payment Processing certificate (PEM); repeat for rotation.")
            keys = declare.repeated(
                "merchant-key", "FILE", help: "Its private key (PEM), in the same order as --merchant-cert; Google Pay: a recipient key.")
            merchantID = declare.value("merchant-id", "ID", help: "Check that every certificate belongs to this merchant identifier.")
            common = WalletOptions.Common.Keys(&declare)
            google.declareRules(
                &declare, wallet: common.wallet, appleOptions: [certificates, merchantID, common.root, common.window], recipientKeys: keys,
                merchantCertificates: certificates)
        }
    }

    let common: WalletOptions.Common
    let pairs: [(certificate: String, key: String)]
    let merchantID: String?
    /// Set when the command runs for Google Pay (GooglePayWallet.swift).
    let google: GooglePayWallet.Settings?

    /// Validates the arguments.
    init(arguments: ParsedArguments<Options>) throws(UsageError) {
        common = try WalletOptions.Common(arguments: arguments.group(\.common))
        let shared = arguments.group(\.common)
        google = GooglePayWallet.Settings.select(wallet: shared[\.wallet], arguments.group(\.google), keyFiles: arguments[\.keys])
        guard google == nil else {
            pairs = []
            merchantID = nil
            return
        }
        let certificates = arguments[\.certificates], keys = arguments[\.keys]
        guard certificates.count == keys.count else {
            throw UsageError("--merchant-cert and --merchant-key must come in pairs (\(certificates.count) and \(keys.count) given)")
        }
        pairs = Array(zip(certificates, keys))
        merchantID = arguments[\.merchantID]
    }

    /// Google's root keys fetched with `--root-keys test|production`.
    var callsNetwork: Bool { google?.fetchesRootKeys == true }

    /// Decrypts standard input, Google's root keys fetched first.
    func runAsync() async throws(CSEError) -> Int32 {
        guard let google else { return try run() }
        let recipient = try await google.fetchedRecipient(clock: common.clock)
        return try WalletOptions.run(lines: common.lines) { (token) throws(CSEError) in try GooglePayWallet.decrypt(recipient, token) }
    }

    /// Decrypts standard input.
    func run() throws(CSEError) -> Int32 {
        if let google {
            let recipient = try google.recipient(clock: common.clock)
            return try WalletOptions.run(lines: common.lines) { (token) throws(CSEError) in try GooglePayWallet.decrypt(recipient, token) }
        }
        var identities: [ApplePayMerchantIdentity] = []
        for pair in pairs {
            var key = try Files.readSecret(pair.key, kind: "private key file")
            defer { secureZero(&key) }
            identities.append(
                try ApplePayMerchantIdentity(
                    certificatePEM: String(decoding: try Files.read(pair.certificate), as: UTF8.self),
                    privateKeyPEM: String(decoding: key, as: UTF8.self)))
        }
        let decryptor = try ApplePayDecryptor(
            merchantIdentities: identities, merchantIdentifier: merchantID, trustedRoot: common.trustedRoot(),
            signingWindow: common.window, clock: common.clock)
        return try WalletOptions.run(lines: common.lines) { (token) throws(CSEError) in
            let payment = try decryptor.decrypt(token)
            let paymentData = try payment.decryptedJSON.withUnsafeBytes { (bytes) throws(CSEError) in
                try JSONValue.parse(bytes).serializedBytes
            }
            var out = WalletCommandOutput.header(payment.verification)
            out.serialized("paymentData", paymentData)
            return out.finish()
        }
    }
}

/// `cse wallet verify`: checks an Apple Pay token's signature, chain and signing time.
struct WalletVerifyCommand: NetworkCommand {
    /// The command's description.
    static let spec = CommandSpec(
        name: "wallet verify",
        abstract: "Verify the signature, chain and signing time of an Apple Pay token on standard input.",
        discussion: """
            Needs no merchant key. Prints {"wallet","valid":true,"version","transactionId","signingTime"};
            a refused token exits 1 with its wallet.* code. With --lines, one token per line.
            """,
        options: Options.self)

    /// The options of `cse wallet verify`.
    struct Options: CommandOptions {
        let common: WalletOptions.Common.Keys
        let google: GooglePayWallet.Keys

        init(_ declare: inout OptionDeclarations) {
            google = GooglePayWallet.Keys(&declare)
            common = WalletOptions.Common.Keys(&declare)
            google.declareRules(&declare, wallet: common.wallet, appleOptions: [common.root, common.window])
        }
    }

    let common: WalletOptions.Common
    /// Set when the command runs for Google Pay (GooglePayWallet.swift).
    let google: GooglePayWallet.Settings?

    /// Validates the arguments.
    init(arguments: ParsedArguments<Options>) throws(UsageError) {
        common = try WalletOptions.Common(arguments: arguments.group(\.common))
        let shared = arguments.group(\.common)
        google = GooglePayWallet.Settings.select(wallet: shared[\.wallet], arguments.group(\.google), keyFiles: [])
    }

    /// Google's root keys fetched with `--root-keys test|production`.
    var callsNetwork: Bool { google?.fetchesRootKeys == true }

    /// Verifies standard input, Google's root keys fetched first.
    func runAsync() async throws(CSEError) -> Int32 {
        guard let google else { return try run() }
        let recipient = try await google.fetchedRecipient(clock: common.clock)
        return try WalletOptions.run(lines: common.lines) { (token) throws(CSEError) in try GooglePayWallet.verify(recipient, token) }
    }

    /// Verifies standard input.
    func run() throws(CSEError) -> Int32 {
        if let google {
            let recipient = try google.recipient(clock: common.clock)
            return try WalletOptions.run(lines: common.lines) { (token) throws(CSEError) in try GooglePayWallet.verify(recipient, token) }
        }
        let decryptor = try ApplePayDecryptor(trustedRoot: common.trustedRoot(), signingWindow: common.window, clock: common.clock)
        return try WalletOptions.run(lines: common.lines) { (token) throws(CSEError) in
            let verification = try decryptor.verify(token)
            var out = JSONObjectWriter()
            out.string("wallet", Wallet.applePay.rawValue)
            out.bool("valid", true)
            WalletCommandOutput.identify(verification, in: &out)
            return out.finish()
        }
    }
}

/// The identifying members both wallet commands print.
enum WalletCommandOutput {
    /// `{"wallet","version","transactionId","signingTime"` …
    static func header(_ verification: ApplePayVerification) -> JSONObjectWriter {
        var out = JSONObjectWriter()
        out.string("wallet", Wallet.applePay.rawValue)
        identify(verification, in: &out)
        return out
    }

    static func identify(_ verification: ApplePayVerification, in out: inout JSONObjectWriter) {
        out.string("version", verification.version.rawValue)
        out.string("transactionId", verification.transactionId)
        out.string("signingTime", WalletOptions.isoString(verification.signingTimeUnixMilliseconds))
        if let applicationData = verification.applicationData { out.string("applicationData", applicationData) }
    }
}
