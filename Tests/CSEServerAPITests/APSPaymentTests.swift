import CSECore
import CSEGateways
@_spi(CustomTransport) import CSEHTTP
import CSEServerAPI
import CSEValidation
import Foundation
import Testing
import TestSupport

@testable import CSEServerAPI

/// Amazon Payment Services server-to-server payments, CHECK_STATUS and transaction feedback
/// (research notes §2), end to end against the loopback emulator, which checks the request
/// signature and signs its answers and feedback with Python's hashlib.
@Suite("APS PURCHASE/AUTHORIZATION with a stored card: three outcomes, a reused reference settled by CHECK_STATUS, verified feedback")
struct APSPaymentTests {
    static func client(_ server: LoopbackEmulator, http: HTTPClient? = nil) throws -> APSPaymentClient {
        try APSPaymentClient(
            credentials: try credentials(), environment: try ServerEnvironment(origin: server.baseURL), http: try http ?? realClient())
    }

    static func credentials() throws -> APSCredentials {
        try APSCredentials(
            accessCode: "zx0IPmPy5jp1vAz8Kpg7", merchantIdentifier: "CycHZxVj", requestPhrase: secret(Canary.requestPhrase),
            responsePhrase: secret(Canary.responsePhrase))
    }

    static func purchase(_ reference: String = "ORD-0001", command: APSPaymentRequest.Command = .purchase) throws -> APSPaymentRequest {
        try APSPaymentRequest(
            command, merchantReference: reference, amount: 50000, currency: Currency(code: "AED")!, customerEmail: "payer@example.com",
            tokenName: "Op9Vmp", customerIP: "192.0.2.10")
    }

    /// The feedback the emulator would post for an order, as posted (form or JSON).
    static func feedback(_ server: LoopbackEmulator, _ reference: String, json: Bool = false) async throws -> [UInt8] {
        let url = try HTTPURL(server.baseURL + "/test/aps-feedback/" + reference + (json ? "?format=json" : ""))
        return try await realClient().send(HTTPRequest(method: .get, url: url)).body
    }

    @Test("PURCHASE with token_name: the emulator checks the request signature; the signed answer is approved, its card masked")
    func purchase() async throws {
        try await withServerEmulator("aps", ServerEmulatorTests.apsArguments) { server in
            let transaction = try await Self.client(server).pay(try Self.purchase()).get()
            #expect(transaction.isApproved && transaction.responseCode.description == "14000" && transaction.authorizationCode == "123456")
            #expect(transaction.merchantReference == "ORD-0001" && transaction.fortID?.count == 17)
            let sent = try JSONValue.parse(Array(try #require(server.requests().last).body))
            #expect(
                sent["command"]?.stringValue == "PURCHASE" && sent["token_name"]?.stringValue == "Op9Vmp"
                    && sent["eci"]?.stringValue == "ECOMMERCE")
            #expect(sent["amount"]?.stringValue == "50000" && sent["signature"]?.stringValue?.count == 64)
            #expect(transaction.parameters["card_number"]?.stringValue == "400555******0001" && transaction.parameters["signature"] == nil)
            Canary.check(transaction.description + JSONValue.object(transaction.parameters).serialized)
        }
    }

    @Test("a reference APS has seen (00066) is the first order's outcome after CHECK_STATUS, never a refusal; nothing is taken twice")
    func duplicateReference() async throws {
        try await withServerEmulator("aps", ServerEmulatorTests.apsArguments) { server in
            let client = try Self.client(server)
            let first = try await client.pay(try Self.purchase()).get()
            guard case .succeeded(let again, _) = try await client.pay(try Self.purchase()) else {
                Issue.record("the repeat is not the first order's success")
                return
            }
            #expect(again.fortID == first.fortID && again.responseCode.description == "14000")
            let sent = try server.requests().map { try JSONValue.parse(Array($0.body)) }
            #expect(
                sent.map { $0["command"]?.stringValue ?? $0["query_command"]?.stringValue } == ["PURCHASE", "PURCHASE", "CHECK_STATUS"])
            // The same reference for another amount is another order's: this one took nothing.
            let other = try APSPaymentRequest(
                .purchase, merchantReference: "ORD-0001", amount: 70000, currency: Currency(code: "AED")!,
                customerEmail: "payer@example.com", tokenName: "Op9Vmp", customerIP: "192.0.2.10")
            let error = await thrown { try await client.pay(other) }
            #expect(error?.code == .serverReferenceInUse && error?.context["merchantReference"] == "ORD-0001")
        }
    }

    @Test("the answer is lost after APS took the payment: unknown naming the reference; CHECK_STATUS settles it")
    func lostAnswer() async throws {
        try await withServerEmulator("aps", ServerEmulatorTests.apsArguments) { server in
            try server.enqueue(LoopbackEmulator.Fault.delay(milliseconds: 2500).afterRoute().onPath("/FortAPI/paymentApi"))
            let client = try Self.client(server, http: try realClient(requestTimeout: .seconds(1)))
            guard case .unknown(let keys, let error) = try await client.pay(try Self.purchase()) else {
                Issue.record("not unknown")
                return
            }
            #expect(keys == PaymentReconciliation(merchantReference: "ORD-0001") && error.underlying?.code == .httpTimeout)
            let status = try await client.checkStatus(merchantReference: "ORD-0001")
            #expect(
                status.isApproved && status.responseCode.description == "14000" && status.parameters["captured_amount"] == .string("50000"))
            let unknownOrder = try await client.checkStatus(merchantReference: "ORD-9999")
            #expect(unknownOrder.responseCode.description == "11036")
        }
    }

    @Test(
        "13/03 are refusals; 20064 is pending with the 3-D Secure URL as a GET redirect; 15 is unknown; an unverifiable answer is unknown")
    func outcomes() async throws {
        let cases: [(String, APSPaymentRequest.Command, String)] = [
            ("decline", .purchase, "refused"), ("decline", .authorization, "refused"), ("on-hold", .purchase, "pending"),
            ("uncertain", .purchase, "unknown"), ("wrong-response-signature", .purchase, "unknown"),
        ]
        for (mode, command, expected) in cases {
            try await withServerEmulator("aps", ServerEmulatorTests.apsArguments + ["--mode", mode]) { server in
                switch try await Self.client(server).pay(try Self.purchase(command: command)) {
                case .succeeded:
                    Issue.record("\(mode) succeeded")
                case .refused(let transaction, let error):
                    #expect(expected == "refused" && transaction?.isDeclined == true && error.code == .apsTransactionDeclined, "\(mode)")
                    #expect(error.context["response_code"] == (command == .purchase ? "13072" : "03072"))
                case .pending(let transaction, let action, _):
                    #expect(expected == "pending" && transaction.isPending, "\(mode)")
                    let url = try #require(transaction.threeDSURL)
                    #expect(url.hasPrefix("https://") && action == .redirect(url: url, method: "GET", returnMAC: nil), "\(mode)")
                case .unknown(_, let error):
                    #expect(expected == "unknown", "\(mode)")
                    let cause: CSEError.Code = mode == "uncertain" ? .apsMessage("777") : .apsResponseSignature
                    #expect(error.underlying?.code == cause, "\(mode): \(error)")
                }
            }
        }
    }

    @Test("a transaction feedback verifies as posted, form or JSON; a changed parameter or another phrase fails before anything is read")
    func feedback() async throws {
        try await withServerEmulator("aps", ServerEmulatorTests.apsArguments) { server in
            _ = try await Self.client(server).pay(try Self.purchase())
            let form = try await Self.feedback(server, "ORD-0001")
            #expect(form.first != UInt8(ascii: "{"))
            let fromForm = try APSPaymentClient.verifyFeedback(form, credentials: try Self.credentials())
            #expect(fromForm.isApproved && fromForm.merchantReference == "ORD-0001")
            let json = try await Self.feedback(server, "ORD-0001", json: true)
            let fromJSON = try APSPaymentClient.verifyFeedback(json, format: .json, credentials: try Self.credentials())
            #expect(fromJSON.fortID == fromForm.fortID)
            let tampered = Array(String(decoding: form, as: UTF8.self).replacingOccurrences(of: "amount=50000", with: "amount=5").utf8)
            #expect(throws: CSEError(.apsFeedbackSignature, "")) {
                try APSPaymentClient.verifyFeedback(tampered, credentials: try Self.credentials())
            }
            let other = try APSCredentials(
                accessCode: "zx0IPmPy5jp1vAz8Kpg7", merchantIdentifier: "CycHZxVj", requestPhrase: secret(Canary.requestPhrase),
                responsePhrase: secret("another-phrase"))
            #expect(throws: CSEError(.apsFeedbackSignature, "")) { try APSPaymentClient.verifyFeedback(form, credentials: other) }
            #expect(throws: CSEError(.apsFeedbackMalformed, "")) {
                try APSPaymentClient.verifyFeedback(form, format: .json, credentials: other)
            }
            #expect(throws: CSEError(.apsFeedbackMalformed, "")) {
                try APSPaymentClient.verifyFeedback(Array("a=%zz".utf8), credentials: other)
            }
        }
    }

    /// A `PKPaymentToken`, as the JSON text the public API takes.
    static let appleToken = Array(
        #"{"paymentData":{"version":"EC_v1","data":"DATA_B64","signature":"SIG_B64","header":{"publicKeyHash":"PKH_B64","ephemeralPublicKey":"EPK_B64","transactionId":"TXN_HEX"}},"paymentMethod":{"displayName":"Visa 0492","network":"Visa","type":"debit"},"transactionIdentifier":"TXN_HEX"}"#
            .utf8)

    static func applePurchase(
        _ token: [UInt8] = appleToken, order: APSPaymentRequest.ApplePayHeaderOrder = .dotNetSDK
    ) throws -> APSPaymentRequest {
        try APSPaymentRequest(
            applePay: .purchase, merchantReference: "ORD-0001", amount: 1000, currency: Currency(code: "AED")!,
            customerEmail: "payer@example.com", customerIP: "192.0.2.10", token: token, headerOrder: order)
    }

    /// The research notes' derived Apple Pay vector (§2.2; Python and openssl agree) in the
    /// integrations' order, and the same request in the two SDKs' orders (SHA-256 computed with
    /// Python's hashlib over the strings of §2.2 with the `apple_header` members reordered):
    /// apple_displayName, apple_network, apple_type in every case, whatever order the token holds them in.
    @Test(
        "an Apple Pay request is signed in each source's apple_header order: .NET SDK (default) 94cd4ea1…, PHP SDK 18f64be9…, integrations 4aa5477f… (the derived vector)",
        arguments: [
            (
                APSPaymentRequest.ApplePayHeaderOrder.dotNetSDK, "94cd4ea1fb75414637461a04b1a9e62a85b6af1081fcba705ee4c4c94b1a136a",
                ["apple_ephemeralPublicKey", "apple_publicKeyHash", "apple_transactionId"]
            ),
            (
                .phpSDK, "18f64be96ce880f22fe12fdd358a54c73b4eccf9cd5d625b93c3150327993b88",
                ["apple_transactionId", "apple_publicKeyHash", "apple_ephemeralPublicKey"]
            ),
            (
                .integrations, "4aa5477f5b5a9e007806a916154bcaf026d1f22062a9fc07c43aae7a9b1093e3",
                ["apple_transactionId", "apple_ephemeralPublicKey", "apple_publicKeyHash"]
            ),
        ])
    func appleVector(order: APSPaymentRequest.ApplePayHeaderOrder, signature: String, members: [String]) throws {
        let credentials = try APSCredentials(
            accessCode: "AppleAccessCode01", merchantIdentifier: "MerchId1", requestPhrase: secret("ApplePhrase"),
            responsePhrase: secret("x"))
        let connection = APSConnection(
            credentials: credentials, url: try APSConnection.url(.apsTest), http: try realClient())
        let signed = try connection.signed(try Self.applePurchase(order: order).parameters)
        #expect(signed["signature"]?.stringValue == signature)
        #expect(signed["apple_header"]?.objectValue?.keys == members)
        #expect(signed["apple_paymentMethod"]?.objectValue?.keys == ["apple_displayName", "apple_network", "apple_type"])
    }

    /// The research notes' derived CHECK_STATUS vector (§2.2; Python and openssl agree), on the
    /// request `checkStatus(merchantReference:)` actually sends.
    @Test("CHECK_STATUS is signed as the derived vector: 8b86c5d2…")
    func checkStatusVector() async throws {
        let transport = RecordingTransport(status: 200, json: "{}")
        let aps = try APSPaymentClient(
            credentials: try APSCredentials(
                accessCode: "AccessCode01", merchantIdentifier: "MerchId1", requestPhrase: secret("ReqPhrase"),
                responsePhrase: secret("RespPhrase")),
            environment: .apsTest, http: try CSEServerAPITests.client(transport))
        _ = try? await aps.checkStatus(merchantReference: "ORD-0001")
        let sent = try JSONValue.parse(try #require(transport.requests.first).body)
        #expect(sent["signature"]?.stringValue == "8b86c5d2807cc8f671a74aa551419f36df6e0347804ff4d6ca29a287c61abffa")
        #expect(sent["query_command"]?.stringValue == "CHECK_STATUS" && sent["merchant_reference"]?.stringValue == "ORD-0001")
    }

    @Test("an Apple Pay purchase goes with the Apple credential set, which the emulator checks; without it nothing is sent")
    func applePayPurchase() async throws {
        let arguments =
            ServerEmulatorTests.apsArguments + [
                "--apple-request-phrase", "CANARY-apple-req", "--apple-response-phrase", "CANARY-apple-resp",
            ]
        try await withServerEmulator("aps", arguments) { server in
            let apple = try APSCredentials(
                accessCode: "AppleAccessCode01", merchantIdentifier: "CycHZxVj", requestPhrase: secret("CANARY-apple-req"),
                responsePhrase: secret("CANARY-apple-resp"))
            let client = try APSPaymentClient(
                credentials: try Self.credentials(), applePayCredentials: apple, environment: try ServerEnvironment(origin: server.baseURL),
                http: try realClient())
            let transaction = try await client.pay(try Self.applePurchase()).get()
            #expect(transaction.isApproved && transaction.parameters["digital_wallet"] == .string("APPLE_PAY"))
            let sent = try JSONValue.parse(Array(try #require(server.requests().last).body))
            #expect(sent["access_code"]?.stringValue == "AppleAccessCode01" && sent["token_name"] == nil)
            let description = try Self.applePurchase().description
            #expect(!description.contains("DATA_B64") && description.hasSuffix("Apple Pay)"))
            let without = await thrown { try await Self.client(server).pay(try Self.applePurchase()) }
            let requests = try server.requests().count
            #expect(without?.code == .serverAPICredentials && requests == 1)
        }
        let rsa = Array(String(decoding: Self.appleToken, as: UTF8.self).replacing("EC_v1", with: "RSA_v1").utf8)
        #expect(throws: CSEError(.serverAPIInvalidArgument, "")) { _ = try Self.applePurchase(rsa) }
        #expect(throws: CSEError(.jsonUnexpectedValue, "")) { _ = try Self.applePurchase(Array("[]".utf8)) }
    }

    @Test("requests are checked before sending: reference, amount, currency, e-mail, token, IP")
    func requestChecks() {
        let aed = Currency(code: "AED")!
        let cases: [() throws -> APSPaymentRequest] = [
            {
                try APSPaymentRequest(
                    .purchase, merchantReference: "ORD 1", amount: 1, currency: aed, customerEmail: "a@b.c", tokenName: "t")
            },
            {
                try APSPaymentRequest(
                    .purchase, merchantReference: "R", amount: 10_000_000_000, currency: aed, customerEmail: "a@b.c", tokenName: "t")
            },
            {
                try APSPaymentRequest(
                    .purchase, merchantReference: "R", amount: 1, currency: Currency(code: "XXX")!, customerEmail: "a@b.c", tokenName: "t")
            },
            { try APSPaymentRequest(.purchase, merchantReference: "R", amount: 1, currency: aed, customerEmail: "nobody", tokenName: "t") },
            {
                try APSPaymentRequest(
                    .purchase, merchantReference: "R", amount: 1, currency: aed, customerEmail: "a@b.c", tokenName: "t/../x")
            },
            {
                try APSPaymentRequest(
                    .purchase, merchantReference: "R", amount: 1, currency: aed, customerEmail: "a@b.c", tokenName: "t", customerIP: "x;y")
            },
        ]
        for make in cases {
            #expect(throws: CSEError(.serverAPIInvalidArgument, "")) { _ = try make() }
        }
    }
}
