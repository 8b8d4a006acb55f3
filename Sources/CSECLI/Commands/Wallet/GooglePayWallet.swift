import CSECore
import CSECrypto
import CSEWallets
import CSEWalletsHTTP

/// The Google Pay half of `cse wallet decrypt` and `cse wallet verify`: option checks, the input
/// shapes, and the output objects.
enum GooglePayWallet {
    /// `--recipient`, `--root-keys` and `--protocols`, declared once for both commands.
    struct Keys: Sendable {
        let recipient: OptionKey<String?>
        let rootKeys: OptionKey<String?>
        let protocols: OptionKey<String?>

        init(_ declare: inout OptionDeclarations) {
            recipient = declare.value("recipient", "ID", help: "Google Pay: the recipient id, merchant:ID or gateway:ID.")
            rootKeys = declare.value("root-keys", "FILE|test|production", help: "Google Pay: the root signing keys (keys.json).")
            protocols = declare.value("protocols", "LIST", help: "Google Pay: accepted protocol versions (ECv2).")
        }
    }

    /// The validated Google Pay options.
    struct Settings: Sendable {
        let recipientID: String
        let rootKeys: String
        let protocols: Set<GooglePayProtocolVersion>
        let keyFiles: [String]

        /// The Google Pay settings when the command runs for Google Pay: `--wallet google-pay`, or
        /// any of `--recipient`, `--root-keys`, `--protocols` without `--wallet`; `nil` otherwise.
        /// - Parameters:
        ///   - appleOptionGiven: whether an Apple-only option was given (refused with Google Pay).
        ///   - needsKeys: `decrypt` needs at least one `--merchant-key`.
        static func select(
            wallet: Wallet?, _ options: ParsedArguments<Keys>, keyFiles: [String], appleOptionGiven: Bool, needsKeys: Bool
        ) throws(UsageError) -> Settings? {
            let recipient = options[\.recipient], rootKeys = options[\.rootKeys], protocols = options[\.protocols]
            let googleOptionGiven = recipient != nil || rootKeys != nil || protocols != nil
            // Exhaustive, no `default`: a new wallet must say here whether it is Google Pay's.
            switch wallet {
            case .googlePay?: break
            case nil where googleOptionGiven: break
            case .applePay?, nil:
                if googleOptionGiven { throw UsageError("--recipient, --root-keys and --protocols are Google Pay options") }
                return nil
            }
            if appleOptionGiven {
                throw UsageError("--merchant-cert, --merchant-id, --apple-root and --signing-window are Apple Pay options")
            }
            guard let recipient, !recipient.isEmpty else { throw UsageError("Google Pay needs --recipient merchant:ID or gateway:ID") }
            guard let rootKeys, !rootKeys.isEmpty else { throw UsageError("Google Pay needs --root-keys FILE, test or production") }
            guard !needsKeys || !keyFiles.isEmpty else { throw UsageError("give at least one --merchant-key FILE (the recipient key)") }
            var accepted = GooglePayProtocolVersion.defaultAccepted
            if let protocols {
                accepted = []
                for name in protocols.split(separator: ",", omittingEmptySubsequences: false) {
                    guard let version = GooglePayProtocolVersion(String(name)) else {
                        throw UsageError("--protocols is a comma-separated list of ECv1, ECv2, ECv2SigningOnly")
                    }
                    accepted.insert(version)
                }
            }
            return Settings(recipientID: recipient, rootKeys: rootKeys, protocols: accepted, keyFiles: keyFiles)
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
