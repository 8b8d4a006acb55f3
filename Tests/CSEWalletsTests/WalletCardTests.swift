import CSECore
import CSECrypto
import Testing
import TestSupport

@testable import CSEWallets

/// The one decrypted wallet card (issue #31, point 1): what both decryptors produce, what the one
/// reader of `cse wallet decrypt`'s output gives, and what every platform's wallet payment takes.
@Suite("WalletCard: one card from either decryptor or from cse wallet decrypt's output")
struct WalletCardTests {
    /// `cse wallet decrypt`'s output for an Apple Pay token (the shape of the gala vector's plaintext).
    static let apple = Array(
        #"{"wallet":"apple-pay","version":"EC_v1","transactionId":"f7f1","paymentData":{"applicationPrimaryAccountNumber":"4109370251004320","applicationExpirationDate":"291231","currencyCode":"840","transactionAmount":100,"cardholderName":"A Payer","deviceManufacturerIdentifier":"040010030273","paymentDataType":"3DSecure","paymentData":{"onlinePaymentCryptogram":"Af9x/QwAA/DjmU65oyc1MAABAAA=","eciIndicator":"07"}}}"#
            .utf8)

    /// The output `cse wallet decrypt` prints for a decrypted Apple Pay token
    /// (`WalletDecryptCommand`: the header members, then the whole decrypted object).
    static func output(of payment: ApplePayPayment) throws -> JSONObject {
        let paymentData = try payment.decryptedJSON.withUnsafeBytes { (bytes) throws(CSEError) in try JSONValue.parse(bytes) }
        return JSONObject([
            ("wallet", .string(Wallet.applePay.rawValue)), ("version", .string(payment.verification.version.rawValue)),
            ("transactionId", .string(payment.verification.transactionId)), ("paymentData", paymentData),
        ])
    }

    /// The output `cse wallet decrypt --wallet google-pay` prints for a decrypted message
    /// (`GooglePayWallet.decrypt`).
    static func output(of message: GooglePayMessage) throws -> JSONObject {
        var members: [(String, JSONValue)] = [
            ("wallet", .string(Wallet.googlePay.rawValue)), ("protocolVersion", .string(message.protocolVersion.rawValue)),
        ]
        if let id = message.messageID { members.append(("messageId", .string(id))) }
        members.append(("paymentData", try message.plaintext.withUnsafeBytes { (bytes) throws(CSEError) in try JSONValue.parse(bytes) }))
        return JSONObject(members)
    }

    @Test("Wallet's raw values are the names cse wallet decrypt prints and --wallet takes, in that order")
    func walletNames() {
        #expect(Wallet.allCases.map(\.rawValue) == ["apple-pay", "google-pay"])
        #expect(Wallet(rawValue: "samsung-pay") == nil && Wallet.googlePay.description == "google-pay")
    }

    @Test(
        "Apple Pay output: YYMMDD becomes month and four-digit year, the ECI \"07\" the number 7, with the cryptogram, name and transactionId"
    )
    func appleOutput() throws {
        let card = try WalletCard(decryptionOutput: Self.apple)
        #expect(card.wallet == .applePay && card.accountNumber == "4109370251004320")
        #expect(card.expiryMonth == 12 && card.expiryYear == 2029 && card.expiryMonthText == "12" && card.expiryYearText == "29")
        #expect(card.cryptogram == "Af9x/QwAA/DjmU65oyc1MAABAAA=" && card.eci == 7 && card.eciText == "07")
        #expect(card.authenticationMethod == .cryptogram3DS && card.cardholderName == "A Payer" && card.tokenIdentifier == "f7f1")
        #expect(card.description == "WalletCard(apple-pay, accountNumber: 410937******4320, cryptogram: <redacted>)")
        var dumped = ""
        dump(card, to: &dumped)
        for secret in ["4109370251004320", "Af9x/QwAA/DjmU65oyc1MAABAAA=", "A Payer"] {
            #expect(!dumped.contains(secret) && !card.description.contains(secret), "shows \(secret)")
        }
    }

    @Test(
        "Google Pay output: ECv2 CRYPTOGRAM_3DS, ECv1 3DS and ECv1 TOKENIZED_CARD carry the cryptogram and ECI; PAN_ONLY carries neither",
        arguments: [
            (
                #"{"messageId":"m1","paymentMethod":"CARD","paymentMethodDetails":{"authMethod":"CRYPTOGRAM_3DS","pan":"4895370012003478","expirationMonth":12,"expirationYear":2030,"cryptogram":"AgAAAAAABk4DWZ4C28yUQAAAAAA=","eciIndicator":"05"}}"#,
                true
            ),
            (
                #"{"messageId":"m1","paymentMethod":"TOKENIZED_CARD","paymentMethodDetails":{"authMethod":"3DS","dpan":"4895370012003478","expirationMonth":12,"expirationYear":2030,"3dsCryptogram":"AgAAAAAABk4DWZ4C28yUQAAAAAA=","3dsEciIndicator":"05"}}"#,
                true
            ),
            (
                #"{"messageId":"m1","paymentMethod":"TOKENIZED_CARD","paymentMethodDetails":{"dpan":"4895370012003478","expirationMonth":12,"expirationYear":2030,"3dsCryptogram":"AgAAAAAABk4DWZ4C28yUQAAAAAA=","3dsEciIndicator":"05"}}"#,
                true
            ),
            (
                #"{"messageId":"m1","paymentMethod":"CARD","paymentMethodDetails":{"authMethod":"PAN_ONLY","pan":"4895370012003478","expirationMonth":12,"expirationYear":2030,"cryptogram":"ignored","eciIndicator":"05"}}"#,
                false
            ),
        ])
    func googleGenerations(paymentData: String, tokenized: Bool) throws {
        let output = try #require(
            try JSONValue.parse(#"{"wallet":"google-pay","protocolVersion":"ECv2","paymentData":\#(paymentData)}"#).objectValue)
        let card = try WalletCard(decryptionOutput: output)
        #expect(card.wallet == .googlePay && card.accountNumber == "4895370012003478" && card.tokenIdentifier == "m1")
        #expect(card.expiryMonth == 12 && card.expiryYear == 2030)
        #expect(card.cryptogram == (tokenized ? "AgAAAAAABk4DWZ4C28yUQAAAAAA=" : nil) && card.eci == (tokenized ? 5 : nil))
        #expect(card.authenticationMethod == (tokenized ? .cryptogram3DS : .panOnly))
    }

    @Test("an optional member of the wrong type is wallet.invalidCard naming it, never left out, and never shows the number")
    func wrongTypes() throws {
        let cases = [
            (
                #"{"wallet":"apple-pay","paymentData":{"applicationPrimaryAccountNumber":"4109370251004320","applicationExpirationDate":"291231","cardholderName":7}}"#,
                "cardholderName"
            ),
            (
                #"{"wallet":"apple-pay","paymentData":{"applicationPrimaryAccountNumber":"4109370251004320","applicationExpirationDate":"291231","paymentData":{"onlinePaymentCryptogram":1}}}"#,
                "onlinePaymentCryptogram"
            ),
            (
                #"{"wallet":"google-pay","paymentData":{"paymentMethodDetails":{"pan":"4111111111111111","expirationMonth":12,"expirationYear":2030,"authMethod":3}}}"#,
                "authMethod"
            ),
            (#"{"wallet":"samsung-pay","paymentData":{}}"#, "wallet"),
            (#"{"wallet":"apple-pay"}"#, "paymentData"),
            (
                #"{"wallet":"apple-pay","paymentData":{"applicationPrimaryAccountNumber":"4109370251004320","applicationExpirationDate":"2912"}}"#,
                "applicationExpirationDate"
            ),
        ]
        for (json, member) in cases {
            let output = try #require(try JSONValue.parse(json).objectValue)
            do {
                _ = try WalletCard(decryptionOutput: output)
                Issue.record("\(member): accepted")
            } catch {
                #expect(error.code == .walletInvalidCard && error.context["argument"] == member, "\(member)")
                #expect(!error.description.contains("4111111111111111") && !error.description.contains("4109370251004320"))
            }
        }
        // The text must be a JSON object.
        #expect(throws: CSEError(.jsonUnexpectedValue, "")) { _ = try WalletCard(decryptionOutput: Array("[]".utf8)) }
        #expect(throws: CSEError(.jsonSyntax, "")) { _ = try WalletCard(decryptionOutput: Array("{".utf8)) }
    }

    @Test("a command's --wallet must name the wallet the output came from")
    func walletMismatch() throws {
        let output = try #require(try JSONValue.parse(Self.apple).objectValue)
        #expect(try WalletCard(decryptionOutput: output, from: .applePay).wallet == .applePay)
        #expect(throws: CSEError(.walletInvalidCard, "")) { _ = try WalletCard(decryptionOutput: output, from: .googlePay) }
    }

    @Test(
        "the members are checked: 12–19 digits, month 1–12, year 2000–2099, ECI 0–99, no empty cryptogram or name",
        arguments: [
            ("4111", 12, 2030, nil, nil, nil, "accountNumber"), ("4111 1111 1111 1111", 12, 2030, nil, nil, nil, "accountNumber"),
            ("4111111111111111", 13, 2030, nil, nil, nil, "expiryMonth"), ("4111111111111111", 0, 2030, nil, nil, nil, "expiryMonth"),
            ("4111111111111111", 12, 1999, nil, nil, nil, "expiryYear"), ("4111111111111111", 12, 2100, nil, nil, nil, "expiryYear"),
            ("4111111111111111", 12, 2030, 100, nil, nil, "eci"), ("4111111111111111", 12, 2030, nil, "", nil, "cryptogram"),
            ("4111111111111111", 12, 2030, nil, nil, "", "cardholderName"),
        ] as [(String, Int, Int, Int?, String?, String?, String)])
    func memberChecks(number: String, month: Int, year: Int, eci: Int?, cryptogram: String?, name: String?, member: String) {
        do {
            _ = try WalletCard(
                wallet: .googlePay, accountNumber: number, expiryMonth: month, expiryYear: year, cryptogram: cryptogram, eci: eci,
                cardholderName: name)
            Issue.record("\(member): accepted")
        } catch {
            #expect(error.code == .walletInvalidCard && error.context["argument"] == member)
            #expect(!error.description.contains("4111111111111111"))
        }
    }

    @Test(
        "every decrypted Apple Pay vector: the decryptor's card is the card read back from cse wallet decrypt's output",
        .enabled(if: ApplePayVectorTests.present, "needs ../shared/vectors/wallets/index.json"),
        arguments: AppleVector.all.filter { $0.expect == "ok" && $0.scope == "verify-and-decrypt" })
    func appleDecryptorAgreesWithOutput(_ vector: AppleVector) throws {
        let payment = try vector.decryptor(clock: vector.clock_unix_ms).decrypt(try AppleVector.bytes(vector.token))
        let card = try WalletCard(payment)
        #expect(card == (try WalletCard(decryptionOutput: Self.output(of: payment))))
        #expect(card.wallet == .applePay && card.accountNumber == payment.paymentData.applicationPrimaryAccountNumber)
        #expect(card.tokenIdentifier == payment.verification.transactionId)
        #expect(card.cryptogram == payment.paymentData.onlinePaymentCryptogram)
    }

    @Test(
        "every decrypted Google Pay vector with a card: the decryptor's card is the card read back from cse wallet decrypt's output",
        .enabled(if: !GooglePayVectorTests.vectors.isEmpty, "needs ../shared/vectors/wallets/index.json"))
    func googleDecryptorAgreesWithOutput() throws {
        var cards = 0
        for vector in GooglePayVectorTests.vectors where vector.expect == "ok" {
            let message = try GooglePayVectorTests.recipient(vector, clock: vector.clock).decrypt(vector.token)
            guard message.card?.pan != nil else {
                // A message without a card (Tink's bare strings, ECv2SigningOnly) is no card.
                #expect(throws: CSEError(.walletInvalidCard, "")) { _ = try WalletCard(message) }
                continue
            }
            let card = try WalletCard(message)
            #expect(card == (try WalletCard(decryptionOutput: Self.output(of: message))), "\(vector.id)")
            #expect(card.wallet == .googlePay && card.accountNumber == message.card?.pan && card.tokenIdentifier == message.messageID)
            cards += 1
        }
        #expect(cards > 0)
    }
}
