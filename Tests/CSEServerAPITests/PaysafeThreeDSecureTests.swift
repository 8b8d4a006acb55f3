import CSECore
import CSEServerAPI
import CSEValidation
import Testing
import TestSupport

/// Issue #34, section 5, from the library, against the Paysafe emulator's 3-D Secure flows
/// (lifecycle research notes §4.1, §6.4): the handle is read before paying and nothing is sent
/// unless it is PAYABLE; a challenge is pending with the redirect, then paid once completed; a
/// failed, expired, used or mismatched handle is refused; the authentication results are in the
/// payment; the statuses not final yet are pending.
@Suite("Paysafe 3-D Secure: the handle checked before paying, challenge → return → resume → succeeded, each refusal, pending statuses")
struct PaysafeThreeDSecureTests {
    static let arguments = PaysafePaymentTests.arguments

    static func request(_ token: String, _ reference: String, amount: Int64 = 2345) throws -> PaysafePaymentRequest {
        try PaysafePaymentRequest(
            merchantReference: reference, amount: amount, currency: Currency(code: "EUR")!, source: .paymentHandle(token))
    }

    /// The paths the emulator saw since `from`.
    static func paths(_ server: LoopbackEmulator, from: Int) throws -> [String] { try server.requests().dropFirst(from).map(\.path) }

    @Test("frictionless: read, then paid; the payment carries ECI 5, threeDResult Y, version 2.2.0 (never the CAVV)")
    func frictionless() async throws {
        try await withServerEmulator("paysafe", Self.arguments) { server in
            let client = try PaysafePaymentTests.client(server)
            let handle = try await PaysafeAppSide.handle(server, pan: "4000000000001000", threeDS: true)
            #expect(handle.json["status"]?.stringValue == "PAYABLE")
            let before = try server.requests().count
            let payment = try await client.pay(try Self.request(handle.token, "fr-1"), handleID: handle.id).get()
            #expect(try Self.paths(server, from: before) == ["/paymenthub/v1/paymenthandles/\(handle.id)", "/paymenthub/v1/payments"])
            let authentication = try #require(payment.authentication)
            #expect(authentication.eci == "5" && authentication.threeDResult == "Y" && authentication.threeDSecureVersion == "2.2.0")
            #expect(payment.json["authentication"]?["eci"]?.stringValue == "5" && !payment.json.serialized.contains("cavv"))
            Canary.check(payment.description + payment.json.serialized)
        }
    }

    @Test("challenge → return → resume → succeeded: pending with the redirect_payment link and nothing sent; once completed, paid")
    func challenge() async throws {
        try await withServerEmulator("paysafe", Self.arguments) { server in
            let client = try PaysafePaymentTests.client(server)
            let handle = try await PaysafeAppSide.handle(server, pan: "4000000000001091", threeDS: true)
            let link = try #require(handle.json["links"]?.arrayValue?.first?["href"]?.stringValue)
            #expect(handle.json["status"]?.stringValue == "INITIATED" && handle.json["action"]?.stringValue == "REDIRECT")
            let before = try server.requests().count
            guard
                case .pending(let waiting, let action, let keys) = try await client.pay(
                    try Self.request(handle.token, "ch-1"), handleID: handle.id)
            else {
                Issue.record("not pending")
                return
            }
            #expect(try Self.paths(server, from: before) == ["/paymenthub/v1/paymenthandles/\(handle.id)"], "nothing sent")
            guard case .redirect(let url, let method, let mac)? = action else {
                Issue.record("no redirect")
                return
            }
            #expect(url == link && method == "GET" && mac == nil && keys.merchantReference == "ch-1")
            #expect(
                waiting.isAwaitingAuthentication && waiting.status == "INITIATED"
                    && waiting.json["paymentHandleId"]?.stringValue == handle.id)
            #expect(try await client.payments(merchantReference: "ch-1").isEmpty)
            // The payer completes the challenge; a replayed return changes nothing.
            #expect(try await PaysafeAppSide.completeChallenge(link) == 200)
            #expect(try await PaysafeAppSide.completeChallenge(link) == 409)
            let payment = try await client.pay(try Self.request(handle.token, "ch-1"), handleID: handle.id).get()
            #expect(payment.isCompleted && payment.authentication?.threeDResult == "Y" && payment.authentication?.eci == "5")
            // Used: another payment with it is refused before anything is sent.
            let mark = try server.requests().count
            let used = await thrown { try await client.pay(try Self.request(handle.token, "ch-2"), handleID: handle.id) }
            #expect(used?.code == .paysafeHandleNotPayable && used?.context["handleStatus"] == "COMPLETED")
            #expect(try Self.paths(server, from: mark) == ["/paymenthub/v1/paymenthandles/\(handle.id)"])
            Canary.check(waiting.description + waiting.json.serialized + (used.map { "\($0)" } ?? ""))
            #expect(!waiting.json.serialized.contains(handle.token) && !waiting.description.contains(handle.token))
        }
    }

    @Test("refusals, nothing sent: a failed authentication, a failed challenge, an expired handle, another handle's token")
    func refusals() async throws {
        try await withServerEmulator("paysafe", Self.arguments) { server in
            let client = try PaysafePaymentTests.client(server)
            let failed = try await PaysafeAppSide.handle(server, pan: "4000000000001018", threeDS: true)
            let challenged = try await PaysafeAppSide.handle(server, pan: "4000000000001091", threeDS: true)
            let link = try #require(challenged.json["links"]?.arrayValue?.first?["href"]?.stringValue)
            #expect(try await PaysafeAppSide.completeChallenge(link, result: "N") == 200)
            let expiring = try await PaysafeAppSide.handle(server, threeDS: true)
            try await PaysafeAppSide.expire(server, expiring.id)
            let other = try await PaysafeAppSide.handle(server, threeDS: true)
            let before = try server.requests().count
            let cases: [(id: String, token: String, code: CSEError.Code, status: String?)] = [
                (failed.id, failed.token, .paysafeHandleNotPayable, "FAILED"),
                (challenged.id, challenged.token, .paysafeHandleNotPayable, "FAILED"),
                (expiring.id, expiring.token, .paysafeHandleNotPayable, "EXPIRED"),
                (other.id, failed.token, .paysafeHandleMismatch, nil),
            ]
            for (index, item) in cases.enumerated() {
                let error = await thrown { try await client.pay(try Self.request(item.token, "rf-\(index)"), handleID: item.id) }
                #expect(error?.code == item.code && error?.context["handleStatus"] == item.status, "\(index)")
                let text = error.map { "\($0)" + $0.debugDescription } ?? ""
                #expect(!text.contains(item.token))
            }
            #expect(try server.requests().dropFirst(before).allSatisfy { $0.method == "GET" }, "no payment sent")
            // Without the id, Paysafe's refusal names the status.
            let expired = await thrown { try await client.pay(try Self.request(expiring.token, "rf-9")) }
            #expect(expired?.code == .paysafeHandleNotPayable && expired?.context["handleStatus"] == "EXPIRED")
            #expect(expired?.underlying?.context["paysafeCode"] == "5080")
            // An unknown handle id is Paysafe's 404, nothing sent.
            let unknown = await thrown { try await client.pay(try Self.request(other.token, "rf-10"), handleID: "no-such-handle") }
            #expect(unknown?.code == .paysafeAPIError && unknown?.context["status"] == "404")
        }
    }

    @Test("authentication unavailable: PAYABLE, paid, the results say threeDResult U and ECI 7")
    func unavailable() async throws {
        try await withServerEmulator("paysafe", Self.arguments) { server in
            let client = try PaysafePaymentTests.client(server)
            let handle = try await PaysafeAppSide.handle(server, pan: "4000000000001067", threeDS: true)
            let payment = try await client.pay(try Self.request(handle.token, "un-1"), handleID: handle.id).get()
            #expect(payment.authentication?.threeDResult == "U" && payment.authentication?.eci == "7")
        }
    }

    @Test("PROCESSING is pending with the payment id; a duplicate's lookup finds it pending too")
    func pendingStatuses() async throws {
        try await withServerEmulator("paysafe", Self.arguments + ["--mode", "pending"]) { server in
            let client = try PaysafePaymentTests.client(server)
            guard case .pending(let payment, let action, let keys) = try await client.pay(try PaysafePaymentTests.handlePayment("pe-1"))
            else {
                Issue.record("not pending")
                return
            }
            #expect(payment.status == "PROCESSING" && action == nil && keys.paymentID == payment.id && keys.merchantReference == "pe-1")
            guard case .pending(let again, _, _) = try await client.pay(try PaysafePaymentTests.handlePayment("pe-1")) else {
                Issue.record("duplicate not pending")
                return
            }
            #expect(again.id == payment.id)
        }
    }

    @Test("the fault queue: the handle read failing sends nothing; the payment's answer lost after the check is unknown")
    func faults() async throws {
        try await withServerEmulator("paysafe", Self.arguments) { server in
            let client = try PaysafePaymentTests.client(server)
            let handle = try await PaysafeAppSide.handle(server, threeDS: true)
            try server.enqueue(LoopbackEmulator.Fault.status(500, body: "oops").times(3).onPath("/paymenthub/v1/paymenthandles/"))
            let failedRead = await thrown { try await client.pay(try Self.request(handle.token, "fq-1"), handleID: handle.id) }
            #expect(failedRead != nil && failedRead?.code != .serverOutcomeUnknown)
            #expect(try await client.payments(merchantReference: "fq-1").isEmpty)
            try server.reset()
            try server.enqueue(LoopbackEmulator.Fault.drop.afterRoute().onPath("/paymenthub/v1/payments"))
            guard case .unknown(let keys, _) = try await client.pay(try Self.request(handle.token, "fq-2"), handleID: handle.id) else {
                Issue.record("not unknown")
                return
            }
            #expect(keys.merchantReference == "fq-2")
            #expect(try await client.payments(merchantReference: "fq-2").count == 1)
        }
    }
}
