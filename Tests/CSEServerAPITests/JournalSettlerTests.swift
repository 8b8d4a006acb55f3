import CSECore
@_spi(CustomTransport) import CSEHTTP
import CSEServerAPI
import Foundation
import Synchronization
import Testing
import TestSupport

/// A journal in memory that answers `entries(matching:)`, as an integrator's own store would.
final class ListingJournal: PaymentJournal {
    private let rows = Mutex<[JournalEntry]>([])

    func recordIntent(_ intent: JournalIntent) throws(CSEError) -> JournalEntryID {
        rows.withLock { rows in
            let id = JournalEntryID(Int64(rows.count + 1))
            rows.append(JournalEntry(id: id, intent: intent, state: .open, platformIDs: intent.platformIDs, createdAt: 0, updatedAt: 0))
            return id
        }
    }

    func recordOutcome(_ id: JournalEntryID, _ outcome: JournalOutcome) throws(CSEError) {
        rows.withLock { rows in
            let old = rows[Int(id.rawValue) - 1]
            rows[Int(id.rawValue) - 1] = JournalEntry(
                id: id, intent: old.intent, state: outcome.state, code: outcome.code, action: outcome.action,
                platformIDs: old.platformIDs.merging(outcome.platformIDs) { _, new in new }, createdAt: 0, updatedAt: 1)
        }
    }

    func entries(matching filter: JournalFilter) throws(CSEError) -> [JournalEntry] {
        rows.withLock { rows in
            rows.filter { row in (!filter.openOnly || row.state.isOpen) && (filter.platform.map { row.intent.platform == $0 } ?? true) }
        }
    }

    var all: [JournalEntry] { rows.withLock { $0 } }
}

/// Issue #36, `JournalSettler` in the library: each platform's lookup settles an open entry with
/// the recorded keys and never sends again a request that may have been processed.
@Suite("JournalSettler: the platform's lookup settles open entries; nothing that may have been processed is resent")
struct JournalSettlerTests {
    @Test("Worldline: a lost CreatePayment answer is settled by its idempotence key with an empty body; no payment data is resent")
    func worldlineReplay() async throws {
        try await withServerEmulator("worldline", ServerEmulatorTests.worldlineArguments) { server in
            let journal = ListingJournal()
            try server.enqueue(LoopbackEmulator.Fault.drop.afterRoute().times(5).onPath("/v2/1234/payments"))
            let outcome = try await PaymentJournalingTests.client(server, journal: journal)
                .createPayment(try ServerEmulatorTests.payment(), idempotenceKey: IdempotenceKey("lost-answer-1"))
            guard case .unknown = outcome else {
                Issue.record("expected an unknown outcome, got \(outcome)")
                return
            }
            #expect(journal.all.first?.state == .unknown && journal.all.first?.platformIDs["paymentId"] == nil)
            // The client's attempts all carried the one key, so the platform made one payment.
            let attempts = try server.requests().filter { $0.method == "POST" && $0.path == "/v2/1234/payments" }
            #expect(!attempts.isEmpty && attempts.allSatisfy { $0.header("X-GCS-Idempotence-Key") == "lost-answer-1" })
            try server.reset()
            let settlement = try await JournalSettler(journal: journal).settle(with: PaymentJournalingTests.client(server, journal: nil))
            let entry = try #require(settlement.entries.first?.entry)
            #expect(entry.state == .succeeded && entry.platformIDs["paymentId"]?.isEmpty == false, "\(entry)")
            #expect(!settlement.hasUnknown && !settlement.hasPending)
            // Settling sent the key once more, with no payment data.
            let posts = try server.requests().filter { $0.method == "POST" }
            #expect(posts.count == 1 && posts.first?.body == Array("{}".utf8), "\(posts)")
            #expect(posts.first?.header("X-GCS-Idempotence-Key") == "lost-answer-1")
        }
    }

    @Test("Worldline: an intent that never left is proved not sent (the platform refuses the empty body of an unknown key)")
    func worldlineNotSent() async throws {
        try await withServerEmulator("worldline", ServerEmulatorTests.worldlineArguments) { server in
            let journal = ListingJournal()
            _ = try journal.recordIntent(
                JournalIntent(
                    platform: "worldline", operation: "createPayment", amount: 2345, currency: "EUR", idempotenceKey: "never-sent-1"))
            // A capture of a real payment whose request never left, and one that was booked.
            let payment = try await PaymentJournalingTests.client(server, journal: nil).createPayment(
                try ServerEmulatorTests.payment(), idempotenceKey: IdempotenceKey("made-1")
            ).get()
            _ = try journal.recordIntent(
                JournalIntent(
                    platform: "worldline", operation: "capture", merchantReference: "cap-unsent", platformIDs: ["paymentId": payment.id]))
            _ = try await PaymentJournalingTests.client(server, journal: nil).capturePayment(
                payment.id, try WorldlineCaptureRequest(amount: 1000, merchantReference: "cap-booked")
            ).get()
            _ = try journal.recordIntent(
                JournalIntent(
                    platform: "worldline", operation: "capture", merchantReference: "cap-booked", platformIDs: ["paymentId": payment.id]))
            let settlement = try await JournalSettler(journal: journal).settle(with: PaymentJournalingTests.client(server, journal: nil))
            #expect(settlement.entries.map(\.entry.state) == [.notSent, .notSent, .succeeded], "\(settlement.entries)")
            #expect(settlement.entries.last?.entry.platformIDs["operationId"]?.isEmpty == false)
            let captures = try server.requests().filter { $0.method == "POST" && $0.path.hasSuffix("/capture") }
            #expect(captures.count == 1, "settling sent no capture")
        }
    }
}
