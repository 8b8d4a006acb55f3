public import CSECore

extension WalletCard {
    /// The one reader of `cse wallet decrypt`'s output (UTF-8 JSON text of an object,
    /// `{"wallet","paymentData",…}`), for every platform's `--decrypted`: Apple Pay's
    /// `applicationPrimaryAccountNumber`, `applicationExpirationDate` (YYMMDD),
    /// `paymentData.onlinePaymentCryptogram`, `paymentData.eciIndicator`, `paymentDataType` and
    /// `cardholderName` with the top-level `transactionId`; Google Pay's
    /// `paymentMethodDetails.pan`, `expirationMonth`/`expirationYear`, and, for `CRYPTOGRAM_3DS`
    /// only, `cryptogram` and `eciIndicator` (older ECv1 tokens: `dpan`, authMethod `3DS` or
    /// paymentMethod `TOKENIZED_CARD`, `3dsCryptogram`, `3dsEciIndicator`) with `messageId`.
    /// - Throws: a `json.*` error for text that is not a JSON object;
    ///   ``CSEError/Code/walletInvalidCard`` naming the member that is missing, malformed or of
    ///   the wrong JSON type (an optional member too: a cryptogram or a name that is not a string
    ///   is an error, never left out), or a `wallet` that names no ``Wallet``.
    public init(decryptionOutput output: some Collection<UInt8>) throws(CSEError) {
        try self.init(decryptionOutput: try JSONObject.parse(output, what: "the decrypted wallet data"))
    }

    /// ``init(decryptionOutput:)`` of a parsed object that must come from
    /// `wallet` (a command's `--wallet`).
    /// - Throws: as the public initializer; ``CSEError/Code/walletInvalidCard`` naming `wallet`
    ///   when the output is another wallet's.
    package init(decryptionOutput output: JSONObject, from wallet: Wallet) throws(CSEError) {
        try self.init(decryptionOutput: output)
        guard self.wallet == wallet else {
            throw CSEError(.walletInvalidCard, "the decrypted token is from another wallet than --wallet", context: ["argument": "wallet"])
        }
    }

    /// ``init(decryptionOutput:)`` of a parsed object (the CLI and the tests).
    package init(decryptionOutput output: JSONObject) throws(CSEError) {
        func missing(_ member: String) -> CSEError {
            CSEError(.walletInvalidCard, "the decrypted wallet data lacks a member", context: ["argument": member])
        }
        let reader = DecryptionOutputReader()
        guard let data = output["paymentData"]?.objectValue else { throw missing("paymentData") }
        func eci(_ value: JSONValue?) throws(CSEError) -> Int? {
            guard let value, !value.isNull else { return nil }
            if let number = value.intValue { return number }
            guard let text = value.stringValue else { throw missing("eciIndicator") }
            return try Self.eciNumber(text)
        }
        guard let name = output["wallet"]?.stringValue, let wallet = Wallet(rawValue: name) else { throw missing("wallet") }
        switch wallet {
        case .applePay:
            guard let number = data["applicationPrimaryAccountNumber"]?.stringValue else {
                throw missing("applicationPrimaryAccountNumber")
            }
            guard let expiryText = data["applicationExpirationDate"]?.stringValue else { throw missing("applicationExpirationDate") }
            let expiry = try Self.appleExpiry(expiryText)
            let inner = try reader.optionalObject(data, "paymentData") ?? JSONObject()
            let method: AuthenticationMethod? =
                switch data["paymentDataType"]?.stringValue {
                case "3DSecure": .cryptogram3DS
                case "EMV": .emv
                default: nil
                }
            try self.init(
                wallet: .applePay, accountNumber: number, expiryMonth: expiry.month, expiryYear: expiry.year,
                cryptogram: try reader.optionalString(inner, "onlinePaymentCryptogram"), eci: try eci(inner["eciIndicator"]),
                authenticationMethod: method, cardholderName: try reader.optionalString(data, "cardholderName"),
                tokenIdentifier: output["transactionId"]?.stringValue)
        case .googlePay:
            guard let details = data["paymentMethodDetails"]?.objectValue else { throw missing("paymentMethodDetails") }
            // ECv2 sends `pan`, `cryptogram`, `eciIndicator` and authMethod `CRYPTOGRAM_3DS`; older
            // ECv1 tokens (paymentMethod `TOKENIZED_CARD`) send `dpan`, `3dsCryptogram`,
            // `3dsEciIndicator` and authMethod `3DS` (wallet-tokens notes, Google's payload).
            let ecv2PAN = try reader.optionalString(details, "pan")
            let ecv1DPAN = try reader.optionalString(details, "dpan")
            guard let pan = ecv2PAN ?? ecv1DPAN else { throw missing("paymentMethodDetails.pan") }
            guard let month = details["expirationMonth"]?.intValue, let year = details["expirationYear"]?.intValue, year >= 0 else {
                throw missing("paymentMethodDetails.expiration")
            }
            let authMethod = try reader.optionalString(details, "authMethod")
            let tokenized = Self.isTokenized(authMethod: authMethod, paymentMethod: try reader.optionalString(data, "paymentMethod"))
            var cryptogram: String?
            var eciValue: Int?
            if tokenized {
                let ecv2Cryptogram = try reader.optionalString(details, "cryptogram")
                let ecv1Cryptogram = try reader.optionalString(details, "3dsCryptogram")
                cryptogram = ecv2Cryptogram ?? ecv1Cryptogram
                let ecv2ECI = try eci(details["eciIndicator"])
                let ecv1ECI = try eci(details["3dsEciIndicator"])
                eciValue = ecv2ECI ?? ecv1ECI
            }
            try self.init(
                wallet: .googlePay, accountNumber: pan, expiryMonth: month, expiryYear: year < 100 ? 2000 + year : year,
                cryptogram: cryptogram, eci: eciValue, authenticationMethod: Self.googleMethod(authMethod, tokenized: tokenized),
                tokenIdentifier: data["messageId"]?.stringValue)
        }
    }
}

/// Reads the optional members of `cse wallet decrypt`'s output strictly: `null` counts as absent,
/// a member of the wrong type is ``CSEError/Code/walletInvalidCard`` naming it.
private struct DecryptionOutputReader: JSONMemberReader {
    /// ``CSEError/Code/walletInvalidCard`` naming the member as the argument.
    func malformed(_ reason: String, member: String) -> CSEError {
        CSEError(.walletInvalidCard, reason, context: ["argument": member])
    }
}
