import CSECore
import CSEGateways
@_spi(CustomTransport) import CSEHTTP
import CSEServerAPI
import CSEValidation
import CSEWallets
import Testing
import TestSupport

/// Card-on-file tokens on the Mastercard Gateway (issue #35; payment-lifecycle research notes
/// §2.3, emulator rules §6.2), end to end against the loopback emulator's token vault, which checks
/// the Create Token body with its own rules (exactly `session.id` and `sourceOfFunds.type` CARD),
/// keeps one token per card (a unique-card repository) and charges the stored card on a PAY with
/// `sourceOfFunds.token`.
@Suite("Mastercard tokens: create from a session, pay with it, update, delete, refusals, agreements")
struct MastercardTokenTests {
    static let eur = Currency(code: "EUR")!

    static func withGateway(
        _ mode: String? = nil, _ body: (LoopbackEmulator, MastercardSessionClient) async throws -> Void
    ) async throws {
        let arguments = ServerEmulatorTests.mastercardArguments + (mode.map { ["--mode", $0] } ?? [])
        try await withServerEmulator("mastercard", arguments) { server in
            try await body(server, try MastercardTransactionTests.client(server))
        }
    }

    /// A session holding `number` with expiry `month`/`year`.
    static func session(
        _ client: MastercardSessionClient, number: String = Canary.pan, month: String = "12", year: String = "39"
    ) async throws -> String {
        let created = try await client.createSession()
        var update = GatewayMap()
        try update.set(.string(number), at: "sourceOfFunds.provided.card.number")
        try update.set(.string(month), at: "sourceOfFunds.provided.card.expiry.month")
        try update.set(.string(year), at: "sourceOfFunds.provided.card.expiry.year")
        _ = try await client.updateSession(id: created.id, with: update)
        return created.id
    }

    static func payWithToken(
        _ token: String, order: String, transaction: String = "pay-1", use: MastercardAgreementUse? = nil
    ) throws -> MastercardTransactionRequest {
        try MastercardTransactionRequest(
            .pay, orderID: order, transactionID: transaction, amount: 1500, currency: eur, source: .token(token), agreementUse: use)
    }

    static func lastBody(_ server: LoopbackEmulator) throws -> JSONValue {
        try JSONValue.parse(Array(try #require(server.requests().last).body))
    }

    @Test("first payment with the session, then the session's card saved as a token, then a second payment with the token")
    func saveAfterFirstPaymentThenPayAgain() async throws {
        try await Self.withGateway { server, client in
            let session = try await Self.session(client)
            let first = try await client.perform(try MastercardTransactionTests.pay(session, order: "order-1")).get()
            #expect(first.isApproved)
            let saved = try await client.createToken(sessionID: session).get()
            #expect(try Self.lastBody(server).serialized == #"{"session":{"id":"\#(session)"},"sourceOfFunds":{"type":"CARD"}}"#)
            #expect(saved.isNew == true && saved.status == "VALID" && saved.brand == "VISA" && saved.expiry == "1239")
            #expect(saved.maskedNumber == "411111xxxxxx1111" && saved.token.count == 16 && saved.token != Canary.pan)
            let second = try await client.perform(try Self.payWithToken(saved.token, order: "order-2")).get()
            #expect(second.isApproved && second.orderStatus == "CAPTURED")
            let sent = try Self.lastBody(server)
            #expect(sent["sourceOfFunds"]?.serialized == #"{"type":"CARD","token":"\#(saved.token)"}"#)
            #expect(sent["session"] == nil)
            Canary.check(saved.description + second.description)
            #expect(!saved.description.contains(saved.token))
        }
    }

    @Test("the same card again answers the token the repository already holds (newToken false)")
    func sameCardSameToken() async throws {
        try await Self.withGateway { _, client in
            let first = try await client.createToken(sessionID: try await Self.session(client)).get()
            let again = try await client.createToken(sessionID: try await Self.session(client)).get()
            #expect(again.token == first.token && again.isNew == false)
        }
    }

    @Test("Create or Update Token: a merchant id stores the card, the same id with a renewed card updates it; get reads it")
    func createOrUpdateWithMerchantID() async throws {
        try await Self.withGateway { server, client in
            let created = try await client.saveToken(id: "cust-42-card", sessionID: try await Self.session(client)).get()
            #expect(created.token == "cust-42-card" && created.isNew == true && created.expiry == "1239")
            #expect(try #require(server.requests().last).method == "PUT")
            let renewed = try await Self.session(client, number: "5123450000000008", month: "05", year: "31")
            let updated = try await client.saveToken(id: "cust-42-card", sessionID: renewed).get()
            #expect(updated.isNew == false && updated.expiry == "0531" && updated.brand == "MASTERCARD")
            let read = try await client.retrieveToken(id: "cust-42-card")
            #expect(read.maskedNumber == "512345xxxxxx0008" && read.isNew == nil && read.status == "VALID")
        }
    }

    @Test("delete: the token is gone; get, delete and a payment with it are mastercard.tokenUnknown, nothing processed")
    func deleteThenRefused() async throws {
        try await Self.withGateway { server, client in
            let saved = try await client.createToken(sessionID: try await Self.session(client)).get()
            try await client.deleteToken(id: saved.token)
            let get = await thrown { try await client.retrieveToken(id: saved.token) }
            #expect(get?.code == .mastercardTokenUnknown && get?.underlying?.code == .mastercardInvalidRequest)
            let delete = await thrown { try await client.deleteToken(id: saved.token) }
            #expect(delete?.code == .mastercardTokenUnknown)
            let pay = await thrown { try await client.perform(try Self.payWithToken(saved.token, order: "order-3")) }
            #expect(pay?.code == .mastercardTokenUnknown)
            for error in [get, delete, pay] { Canary.check(String(describing: error)) }
            for error in [get, delete, pay] { #expect(!String(describing: error).contains(saved.token)) }
            let order = await thrown { try await client.retrieveOrder(orderID: "order-3") }
            #expect(order?.code == .mastercardInvalidRequest)
            _ = server
        }
    }

    @Test("the repository refuses the card: refused, mastercard.tokenRefused; a session without a card: thrown, nothing stored")
    func refusals() async throws {
        try await Self.withGateway("token-refused") { _, client in
            let outcome = try await client.createToken(sessionID: try await Self.session(client))
            guard case .refused(nil, let error) = outcome else {
                Issue.record("not refused: \(outcome)")
                return
            }
            #expect(error.code == .mastercardTokenRefused && error.context["gatewayCode"] == "DECLINED")
        }
        try await Self.withGateway { _, client in
            let empty = try await client.createSession()
            let error = await thrown { try await client.createToken(sessionID: empty.id) }
            #expect(error?.code == .mastercardInvalidRequest && error?.context["field"] == "session.id")
            #expect(!String(describing: error).contains(empty.id))
        }
    }

    @Test("a lost Create or Update Token answer is unknown with the merchant's token id; Retrieve Token settles it")
    func lostAnswerSettledByGet() async throws {
        try await Self.withGateway { server, _ in
            let fast = try MastercardTransactionTests.client(server, http: try realClient(requestTimeout: .seconds(1)))
            let session = try await Self.session(fast)
            try server.enqueue(
                LoopbackEmulator.Fault.delay(milliseconds: 2500).afterRoute().onPath(
                    "/api/rest/version/100/merchant/TEST_12345/token/tok-lost"))
            guard case .unknown(let keys, let error) = try await fast.saveToken(id: "tok-lost", sessionID: session) else {
                Issue.record("not unknown")
                return
            }
            #expect(keys.merchantReference == "tok-lost" && error.code == .serverOutcomeUnknown)
            #expect(error.context["merchantReference"] == "tok-lost")
            Canary.check(String(describing: error))
            #expect(!String(describing: error).contains(session))
            let settled = try await MastercardTransactionTests.client(server).retrieveToken(id: "tok-lost")
            #expect(settled.token == "tok-lost" && settled.maskedNumber == "411111xxxxxx1111")
        }
    }

    @Test("a system-generated token whose answer is lost: unknown with no key; creating again answers the same token")
    func lostSystemTokenCreatedAgain() async throws {
        try await Self.withGateway { server, client in
            let session = try await Self.session(client)
            try server.enqueue(LoopbackEmulator.Fault.malformedBody.afterRoute().onPath("/api/rest/version/100/merchant/TEST_12345/token"))
            guard case .unknown(let keys, _) = try await client.createToken(sessionID: session) else {
                Issue.record("not unknown")
                return
            }
            #expect(keys.members.isEmpty)
            let again = try await client.createToken(sessionID: session).get()
            #expect(again.isNew == false)
        }
    }

    @Test("an agreement: the first payment with the session sets it up, later ones are merchant-initiated with the token")
    func agreementSetUpThenMerchantInitiated() async throws {
        try await Self.withGateway { server, client in
            let session = try await Self.session(client)
            let agreement = try MastercardAgreement(id: "sub-2026-001", kind: .recurring)
            let first = try await client.perform(
                try MastercardTransactionRequest(
                    .pay, orderID: "order-a1", transactionID: "pay-1", amount: 999, currency: Self.eur, source: .session(id: session),
                    agreementUse: .setUp(agreement))
            ).get()
            #expect(first.isApproved)
            var sent = try Self.lastBody(server)
            #expect(sent["agreement"]?.serialized == #"{"id":"sub-2026-001","type":"RECURRING"}"#)
            #expect(sent["transaction"]?["source"]?.stringValue == "INTERNET")
            #expect(sent["sourceOfFunds"]?["provided"]?["card"]?["storedOnFile"]?.stringValue == "TO_BE_STORED")
            let token = try await client.createToken(sessionID: session).get().token
            let later = try await client.perform(try Self.payWithToken(token, order: "order-a2", use: .merchantInitiated(agreement))).get()
            #expect(later.isApproved)
            sent = try Self.lastBody(server)
            #expect(sent["transaction"]?["source"]?.stringValue == "MERCHANT" && sent["agreement"]?["id"]?.stringValue == "sub-2026-001")
            #expect(
                sent["sourceOfFunds"]?.serialized == #"{"type":"CARD","token":"\#(token)","provided":{"card":{"storedOnFile":"STORED"}}}"#)
            for kind in [MastercardAgreement.Kind.unscheduled, .instalment] {
                let request = try Self.payWithToken(
                    token, order: "order-\(kind.name)", use: .merchantInitiated(try MastercardAgreement(id: "a-1", kind: kind)))
                #expect(try await client.perform(request).get().isApproved)
                #expect(try Self.lastBody(server)["agreement"]?["type"]?.stringValue == kind.name)
            }
        }
    }

    @Test(
        "combinations the gateway forbids are refused before sending: MIT without a token or with 3-D Secure, an agreement with a wallet or below API 74"
    )
    func forbiddenCombinations() async throws {
        let agreement = try MastercardAgreement(id: "a-1", kind: .unscheduled)
        #expect(throws: CSEError.self) {
            try MastercardTransactionRequest(
                .pay, orderID: "o", transactionID: "t", amount: 1, currency: Self.eur, source: .session(id: "S1"),
                agreementUse: .merchantInitiated(agreement))
        }
        #expect(throws: CSEError.self) {
            try MastercardTransactionRequest(
                .pay, orderID: "o", transactionID: "t", amount: 1, currency: Self.eur, source: .token("4111110000011111"),
                authenticationTransactionID: "auth-1", agreementUse: .merchantInitiated(agreement))
        }
        #expect(throws: CSEError.self) {
            try MastercardTransactionRequest(
                .pay, orderID: "o", transactionID: "t", amount: 1, currency: Self.eur, source: .walletToken(.applePay, token: "{}"),
                agreementUse: .setUp(agreement))
        }
        #expect(throws: CSEError.self) { try MastercardAgreement(id: "a b", kind: .recurring) }
        #expect(throws: CSEError.self) { try Self.payWithToken("../x", order: "o") }
        try await Self.withGateway { server, _ in
            let old = try MastercardTransactionTests.client(server, version: 73)
            let error = await thrown {
                try await old.perform(try Self.payWithToken("4111110000011111", order: "o", use: .setUp(agreement)))
            }
            #expect(error?.code == .serverAPIInvalidArgument && error?.context["argument"] == "apiVersion")
            #expect(try server.requests().isEmpty)
        }
    }

    @Test("the journal records token creation and a token payment, never the token; a refused 3-D Secure check leaves no entry")
    func journaled() async throws {
        try await Self.withGateway { server, _ in
            let journal = MemoryJournal()
            var configuration = HTTPClientConfiguration()
            configuration.journal = journal
            let client = try MastercardSessionClient(
                credentials: try MastercardCredentials(merchantID: "TEST_12345", apiPassword: secret(Canary.mastercardPassword)),
                environment: try ServerEnvironment(origin: server.baseURL), configuration: configuration)
            let session = try await Self.session(client)
            let token = try await client.createToken(sessionID: session).get().token
            _ = try await client.saveToken(id: "cust-1", sessionID: session).get()
            _ = try await client.perform(try Self.payWithToken(token, order: "order-j")).get()
            let refused = try MastercardTransactionRequest(
                .pay, orderID: "order-j2", transactionID: "pay-1", amount: 1, currency: Self.eur, source: .session(id: session),
                authenticationTransactionID: "auth-404")
            #expect(await thrown { try await client.perform(refused) }?.code == .mastercardAuthenticationUnknown)
            let rows = journal.all
            #expect(rows.map(\.intent.operation) == ["createToken", "saveToken", "pay"])
            #expect(rows.allSatisfy { $0.outcome?.state == .succeeded })
            #expect(rows[1].intent.platformIDs["tokenId"] == "cust-1" && rows[2].intent.platformIDs["orderId"] == "order-j")
            let recorded = rows.map { String(describing: $0.intent) + String(describing: $0.outcome) }.joined()
            #expect(!recorded.contains(token) && !recorded.contains(session))
        }
    }

    @Test("V-MC-2: a token call of merchant TESTMERCH01 with password apipassword carries the vector's Basic credentials")
    func basicVector() async throws {
        let transport = RecordingTransport(status: 200, json: #"{"result":"SUCCESS"}"#)
        let client = try MastercardSessionClient(
            credentials: try MastercardCredentials(merchantID: "TESTMERCH01", apiPassword: secret("apipassword")),
            environment: try ServerEnvironment(origin: "https://mtf.gateway.mastercard.com"), http: try client(transport))
        try await client.deleteToken(id: "9876543210")
        let request = try #require(transport.requests.first)
        #expect(request.headers["Authorization"] == "Basic bWVyY2hhbnQuVEVTVE1FUkNIMDE6YXBpcGFzc3dvcmQ=")
        #expect(request.method == .delete && request.url.description.hasSuffix("/merchant/TESTMERCH01/token/9876543210"))
    }
}
