import CSECore
import CSECrypto
import CSEWallets
import CSEWalletsHTTP

/// The Google Pay half of `cse wallet decrypt` and `cse wallet verify`: option checks, the input
/// shapes, and the output objects.
enum GooglePayWallet {
    /// `--recipient`, `--root-keys` and `--protocols`, declared once for both commands.
    struct Keys: Sendable {
        let recipient: OptionKey<RecipientArgument?>
        let rootKeys: OptionKey<RootKeysArgument?>
        let protocols: OptionKey<ProtocolsArgument?>

        init(_ declare: inout OptionDeclarations) {
            recipient = declare.value(
                "recipient", "ID", as: RecipientArgument.self, help: "Google Pay: the recipient id, merchant:ID or gateway:ID.")
            rootKeys = declare.value(
                "root-keys", "FILE|test|production", as: RootKeysArgument.self, help: "Google Pay: the root signing keys (keys.json).")
            protocols = declare.value(
                "protocols", "LIST", as: ProtocolsArgument.self, help: "Google Pay: accepted protocol versions (ECv2).")
        }

        /// Declares the rules between these options and the rest of a wallet command: a Google Pay
        /// option or `--wallet google-pay` makes the command run for Google Pay, which needs
        /// `--recipient` and `--root-keys` (and, when `recipientKeys` is given, a `--merchant-key`)
        /// and takes none of `appleOptions`; `--wallet apple-pay` takes no Google Pay option;
        /// otherwise the command runs for Apple Pay, which needs `merchantCertificates` when given.
        func declareRules(
            _ declare: inout OptionDeclarations, wallet: OptionKey<Wallet?>, appleOptions: [any OptionOperand],
            recipientKeys: OptionKey<[String]>? = nil, merchantCertificates: OptionKey<[String]>? = nil
        ) {
            declare.conflict([recipient, rootKeys, protocols], with: wallet.is(.applePay))
            let google: [any OptionOperand] = [wallet.is(.googlePay), recipient, rootKeys, protocols]
            for anchor in google { declare.conflict(appleOptions, with: anchor) }
            declare.need(recipient, by: google.filter { $0.condition.name != recipient.name })
            declare.need(rootKeys, by: google.filter { $0.condition.name != rootKeys.name })
            if let recipientKeys { declare.need(recipientKeys, by: google) }
            if let merchantCertificates {
                let googleConditions = google.map(\.condition)
                let applePay = OptionCondition(name: wallet.name, spelling: "--wallet apple-pay (the default)") { line in
                    !googleConditions.contains { $0.holds(in: line) }
                }
                declare.need(merchantCertificates, by: [applePay])
            }
        }
    }

    /// `--recipient merchant:ID|gateway:ID`: any non-empty id (the recipient checks its form).
    struct RecipientArgument: ArgumentValue {
        let id: String
        init?(argument: String) {
            guard !argument.isEmpty else { return nil }
            id = argument
        }
        static var allValueStrings: [String] { [] }
        static var valueDescription: String { "a recipient id, merchant:ID or gateway:ID" }
    }

    /// `--root-keys FILE|test|production`: a keys.json file, or Google's test or production keys.
    struct RootKeysArgument: ArgumentValue {
        let source: String
        init?(argument: String) {
            guard !argument.isEmpty else { return nil }
            source = argument
        }
        static var allValueStrings: [String] { [] }
        static var valueDescription: String { "a keys.json file, test or production" }
    }

    /// `--protocols LIST`: a comma-separated list of protocol versions.
    struct ProtocolsArgument: ArgumentValue {
        let versions: Set<GooglePayProtocolVersion>
        init?(argument: String) {
            var versions: Set<GooglePayProtocolVersion> = []
            for name in argument.split(separator: ",", omittingEmptySubsequences: false) {
                guard let version = GooglePayProtocolVersion(String(name)) else { return nil }
                versions.insert(version)
            }
            self.versions = versions
        }
        static var allValueStrings: [String] { [] }
        static var valueDescription: String { "a comma-separated list of ECv1, ECv2, ECv2SigningOnly" }
    }

    /// The validated Google Pay options.
    struct Settings: Sendable {
        let recipientID: String
        let rootKeys: String
        let protocols: Set<GooglePayProtocolVersion>
        let keyFiles: [String]

        /// The Google Pay settings when the command runs for Google Pay: `--wallet google-pay`, or
        /// any of `--recipient`, `--root-keys`, `--protocols` without `--wallet`; `nil` otherwise.
        /// The parser has checked the options against each other (``Keys/declareRules(_:wallet:appleOptions:recipientKeys:)``).
        static func select(wallet: Wallet?, _ options: ParsedArguments<Keys>, keyFiles: [String]) -> Settings? {
            let recipient = options[\.recipient], rootKeys = options[\.rootKeys], protocols = options[\.protocols]
            let googleOptionGiven = recipient != nil || rootKeys != nil || protocols != nil
            // Exhaustive, no `default`: a new wallet must say here whether it is Google Pay's.
            switch wallet {
            case .googlePay?: break
            case nil where googleOptionGiven: break
            case .applePay?, nil: return nil
            }
            return Settings(
                recipientID: recipient?.id ?? "", rootKeys: rootKeys?.source ?? "",
                protocols: protocols?.versions ?? GooglePayProtocolVersion.defaultAccepted, keyFiles: keyFiles)
        }

        /// Whether the root keys are fetched from Google (`--root-keys test|production`).
        var fetchesRootKeys: Bool { rootKeys == "test" || rootKeys == "production" }

        /// The recipient, with the root keys fetched from Google's test or production URL.
        func fetchedRecipient(clock: WalletClock) async throws(CSEError) -> GooglePayRecipient {
            let source = rootKeys == "test" ? try GooglePayRootKeyFetcher.Source.test() : try GooglePayRootKeyFetcher.Source.production()
            return try recipient(rootKeys: try await GooglePayRootKeyFetcher(source: source, clock: clock).rootKeys(), clock: clock)
        }

        /// The recipient, with the root keys of the `--root-keys` file.
        func recipient(clock: WalletClock) throws(CSEError) -> GooglePayRecipient {
            try recipient(rootKeys: try GooglePayRootKeys(document: try Files.read(rootKeys)), clock: clock)
        }

        private func recipient(rootKeys keys: GooglePayRootKeys, clock: WalletClock) throws(CSEError) -> GooglePayRecipient {
            var pems: [String] = []
            for file in keyFiles {
                var key = try Files.readSecret(file, kind: "private key file")
                defer { secureZero(&key) }
                pems.append(String(decoding: key, as: UTF8.self))
            }
            return try GooglePayRecipient(
                recipientID: recipientID, privateKeysPEM: pems, rootKeys: keys, protocols: protocols, clock: clock)
        }
    }

    /// The `PaymentMethodToken` document inside any accepted input: the token object itself, its
    /// JSON as a JSON string, or a whole `PaymentData` response
    /// (`paymentMethodData.tokenizationData.token`).
    static func tokenDocument(_ input: [UInt8]) throws(CSEError) -> [UInt8] {
        let value: JSONValue
        do { value = try JSONValue.parse(input) } catch { throw CSEError(.walletMalformed, "Google Pay: the input is not JSON") }
        if let string = value.stringValue { return Array(string.utf8) }
        if let token = value["paymentMethodData"]?["tokenizationData"]?["token"]?.stringValue { return Array(token.utf8) }
        return input
    }

    /// `{"wallet":"google-pay","protocolVersion","messageId","messageExpiration","paymentData"}`.
    static func decrypt(_ recipient: GooglePayRecipient, _ input: [UInt8]) throws(CSEError) -> [UInt8] {
        let message = try recipient.decrypt(try tokenDocument(input))
        var out = JSONObjectWriter()
        out.string("wallet", Wallet.googlePay.rawValue)
        out.string("protocolVersion", message.protocolVersion.rawValue)
        if let id = message.messageID { out.string("messageId", id) }
        if let expiration = message.messageExpiration { out.string("messageExpiration", WalletOptions.isoString(expiration)) }
        let paymentData = message.plaintext.withUnsafeBytes { try? JSONValue.parse($0) }
        out.value("paymentData", paymentData ?? .string(message.plaintextString))
        return out.finish()
    }

    /// `{"wallet":"google-pay","valid":true,"protocolVersion"[,"intermediateKeyExpiration"]}`.
    static func verify(_ recipient: GooglePayRecipient, _ input: [UInt8]) throws(CSEError) -> [UInt8] {
        let verification = try recipient.verify(try tokenDocument(input))
        var out = JSONObjectWriter()
        out.string("wallet", Wallet.googlePay.rawValue)
        out.bool("valid", true)
        out.string("protocolVersion", verification.protocolVersion.rawValue)
        if let expiration = verification.intermediateKeyExpiration {
            out.string("intermediateKeyExpiration", WalletOptions.isoString(expiration))
        }
        return out.finish()
    }
}
