import CSECore
import CSECrypto
@_spi(CustomTransport) import CSEHTTP
import CSEServerAPI
import Testing
import TestSupport

/// Issue #33, Worldline: CapturePayment, RefundPayment and CancelPayment over real HTTP against
/// the loopback emulator, whose own order store checks every amount rule (research notes §6.1).
@Suite("Worldline capture, refund and cancel: the payment's life after authorisation, against the emulator's order store")
struct WorldlineLifecycleTests {
    /// An authorised payment of EUR 23.45 (PRE_AUTHORIZATION, the emulator's default).
    static func authorise(_ client: WorldlineServerClient) async throws -> String {
        let payment = try await client.createPayment(try ServerEmulatorTests.payment()).get()
        #expect(payment.status == "PENDING_CAPTURE")
        return payment.id
    }

    /// The emulator's ledger of a payment: amounts and the number of operations of each kind.
    static func ledger(_ server: LoopbackEmulator, _ id: String) async throws -> JSONValue {
        let answer = try await HTTPClient().send(
            HTTPRequest(method: .get, url: try HTTPURL(server.baseURL + "/test/worldline-ledger/" + id)))
        return try JSONValue.parse(answer.body)
    }

    static func client(_ server: LoopbackEmulator) throws -> WorldlineServerClient { try ServerEmulatorTests.worldline(server) }

    @Test("authorise → capture → refund (the README's flow): the whole amount captured, then refunded")
    func authoriseCaptureRefund() async throws {
        try await withServerEmulator("worldline", ServerEmulatorTests.worldlineArguments) { server in
            let client = try Self.client(server)
            let id = try await Self.authorise(client)
            let capture = try await client.capturePayment(id, try WorldlineCaptureRequest()).get()
            #expect(capture.kind == .capture && capture.status == "CAPTURE_REQUESTED" && capture.amount == 2345)
            #expect(capture.id == String(id.dropLast(2)) + "_1")
            let refund = try await client.refundPayment(id, try WorldlineRefundRequest(amount: 2345, currencyCode: "EUR")).get()
            #expect(refund.kind == .refund && refund.status == "REFUND_REQUESTED" && refund.amount == 2345 && refund.currencyCode == "EUR")
            let ledger = try await Self.ledger(server, id)
            #expect(ledger["captured"] == .number("2345") && ledger["refunded"] == .number("2345"))
            let sent = try server.requests().filter { $0.path.hasSuffix("/capture") || $0.path.hasSuffix("/refund") }
            #expect(sent.count == 2 && sent.allSatisfy { $0.header("X-GCS-Idempotence-Key")?.count == 36 })
            Canary.check(capture.description + refund.description)
        }
    }

    @Test("authorise → void (the README's flow): the whole authorisation released, the payment CANCELLED")
    func authoriseVoid() async throws {
        try await withServerEmulator("worldline", ServerEmulatorTests.worldlineArguments) { server in
            let client = try Self.client(server)
            let id = try await Self.authorise(client)
            let payment = try await client.cancelPayment(id, try WorldlineCancelRequest(merchantReference: "void-1")).get()
            #expect(payment.id == id && payment.status == "CANCELLED" && payment.statusCode == 6)
            #expect(try await Self.ledger(server, id)["cancelled"] == .number("2345"))
        }
    }

    @Test("partial captures: 1000, then the final 1345; a third capture is not allowed; captures lists both with their references")
    func partialCaptures() async throws {
        try await withServerEmulator(
            "worldline", ServerEmulatorTests.worldlineArguments + ["--worldline-capture-status", "CAPTURED"]
        ) { server in
            let client = try Self.client(server)
            let id = try await Self.authorise(client)
            let first = try await client.capturePayment(id, try WorldlineCaptureRequest(amount: 1000, merchantReference: "cap-1")).get()
            #expect(
                first.amount == 1000 && first.status == "CAPTURED" && first.statusCategory == "COMPLETED"
                    && first.merchantReference == "cap-1")
            let second = try await client.capturePayment(id, try WorldlineCaptureRequest(amount: 1345, isFinal: true)).get()
            #expect(second.amount == 1345 && second.id.hasSuffix("_2"))
            let third = await thrown { try await client.capturePayment(id, try WorldlineCaptureRequest(amount: 1)).get() }
            #expect(third?.code == .serverOperationNotAllowed && third?.underlying?.code == .worldlineAPIError)
            let listed = try await client.captures(ofPayment: id)
            #expect(listed.map(\.amount) == [1000, 1345] && listed.first?.merchantReference == "cap-1")
        }
    }

    @Test("two partial refunds of one capture, each with its own key, and a third over what is left refused by the platform's own code")
    func twoPartialRefunds() async throws {
        try await withServerEmulator("worldline", ServerEmulatorTests.worldlineArguments) { server in
            let client = try Self.client(server)
            let id = try await Self.authorise(client)
            _ = try await client.capturePayment(id, try WorldlineCaptureRequest()).get()
            let first = try await client.refundPayment(
                id, try WorldlineRefundRequest(amount: 500, currencyCode: "EUR", merchantReference: "rf-1")
            ).get()
            let second = try await client.refundPayment(
                id, try WorldlineRefundRequest(amount: 700, currencyCode: "EUR", merchantReference: "rf-2")
            ).get()
            #expect(first.id != second.id && first.merchantReference == "rf-1" && second.amount == 700)
            #expect(try await client.refunds(ofPayment: id).map(\.amount) == [500, 700])
            // 2345 − 1200 = 1145 left: Worldline names the member, not the rule, so its own code is kept.
            let over = await thrown {
                try await client.refundPayment(id, try WorldlineRefundRequest(amount: 1146, currencyCode: "EUR")).get()
            }
            #expect(over?.code == .worldlineAPIError && over?.context["id"] == "INVALID_VALUE")
            #expect(over?.context["propertyName"] == "amountOfMoney.amount")
            #expect(try await Self.ledger(server, id)["refunded"] == .number("1200"))
        }
    }

    @Test("partial void: 345 released, 2000 stays authorised and is captured; a void after a capture is not allowed")
    func partialVoid() async throws {
        try await withServerEmulator("worldline", ServerEmulatorTests.worldlineArguments) { server in
            let client = try Self.client(server)
            let id = try await Self.authorise(client)
            let payment = try await client.cancelPayment(id, try WorldlineCancelRequest(amount: 345, currencyCode: "EUR")).get()
            #expect(payment.status == "PENDING_CAPTURE")
            let over = await thrown { try await client.capturePayment(id, try WorldlineCaptureRequest(amount: 2001)).get() }
            #expect(over?.code == .worldlineAPIError && over?.context["propertyName"] == "amount")
            #expect(try await client.capturePayment(id, try WorldlineCaptureRequest()).get().amount == 2000)
            let late = await thrown { try await client.cancelPayment(id, try WorldlineCancelRequest()).get() }
            #expect(late?.code == .serverOperationNotAllowed && late?.context["platform"] == "worldline")
        }
    }

    @Test("refusals: capture after void, refund of an uncaptured payment, unknown payment, a key reused for another amount")
    func refusals() async throws {
        try await withServerEmulator("worldline", ServerEmulatorTests.worldlineArguments) { server in
            let client = try Self.client(server)
            let voided = try await Self.authorise(client)
            _ = try await client.cancelPayment(voided, try WorldlineCancelRequest()).get()
            let capture = await thrown { try await client.capturePayment(voided, try WorldlineCaptureRequest()).get() }
            #expect(capture?.code == .serverOperationNotAllowed && capture?.underlying?.context["id"] == "ACTION_NOT_ALLOWED_ON_TARGET")

            let open = try await Self.authorise(client)
            let refund = await thrown {
                try await client.refundPayment(open, try WorldlineRefundRequest(amount: 1, currencyCode: "EUR")).get()
            }
            #expect(refund?.code == .serverOperationNotAllowed)

            let unknown = await thrown { try await client.capturePayment("9999999999_0", try WorldlineCaptureRequest()).get() }
            #expect(unknown?.code == .serverUnknownPayment && unknown?.underlying?.context["status"] == "404")

            let key = try IdempotenceKey("capture-key-1")
            _ = try await client.capturePayment(open, try WorldlineCaptureRequest(amount: 100), idempotenceKey: key).get()
            let reused = await thrown {
                try await client.capturePayment(open, try WorldlineCaptureRequest(amount: 200), idempotenceKey: key).get()
            }
            #expect(reused?.code == .serverReferenceInUse && reused?.context["member"] == "amount")
            let otherPayment = try await Self.authorise(client)
            let elsewhere = await thrown {
                try await client.capturePayment(otherPayment, try WorldlineCaptureRequest(amount: 100), idempotenceKey: key).get()
            }
            #expect(elsewhere?.code == .serverReferenceInUse && elsewhere?.context["member"] == "paymentId")
            let ledger = try await Self.ledger(server, otherPayment)
            #expect(ledger["captured"] == .number("0"))
        }
    }

    @Test("a declined refund (402 with refundResult) is refused with the refund's id and status; nothing is booked")
    func declinedRefund() async throws {
        try await withServerEmulator("worldline", ServerEmulatorTests.worldlineArguments + ["--mode", "refund-declined"]) { server in
            let client = try Self.client(server)
            let id = try await Self.authorise(client)
            _ = try await client.capturePayment(id, try WorldlineCaptureRequest()).get()
            let outcome = try await client.refundPayment(id, try WorldlineRefundRequest(amount: 100, currencyCode: "EUR"))
            guard case .refused(let refund, let error) = outcome else {
                Issue.record("not refused: \(outcome)")
                return
            }
            #expect(refund?.status == "REJECTED" && error.code == .worldlinePaymentRejected && error.context["operation"] == "refund")
            #expect(try await Self.ledger(server, id)["refunded"] == .number("0"))
        }
    }

    @Test(
        "a cut answer is repeated with the same key and replayed: one capture booked; an unreadable 2xx is unknown and settled by the same key"
    )
    func lostAnswers() async throws {
        try await withServerEmulator("worldline", ServerEmulatorTests.worldlineArguments) { server in
            let client = try Self.client(server)
            let id = try await Self.authorise(client)
            try server.enqueue(LoopbackEmulator.Fault.drop.afterRoute().onPath("/v2/1234/payments/\(id)/capture"))
            let capture = try await client.capturePayment(
                id, try WorldlineCaptureRequest(amount: 1000), idempotenceKey: IdempotenceKey("cap-k"))
            #expect(try capture.get().amount == 1000)
            try server.enqueue(LoopbackEmulator.Fault.malformedBody.afterRoute().onPath("/v2/1234/payments/\(id)/refund"))
            let request = try WorldlineRefundRequest(amount: 400, currencyCode: "EUR", merchantReference: "rf-9")
            let lost = try await client.refundPayment(id, request, idempotenceKey: IdempotenceKey("ref-k"))
            guard case .unknown(let keys, let error) = lost else {
                Issue.record("not unknown: \(lost)")
                return
            }
            #expect(keys.idempotenceKey?.text == "ref-k" && keys.merchantReference == "rf-9" && keys.paymentID == id)
            #expect(error.code == .serverOutcomeUnknown && error.context["idempotenceKey"] == "ref-k")
            let settled = try await client.refundPayment(id, request, idempotenceKey: IdempotenceKey("ref-k")).get()
            #expect(settled.amount == 400)
            let ledger = try await Self.ledger(server, id)
            #expect(ledger["operations"]?["capture"] == .number("1") && ledger["operations"]?["refund"] == .number("1"))
        }
    }

    @Test("authorizationMode: a SALE is captured at approval and refunded without a capture; a FINAL_AUTHORIZATION is captured in full")
    func authorizationModes() async throws {
        try await withServerEmulator("worldline", ServerEmulatorTests.worldlineArguments) { server in
            let client = try Self.client(server)
            let sale = try await client.createPayment(
                try WorldlinePaymentRequest(
                    encryptedCustomerInput: ServerEmulatorTests.jwe, amount: 2345, currencyCode: "EUR", authorizationMode: .sale)
            ).get()
            #expect(sale.status == "CAPTURED")
            let body = try #require(try server.requests().last?.body)
            #expect(try JSONValue.parse(body)["cardPaymentMethodSpecificInput"]?["authorizationMode"]?.stringValue == "SALE")
            let capture = await thrown { try await client.capturePayment(sale.id, try WorldlineCaptureRequest()).get() }
            #expect(capture?.code == .serverOperationNotAllowed)
            #expect(try await client.refundPayment(sale.id, try WorldlineRefundRequest(amount: 45, currencyCode: "EUR")).get().amount == 45)

            let final = try await client.createPayment(
                try WorldlinePaymentRequest(
                    encryptedCustomerInput: ServerEmulatorTests.jwe, amount: 2345, currencyCode: "EUR",
                    authorizationMode: .finalAuthorization)
            ).get()
            let partial = await thrown { try await client.capturePayment(final.id, try WorldlineCaptureRequest(amount: 1000)).get() }
            #expect(partial?.code == .worldlineAPIError && partial?.context["propertyName"] == "isFinal")
            #expect(try await client.capturePayment(final.id, try WorldlineCaptureRequest()).get().amount == 2345)
            #expect(try await Self.ledger(server, final.id)["mode"]?.stringValue == "FINAL_AUTHORIZATION")
        }
    }

    @Test("arguments: no amount is a final capture; a partial cancel names both amount and currency; amounts are 1…999999999999")
    func arguments() throws {
        #expect(try WorldlineCaptureRequest().isFinal)
        #expect(try WorldlineCaptureRequest(amount: 5).isFinal == false)
        #expect(try WorldlineCaptureRequest(amount: 5).json.serialized == #"{"amount":5,"isFinal":false}"#)
        #expect(
            try WorldlineRefundRequest(amount: 5, currencyCode: "EUR", merchantReference: "r").json.serialized
                == #"{"amountOfMoney":{"amount":5,"currencyCode":"EUR"},"isFinal":false,"operationReferences":{"merchantReference":"r"}}"#)
        #expect(try WorldlineCancelRequest().json.serialized == #"{"isFinal":false}"#)
        #expect(throws: CSEError.self) { try WorldlineCancelRequest(amount: 5) }
        #expect(throws: CSEError.self) { try WorldlineCaptureRequest(amount: 0) }
        #expect(throws: CSEError.self) { try WorldlineRefundRequest(amount: 1_000_000_000_000, currencyCode: "EUR") }
        #expect(throws: CSEError.self) { try WorldlineRefundRequest(amount: 5, currencyCode: "XYZ") }
        #expect(throws: CSEError.self) { try WorldlineCaptureRequest(merchantReference: String(repeating: "r", count: 41)) }
    }

    /// V-WL-2 to V-WL-4 (research notes §5): the v1HMAC signature of each operation's request,
    /// with its idempotence key among the signed X-GCS headers.
    @Test(
        "V-WL-2…4: the signatures of CapturePayment, RefundPayment and CancelPayment",
        arguments: [
            ("capture", "7VdVZgmBxC+JOMDwNHvcPZgL6JnT3SCi4g42hofkwQU="), ("refund", "QJ8S03v/z5ODDCmUYzzeAR7Pqu+zud+0Tsrd7taBsX0="),
            ("cancel", "GK/rFEtut3/TQoHLbrEyZr8cShMZtKMj8jT2F/bZeh4="),
        ])
    func knownAnswers(operation: String, expected: String) throws {
        let text =
            "POST\napplication/json\nFri, 06 Jun 2014 13:39:43 GMT\nx-gcs-idempotence-key:8f3a1c2e-0b7d-4e59-9c1a-2d4e6f708192\n"
            + "x-gcs-servermetainfo:eyJzZGtJZGVudGlmaWVyIjoiQ1NFS2l0L3YxLjAuMCJ9\n/v2/1/payments/3066019730_0/\(operation)\n"
        #expect(try WorldlineSignature.signature(of: text, secret: secret("secretApiKey")) == expected)
    }
}
