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

    @Test("challenge → pending with the redirect (GET, RETURNMAC) → the payer authenticates → the MAC checks → succeeded")
    func challengeToSucceeded() async throws {
        try await withServerEmulator("worldline", ServerEmulatorTests.worldlineArguments) { server in
            let client = try Self.client(server)
            let outcome = try await client.createPayment(
                try Self.request("4000000000001091"), idempotenceKey: try IdempotenceKey("3ds-key-1"))
            guard case .pending(let payment, let action, let keys) = outcome else {
                Issue.record("a challenge must be pending, not \(outcome)")
                return
            }
            #expect(payment.status == "REDIRECTED" && payment.isPending && keys.paymentID == payment.id)
            #expect(keys.idempotenceKey?.text == "3ds-key-1" && keys.merchantReference == "order-3ds")
            guard case .redirect(let url, let method, let stored?) = action else {
                Issue.record("the action must be a redirect with a RETURNMAC")
                return
            }
            #expect(method == "GET" && url.hasSuffix("/acs/" + payment.id) && stored.count == 36)
            #expect(!payment.description.contains(stored) && !(payment.merchantAction?.description.contains(stored) ?? true))
            let pendingError = #expect(throws: CSEError.self) { try outcome.get() }
            #expect(pendingError?.code == .serverPaymentPending && pendingError?.context["paymentId"] == payment.id)

            let back = try await Self.payer(url, outcome: "success")
            #expect(back.status == 302)
            let location = try #require(back.location)
            #expect(location.hasPrefix(Self.returnURL + "?"))
            let returned = Self.query(location)
            #expect(returned["paymentId"] == payment.id)
            try WorldlineServerClient.checkReturnMAC(received: try #require(returned["RETURNMAC"]), expected: stored)
            guard case .succeeded(let resumed, let resumedKeys) = try await client.paymentOutcome(id: payment.id) else {
                Issue.record("the authenticated payment must be authorised")
                return
            }
            #expect(resumed.status == "PENDING_CAPTURE" && resumedKeys.paymentID == payment.id)
            let results = try #require(resumed.threeDSecureResults)
            #expect(
                results.flow == "challenge" && results.authenticationStatus == "Y" && results.eci == "05" && results.liability == "issuer")
            // The same key replays the first answer: still the one payment, pending as first answered.
            guard
                case .pending(let replayed, _, _) = try await client.createPayment(
                    try Self.request("4000000000001091"), idempotenceKey: try IdempotenceKey("3ds-key-1"))
            else {
                Issue.record("a replay must answer the first outcome")
                return
            }
            #expect(replayed.id == payment.id)
        }
    }

    @Test("challenge failed by the payer: paymentOutcome is refused; abandoned: still pending without an action")
    func challengeFailedAndAbandoned() async throws {
        try await withServerEmulator("worldline", ServerEmulatorTests.worldlineArguments) { server in
            let client = try Self.client(server)
            for (outcome, expected) in [("fail", "refused"), ("abandon", "pending")] {
                guard
                    case .pending(let payment, .redirect(let url, _, _)?, _) = try await client.createPayment(
                        try Self.request("4000000000001091"))
                else {
                    Issue.record("a challenge must be pending with a redirect")
                    return
                }
                _ = try await Self.payer(url, outcome: outcome)
                switch try await client.paymentOutcome(id: payment.id) {
                case .refused(let refused, let error):
                    #expect(expected == "refused" && error.code == .worldlinePaymentRejected)
                    #expect(refused?.threeDSecureResults?.authenticationStatus == "N")
                case .pending(let still, let action, let keys):
                    #expect(expected == "pending" && still.status == "REDIRECTED" && action == nil && keys.paymentID == payment.id)
                default:
                    Issue.record("\(outcome) must be \(expected)")
                }
            }
        }
    }

    @Test("deviceChannel AppBased: pending with the mobile challenge parameters as the platform gave them")
    func mobileChallenge() async throws {
        try await withServerEmulator("worldline", ServerEmulatorTests.worldlineArguments) { server in
            let outcome = try await Self.client(server).createPayment(
                try Self.request("4000000000001091", try WorldlineThreeDSecure(returnURL: "myshop://3ds", deviceChannel: .app)))
            guard case .pending(let payment, .mobileChallenge(let parameters)?, _) = outcome else {
                Issue.record("an app challenge must be pending with the mobile parameters")
                return
            }
            #expect(payment.merchantActionType == "MOBILE_THREEDS_CHALLENGE")
            #expect(parameters["acsReferenceNumber"] == "3DS_LOA_ACS_201_13579" && parameters["acsSignedContent"] != nil)
            #expect(parameters.count == 4)
        }
    }

    @Test("tokenize with a challenge: pending, and creationOutput says no token was made (read although the payer is away)")
    func tokenizeWithChallenge() async throws {
        try await withServerEmulator("worldline", ServerEmulatorTests.worldlineArguments) { server in
            let outcome = try await Self.client(server).createPayment(try Self.request("4000000000001091", tokenize: true))
            guard case .pending(let payment, _, _) = outcome else {
                Issue.record("a challenge must be pending")
                return
            }
            #expect(payment.tokenization?.tokenizationSucceeded == false && payment.tokenization?.token == nil)
        }
    }

    @Test("pending statuses: REDIRECTED, PENDING_APPROVAL, PENDING_FRAUD_APPROVAL pending; PENDING_CAPTURE, CAPTURED succeeded")
    func pendingStatuses() async throws {
        for (status, pending) in [
            ("REDIRECTED", true), ("PENDING_APPROVAL", true), ("PENDING_FRAUD_APPROVAL", true), ("PENDING_CAPTURE", false),
            ("CAPTURED", false),
        ] {
            try await withServerEmulator("worldline", ServerEmulatorTests.worldlineArguments + ["--mode", "2xx-" + status]) { server in
                let client = try Self.client(server)
                let created = try await client.createPayment(try ServerEmulatorTests.payment())
                let read = try await client.paymentOutcome(id: try #require(created.reconciliation?.paymentID ?? (try? created.get())?.id))
                for outcome in [created, read] {
                    switch outcome {
                    case .pending(let payment, let action, _): #expect(pending && payment.status == status && action == nil, "\(status)")
                    case .succeeded(let payment, _): #expect(!pending && payment.status == status, "\(status)")
                    default: Issue.record("\(status): \(outcome)")
                    }
                }
            }
        }
    }

    @Test("the journal records a challenged payment as pending with the action's type, never the RETURNMAC")
    func journalRecordsPending() async throws {
        try await withServerEmulator("worldline", ServerEmulatorTests.worldlineArguments) { server in
            let journal = MemoryJournal()
            let client = try PaymentJournalingTests.client(server, journal: journal)
            guard
                case .pending(_, .redirect(_, _, let mac?)?, let keys) = try await client.createPayment(
                    try Self.request("4000000000001091"))
            else {
                Issue.record("a challenge must be pending")
                return
            }
            #expect(keys.journalEntry != nil)
            let row = try #require(journal.all.first)
            #expect(row.intent.operation == "createPayment" && row.outcome?.state == .pending && row.outcome?.action == "redirect")
            #expect(!"\(row.outcome as Any)".contains(mac))
            let token = try await client.createToken(
                try WorldlineTokenRequest(encryptedCustomerInput: WorldlineSavedCardTests.jwe(card: "4012888888881881"))
            ).get().token
            let tokenRow = try #require(journal.all.last)
            #expect(tokenRow.intent.operation == "createToken" && tokenRow.outcome?.state == .succeeded)
            #expect(!"\(tokenRow.intent) \(tokenRow.outcome as Any)".contains(token))
        }
    }

    @Test("the webhooks of a challenge: payment.redirected while the payer is away, payment.rejected after a failed challenge")
    func challengeWebhooks() async throws {
        let secret = "CANARY-wl-3ds-webhook-5a1f"
        try await withServerEmulator("worldline", ServerEmulatorTests.worldlineArguments + ["--webhook-secret", secret]) { server in
            let client = try Self.client(server)
            guard case .pending(let payment, _, _) = try await client.createPayment(try Self.request("4000000000001091")) else {
                Issue.record("a challenge must be pending")
                return
            }
            let secrets: (String) -> SecureBytes? = { $0 == "dummy-key-id" ? SecureBytes(Array(secret.utf8)) : nil }
            for (type, status, category) in [
                ("payment.redirected", "REDIRECTED", "PENDING_PAYMENT"), ("payment.rejected", "REJECTED", "UNSUCCESSFUL"),
            ] {
                let delivery = try await Delivery.fetch(server, "/test/worldline-webhook/\(payment.id)?type=\(type)")
                let event = try WorldlineWebhook.verifiedEvent(body: delivery.body, headers: delivery.headers, secrets: secrets)
                #expect(event.type.rawValue == type && event.paymentID == payment.id)
                #expect(event.payment?.status == status && event.payment?.statusCategory == category)
            }
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
