import CSECore
import CSEHTTP
import CSEPayments
import CSEServerAPI
import CSEWallets
import Testing
import TestSupport

/// Worldline wallet payments with merchant-decrypted data (research notes §1.5, route 3): products
/// 302 and 320 with `decryptedPaymentData`, built from a ``WalletCard`` (here read from the output
/// of `cse wallet decrypt`; the decryptors give the same card, WalletCardTests).
@Suite("Worldline Apple Pay (302) and Google Pay (320) payments with decryptedPaymentData")
struct WorldlineWalletPaymentTests {
    /// `cse wallet decrypt`'s output for an Apple Pay token (the shape of the gala vector's plaintext),
    /// as the JSON text the public API takes.
    static let apple = Array(
        #"{"wallet":"apple-pay","version":"EC_v1","transactionId":"f7f1","paymentData":{"applicationPrimaryAccountNumber":"4109370251004320","applicationExpirationDate":"291231","currencyCode":"840","transactionAmount":100,"cardholderName":"A Payer","deviceManufacturerIdentifier":"040010030273","paymentDataType":"3DSecure","paymentData":{"onlinePaymentCryptogram":"Af9x/QwAA/DjmU65oyc1MAABAAA=","eciIndicator":"07"}}}"#
            .utf8)

    static func google(_ authMethod: String) -> [UInt8] {
        let extra = authMethod == "CRYPTOGRAM_3DS" ? #","cryptogram":"AgAAAAAABk4DWZ4C28yUQAAAAAA=","eciIndicator":"05""# : ""
        return Array(
            #"{"wallet":"google-pay","protocolVersion":"ECv2","paymentData":{"gatewayMerchantId":"m","messageId":"x","paymentMethod":"CARD","paymentMethodDetails":{"authMethod":"\#(authMethod)","pan":"4895370012003478","expirationMonth":3,"expirationYear":2030\#(extra)}}}"#
                .utf8)
    }

    @Test("Apple Pay: product 302; YYMMDD becomes MMYY, the ECI \"07\" the number 7, with the cryptogram and the name")
    func appleMapping() throws {
        let request = try WorldlineWalletPaymentRequest(
            card: try WalletCard(decryptionOutput: Self.apple), amount: 100, currencyCode: "USD")
        let input = request.json["mobilePaymentMethodSpecificInput"]
        #expect(input?["paymentProductId"]?.intValue == 302)
        #expect(
            input?["decryptedPaymentData"]
                == .object(
                    JSONObject([
                        ("dpan", .string("4109370251004320")), ("expiryDate", .string("1229")),
                        ("cryptogram", .string("Af9x/QwAA/DjmU65oyc1MAABAAA=")), ("eci", .number("7")),
                        ("cardholderName", .string("A Payer")),
                    ])))
        #expect(request.description == "WorldlineWalletPaymentRequest(product: 302, amount: 100, currencyCode: USD)")
    }

    @Test("Google Pay: product 320; a CRYPTOGRAM_3DS card carries its cryptogram and ECI; a PAN_ONLY card sends none")
    func googleMapping() throws {
        func data(_ authMethod: String) throws -> JSONValue? {
            let request = try WorldlineWalletPaymentRequest(
                card: try WalletCard(decryptionOutput: Self.google(authMethod)), amount: 1, currencyCode: "EUR",
                returnURL: "https://shop.example/3ds")
            #expect(request.json["mobilePaymentMethodSpecificInput"]?["paymentProductId"]?.intValue == 320)
            return request.json["mobilePaymentMethodSpecificInput"]?["decryptedPaymentData"]
        }
        let tokenized = try data("CRYPTOGRAM_3DS")
        #expect(tokenized?["expiryDate"]?.stringValue == "0330" && tokenized?["eci"] == .number("5") && tokenized?["cryptogram"] != nil)
        let panOnly = try data("PAN_ONLY")
        #expect(panOnly?["cryptogram"] == nil && panOnly?["eci"] == nil && panOnly?["dpan"]?.stringValue == "4895370012003478")
    }

    @Test("a Google Pay payment needs a 3-D Secure return URL; Worldline's 200-character limits are checked")
    func checks() throws {
        let card = try WalletCard(decryptionOutput: Self.google("PAN_ONLY"))
        #expect(throws: CSEError(.serverAPIInvalidArgument, "")) {
            _ = try WorldlineWalletPaymentRequest(card: card, amount: 1, currencyCode: "EUR")
        }
        let long = try WalletCard(
            wallet: .applePay, accountNumber: "4111111111111111", expiryMonth: 12, expiryYear: 2030,
            cryptogram: String(repeating: "A", count: 201))
        do {
            _ = try WorldlineWalletPaymentRequest(card: long, amount: 1, currencyCode: "EUR")
            Issue.record("accepted")
        } catch {
            #expect(error.code == .serverAPIInvalidArgument && error.context["argument"] == "decryptedPaymentData.cryptogram")
        }
    }

    @Test(
        "route 1: the payment request the client examples seal — Apple's paymentData as JSON text and transactionId; Google's token quoted once more"
    )
    func sealedRoute() throws {
        let apple = Array(
            #"{"paymentData":{"version":"EC_v1","data":"ZA==","signature":"cw==","header":{"transactionId":"ab"}},"transactionIdentifier":"AB12"}"#
                .utf8)
        let appleRequest = try WorldlinePaymentRequest.paymentRequest(sealing: apple, from: .applePay)
        #expect(appleRequest.product.id == "302")
        #expect(
            appleRequest.unmaskedValue(forField: "encryptedPaymentData")
                == #"{"version":"EC_v1","data":"ZA==","signature":"cw==","header":{"transactionId":"ab"}}"#)
        #expect(appleRequest.unmaskedValue(forField: "transactionId") == "AB12")
        let google = Array(#"{"paymentMethodData":{"tokenizationData":{"token":"{\"signedMessage\":\"m\"}"}}}"#.utf8)
        let googleRequest = try WorldlinePaymentRequest.paymentRequest(sealing: google, from: .googlePay)
        #expect(
            googleRequest.product.id == "320"
                && googleRequest.unmaskedValue(forField: "encryptedPaymentData") == #""{\"signedMessage\":\"m\"}""#)
        #expect(throws: CSEError(.serverAPIInvalidArgument, "")) {
            _ = try WorldlinePaymentRequest.paymentRequest(sealing: Array("{}".utf8), from: .applePay)
        }
        let sealed320 = try WorldlinePaymentRequest(
            encryptedCustomerInput: "a.b.c.d.e", amount: 1, currencyCode: "EUR", googlePayReturnURL: "https://shop.example/3ds")
        #expect(sealed320.json["mobilePaymentMethodSpecificInput"]?["paymentProductId"]?.intValue == 320)
        #expect(sealed320.json["mobilePaymentMethodSpecificInput"]?["paymentProduct320SpecificInput"]?["threeDSecure"] != nil)
    }

    @Test("a refusal whose message echoes the DPAN, the cryptogram and the name shows none of them")
    func refusalRedactsWalletData() async throws {
        try await withServerEmulator("worldline", ServerEmulatorTests.worldlineArguments + ["--mode", "reject"]) { server in
            let request = try WorldlineWalletPaymentRequest(
                card: try WalletCard(decryptionOutput: Self.apple), amount: 100, currencyCode: "USD")
            guard case .refused(_, let error) = try await ServerEmulatorTests.worldline(server).createPayment(request) else {
                Issue.record("not refused")
                return
            }
            #expect(error.code == .worldlinePaymentRejected && error.context["message"]?.hasPrefix("VALUE") == true)
            for value in ["4109370251004320", "Af9x/QwAA/DjmU65oyc1MAABAAA=", "A Payer"] {
                #expect(!error.description.contains(value), "leaked \(value)")
            }
        }
    }

    @Test("the emulator checks product, the five members and the 320 return URL; the answer's DPAN is masked")
    func payment() async throws {
        try await withServerEmulator("worldline", ServerEmulatorTests.worldlineArguments) { server in
            let client = try ServerEmulatorTests.worldline(server)
            let request = try WorldlineWalletPaymentRequest(
                card: try WalletCard(decryptionOutput: Self.google("CRYPTOGRAM_3DS")), amount: 1999, currencyCode: "EUR",
                merchantReference: "order-g",
                returnURL: "https://shop.example/3ds")
            let payment = try await client.createPayment(request).get()
            #expect(payment.maskedCardNumber == "489537******3478" && payment.status == "PENDING_CAPTURE")
            let sent = try JSONValue.parse(Array(try #require(server.requests().last).body))
            let input = sent["mobilePaymentMethodSpecificInput"]
            #expect(input?["paymentProductId"]?.intValue == 320 && input?["decryptedPaymentData"]?["eci"] == .number("5"))
            #expect(
                input?["paymentProduct320SpecificInput"]?["threeDSecure"]?["redirectionData"]?["returnUrl"]?.stringValue
                    == "https://shop.example/3ds")
            #expect(sent["encryptedCustomerInput"] == nil && sent["order"]?["amountOfMoney"]?["amount"]?.intValue == 1999)
            #expect(!request.description.contains("4895370012003478") && !payment.json.serialized.contains("4895370012003478"))
        }
    }
}
