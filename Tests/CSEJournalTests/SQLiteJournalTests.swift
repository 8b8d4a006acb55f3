import CSECore
import Foundation
import Testing
import TestSupport

@testable import CSEJournal

/// Issue #36, the store: `SQLiteJournal` records intents and outcomes durably, refuses unsafe,
/// foreign and newer files, and keeps every entry when several connections write at once.
@Suite("The payment journal's SQLite store: intents and outcomes, file safety, schema versions, concurrent writers")
struct SQLiteJournalTests {
    /// A fresh directory of mode 0700 and the journal path inside it.
    static func place() throws -> (directory: String, path: String) {
        let directory = try CommandRunner.temporaryDirectory()
        chmod(directory, 0o700)
        return (directory, directory + "/journal.sqlite")
    }

    static func error(_ body: () throws(CSEError) -> Void) -> CSEError? {
        do throws(CSEError) {
            try body()
            return nil
        } catch {
            return error
        }
    }

    static func code(_ body: () throws(CSEError) -> Void) -> CSEError.Code? { error(body)?.code }

    static func mode(_ path: String) -> mode_t {
        var status = stat()
        lstat(path, &status)
        return status.st_mode & 0o777
    }

    @Test("An intent is open with its keys; its outcome moves it on and merges the platform's ids")
    func intentThenOutcome() throws {
        let (_, path) = try Self.place()
        let journal = try SQLiteJournal(path: path, now: { 1_700_000_000_000 })
        let intent = JournalIntent(
            platform: "mastercard", operation: "capture", amount: 2345, currency: "EUR", merchantReference: "order-1",
            platformIDs: ["orderId": "o-1", "transactionId": "cap-1"])
        let id = try journal.recordIntent(intent)
        let open = try journal.entries(matching: JournalFilter(openOnly: true))
        #expect(open.count == 1 && open[0].id == id && open[0].state == .open && open[0].intent == intent)
        #expect(open[0].createdAt == 1_700_000_000_000)
        try journal.recordOutcome(id, JournalOutcome(state: .succeeded, platformIDs: ["gatewayCode": "APPROVED"]))
        let settled = try #require(try journal.entries(matching: JournalFilter()).first)
        #expect(settled.state == .succeeded && settled.code == nil)
        #expect(settled.platformIDs == ["orderId": "o-1", "transactionId": "cap-1", "gatewayCode": "APPROVED"])
        #expect(try journal.entries(matching: JournalFilter(openOnly: true)).isEmpty)
        #expect(
            Self.code { () throws(CSEError) in try journal.recordOutcome(JournalEntryID(99), JournalOutcome(state: .refused)) }
                == .journalUnknownEntry)
    }

    @Test("Filters: open (open, pending, unknown), by platform, since a time")
    func filters() throws {
        let (_, path) = try Self.place()
        let clock = ThreadLock<Int64>(1_000)
        let journal = try SQLiteJournal(path: path, now: { clock.withLock { $0 } })
        var ids: [JournalEntryID] = []
        for (index, platform) in ["worldline", "aps", "worldline", "paysafe", "worldline", "aps"].enumerated() {
            clock.withLock { $0 = Int64(1_000 + index) }
            ids.append(try journal.recordIntent(JournalIntent(platform: platform, operation: "refund", amount: 1, currency: "EUR")))
        }
        let states: [JournalState] = [.succeeded, .refused, .pending, .unknown, .notSent, .open]
        for (id, state) in zip(ids, states) where state != .open { try journal.recordOutcome(id, JournalOutcome(state: state)) }
        #expect(try journal.entries(matching: JournalFilter(openOnly: true)).map(\.state) == [.pending, .unknown, .open])
        #expect(try journal.entries(matching: JournalFilter(platform: "worldline")).map(\.id) == [ids[0], ids[2], ids[4]])
        #expect(try journal.entries(matching: JournalFilter(since: 1_004)).map(\.id) == [ids[4], ids[5]])
        #expect(JournalState.allCases.filter(\.isOpen) == [.open, .pending, .unknown])
    }

    @Test("The file is created 0600 (its new directory 0700), in WAL mode, and reopens with its entries")
    func creationAndReopen() throws {
        let (directory, _) = try Self.place()
        let path = directory + "/state/cse/journal.sqlite"
        let id = try SQLiteJournal(path: path, createsDirectory: true).recordIntent(JournalIntent(platform: "aps", operation: "capture"))
        #expect(Self.mode(path) == 0o600 && Self.mode(directory + "/state/cse") == 0o700 && Self.mode(directory + "/state") == 0o700)
        let reopened = try SQLiteJournal(path: path)
        #expect(try reopened.entries(matching: JournalFilter()).map(\.id) == [id])
        let shell = try? JWCryptoOracle.run(
            [
                "-c",
                "import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); print(c.execute('PRAGMA journal_mode').fetchone()[0], c.execute('PRAGMA user_version').fetchone()[0])",
                path,
            ],
            input: "")
        if let shell { #expect(shell.joined() == "wal 2", "\(shell)") }
    }

    @Test("A symbolic link, a file open to others, another user's directory mode, or a missing directory is refused; nothing is created")
    func unsafePaths() throws {
        let (directory, path) = try Self.place()
        let target = directory + "/elsewhere.sqlite"
        _ = try SQLiteJournal(path: target)
        symlink(target, path)
        #expect(Self.code { () throws(CSEError) in _ = try SQLiteJournal(path: path) } == .journalUnsafeFile)
        unlink(path)
        FileManager.default.createFile(atPath: path, contents: nil, attributes: [.posixPermissions: 0o644])
        chmod(path, 0o644)
        #expect(Self.code { () throws(CSEError) in _ = try SQLiteJournal(path: path) } == .journalUnsafeFile)
        let open = try Self.place()
        chmod(open.directory, 0o777)
        #expect(Self.code { () throws(CSEError) in _ = try SQLiteJournal(path: open.path) } == .journalUnsafeFile)
        #expect(!FileManager.default.fileExists(atPath: open.path))
        let linkedDirectory = directory + "/linked"
        symlink(open.directory, linkedDirectory)
        chmod(open.directory, 0o700)
        #expect(Self.code { () throws(CSEError) in _ = try SQLiteJournal(path: linkedDirectory + "/journal.sqlite") } == .journalUnsafeFile)
        #expect(
            Self.code { () throws(CSEError) in _ = try SQLiteJournal(path: directory + "/missing/journal.sqlite") } == .journalUnavailable)
    }

    @Test("A file that is not SQLite, another application's database, or a newer schema is refused and left as it was")
    func foreignAndNewer() throws {
        let (directory, _) = try Self.place()
        let text = directory + "/text.sqlite"
        FileManager.default.createFile(atPath: text, contents: Data(repeating: 0x41, count: 4096), attributes: [.posixPermissions: 0o600])
        #expect(Self.code { () throws(CSEError) in _ = try SQLiteJournal(path: text) } == .journalForeignFile)
        #expect(try Data(contentsOf: URL(fileURLWithPath: text)) == Data(repeating: 0x41, count: 4096))
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/python3") else { return }
        let other = directory + "/other.sqlite"
        _ = try JWCryptoOracle.run(
            [
                "-c",
                "import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); c.execute('PRAGMA application_id=7'); c.execute('CREATE TABLE t(x)'); c.commit()",
                other,
            ],
            input: "")
        chmod(other, 0o600)
        #expect(Self.code { () throws(CSEError) in _ = try SQLiteJournal(path: other) } == .journalForeignFile)
        let newer = directory + "/newer.sqlite"
        _ = try SQLiteJournal(path: newer)
        _ = try JWCryptoOracle.run(
            ["-c", "import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); c.execute('PRAGMA user_version=3'); c.commit()", newer], input: "")
        let error = Self.error { () throws(CSEError) in _ = try SQLiteJournal(path: newer) }
        #expect(error?.code == .journalNewerSchema)
        #expect(error?.context["fileVersion"] == "3" && error?.context["supportedVersion"] == "2")
    }

    @Test(
        "Migration: a version-1 file written by another program (the documented DDL) moves to version 2, keeps its rows, takes new ones and a pending entry's action"
    )
    func versionOneFile() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/python3") else { return }
        let (_, path) = try Self.place()
        let ddl = JournalSchema.migrations[0].replacingOccurrences(of: "\n", with: " ")
        _ = try JWCryptoOracle.run(
            [
                "-c",
                "import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); c.executescript(sys.argv[2]); "
                    + "c.execute(\"INSERT INTO entry (platform, operation, state, created_at, updated_at) VALUES ('aps','refund','unknown',5,5)\"); "
                    + "c.execute('PRAGMA application_id=1129531953'); c.execute('PRAGMA user_version=1'); c.commit()",
                path, ddl,
            ], input: "")
        chmod(path, 0o600)
        let journal = try SQLiteJournal(path: path)
        let capture = try journal.recordIntent(JournalIntent(platform: "aps", operation: "capture"))
        #expect(try journal.entries(matching: JournalFilter(openOnly: true)).map(\.intent.operation) == ["refund", "capture"])
        try journal.recordOutcome(capture, JournalOutcome(state: .pending, action: "redirect"))
        let entries = try journal.entries(matching: JournalFilter())
        #expect(entries.map(\.action) == [nil, "redirect"] && entries.map(\.state) == [.unknown, .pending])
        let version = try JWCryptoOracle.run(
            ["-c", "import sqlite3,sys; print(sqlite3.connect(sys.argv[1]).execute('PRAGMA user_version').fetchone()[0])", path], input: "")
        #expect(version == ["2"])
    }

    @Test(
        "Eight writers on their own connections, 250 intents and outcomes each: 2,000 entries, none lost or doubled, no lock failure",
        .tags(.concurrency))
    func concurrentWriters() async throws {
        let (_, path) = try Self.place()
        _ = try SQLiteJournal(path: path)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for writer in 0..<8 {
                group.addTask {
                    let journal = try SQLiteJournal(path: path)
                    for index in 0..<250 {
                        let id = try journal.recordIntent(
                            JournalIntent(platform: "paysafe", operation: "settle", merchantReference: "w\(writer)-\(index)"))
                        try journal.recordOutcome(id, JournalOutcome(state: .succeeded))
                    }
                }
            }
            try await group.waitForAll()
        }
        let entries = try SQLiteJournal(path: path).entries(matching: JournalFilter())
        #expect(entries.count == 2_000)
        #expect(Set(entries.compactMap(\.intent.merchantReference)).count == 2_000)
        #expect(entries.allSatisfy { $0.state == .succeeded })
    }

    @Test(
        "Eight connections opening one new journal at the same instant: each opens it (the file made once, the schema once), none fails",
        .tags(.concurrency))
    func concurrentCreation() async throws {
        for _ in 0..<5 {
            let (_, path) = try Self.place()
            try await withThrowingTaskGroup(of: JournalEntryID.self) { group in
                for writer in 0..<8 {
                    group.addTask {
                        try SQLiteJournal(path: path).recordIntent(
                            JournalIntent(platform: "aps", operation: "capture", merchantReference: "c\(writer)"))
                    }
                }
                var ids: Set<JournalEntryID> = []
                for try await id in group { ids.insert(id) }
                #expect(ids.count == 8)
            }
            #expect(try SQLiteJournal(path: path).entries(matching: JournalFilter()).count == 8)
        }
    }
}
