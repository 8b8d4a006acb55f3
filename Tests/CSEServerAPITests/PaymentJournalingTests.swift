import CSECore
@_spi(CustomTransport) import CSEHTTP
import CSEServerAPI
import Foundation
import Synchronization
import Testing
import TestSupport

/// A journal in memory that records every call, for the gate's tests (a conformer of the kind an
/// integrator writes over their own order database).
final class MemoryJournal: PaymentJournal {
    struct Row: Sendable {
        var intent: JournalIntent
        var outcome: JournalOutcome?
    }

    private let rows = Mutex<[Row]>([])
    private let failsIntents: Bool

    init(failsIntents: Bool = false) { self.failsIntents = failsIntents }

    func recordIntent(_ intent: JournalIntent) throws(CSEError) -> JournalEntryID {
        if failsIntents { throw CSEError(.journalUnavailable, "the disk is full") }
        return rows.withLock { rows in
            rows.append(Row(intent: intent))
            return JournalEntryID(Int64(rows.count))
        }
    }

    func recordOutcome(_ id: JournalEntryID, _ outcome: JournalOutcome) throws(CSEError) {
        rows.withLock { $0[Int(id.rawValue) - 1].outcome = outcome }
    }

    func entries(matching filter: JournalFilter) throws(CSEError) -> [JournalEntry] { [] }

    var all: [Row] { rows.withLock { $0 } }
}

extension CSEError.Code {
    /// The code `MemoryJournal` fails with (the SQLite journal's own code, declared in CSEJournal).
    static let journalUnavailable = Self("journal.unavailable")
}

@Suite("The journal gate: every money-moving call records its intent before the request leaves and its outcome after (issue #36)")
struct PaymentJournalingTests {
    /// A Worldline client of `server` with `journal` (or none), quick retries and generous deadlines.
    static func client(_ server: LoopbackEmulator, journal: (any PaymentJournal)?) throws -> WorldlineServerClient {
        var configuration = HTTPClientConfiguration()
        configuration.journal = journal
        configuration.deadline = .seconds(600)
        configuration.requestTimeout = .seconds(60)
        configuration.backoffBase = .milliseconds(20)
        configuration.maxBackoff = .milliseconds(100)
        let credentials = try WorldlineServerCredentials(
            merchantID: "1234", apiKeyID: "5e45c937b9db33ae", secretAPIKey: secret(Canary.worldlineSecret))
        return try WorldlineServerClient(
            credentials: credentials, environment: try ServerEnvironment(origin: server.baseURL), configuration: configuration)
    }

    @Test("A payment: the intent names the amount, currency, reference and key; the outcome succeeded with the payment id")
    func succeeded() async throws {
        try await withServerEmulator("worldline", ServerEmulatorTests.worldlineArguments) { server in
            let journal = MemoryJournal()
            let outcome = try await Self.client(server, journal: journal)
                .createPayment(try ServerEmulatorTests.payment(), idempotenceKey: IdempotenceKey("order-1-key"))
            guard case .succeeded(let payment, let keys) = outcome else {
                Issue.record("not succeeded")
                return
            }
            #expect(keys.journalEntry == JournalEntryID(1))
            let row = try #require(journal.all.first)
            #expect(
                row.intent
                    == JournalIntent(
                        platform: "worldline", operation: "createPayment", amount: 2345, currency: "EUR", merchantReference: "order-1",
                        idempotenceKey: "order-1-key"))
            #expect(row.outcome == JournalOutcome(state: .succeeded, platformIDs: ["paymentId": payment.id]))
        }
    }

    @Test("An intent the journal cannot record: the call fails with the journal's code and nothing reaches the platform")
    func intentNotRecorded() async throws {
        try await withServerEmulator("worldline", ServerEmulatorTests.worldlineArguments) { server in
            let error = await thrown {
                try await Self.client(server, journal: MemoryJournal(failsIntents: true)).createPayment(try ServerEmulatorTests.payment())
            }
            let log = try server.requests()
            #expect(error?.code == .journalUnavailable && log.isEmpty)
        }
    }

    @Test("An unknown outcome is recorded unknown with its cause and the keys that settle it; the keys name the entry")
    func unknown() async throws {
        try await withServerEmulator("worldline", ServerEmulatorTests.worldlineArguments) { server in
            try server.enqueue(LoopbackEmulator.Fault.json(500, #"{"errorId":"e","errors":[{"code":"9999","retriable":false}]}"#))
            let journal = MemoryJournal()
            let outcome = try await Self.client(server, journal: journal)
                .createPayment(try ServerEmulatorTests.payment(), idempotenceKey: IdempotenceKey("k-500"))
            guard case .unknown(let keys, let error) = outcome else {
                Issue.record("not unknown")
                return
            }
            #expect(keys.journalEntry == JournalEntryID(1) && keys.idempotenceKey?.text == "k-500")
            let recorded = try #require(journal.all.first?.outcome)
            #expect(recorded.state == .unknown && recorded.code == error.underlying?.code.rawValue)
        }
    }

    @Test(
        "A request refused before anything was sent (the connection refused) is recorded notSent; a platform refusal refused with its code")
    func notSentAndRefused() async throws {
        let journal = MemoryJournal()
        var configuration = HTTPClientConfiguration()
        configuration.journal = journal
        // One attempt, and a deadline no loaded machine reaches: the only failure is the refusal.
        configuration.maxRetries = 0
        configuration.deadline = .seconds(600)
        configuration.requestTimeout = .seconds(60)
        let credentials = try WorldlineServerCredentials(
            merchantID: "1234", apiKeyID: "5e45c937b9db33ae", secretAPIKey: secret(Canary.worldlineSecret))
        // A port nothing listens on: the connection is refused before a byte is sent.
        let closed = try WorldlineServerClient(
            credentials: credentials, environment: try ServerEnvironment(origin: "http://127.0.0.1:9"), configuration: configuration)
        let error = await thrown { try await closed.createPayment(try ServerEmulatorTests.payment()) }
        #expect(error?.provesRequestNotSent == true)
        #expect(journal.all.first?.outcome?.state == .notSent && journal.all.first?.outcome?.code == error?.code.rawValue)

        try await withServerEmulator("worldline", ServerEmulatorTests.worldlineArguments) { server in
            try server.enqueue(
                LoopbackEmulator.Fault.json(
                    402,
                    #"{"errorId":"e","errors":[{"code":"30511001"}],"paymentResult":{"payment":{"id":"9_0","status":"REJECTED","statusOutput":{"statusCategory":"UNSUCCESSFUL","statusCode":2}}}}"#
                ))
            let refusing = MemoryJournal()
            let outcome = try await Self.client(server, journal: refusing).createPayment(try ServerEmulatorTests.payment())
            guard case .refused(_, let error) = outcome else {
                Issue.record("not refused")
                return
            }
            #expect(
                refusing.all.first?.outcome == JournalOutcome(state: .refused, code: error.code.rawValue, platformIDs: ["paymentId": "9_0"])
            )
        }
    }

    @Test("A capture journals as the operation on its payment, with the amount and the operation's key")
    func capture() async throws {
        try await withServerEmulator("worldline", ServerEmulatorTests.worldlineArguments) { server in
            let journal = MemoryJournal()
            let client = try Self.client(server, journal: journal)
            let payment = try await client.createPayment(try ServerEmulatorTests.payment()).get()
            _ = try await client.capturePayment(
                payment.id, try WorldlineCaptureRequest(amount: 1000), idempotenceKey: IdempotenceKey("cap-1"))
            let row = try #require(journal.all.last)
            #expect(row.intent.operation == "capture" && row.intent.amount == 1000 && row.intent.idempotenceKey == "cap-1")
            #expect(row.intent.platformIDs == ["paymentId": payment.id] && row.outcome?.state == .succeeded)
        }
    }

    @Test("PaymentAction prints as the CLI contract says: redirect (with RETURNMAC), html, mobile-challenge")
    func actions() throws {
        #expect(
            PaymentAction.redirect(url: "https://acs.example/c?x=1", method: "GET", returnMAC: "mac-1").json.serialized
                == #"{"type":"redirect","url":"https://acs.example/c?x=1","method":"GET","returnmac":"mac-1"}"#)
        #expect(PaymentAction.html("<form/>").json.serialized == #"{"type":"html","html":"<form/>"}"#)
        #expect(
            PaymentAction.mobileChallenge(parameters: ["b": "2", "a": "1"]).json.serialized
                == #"{"type":"mobile-challenge","parameters":{"a":"1","b":"2"}}"#)
        let pending = PaymentOutcome<Int>.pending(
            7, .html("<form/>"), PaymentReconciliation(idempotenceKey: try IdempotenceKey("k")))
        let error = #expect(throws: CSEError.self) { try pending.get() }
        #expect(error?.code == .serverPaymentPending && error?.context["idempotenceKey"] == "k" && error?.context["action"] == "html")
    }
}
