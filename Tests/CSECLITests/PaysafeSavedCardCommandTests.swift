import CSECore
@_spi(CustomTransport) import CSEHTTP
import Testing
import TestSupport

/// Issue #35 on Paysafe through `cse`: `cse paysafe customer create|get|delete|save-card|delete-card|app-token`
/// and `cse paysafe pay` with a saved card and `--stored-credential` / `--merchant-initiated`,
/// against the emulator's Customer Vault. The app's part (a single-use handle made from card data)
/// is played over HTTP, as the SDK does.
@Suite(
    "cse paysafe customer …, pay with a saved card: first payment saves the card, the second uses it; usage; a lost save; no secret on stderr"
)
struct PaysafeSavedCardCommandTests {
    typealias Setup = PaysafeLifecycleCommandTests.Setup

    static func json(_ result: CommandRunner.Result) throws -> JSONValue { try JSONValue.parse(Array(result.stdout)) }

    /// A single-use handle as the app's SDK makes it (`POST /paymenthub/v1/paymenthandles`, the single-use key).
    static func handle(
        _ server: LoopbackEmulator, pan: String = ServerCommandTests.pan, amount: Int = 2345, threeDS: Bool = false
    ) async throws -> (id: String, token: String, json: JSONValue) {
        let threeDs =
            threeDS ? #","threeDs":{"merchantUrl":"https://merchant.example","deviceChannel":"SDK","messageCategory":"PAYMENT"}"# : ""
        let body =
            #"{"merchantRefNum":"h","amount":\#(amount),"currencyCode":"EUR","card":{"cardNum":"\#(pan)","cardExpiry":{"month":12,"year":2030},"cvv":"123"}\#(threeDs)}"#
        let answer = try await HTTPClient().send(
            HTTPRequest(
                method: .post, url: try HTTPURL(server.baseURL + "/paymenthub/v1/paymenthandles"),
                headers: ["Content-Type": "application/json", "Authorization": "Basic " + ServerCommandTests.paysafeKey],
                body: Array(body.utf8)))
        let json = try JSONValue.parse(answer.body)
        return (try #require(json["id"]?.stringValue), try #require(json["paymentHandleToken"]?.stringValue), json)
    }

    /// `cse paysafe pay` of `amount` EUR with `reference` and `extra` options.
    static func pay(
        _ setup: Setup, _ reference: String, _ handle: String, amount: Int = 2345, _ extra: [String] = []
    ) throws -> CommandRunner.Result {
        try setup.run(
            ["paysafe", "pay", "--amount", String(amount), "--currency", "EUR", "--merchant-ref", reference, "--payment-handle", handle]
                + extra)
    }

    @Test(
        "the README's flow: pay → save-card → pay --stored-credential initial → pay --merchant-initiated → app-token → delete-card → refused"
    )
    func saveAndReuse() async throws {
        let setup = try Setup()
        defer { setup.server.stop() }
        let created = try setup.run(["paysafe", "customer", "create", "--merchant-customer-id", "shopper-1"])
        #expect(created.status == 0, "\(created.err)")
        let customer = try #require(try Self.json(created)["id"]?.stringValue)
        let first = try await Self.handle(setup.server)
        #expect(try Self.pay(setup, "order-1", first.token).status == 0)
        let saved = try setup.run([
            "paysafe", "customer", "save-card", customer, "--payment-handle", first.token, "--merchant-ref", "card-1",
        ])
        #expect(saved.status == 0, "\(saved.err)")
        let card = try Self.json(saved)
        let multiUse = try #require(card["paymentHandleToken"]?.stringValue)
        let cardID = try #require(card["id"]?.stringValue)
        #expect(card["usage"]?.stringValue == "MULTI_USE" && card["newCard"] == .bool(true) && multiUse != first.token)
        #expect(card["card"]?["maskedCard"]?.stringValue == "411111******1111" && card["card"]?["cardType"]?.stringValue == "VI")
        let listed = try setup.run(["paysafe", "customer", "get", "--merchant-customer-id", "shopper-1"])
        let firstListed = try Self.json(listed)["paymentHandles"]?.arrayValue?.first
        #expect(listed.status == 0 && firstListed?["paymentHandleToken"]?.stringValue == multiUse)
        // The first payment with the saved card sets the agreement up and says so.
        let initial = try Self.pay(setup, "order-2", multiUse, ["--stored-credential", "initial", "--stored-type", "recurring"])
        #expect(initial.status == 0, "\(initial.err)")
        let initialPayment = try Self.json(initial)
        let initialID = try #require(initialPayment["id"]?.stringValue)
        #expect(
            initialPayment["agreement"]?["setUp"] == .bool(true)
                && initialPayment["agreement"]?["initialTransactionId"]?.stringValue == initialID)
        #expect(initialPayment["storedCredential"]?["occurrence"]?.stringValue == "INITIAL")
        for (kind, type) in [("recurring", "RECURRING"), ("unscheduled", "TOPUP"), ("instalment", "RECURRING")] {
            let later = try Self.pay(
                setup, "order-mit-\(kind)", multiUse, ["--merchant-initiated", kind, "--initial-transaction", initialID])
            #expect(later.status == 0, "\(later.err)")
            let payment = try Self.json(later)
            #expect(
                payment["storedCredential"]?["type"]?.stringValue == type
                    && payment["storedCredential"]?["occurrence"]?.stringValue == "SUBSEQUENT")
            #expect(payment["agreement"] == nil)
            let sent = try JSONValue.parse(Array(try #require(setup.server.requests().last).body))
            #expect(
                sent["storedCredential"]?["initialTransactionId"]?.stringValue == initialID
                    && sent["storedCredential"]?["type"]?.stringValue == type)
        }
        let subsequent = try Self.pay(setup, "order-3", multiUse, ["--stored-credential", "subsequent", "--stored-type", "topup"])
        #expect(subsequent.status == 0, "\(subsequent.err)")
        // The same card saved again is the card already saved, and the output says so.
        let second = try await Self.handle(setup.server)
        #expect(try Self.pay(setup, "order-4", second.token).status == 0)
        let again = try setup.run([
            "paysafe", "customer", "save-card", customer, "--payment-handle", second.token, "--merchant-ref", "card-2",
        ])
        #expect(try again.status == 0 && Self.json(again)["newCard"] == .bool(false) && Self.json(again)["id"]?.stringValue == cardID)
        let updated = try setup.run([
            "paysafe", "customer", "update-card", customer, cardID, "--expiry", "09/2031", "--holder-name", "A Payer",
        ])
        #expect(updated.status == 0, "\(updated.err)")
        let updatedCard = try Self.json(updated)
        #expect(updatedCard["paymentHandleToken"]?.stringValue == multiUse && updatedCard["card"]?["cardExpiry"]?["year"]?.intValue == 2031)
        let badExpiry = try setup.run(["paysafe", "customer", "update-card", customer, cardID, "--expiry", "13/2031"])
        let noChange = try setup.run(["paysafe", "customer", "update-card", customer, cardID])
        #expect(badExpiry.status == 64 && noChange.status == 64, "\(badExpiry.err) \(noChange.err)")
        let appToken = try setup.run(["paysafe", "customer", "app-token", customer, "--merchant-ref", "app-1"])
        let token = try Self.json(appToken)
        #expect(appToken.status == 0 && token["singleUseCustomerToken"]?.stringValue != nil && token["timeToLiveSeconds"]?.intValue == 900)
        #expect(token["paymentHandles"]?.arrayValue?.first?["card"]?["maskedCard"]?.stringValue == "411111******1111")
        // Deleted: the token pays nothing, and deleting again is refused.
        let deleted = try setup.run(["paysafe", "customer", "delete-card", customer, cardID])
        #expect(try deleted.status == 0 && Self.json(deleted)["deleted"] == .bool(true), "\(deleted.err)")
        let refused = try Self.pay(setup, "order-5", multiUse, ["--merchant-initiated", "recurring"])
        #expect(
            refused.status == 1 && refused.err.contains("paysafe.handleNotPayable") && refused.err.contains("handleStatus=DELETED"),
            "\(refused.err)")
        let twice = try setup.run(["paysafe", "customer", "delete-card", customer, cardID])
        #expect(twice.status == 1 && twice.err.contains("paysafe.savedCardNotFound"), "\(twice.err)")
        let removed = try setup.run(["paysafe", "customer", "delete", customer])
        #expect(removed.status == 0, "\(removed.err)")
        let missing = try setup.run(["paysafe", "customer", "get", "--merchant-customer-id", "shopper-1"])
        #expect(missing.status == 1 && missing.err.contains("paysafe.customerNotFound") && missing.out.isEmpty)
        // No token on any error line.
        for result in [refused, twice, missing] {
            for secret in [multiUse, first.token, second.token] { #expect(!result.err.contains(secret)) }
        }
    }

    @Test("refusals: a merchant customer id in use, a handle that completed no payment, an unknown customer (exit 1)")
    func refusals() async throws {
        let setup = try Setup()
        defer { setup.server.stop() }
        let created = try setup.run(["paysafe", "customer", "create", "--merchant-customer-id", "shopper-2"])
        let customer = try #require(try Self.json(created)["id"]?.stringValue)
        let exists = try setup.run(["paysafe", "customer", "create", "--merchant-customer-id", "shopper-2"])
        #expect(exists.status == 1 && exists.err.contains("paysafe.customerExists") && exists.out.isEmpty, "\(exists.err)")
        let unused = try await Self.handle(setup.server)
        let notPaid = try setup.run([
            "paysafe", "customer", "save-card", customer, "--payment-handle", unused.token, "--merchant-ref", "c-1",
        ])
        #expect(notPaid.status == 1 && notPaid.err.contains("paysafe.handleNotPayable") && notPaid.err.contains("handleStatus=PAYABLE"))
        #expect(!notPaid.err.contains(unused.token))
        let noCustomer = try setup.run(["paysafe", "customer", "app-token", "no-such-customer", "--merchant-ref", "a-1"])
        #expect(noCustomer.status == 1 && noCustomer.err.contains("paysafe.customerNotFound"))
    }

    @Test(
        "usage (64, nothing sent): --merchant-initiated with --stored-credential initial or --stored-type, --initial-transaction alone or with initial, stored options with --token",
        arguments: [
            ["--merchant-initiated", "recurring", "--stored-credential", "initial"],
            ["--merchant-initiated", "unscheduled", "--stored-type", "topup"],
            ["--initial-transaction", "p-1"],
            ["--stored-type", "recurring"],
            ["--stored-credential", "initial", "--initial-transaction", "p-1"],
            ["--stored-credential", "sometimes"],
            ["--merchant-initiated", "weekly"],
        ])
    func usage(extra: [String]) throws {
        let setup = try Setup()
        defer { setup.server.stop() }
        let result = try Self.pay(setup, "u-1", "SCp7iW4xTkmN3Bq", extra)
        #expect(result.status == 64 && result.out.isEmpty, "\(extra): \(result.err)")
        let withToken = try setup.run(
            ["paysafe", "pay", "--amount", "1", "--currency", "EUR", "--merchant-ref", "u-2", "--token", "t", "--account", "1001"]
                + ["--stored-credential", "subsequent"])
        #expect(withToken.status == 64 && withToken.err.contains("--stored-credential cannot be combined with --token"), "\(withToken.err)")
        let noID = try setup.run(["paysafe", "customer", "create"])
        #expect(noID.status == 64)
        #expect(try setup.server.requests().isEmpty)
    }

    @Test(
        "a lost answer to save-card exits 75 naming the reference and the listing that settles it; the listing shows the card; a rerun exits 0 with it"
    )
    func lostSave() async throws {
        let setup = try Setup()
        defer { setup.server.stop() }
        let created = try setup.run(["paysafe", "customer", "create", "--merchant-customer-id", "shopper-3"])
        let customer = try #require(try Self.json(created)["id"]?.stringValue)
        let paid = try await Self.handle(setup.server)
        #expect(try Self.pay(setup, "lost-order", paid.token).status == 0)
        try setup.server.enqueue(LoopbackEmulator.Fault.drop.afterRoute().onPath("/paymenthub/v1/customers/\(customer)/paymenthandles"))
        let line = ["paysafe", "customer", "save-card", customer, "--payment-handle", paid.token, "--merchant-ref", "lost-card"]
        let lost = try setup.run(line)
        #expect(lost.status == 75 && lost.out.isEmpty && lost.err.contains("merchantReference=lost-card"), "\(lost.err)")
        #expect(lost.err.contains("'cse paysafe customer get --merchant-customer-id ID'") && !lost.err.contains(paid.token))
        let listed = try setup.run(["paysafe", "customer", "get", "--merchant-customer-id", "shopper-3"])
        let cards = try #require(try Self.json(listed)["paymentHandles"]?.arrayValue)
        #expect(cards.count == 1 && cards[0]["merchantRefNum"]?.stringValue == "lost-card")
        let again = try setup.run(line)
        #expect(try again.status == 0 && Self.json(again)["id"] == cards[0]["id"], "\(again.err)")
    }
}
