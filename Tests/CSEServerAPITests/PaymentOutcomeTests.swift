import CSECore
import CSEHTTP
import CSEServerAPI
import Testing
import TestSupport

/// A CreatePayment outcome is decided from the payment's status category, never from the HTTP
/// status: a 2xx answer can carry a refused payment.
@Suite("A created payment whose status category is UNSUCCESSFUL is a refusal, whatever the HTTP status")
struct PaymentOutcomeTests {
    @Test(
        "a 201 answer with a REJECTED or CANCELLED payment throws worldline.paymentRejected naming the payment",
        arguments: [("2xx-REJECTED", "REJECTED", "UNSUCCESSFUL"), ("2xx-CANCELLED", "CANCELLED", "UNSUCCESSFUL")])
    func unsuccessfulCategory(mode: String, status: String, category: String) async throws {
        try await withServerEmulator("worldline", ServerEmulatorTests.worldlineArguments + ["--mode", mode]) { server in
            let error = await thrown {
                try await ServerEmulatorTests.worldline(server).createPayment(try ServerEmulatorTests.payment()).get()
            }
            #expect(error?.code == .worldlinePaymentRejected)
            #expect(error?.context["paymentStatus"] == status && error?.context["statusCategory"] == category)
            #expect(error?.context["status"] == "201" && error?.context["paymentId"]?.hasSuffix("_0") == true)
        }
    }

    @Test("without a status category, a refusing status (REJECTED) decides; a completed payment is returned")
    func statusWithoutCategory() async throws {
        try await withServerEmulator("worldline", ServerEmulatorTests.worldlineArguments + ["--mode", "2xx-REJECTED-uncategorised"]) {
            server in
            let error = await thrown {
                try await ServerEmulatorTests.worldline(server).createPayment(try ServerEmulatorTests.payment()).get()
            }
            #expect(error?.code == .worldlinePaymentRejected && error?.context["statusCategory"] == nil)
        }
        try await withServerEmulator("worldline", ServerEmulatorTests.worldlineArguments + ["--mode", "2xx-CAPTURED"]) { server in
            let payment = try await ServerEmulatorTests.worldline(server).createPayment(try ServerEmulatorTests.payment()).get()
            #expect(payment.status == "CAPTURED" && payment.statusCategory == "COMPLETED" && !payment.isUnsuccessful)
        }
    }

    @Test(
        "the category wins over the status when both are sent; a category or status the API does not document, or status code 52 or 92, is unknown, never success"
    )
    func categoryDecides() async throws {
        enum Expected { case succeeded, refused, unknown }
        let cases: [(String, Expected)] = [
            (#""status":"REJECTED","statusOutput":{"statusCategory":"UNSUCCESSFUL"}"#, .refused),
            (#""status":"SOMETHING_NEW","statusOutput":{"statusCategory":"UNSUCCESSFUL"}"#, .refused),
            (#""status":"CANCELLED","statusOutput":{"statusCategory":"PENDING_MERCHANT"}"#, .succeeded),
            (#""status":"REJECTED_CREDIT""#, .refused),
            (#""status":"PENDING_CAPTURE""#, .succeeded),
            (#""status":"CREATED","statusOutput":{"statusCategory":"ACCOUNT_VERIFIED"}"#, .unknown),
            (#""status":"SOMETHING_NEW""#, .unknown),
            (#""status":"PENDING_CAPTURE","statusOutput":{"statusCategory":"PENDING_CONNECT_OR_3RD_PARTY","statusCode":52}"#, .unknown),
            (#""status":"PENDING_CAPTURE","statusOutput":{"statusCategory":"PENDING_MERCHANT","statusCode":92}"#, .unknown),
            (#""status":"CAPTURED","statusOutput":{"statusCategory":"COMPLETED","statusCode":9}"#, .succeeded),
        ]
        for (members, expected) in cases {
            let transport = RecordingTransport(status: 201, json: #"{"payment":{"id":"1_0",\#(members)}}"#)
            let client = WorldlineServerClient(
                credentials: try WorldlineServerCredentials(merchantID: "1234", apiKeyID: "k", secretAPIKey: secret("s")),
                environment: .worldlinePreproduction, http: try client(transport))
            switch try await client.createPayment(try ServerEmulatorTests.payment(), idempotenceKey: IdempotenceKey("order-1")) {
            case .succeeded: #expect(expected == .succeeded, "\(members)")
            case .refused(_, let error): #expect(expected == .refused && error.code == .worldlinePaymentRejected, "\(members)")
            case .pending: Issue.record("a pending outcome for \(members)")
            case .unknown(let keys, let error):
                #expect(expected == .unknown, "\(members)")
                #expect(keys.paymentID == "1_0" && keys.idempotenceKey?.text == "order-1" && error.code == .serverOutcomeUnknown)
                #expect(error.underlying?.code == .worldlinePaymentUndetermined)
            }
        }
    }

    @Test("a retry refused before sending keeps the outcome unknown when the first attempt may have been processed")
    func retryRefusedAfterReset() async throws {
        let reset = CSEError(.httpConnectionFailed, "reset", context: ["curlCode": "56"])
        let refused = CSEError(.httpConnectionFailed, "refused", context: ["curlCode": "7"])
        var configuration = HTTPClientConfiguration()
        configuration.backoffBase = .milliseconds(1)
        configuration.maxBackoff = .milliseconds(2)
        // Wall-time deadline: a full parallel `swift test` can starve the pool for tens of seconds.
        configuration.deadline = .seconds(600)
        let transport = RecordingTransport([.failure(reset), .failure(refused), .failure(refused)])
        let client = WorldlineServerClient(
            credentials: try WorldlineServerCredentials(merchantID: "1234", apiKeyID: "k", secretAPIKey: secret("s")),
            environment: .worldlinePreproduction, http: try HTTPClient(configuration: configuration, transport: transport))
        let outcome = try await client.createPayment(try ServerEmulatorTests.payment(), idempotenceKey: IdempotenceKey("order-2"))
        guard case .unknown(let keys, let error) = outcome else {
            Issue.record("not unknown: \(outcome)")
            return
        }
        #expect(keys.idempotenceKey?.text == "order-2" && error.underlying?.context["curlCode"] == "56")
        #expect(transport.requests.count == 3)
    }
}

/// Issue #26: a CreatePayment never loses its outcome. The loopback emulator processes the
/// request (creating the payment and storing its answer under the idempotence key, as the platform
/// does) and then loses the answer in one of the ways a network can; the outcome is `unknown`
/// with the keys, and calling again with the same key returns the first payment without creating
/// a second one.
@Suite("CreatePayment never loses its outcome: unknown with its keys, settled by the same idempotence key")
struct PaymentOutcomeNeverLostTests {
    static let paths = "/v2/1234/payments"

    /// The emulator created exactly `count` payments: the next id is unknown to GetPayment.
    static func expectPaymentsCreated(
        _ count: Int, _ client: WorldlineServerClient, sourceLocation: SourceLocation = #_sourceLocation
    )
        async throws
    {
        for n in 1...count {
            let id = "30660197" + (n < 10 ? "0" : "") + String(n) + "_0"
            #expect(try await client.getPayment(id: id).id == id, sourceLocation: sourceLocation)
        }
        let next = "30660197" + (count + 1 < 10 ? "0" : "") + String(count + 1) + "_0"
        let error = await thrown { try await client.getPayment(id: next) }
        #expect(error?.code == .worldlineAPIError && error?.context["id"] == "UNKNOWN_PAYMENT_ID", sourceLocation: sourceLocation)
    }

    @Test(
        "the answer is lost after the payment was created (late, unreadable 2xx): unknown with the key; the same key returns the first payment",
        arguments: ["late", "malformed", "truncated"])
    func lostAnswer(fault: String) async throws {
        try await withServerEmulator("worldline", ServerEmulatorTests.worldlineArguments) { server in
            let lost: [String: LoopbackEmulator.Fault] = [
                "late": .delay(milliseconds: 2500), "malformed": .malformedBody, "truncated": .truncatedBody.times(3),
            ]
            try server.enqueue(lost[fault]!.afterRoute().onPath(Self.paths))
            let http = try realClient(requestTimeout: .seconds(1))
            let client = try ServerEmulatorTests.worldline(server, http: http)
            let key = try IdempotenceKey("order-1-attempt-1")
            guard
                case .unknown(let keys, let error) = try await client.createPayment(try ServerEmulatorTests.payment(), idempotenceKey: key)
            else {
                Issue.record("\(fault): the outcome is not unknown")
                return
            }
            #expect(keys == PaymentReconciliation(idempotenceKey: key, merchantReference: "order-1"))
            #expect(error.code == .serverOutcomeUnknown && error.context["idempotenceKey"] == "order-1-attempt-1")
            Canary.check(error.description)
            // Settle it: the same key again. The emulator replays the first answer.
            let settled = try await client.createPayment(try ServerEmulatorTests.payment(), idempotenceKey: key).get()
            #expect(settled.id == "3066019701_0" && settled.status == "PENDING_CAPTURE")
            try await Self.expectPaymentsCreated(1, client)
        }
    }

    @Test("a payment created without a key succeeds with the references of the call: the key the client made and sent, and the reference")
    func succeededCarriesTheReferences() async throws {
        try await withServerEmulator("worldline", ServerEmulatorTests.worldlineArguments) { server in
            let client = try ServerEmulatorTests.worldline(server)
            guard case .succeeded(_, let keys) = try await client.createPayment(try ServerEmulatorTests.payment()) else {
                Issue.record("the outcome is not succeeded")
                return
            }
            let sent = try server.requests().filter { $0.path == Self.paths }.compactMap { $0.header("X-GCS-Idempotence-Key") }
            #expect(sent.count == 1 && keys.idempotenceKey?.text == sent.first && keys.merchantReference == "order-1")
            let given = try IdempotenceKey("order-1-attempt-2")
            guard case .succeeded(_, let again) = try await client.createPayment(try ServerEmulatorTests.payment(), idempotenceKey: given)
            else {
                Issue.record("the outcome with a given key is not succeeded")
                return
            }
            #expect(again == PaymentReconciliation(idempotenceKey: given, merchantReference: "order-1"))
        }
    }

    @Test("the connection is cut after the request was read: the transport repeats it with the same key, and one payment exists")
    func connectionCut() async throws {
        try await withServerEmulator("worldline", ServerEmulatorTests.worldlineArguments) { server in
            try server.enqueue(LoopbackEmulator.Fault.drop.afterRoute().onPath(Self.paths))
            let client = try ServerEmulatorTests.worldline(server)
            let payment = try await client.createPayment(try ServerEmulatorTests.payment()).get()
            #expect(payment.id == "3066019701_0")
            let log = try server.requests().filter { $0.path == Self.paths }
            #expect(log.count == 2 && Set(log.compactMap { $0.header("X-GCS-Idempotence-Key") }).count == 1)
            try await Self.expectPaymentsCreated(1, client)
        }
    }

    @Test("a 502 without retriable errors is unknown (it may have been processed); a 503 whose errors are all retriable processed nothing")
    func serverErrors() async throws {
        try await withServerEmulator("worldline", ServerEmulatorTests.worldlineArguments + ["--mode", "error502"]) { server in
            let outcome = try await ServerEmulatorTests.worldline(server).createPayment(try ServerEmulatorTests.payment())
            guard case .unknown(_, let error) = outcome else { Issue.record("502: not unknown"); return }
            #expect(error.underlying?.code == .worldlineAPIError && error.underlying?.context["status"] == "502")
            // The transport repeated it with the same key, and the platform replayed the stored 502.
            let keys = try server.requests().compactMap { $0.header("X-GCS-Idempotence-Key") }
            #expect(keys.count == 3 && Set(keys).count == 1)
        }
        try await withServerEmulator("worldline", ServerEmulatorTests.worldlineArguments + ["--mode", "error503-retriable"]) { server in
            let error = await thrown { try await ServerEmulatorTests.worldline(server).createPayment(try ServerEmulatorTests.payment()) }
            #expect(error?.code == .worldlineAPIError && error?.context["status"] == "503")
        }
    }

    @Test("409 DUPLICATE_REQUEST_IN_PROGRESS (the first attempt still runs) is unknown; a 409 about something else is an error")
    func inProgress() async throws {
        try await withServerEmulator("worldline", ServerEmulatorTests.worldlineArguments) { server in
            try server.enqueue(
                .json(409, #"{"errorId":"e","errors":[{"id":"DUPLICATE_REQUEST_IN_PROGRESS","httpStatusCode":409}]}"#).onPath(Self.paths))
            let outcome = try await ServerEmulatorTests.worldline(server).createPayment(try ServerEmulatorTests.payment())
            guard case .unknown(let keys, _) = outcome else { Issue.record("409: not unknown"); return }
            #expect(keys.idempotenceKey != nil)
            try server.enqueue(
                .json(409, #"{"errorId":"e","errors":[{"id":"DUPLICATE_REFERENCE","httpStatusCode":409}]}"#).onPath(Self.paths))
            let error = await thrown { try await ServerEmulatorTests.worldline(server).createPayment(try ServerEmulatorTests.payment()) }
            #expect(error?.code == .worldlineAPIError && error?.context["status"] == "409")
        }
    }

    @Test("a refused payment (402) is refused with its payment; GetPayment returns it as it stands")
    func refusedAndLookedUp() async throws {
        try await withServerEmulator("worldline", ServerEmulatorTests.worldlineArguments + ["--mode", "reject"]) { server in
            let client = try ServerEmulatorTests.worldline(server)
            guard case .refused(let payment?, let error) = try await client.createPayment(try ServerEmulatorTests.payment()) else {
                Issue.record("not refused with a payment")
                return
            }
            #expect(error.code == .worldlinePaymentRejected && payment.status == "REJECTED")
            let looked = try await client.getPayment(id: payment.id)
            #expect(looked.id == payment.id && looked.status == "REJECTED" && looked.maskedCardNumber == "411111******1111")
            Canary.check(looked.description + looked.json.serialized + error.description)
        }
    }

    @Test("nothing sent, nothing unknown: a refused connection throws the transport error, not an unknown outcome")
    func refusedConnection() async throws {
        let client = WorldlineServerClient(
            credentials: try WorldlineServerCredentials(merchantID: "1234", apiKeyID: "k", secretAPIKey: secret("s")),
            environment: try ServerEnvironment(origin: "http://127.0.0.1:9"), http: try realClient())
        let error = await thrown { try await client.createPayment(try ServerEmulatorTests.payment()) }
        #expect(error?.code == .httpConnectionFailed)
    }

    @Test("an idempotence key is 1 to 40 printable ASCII characters; a new one is a version 4 UUID")
    func keys() throws {
        for bad in ["", String(repeating: "k", count: 41), "has space", "tab\t", "é"] {
            #expect(throws: CSEError(.serverAPIInvalidArgument, "")) { try IdempotenceKey(bad) }
        }
        #expect(try IdempotenceKey(String(repeating: "k", count: 40)).text.count == 40)
        let fresh = try IdempotenceKey()
        let other = try IdempotenceKey()
        #expect(fresh.text.count == 36 && Array(fresh.text)[14] == "4" && fresh != other)
    }
}
