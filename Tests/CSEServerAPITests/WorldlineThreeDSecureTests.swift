import CSECore
import CSECrypto
@_spi(CustomTransport) import CSEHTTP
import CSEServerAPI
import Testing
import TestSupport

/// Issue #34, Worldline: 3-D Secure on CreatePayment (research notes §1.1) over real HTTP against
/// the loopback emulator, which plays the payer and the ACS (§6.1): frictionless, challenge by
/// redirect and by mobile parameters, failed and unavailable authentication, the payer's return
/// with its RETURNMAC, a tampered return.
@Suite("Worldline 3-D Secure: each flow to its final outcome against the emulator's ACS")
struct WorldlineThreeDSecureTests {
    static let returnURL = "https://shop.example/3ds/return"

    static func client(_ server: LoopbackEmulator) throws -> WorldlineServerClient { try ServerEmulatorTests.worldline(server) }

    /// A card payment of EUR 23.45 with `card` and the 3-D Secure input.
    static func request(
        _ card: String, _ threeDSecure: WorldlineThreeDSecure? = nil, tokenize: Bool = false
    ) throws -> WorldlinePaymentRequest {
        try WorldlinePaymentRequest(
            encryptedCustomerInput: WorldlineSavedCardTests.jwe(card: card), amount: 2345, currencyCode: "EUR",
            merchantReference: "order-3ds", threeDSecure: threeDSecure ?? (try WorldlineThreeDSecure(returnURL: returnURL)),
            tokenize: tokenize)
    }

    /// The payer at the emulator's ACS: the `Location` the browser is sent back to.
    static func payer(_ url: String, outcome: String) async throws -> (status: Int, location: String?) {
        let answer = try await HTTPClient().send(HTTPRequest(method: .get, url: try HTTPURL(url + "?outcome=" + outcome)))
        return (answer.status, answer.headers["Location"])
    }

    /// The query items of `url`.
    static func query(_ url: String) -> [String: String] {
        guard let query = url.split(separator: "?", maxSplits: 1).last else { return [:] }
        var items: [String: String] = [:]
        for pair in query.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1)
            if parts.count == 2 { items[String(parts[0])] = String(parts[1]) }
        }
        return items
    }

    @Test(
        "frictionless: authorised with threeDSecureResults (2.2.0, frictionless, ECI 05, issuer liability); the input sent as threeDSecure only"
    )
    func frictionless() async throws {
        try await withServerEmulator("worldline", ServerEmulatorTests.worldlineArguments) { server in
            let client = try Self.client(server)
            let payment = try await client.createPayment(
                try Self.request(
                    "4012888888881881",
                    try WorldlineThreeDSecure(
                        returnURL: Self.returnURL, challengeIndicator: .noPreference, exemptionRequest: .lowValue, deviceChannel: .browser))
            ).get()
            #expect(payment.status == "PENDING_CAPTURE" && payment.merchantAction == nil)
            let results = try #require(payment.threeDSecureResults)
            #expect(results.version == "2.2.0" && results.flow == "frictionless" && results.eci == "05" && results.liability == "issuer")
            #expect(payment.json.serialized.contains(#""threeDSecureResults":{"version":"2.2.0","flow":"frictionless""#))
            let sent = try WorldlineSavedCardTests.lastBody(server, "/v2/1234/payments")["cardPaymentMethodSpecificInput"]
            #expect(sent?["threeDSecure"]?["redirectionData"]?["returnUrl"] == .string(Self.returnURL))
            #expect(sent?["threeDSecure"]?["challengeIndicator"] == .string("no-preference"))
            #expect(sent?["threeDSecure"]?["exemptionRequest"] == .string("low-value"))
            #expect(sent?["threeDSecure"]?["deviceChannel"] == .string("Browser"))
            #expect(sent?["returnUrl"] == nil && sent?["skipAuthentication"] == nil)
        }
    }

    @Test("authentication failed: refused (worldline.paymentRejected), the results say N")
    func failedAuthentication() async throws {
        try await withServerEmulator("worldline", ServerEmulatorTests.worldlineArguments) { server in
            let outcome = try await Self.client(server).createPayment(try Self.request("4000000000001018"))
            guard case .refused(let payment, let error) = outcome else {
                Issue.record("a failed authentication must be a refusal")
                return
            }
            #expect(error.code == .worldlinePaymentRejected && payment?.threeDSecureResults?.authenticationStatus == "N")
        }
    }

    @Test("authentication unavailable: authorised, the results say U and the merchant carries the liability")
    func unavailableAuthentication() async throws {
        try await withServerEmulator("worldline", ServerEmulatorTests.worldlineArguments) { server in
            let payment = try await Self.client(server).createPayment(try Self.request("4000000000001067")).get()
            #expect(payment.status == "PENDING_CAPTURE")
            #expect(payment.threeDSecureResults?.authenticationStatus == "U" && payment.threeDSecureResults?.liability == "merchant")
        }
    }

    @Test("a challenge card without a return URL: the platform refuses it, nothing created (thrown)")
    func challengeWithoutReturnURL() async throws {
        try await withServerEmulator("worldline", ServerEmulatorTests.worldlineArguments) { server in
            let client = try Self.client(server)
            let error = await thrown {
                try await client.createPayment(
                    try Self.request("4000000000001091", try WorldlineThreeDSecure(challengeIndicator: .challengeRequested))
                ).get()
            }
            #expect(error?.code == .worldlineAPIError)
            #expect(error?.context["propertyName"]?.hasPrefix("cardPaymentMethodSpecificInput.threeDSecure.redirectionData") == true)
        }
    }

    @Test("skipAuthentication: authorised without 3-D Secure results")
    func skipped() async throws {
        try await withServerEmulator("worldline", ServerEmulatorTests.worldlineArguments) { server in
            let payment = try await Self.client(server).createPayment(
                try Self.request("4000000000001091", try WorldlineThreeDSecure(skipAuthentication: true))
            ).get()
            #expect(payment.status == "PENDING_CAPTURE" && payment.threeDSecureResults == nil)
        }
    }

    @Test("Google Pay sealed: the 3-D Secure choices go into paymentProduct320SpecificInput.threeDSecure beside the return URL")
    func googlePayThreeDSecure() throws {
        let request = try WorldlinePaymentRequest(
            encryptedCustomerInput: ServerEmulatorTests.jwe, amount: 100, currencyCode: "EUR", googlePayReturnURL: Self.returnURL,
            threeDSecure: try WorldlineThreeDSecure(challengeIndicator: .challengeRequired, exemptionRequest: .noExemption))
        let body = request.json.serialized
        #expect(
            body.contains(
                #""paymentProduct320SpecificInput":{"threeDSecure":{"redirectionData":{"returnUrl":"https://shop.example/3ds/return"},"challengeIndicator":"challenge-required","exemptionRequest":"none"}}"#
            ))
        #expect(!body.contains("cardPaymentMethodSpecificInput"))
    }

    @Test("the RETURNMAC check: equal passes; another, empty or a prefix is worldline.returnMACMismatch naming neither value")
    func returnMACCheck() throws {
        let stored = "f3a9c1d2e4b5a6978812aabbccddeeff0011"
        try WorldlineServerClient.checkReturnMAC(received: stored, expected: stored)
        for received in ["f3a9c1d2e4b5a6978812aabbccddeeff0012", "", String(stored.dropLast()), stored + "0"] {
            let error = #expect(throws: CSEError.self) { try WorldlineServerClient.checkReturnMAC(received: received, expected: stored) }
            #expect(error?.code == .worldlineReturnMACMismatch)
            #expect(error.map { !$0.description.contains(stored) && ($0.description.contains(received) == received.isEmpty) } == true)
        }
        #expect(throws: CSEError.self) { try WorldlineServerClient.checkReturnMAC(received: "", expected: "") }
    }

    @Test("the 3-D Secure input rules: a return URL must be absolute, printable and at most 512 characters")
    func inputRules() throws {
        for url in ["/relative", "https://shop.example/a b", "https://shop.example/" + String(repeating: "a", count: 600)] {
            #expect(throws: CSEError.self) { try WorldlineThreeDSecure(returnURL: url) }
        }
        let app = try WorldlineThreeDSecure(returnURL: "myshop://3ds", deviceChannel: .app)
        #expect(app.json.serialized == #"{"redirectionData":{"returnUrl":"myshop://3ds"},"deviceChannel":"AppBased"}"#)
        #expect(!app.description.contains("myshop"))
    }
}
