import CSECore
@_spi(CustomTransport) import CSEHTTP
import CSEServerAPI
import CSEValidation
import Testing
import TestSupport

/// What the app's SDK does against the Paysafe emulator, which the server never does: make a
/// single-use payment handle from card data (`POST /paymenthub/v1/paymenthandles` with the
/// single-use key), complete a 3-D Secure challenge, and let a handle expire.
enum PaysafeAppSide {
    /// A single-use handle for `pan`; with `threeDS`, the card's last four digits choose the flow
    /// (1091 challenge, 1018 failed, 1067 unavailable, others frictionless).
    static func handle(
        _ server: LoopbackEmulator, pan: String = Canary.pan, amount: Int = 2345, reference: String = "handle-1", threeDS: Bool = false
    ) async throws -> (id: String, token: String, json: JSONValue) {
        let threeDs =
            threeDS ? #","threeDs":{"merchantUrl":"https://merchant.example","deviceChannel":"SDK","messageCategory":"PAYMENT"}"# : ""
        let body =
            #"{"merchantRefNum":"\#(reference)","transactionType":"PAYMENT","paymentType":"CARD","amount":\#(amount),"currencyCode":"EUR","card":{"cardNum":"\#(pan)","cardExpiry":{"month":12,"year":2030},"cvv":"123"}\#(threeDs)}"#
        let answer = try await HTTPClient().send(
            HTTPRequest(
                method: .post, url: try HTTPURL(server.baseURL + "/paymenthub/v1/paymenthandles"),
                headers: ["Content-Type": "application/json", "Authorization": "Basic " + Canary.paysafeKey], body: Array(body.utf8)))
        let json = try JSONValue.parse(answer.body)
        let id = try #require(json["id"]?.stringValue, "\(answer.status)")
        return (id, try #require(json["paymentHandleToken"]?.stringValue), json)
    }

    /// Completes the challenge at `url` with `result` (`Y` or `N`); the emulator's HTTP status.
    static func completeChallenge(_ url: String, result: String = "Y") async throws -> Int {
        try await HTTPClient().send(HTTPRequest(method: .get, url: try HTTPURL(url + "?result=" + result))).status
    }

    /// Ends the handle's lifetime.
    static func expire(_ server: LoopbackEmulator, _ id: String) async throws {
        _ = try await HTTPClient().send(
            HTTPRequest(method: .post, url: try HTTPURL(server.baseURL + "/test/paysafe-handles/\(id)/expire")))
    }
}

/// Issue #35 on Paysafe, from the library, against the emulator's Customer Vault (which checks
/// every rule itself): a customer, the card of a first payment saved as a multi-use handle, later
/// payments with it and a storedCredential, the app's customer token, deletion, and a payment with
/// the deleted card refused; each refusal, a lost save settled by listing the customer's cards.
@Suite("Paysafe saved cards: customers, multi-use handles, storedCredential payments, deletion, a lost save settled")
struct PaysafeSavedCardTests {
    static let arguments = PaysafePaymentTests.arguments

    static func pay(
        _ client: PaysafePaymentClient, _ token: String, _ reference: String, amount: Int64 = 2345,
        stored: PaysafeStoredCredential? = nil
    ) async throws -> PaysafePayment {
        try await client.pay(
            try PaysafePaymentRequest(
                merchantReference: reference, amount: amount, currency: Currency(code: "EUR")!, source: .paymentHandle(token),
                storedCredential: stored)
        ).get()
    }

    @Test("first payment → save the card → initial and merchant-initiated payments with it → app token → delete → refused")
    func saveUseDelete() async throws {
        try await withServerEmulator("paysafe", Self.arguments) { server in
            let client = try PaysafePaymentTests.client(server)
            let customer = try await client.createCustomer(merchantCustomerID: "cust-1")
            #expect(customer.merchantCustomerID == "cust-1" && customer.status == "ACTIVE" && customer.savedCards.isEmpty)
            let first = try await PaysafeAppSide.handle(server, reference: "first-1")
            #expect(try await Self.pay(client, first.token, "order-1").isCompleted)
            let saved = try await client.saveCard(
                try PaysafeSaveCardRequest(customerID: customer.id, merchantReference: "card-1", paymentHandleToken: first.token)
            ).get()
            let card = saved.handle
            let multiUse = try #require(card.paymentHandleToken)
            #expect(saved.isNew && card.isMultiUse && card.isPayable && multiUse != first.token)
            #expect(card.maskedCard == "411111******1111" && card.cardType == "VI" && card.expiryMonth == 12 && card.expiryYear == 2030)
            let sent = try JSONValue.parse(Array(try #require(server.requests().last).body))
            #expect(sent["paymentHandleTokenFrom"]?.stringValue == first.token && sent["merchantRefNum"]?.stringValue == "card-1")
            // Listing the customer shows the card.
            let listed = try await client.customer(merchantCustomerID: "cust-1")
            #expect(listed.id == customer.id && listed.savedCards.map(\.id) == [card.id])
            #expect(try await client.customer(id: customer.id).savedCards.first?.paymentHandleToken == multiUse)
            #expect(try await client.savedCard(customerID: customer.id, id: card.id).merchantReference == "card-1")
            // The payment that sets the agreement up, then one the merchant initiates.
            let initial = try await Self.pay(
                client, multiUse, "order-2", stored: try PaysafeStoredCredential(type: .recurring, occurrence: .initial))
            #expect(initial.isCompleted && initial.storedCredential?.occurrence == "INITIAL")
            let initialSent = try JSONValue.parse(Array(try #require(server.requests().last).body))
            #expect(
                initialSent["storedCredential"]
                    == .object(JSONObject([("type", .string("RECURRING")), ("occurrence", .string("INITIAL"))])))
            let later = try await Self.pay(
                client, multiUse, "order-3",
                stored: try PaysafeStoredCredential(merchantInitiated: .unscheduled, initialTransactionID: initial.id))
            #expect(later.isCompleted && later.storedCredential?.type == "TOPUP" && later.storedCredential?.occurrence == "SUBSEQUENT")
            let laterSent = try JSONValue.parse(Array(try #require(server.requests().last).body))
            #expect(laterSent["storedCredential"]?["initialTransactionId"]?.stringValue == initial.id)
            // A multi-use handle pays again and again.
            _ = try await Self.pay(client, multiUse, "order-4", stored: try PaysafeStoredCredential(merchantInitiated: .instalment))
            // The same card saved again: the existing card, not a new one.
            let second = try await PaysafeAppSide.handle(server, reference: "first-2")
            _ = try await Self.pay(client, second.token, "order-5")
            let again = try await client.saveCard(
                try PaysafeSaveCardRequest(customerID: customer.id, merchantReference: "card-2", paymentHandleToken: second.token)
            ).get()
            #expect(!again.isNew && again.handle.id == card.id && again.json["newCard"] == .bool(false))
            // Updated (a reissued card): the token stays, the expiry and name change; a bad expiry is refused before sending.
            let updated = try await client.updateSavedCard(customerID: customer.id, id: card.id, expiry: (9, 2031), holderName: "A Payer")
            #expect(updated.paymentHandleToken == multiUse && updated.expiryMonth == 9 && updated.expiryYear == 2031)
            let putSent = try JSONValue.parse(Array(try #require(server.requests().last).body))
            #expect(putSent["card"]?["cardExpiry"]?["month"]?.intValue == 9 && putSent["card"]?["holderName"]?.stringValue == "A Payer")
            let badMonth = await thrown { try await client.updateSavedCard(customerID: customer.id, id: card.id, expiry: (13, 2031)) }
            #expect(badMonth?.code == .serverAPIInvalidArgument && badMonth?.context["argument"] == "cardExpiry")
            let nothing = await thrown { try await client.updateSavedCard(customerID: customer.id, id: card.id) }
            #expect(nothing?.code == .serverAPIInvalidArgument)
            let paidAfterUpdate = try await Self.pay(
                client, multiUse, "order-4b", stored: try PaysafeStoredCredential(merchantInitiated: .recurring))
            #expect(paidAfterUpdate.isCompleted)
            // The app's token lists the card, masked, without its token.
            let appToken = try await client.createCustomerToken(customerID: customer.id, merchantReference: "app-1")
            #expect(appToken.timeToLiveSeconds == 900 && appToken.savedCards.count == 1 && appToken.savedCards[0].paymentHandleToken == nil)
            let tokenSent = try JSONValue.parse(Array(try #require(server.requests().last).body))
            #expect(tokenSent["paymentType"] == .array([.string("CARD")]))
            // Deleted: not found, and its token pays nothing.
            try await client.deleteSavedCard(customerID: customer.id, id: card.id)
            let gone = await thrown { try await client.savedCard(customerID: customer.id, id: card.id) }
            #expect(gone?.code == .paysafeSavedCardNotFound)
            let deletedAgain = await thrown { try await client.deleteSavedCard(customerID: customer.id, id: card.id) }
            let updateGone = await thrown { try await client.updateSavedCard(customerID: customer.id, id: card.id, holderName: "B") }
            #expect(updateGone?.code == .paysafeSavedCardNotFound)
            #expect(deletedAgain?.code == .paysafeSavedCardNotFound)
            let refused = await thrown {
                try await Self.pay(client, multiUse, "order-6", stored: try PaysafeStoredCredential(occurrence: .subsequent))
            }
            #expect(refused?.code == .paysafeHandleNotPayable && refused?.context["handleStatus"] == "DELETED")
            #expect(try await client.payments(merchantReference: "order-6").isEmpty)
            // The customer, deleted.
            try await client.deleteCustomer(id: customer.id)
            let noCustomer = await thrown { try await client.customer(merchantCustomerID: "cust-1") }
            #expect(noCustomer?.code == .paysafeCustomerNotFound)
            for text in [customer.description, card.description, saved.description, appToken.description, initial.description] {
                Canary.check(text)
                #expect(!text.contains(multiUse) && !text.contains(first.token) && !text.contains(appToken.singleUseCustomerToken))
            }
            for error in [gone, deletedAgain, refused, noCustomer] {
                let text = error.map { "\($0)" + $0.debugDescription } ?? ""
                Canary.check(text)
                #expect(!text.contains(multiUse))
            }
        }
    }

    @Test("refusals: a customer id in use, an unused or expired handle, an unknown customer, a subsequent use of a single-use handle")
    func refusals() async throws {
        try await withServerEmulator("paysafe", Self.arguments) { server in
            let client = try PaysafePaymentTests.client(server)
            let customer = try await client.createCustomer(merchantCustomerID: "cust-2")
            let exists = await thrown { try await client.createCustomer(merchantCustomerID: "cust-2") }
            #expect(exists?.code == .paysafeCustomerExists && exists?.underlying?.context["paysafeCode"] == "7503")
            let unused = try await PaysafeAppSide.handle(server, reference: "unused")
            let notPaid = await thrown {
                try await client.saveCard(
                    try PaysafeSaveCardRequest(customerID: customer.id, merchantReference: "c1", paymentHandleToken: unused.token))
            }
            #expect(notPaid?.code == .paysafeHandleNotPayable && notPaid?.context["handleStatus"] == "PAYABLE")
            try await PaysafeAppSide.expire(server, unused.id)
            let expired = await thrown { try await Self.pay(client, unused.token, "exp-1") }
            #expect(expired?.code == .paysafeHandleNotPayable && expired?.context["handleStatus"] == "EXPIRED")
            let paid = try await PaysafeAppSide.handle(server, reference: "paid")
            _ = try await Self.pay(client, paid.token, "paid-1")
            let noCustomer = await thrown {
                try await client.saveCard(
                    try PaysafeSaveCardRequest(customerID: "no-such-customer", merchantReference: "c2", paymentHandleToken: paid.token))
            }
            #expect(noCustomer?.code == .paysafeCustomerNotFound)
            let noToken = await thrown { try await client.createCustomerToken(customerID: "no-such-customer", merchantReference: "a") }
            #expect(noToken?.code == .paysafeCustomerNotFound)
            // Paid once: a single-use handle is used up.
            let used = await thrown { try await Self.pay(client, paid.token, "paid-2") }
            #expect(used?.code == .paysafeHandleNotPayable && used?.context["handleStatus"] == "COMPLETED")
            // A subsequent use needs a saved card.
            let other = try await PaysafeAppSide.handle(server, reference: "other")
            let subsequent = await thrown {
                try await Self.pay(client, other.token, "sub-1", stored: try PaysafeStoredCredential(occurrence: .subsequent))
            }
            #expect(subsequent?.code == .paysafeAPIError && subsequent?.context["fields"] == "storedCredential")
            // Refused before anything is sent.
            let initialWithID = await thrown { try PaysafeStoredCredential(occurrence: .initial, initialTransactionID: "p-1") }
            #expect(initialWithID?.code == .serverAPIInvalidArgument && initialWithID?.context["argument"] == "initialTransactionId")
            let onCardToken = await thrown {
                try PaysafePaymentRequest(
                    merchantReference: "x", amount: 1, currency: Currency(code: "EUR")!, source: .cardToken("tok", accountID: "1001"),
                    storedCredential: try PaysafeStoredCredential(occurrence: .initial))
            }
            #expect(onCardToken?.code == .serverAPIInvalidArgument && onCardToken?.context["argument"] == "storedCredential")
            let badCustomer = await thrown { try await client.createCustomer(merchantCustomerID: "") }
            #expect(badCustomer?.code == .serverAPIInvalidArgument)
            for error in [exists, notPaid, expired, noCustomer, noToken, used, subsequent] {
                let text = error.map { "\($0)" + $0.debugDescription } ?? ""
                Canary.check(text)
                #expect(!text.contains(paid.token) && !text.contains(unused.token))
            }
        }
    }

    @Test("a lost answer to a save is unknown with the reference; the customer's cards show it, and the same request reports that card")
    func lostSave() async throws {
        try await withServerEmulator("paysafe", Self.arguments) { server in
            let client = try PaysafePaymentTests.client(server)
            let customer = try await client.createCustomer(merchantCustomerID: "cust-3")
            let faults: [LoopbackEmulator.Fault] = [
                .drop.afterRoute(), .malformedBody.afterRoute(), .status(500, body: "oops").afterRoute(),
            ]
            for (index, fault) in faults.enumerated() {
                let handle = try await PaysafeAppSide.handle(
                    server, pan: ["4111111111111111", "5200000000001005", "4000000000001000"][index], reference: "lost-h\(index)")
                _ = try await Self.pay(client, handle.token, "lost-p\(index)")
                let request = try PaysafeSaveCardRequest(
                    customerID: customer.id, merchantReference: "lost-c\(index)", paymentHandleToken: handle.token)
                try server.enqueue(fault.onPath("/paymenthub/v1/customers/\(customer.id)/paymenthandles"))
                guard case .unknown(let keys, let error) = try await client.saveCard(request) else {
                    Issue.record("not unknown: \(fault)")
                    continue
                }
                #expect(keys.merchantReference == "lost-c\(index)" && error.code == .serverOutcomeUnknown)
                Canary.check("\(error)" + error.debugDescription)
                #expect(!"\(error)\(error.debugDescription)".contains(handle.token))
                // Settled by listing the customer's cards: the card with the reference is there.
                let listed = try await client.customer(id: customer.id).savedCards.filter { $0.merchantReference == "lost-c\(index)" }
                #expect(listed.count == 1)
                // The same request again is a duplicate (409), which reports that card.
                let again = try await client.saveCard(request).get()
                #expect(again.handle.id == listed.first?.id)
            }
            #expect(try await client.customer(id: customer.id).savedCards.count == 3)
        }
    }

    @Test(
        "journaled: a save and a saved-card payment record their intent before sending and their outcome after; a failing journal sends nothing"
    )
    func journal() async throws {
        try await withServerEmulator("paysafe", Self.arguments) { server in
            let journal = MemoryJournal()
            var configuration = HTTPClientConfiguration()
            configuration.journal = journal
            let client = try PaysafePaymentClient(
                credentials: try PaysafeCredentials(apiKey: secret(Canary.paysafePaymentsKey)),
                environment: try ServerEnvironment(origin: server.baseURL), configuration: configuration)
            let customer = try await client.createCustomer(merchantCustomerID: "cust-j")
            let handle = try await PaysafeAppSide.handle(server, reference: "j-h")
            _ = try await Self.pay(client, handle.token, "j-1")
            let saved = try await client.saveCard(
                try PaysafeSaveCardRequest(customerID: customer.id, merchantReference: "j-card", paymentHandleToken: handle.token)
            ).get()
            let token = try #require(saved.handle.paymentHandleToken)
            _ = try await Self.pay(client, token, "j-2", stored: try PaysafeStoredCredential(merchantInitiated: .recurring))
            let rows = journal.all
            #expect(rows.map(\.intent.operation) == ["payment", "saveCard", "payment"])
            #expect(rows[1].intent.merchantReference == "j-card" && rows[1].intent.platformIDs["customerId"] == customer.id)
            #expect(rows[1].outcome?.state == .succeeded && rows[1].outcome?.platformIDs["paymentHandleId"] == saved.handle.id)
            #expect(rows.allSatisfy { $0.outcome?.state == .succeeded })
            // A journal that cannot record the intent: nothing is sent.
            var failing = HTTPClientConfiguration()
            failing.journal = MemoryJournal(failsIntents: true)
            let refusing = try PaysafePaymentClient(
                credentials: try PaysafeCredentials(apiKey: secret(Canary.paysafePaymentsKey)),
                environment: try ServerEnvironment(origin: server.baseURL), configuration: failing)
            let before = try server.requests().count
            let error = await thrown {
                try await refusing.saveCard(
                    try PaysafeSaveCardRequest(customerID: customer.id, merchantReference: "j-card-2", paymentHandleToken: handle.token))
            }
            let after = try server.requests().count
            #expect(error?.code == .journalUnavailable && after == before)
        }
    }
}
