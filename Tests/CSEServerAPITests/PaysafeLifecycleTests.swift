import CSECore
import CSEHTTP
import CSEServerAPI
import CSEValidation
import Testing
import TestSupport

/// Issue #33 on Paysafe, from the library, over real HTTP against the loopback emulator (which
/// keeps the authorised, settled and refunded amounts and checks every rule itself): settlements,
/// refunds of a settlement and void authorisations on both APIs, with lookups by reference and
/// cancellation, and every refusal and lost answer classed as the payment calls class them.
@Suite("Paysafe settle, refund and void: the payment's life after authorisation, on both APIs")
struct PaysafeLifecycleTests {
    static let arguments = PaysafePaymentTests.arguments

    /// An authorisation (settleWithAuth false) of `amount` on the Payments API; its id.
    static func authorize(_ client: PaysafePaymentClient, _ reference: String, amount: Int64 = 1000) async throws -> String {
        let request = try PaysafePaymentRequest(
            merchantReference: reference, amount: amount, currency: Currency(code: "EUR")!, source: .paymentHandle("SCp7iW4xTkmN3Bq"),
            settleWithAuthorization: false)
        return try await client.pay(request).get().id
    }

    static func request(
        _ kind: PaysafeOperation.Kind, _ target: String, _ reference: String, _ amount: Int64, account: String? = nil
    ) throws -> PaysafeOperationRequest {
        try PaysafeOperationRequest(kind: kind, targetID: target, merchantReference: reference, amount: amount, accountID: account)
    }

    @Test("authorise → settle part → settle the rest → two partial refunds: each its own id and reference, dupCheck on")
    func authoriseSettleRefund() async throws {
        try await withServerEmulator("paysafe", Self.arguments) { server in
            let client = try PaysafePaymentTests.client(server)
            let payment = try await Self.authorize(client, "life-1")
            let first = try await client.submit(try Self.request(.settlement, payment, "life-1-s1", 600)).get()
            #expect(first.kind == .settlement && first.status == "PENDING" && first.isPending && first.amount == 600)
            #expect(first.availableToRefund == 600 && first.merchantReference == "life-1-s1")
            let rest = try await client.submit(try Self.request(.settlement, payment, "life-1-s2", 400)).get()
            #expect(rest.id != first.id && rest.amount == 400)
            let refundA = try await client.submit(try Self.request(.refund, first.id, "life-1-r1", 250)).get()
            let refundB = try await client.submit(try Self.request(.refund, first.id, "life-1-r2", 350)).get()
            #expect(refundA.kind == .refund && refundA.isPending && refundB.amount == 350 && refundA.id != refundB.id)
            let settled = try await client.operations(.settlement, merchantReference: "life-1-s1")
            #expect(settled.count == 1 && settled[0].availableToRefund == 0)
            let log = try server.requests()
            #expect(
                log[1].path == "/paymenthub/v1/payments/\(payment)/settlements"
                    && log[3].path == "/paymenthub/v1/settlements/\(first.id)/refunds")
            let sent = try JSONValue.parse(Array(log[1].body))
            #expect(
                sent["amount"]?.intValue == 600 && sent["merchantRefNum"]?.stringValue == "life-1-s1" && sent["dupCheck"] == .bool(true))
            Canary.check(first.description + first.json.serialized + refundA.description)
        }
    }

    @Test("authorise → void: a partial void, then the rest; a COMPLETED void authorisation, no dupCheck member")
    func authoriseVoid() async throws {
        try await withServerEmulator("paysafe", Self.arguments) { server in
            let client = try PaysafePaymentTests.client(server)
            let payment = try await Self.authorize(client, "void-1")
            let part = try await client.submit(try Self.request(.voidAuthorization, payment, "void-1-v1", 300)).get()
            let rest = try await client.submit(try Self.request(.voidAuthorization, payment, "void-1-v2", 700)).get()
            #expect(part.kind == .voidAuthorization && part.isCompleted && rest.isCompleted && rest.amount == 700)
            let sent = try JSONValue.parse(Array(try #require(server.requests().last).body))
            #expect(sent["dupCheck"] == nil && sent["amount"]?.intValue == 700)
            #expect(try await client.operations(.voidAuthorization, merchantReference: "void-1-v2").map(\.id) == [rest.id])
            // Nothing is left to settle.
            let settle = await thrown { try await client.submit(try Self.request(.settlement, payment, "void-1-s", 1)) }
            #expect(settle?.code == .paysafeAPIError && settle?.context["paysafeCode"] == "3406")
        }
    }

    @Test(
        "refusals: over what is left and a state that allows nothing keep Paysafe's code; an unknown id and a reused reference have the shared codes"
    )
    func refusals() async throws {
        try await withServerEmulator("paysafe", Self.arguments) { server in
            let client = try PaysafePaymentTests.client(server)
            let payment = try await Self.authorize(client, "ref-1")
            let over = await thrown { try await client.submit(try Self.request(.settlement, payment, "ref-1-s0", 1001)) }
            #expect(over?.code == .paysafeAPIError && over?.context["paysafeCode"] == "3406" && over?.context["status"] == "400")
            let settlement = try await client.submit(try Self.request(.settlement, payment, "ref-1-s1", 500)).get()
            let refundOver = await thrown { try await client.submit(try Self.request(.refund, settlement.id, "ref-1-r0", 501)) }
            #expect(refundOver?.code == .paysafeAPIError && refundOver?.context["paysafeCode"] == "3406")
            let voidAfterSettle = await thrown { try await client.submit(try Self.request(.voidAuthorization, payment, "ref-1-v", 100)) }
            #expect(voidAfterSettle?.code == .paysafeAPIError && voidAfterSettle?.context["paysafeCode"] == "3203")
            let unknown = await thrown { try await client.submit(try Self.request(.refund, "no-such-settlement", "ref-1-r1", 1)) }
            #expect(unknown?.code == .serverUnknownPayment && unknown?.context["platform"] == "paysafe")
            #expect(unknown?.underlying?.context["paysafeCode"] == "5269")
            let unknownPayment = await thrown { try await client.submit(try Self.request(.settlement, "no-such-payment", "ref-1-s9", 1)) }
            #expect(unknownPayment?.code == .serverUnknownPayment)
            // The reference of a settlement of 500, again for 400: another operation's reference.
            let reused = await thrown { try await client.submit(try Self.request(.settlement, payment, "ref-1-s1", 400)) }
            #expect(reused?.code == .serverReferenceInUse && reused?.context["merchantReference"] == "ref-1-s1")
            // The same request again is the same settlement: nothing is made twice.
            let repeated = try await client.submit(try Self.request(.settlement, payment, "ref-1-s1", 500)).get()
            #expect(repeated.id == settlement.id)
            #expect(try await client.operations(.settlement, merchantReference: "ref-1-s1").count == 1)
            // A sale settles with its authorisation: a settlement of it is not allowed.
            let sale = try await client.pay(try PaysafePaymentTests.handlePayment("ref-sale", amount: 800)).get()
            let settleSale = await thrown { try await client.submit(try Self.request(.settlement, sale.id, "ref-sale-s", 800)) }
            #expect(settleSale?.code == .paysafeAPIError && settleSale?.context["paysafeCode"] == "3203")
            for error in [over, refundOver, voidAfterSettle, unknown, unknownPayment, reused, settleSale] {
                Canary.check(error.map { "\($0)" + $0.debugDescription } ?? "")
            }
        }
    }

    @Test("a lost answer after Paysafe made the settlement is unknown with the reference; the lookup and a resend find the one settlement")
    func lostAnswers() async throws {
        try await withServerEmulator("paysafe", Self.arguments) { server in
            let client = try PaysafePaymentTests.client(server)
            let payment = try await Self.authorize(client, "lost-1")
            let faults: [LoopbackEmulator.Fault] = [
                .drop.afterRoute(), .malformedBody.afterRoute(), .status(500, body: "<html>internal error</html>").afterRoute(),
            ]
            for (index, fault) in faults.enumerated() {
                let reference = "lost-1-s\(index)"
                try server.enqueue(fault.onPath("/paymenthub/v1/payments/\(payment)/settlements"))
                let outcome = try await client.submit(try Self.request(.settlement, payment, reference, 100))
                guard case .unknown(let keys, let error) = outcome else {
                    Issue.record("\(reference): \(outcome)")
                    continue
                }
                #expect(keys.merchantReference == reference && keys.paymentID == payment && error.code == .serverOutcomeUnknown)
                let found = try await client.operations(.settlement, merchantReference: reference)
                #expect(found.count == 1 && found[0].amount == 100)
                let resent = try await client.submit(try Self.request(.settlement, payment, reference, 100)).get()
                #expect(resent.id == found[0].id)
                #expect(try await client.operations(.settlement, merchantReference: reference).count == 1)
                Canary.check(error.description + error.debugDescription)
            }
        }
    }

    @Test("a 409 whose lookup finds nothing under the reference is unknown, whatever its body: never a refusal")
    func conflictWithoutEarlier() async throws {
        try await withServerEmulator("paysafe", Self.arguments) { server in
            let client = try PaysafePaymentTests.client(server)
            let payment = try await Self.authorize(client, "c409-1")
            let path = "/paymenthub/v1/payments/\(payment)/settlements"
            try server.enqueue(.json(409, #"{"error":{"code":"5031","message":"The merchantRefNum has already been used"}}"#).onPath(path))
            try server.enqueue(.status(409, body: "<html>conflict</html>").onPath(path))
            for _ in 0..<2 {
                let outcome = try await client.submit(try Self.request(.settlement, payment, "c409-1-s", 100))
                guard case .unknown(let keys, let error) = outcome else {
                    Issue.record("a 409 with nothing found decided: \(outcome)")
                    continue
                }
                #expect(keys.merchantReference == "c409-1-s" && error.code == .serverOutcomeUnknown)
            }
            // Nothing was made: the lookup is empty, and the same request then settles once.
            #expect(try await client.operations(.settlement, merchantReference: "c409-1-s").isEmpty)
            #expect(try await client.submit(try Self.request(.settlement, payment, "c409-1-s", 100)).get().amount == 100)
        }
    }

    @Test("an answer naming another amount or reference is another operation: server.referenceInUse, never success")
    func answerIdentity() async throws {
        try await withServerEmulator("paysafe", Self.arguments) { server in
            let client = try PaysafePaymentTests.client(server)
            let payment = try await Self.authorize(client, "id-1")
            try server.enqueue(
                .json(201, #"{"id":"x1","status":"COMPLETED","merchantRefNum":"id-1-s","amount":999}"#)
                    .onPath("/paymenthub/v1/payments/\(payment)/settlements"))
            let amount = await thrown { try await client.submit(try Self.request(.settlement, payment, "id-1-s", 100)) }
            #expect(amount?.code == .serverReferenceInUse && amount?.context["member"] == "amount")
            try server.enqueue(
                .json(201, #"{"id":"x2","status":"COMPLETED","merchantRefNum":"other","amount":100}"#)
                    .onPath("/paymenthub/v1/payments/\(payment)/settlements"))
            let reference = await thrown { try await client.submit(try Self.request(.settlement, payment, "id-1-s", 100)) }
            #expect(reference?.code == .serverReferenceInUse && reference?.context["member"] == "merchantReference")
            try server.enqueue(
                .json(201, #"{"id":"x3","status":"SETTLED","merchantRefNum":"id-1-s","amount":100}"#)
                    .onPath("/paymenthub/v1/payments/\(payment)/settlements"))
            let undocumented = try await client.submit(try Self.request(.settlement, payment, "id-1-s", 100))
            guard case .unknown(_, let error) = undocumented else {
                Issue.record("an undocumented status decided: \(undocumented)")
                return
            }
            #expect(error.underlying?.code == .paysafeOperationUndetermined)
        }
    }

    @Test("a declined settlement (402 with the settlement) is refused: paysafe.operationDeclined with Paysafe's code")
    func declined() async throws {
        try await withServerEmulator("paysafe", Self.arguments + ["--mode", "decline-operations"]) { server in
            let client = try PaysafePaymentTests.client(server)
            let payment = try await Self.authorize(client, "dec-1")
            let outcome = try await client.submit(try Self.request(.settlement, payment, "dec-1-s", 100))
            guard case .refused(let settlement?, let error) = outcome else {
                Issue.record("not refused with the settlement: \(outcome)")
                return
            }
            #expect(settlement.status == "FAILED" && settlement.isDeclined && error.code == .paysafeOperationDeclined)
            #expect(error.context["paysafeCode"] == "3022" && error.context["operation"] == "settlement")
            #expect(error.context["merchantReference"] == "dec-1-s" && error.context["operationId"] == settlement.id)
            Canary.check(error.description + error.debugDescription)
        }
    }

    @Test("the Card Payments API: settle, refund and void under the account's auths and settlements")
    func cardPayments() async throws {
        try await withServerEmulator("paysafe", Self.arguments) { server in
            let client = try PaysafePaymentTests.client(server)
            let token = try await ServerEmulatorTests.paysafe(server).createSingleUseToken(card: ServerEmulatorTests.card(Canary.pan))
            let account = "1001234567"
            let auth = try await client.pay(
                try PaysafePaymentRequest(
                    merchantReference: "card-1", amount: 900, currency: Currency(code: "EUR")!,
                    source: .cardToken(token.paymentToken, accountID: account), settleWithAuthorization: false)
            ).get()
            let settlement = try await client.submit(try Self.request(.settlement, auth.id, "card-1-s", 900, account: account)).get()
            let refund = try await client.submit(try Self.request(.refund, settlement.id, "card-1-r", 100, account: account)).get()
            #expect(settlement.isPending && refund.amount == 100)
            let paths = try server.requests().suffix(2).map(\.path)
            #expect(
                paths == [
                    "/cardpayments/v1/accounts/\(account)/auths/\(auth.id)/settlements",
                    "/cardpayments/v1/accounts/\(account)/settlements/\(settlement.id)/refunds",
                ])
            // The Payments API does not hold the Card Payments API's settlement.
            #expect(try await client.operations(.settlement, merchantReference: "card-1-s").isEmpty)
            #expect(try await client.operations(.settlement, merchantReference: "card-1-s", accountID: account).count == 1)
            let second = try await client.pay(
                try PaysafePaymentRequest(
                    merchantReference: "card-2", amount: 300, currency: Currency(code: "EUR")!,
                    source: .cardToken(token.paymentToken, accountID: account), settleWithAuthorization: false)
            ).get()
            let void = try await client.submit(try Self.request(.voidAuthorization, second.id, "card-2-v", 300, account: account)).get()
            #expect(
                try void.isCompleted
                    && (server.requests().last?.path) == "/cardpayments/v1/accounts/\(account)/auths/\(second.id)/voidauths")
        }
    }

    @Test("a pending settlement or refund can be cancelled before batching; a cancelled one, or an unknown id, cannot")
    func cancel() async throws {
        try await withServerEmulator("paysafe", Self.arguments) { server in
            let client = try PaysafePaymentTests.client(server)
            let payment = try await Self.authorize(client, "cancel-1")
            let settlement = try await client.submit(try Self.request(.settlement, payment, "cancel-1-s", 1000)).get()
            let cancelled = try await client.cancel(.settlement, id: settlement.id)
            #expect(cancelled.status == "CANCELLED" && cancelled.id == settlement.id)
            let sent = try #require(server.requests().last)
            #expect(sent.method == "PUT" && sent.path == "/paymenthub/v1/settlements/\(settlement.id)")
            let again = await thrown { try await client.cancel(.settlement, id: settlement.id) }
            #expect(again?.code == .paysafeAPIError && again?.context["paysafeCode"] == "3203")
            let unknown = await thrown { try await client.cancel(.refund, id: "no-such-refund") }
            #expect(unknown?.code == .serverUnknownPayment)
            let void = await thrown { try await client.cancel(.voidAuthorization, id: "x") }
            #expect(void?.code == .serverAPIInvalidArgument)
            // The cancelled settlement freed the amount: it can be settled again.
            #expect(try await client.submit(Self.request(.settlement, payment, "cancel-1-s2", 1000)).get().amount == 1000)
        }
    }

    @Test("a request is checked before anything is sent: target id, reference, amount, account")
    func requestChecks() throws {
        let bad: [() throws -> PaysafeOperationRequest] = [
            { try Self.request(.settlement, "", "r", 1) }, { try Self.request(.settlement, "..", "r", 1) },
            { try Self.request(.settlement, "a/b", "r", 1) }, { try Self.request(.refund, "s", "", 1) },
            { try Self.request(.refund, "s", "r", 0) }, { try Self.request(.voidAuthorization, "p", "r", 1, account: "12a") },
        ]
        for make in bad {
            #expect(throws: CSEError.self) { try make() }
        }
        #expect(try Self.request(.refund, "s-1", "r", 5).description.contains("kind: refund"))
    }
}
