public import CSECore
internal import CSQLite

#if canImport(Glibc)
internal import Glibc
#elseif canImport(Musl)
internal import Musl
#endif

/// The default ``PaymentJournal``: one SQLite database file (Debian's `libsqlite3`), in WAL mode
/// with `synchronous = FULL`, so an intent is on disk (the write-ahead log fsync'd) before
/// ``recordIntent(_:)`` returns. Several processes may share one file: every write is an
/// `IMMEDIATE` transaction, and every statement that meets another connection's lock (the
/// open-time schema check and `journal_mode = WAL` included) waits for it, up to
/// ``busyTimeoutMilliseconds`` per statement, never reporting "database is locked" before that
/// bound. libsqlite3 is loaded when the first journal opens (`journal.unavailable` when it is
/// missing), never at start-up.
///
/// The file is created mode 0600 (its directory 0700 when the journal creates it). A path that is
/// a symbolic link, a file or directory of another user, or one that group or others may read or
/// write, is refused (`journal.unsafeFile`), as is a file that is not a CSEKit journal
/// (`journal.foreignFile`) or one of a newer schema (`journal.newerSchema`). The schema is in
/// `docs/JOURNAL.md`, for operators who query the file with the `sqlite3` shell.
public final class SQLiteJournal: PaymentJournal {
    /// The schema version this build writes and reads (`PRAGMA user_version`).
    public static let schemaVersion: Int64 = 2
    /// The SQLite `application_id` of a CSEKit journal: `CSJ1` as a big-endian 32-bit number.
    static let applicationID: Int64 = 0x4353_4A31
    /// How long one statement waits for other connections' locks before `journal.unavailable`:
    /// 60 s. SQLite's busy handler is not fair, so under heavy fsync load one writer among several
    /// can lose the lock many times in a row; 10 s proved too short on a loaded machine.
    public static let busyTimeoutMilliseconds: Int32 = 60_000

    /// The database file.
    public let path: String
    private let connection: ThreadLock<SQLiteConnection>
    private let now: @Sendable () -> Int64

    /// Opens the journal at `path`, creating it (and, when `createsDirectory`, its directory, mode
    /// 0700) if it does not exist, and bringing an older schema up to ``schemaVersion``.
    /// - Parameters:
    ///   - path: The database file.
    ///   - createsDirectory: Whether a missing directory is created (the CLI's default location);
    ///     otherwise it must exist.
    ///   - now: The clock of `createdAt` and `updatedAt`, milliseconds since the Unix epoch; the
    ///     system's real-time clock by default.
    /// - Throws: `journal.unsafeFile`, `journal.foreignFile`, `journal.newerSchema` or
    ///   `journal.unavailable`.
    public init(
        path: String, createsDirectory: Bool = false, now: (@Sendable () -> Int64)? = nil
    ) throws(CSEError) {
        try JournalFileSafety.prepare(path: path, createsDirectory: createsDirectory)
        let connection = try SQLiteConnection(path: path, busyTimeoutMilliseconds: Self.busyTimeoutMilliseconds)
        try JournalSchema.open(connection)
        self.path = path
        self.connection = ThreadLock(connection)
        self.now = now ?? { SystemClock.unixMilliseconds() }
    }

    /// Records the intent in its own transaction, durable when this returns.
    public func recordIntent(_ intent: JournalIntent) throws(CSEError) -> JournalEntryID {
        let time = now()
        return try connection.withLock { (connection) throws(CSEError) -> JournalEntryID in
            try connection.query(
                """
                INSERT INTO entry (platform, operation, amount, currency, merchant_reference, idempotence_key, platform_ids,
                                   state, code, created_at, updated_at)
                VALUES (?, ?, ?, ?, ?, ?, ?, 'open', NULL, ?, ?)
                """,
                [
                    .text(intent.platform), .text(intent.operation), .optional(intent.amount), .optional(intent.currency),
                    .optional(intent.merchantReference), .optional(intent.idempotenceKey), .text(Self.json(intent.platformIDs)),
                    .integer(time), .integer(time),
                ])
            return JournalEntryID(connection.lastInsertRowID)
        }
    }

    /// Records the outcome of entry `id`, merging the answer's ids into the entry's.
    public func recordOutcome(_ id: JournalEntryID, _ outcome: JournalOutcome) throws(CSEError) {
        let time = now()
        try connection.withLock { (connection) throws(CSEError) in
            try connection.execute("BEGIN IMMEDIATE")
            do throws(CSEError) {
                var known: [String: String]?
                try connection.query("SELECT platform_ids FROM entry WHERE id = ?", [.integer(id.rawValue)]) { row in
                    known = Self.ids(row.text(0))
                }
                guard var ids = known else {
                    throw CSEError(.journalUnknownEntry, "the journal holds no entry with this id", context: ["entry": id.description])
                }
                ids.merge(outcome.platformIDs) { _, new in new }
                try connection.query(
                    "UPDATE entry SET state = ?, code = ?, action = ?, platform_ids = ?, updated_at = ? WHERE id = ?",
                    [
                        .text(outcome.state.rawValue), .optional(outcome.code), .optional(outcome.action), .text(Self.json(ids)),
                        .integer(time), .integer(id.rawValue),
                    ])
                try connection.execute("COMMIT")
            } catch {
                try? connection.execute("ROLLBACK")
                throw error
            }
        }
    }

    /// The entries matching `filter`, oldest first.
    public func entries(matching filter: JournalFilter) throws(CSEError) -> [JournalEntry] {
        var conditions: [String] = []
        var arguments: [SQLiteValue] = []
        if filter.openOnly { conditions.append("state IN ('open', 'pending', 'unknown')") }
        if let platform = filter.platform {
            conditions.append("platform = ?")
            arguments.append(.text(platform))
        }
        if let since = filter.since {
            conditions.append("created_at >= ?")
            arguments.append(.integer(since))
        }
        let clause = conditions.isEmpty ? "" : " WHERE " + conditions.joined(separator: " AND ")
        return try connection.withLock { (connection) throws(CSEError) -> [JournalEntry] in
            var entries: [JournalEntry] = []
            try connection.query(
                """
                SELECT id, platform, operation, amount, currency, merchant_reference, idempotence_key, platform_ids, state, code,
                       created_at, updated_at, action
                FROM entry\(clause) ORDER BY id
                """, arguments
            ) { row in
                let ids = Self.ids(row.text(7))
                let intent = JournalIntent(
                    platform: row.text(1) ?? "", operation: row.text(2) ?? "", amount: row.optionalInteger(3), currency: row.text(4),
                    merchantReference: row.text(5), idempotenceKey: row.text(6), platformIDs: ids)
                entries.append(
                    JournalEntry(
                        id: JournalEntryID(row.integer(0)), intent: intent, state: JournalState(rawValue: row.text(8) ?? "") ?? .unknown,
                        code: row.text(9), action: row.text(12), platformIDs: ids, createdAt: row.integer(10),
                        updatedAt: row.integer(11)))
            }
            return entries
        }
    }

    /// `ids` as a compact JSON object with sorted members.
    static func json(_ ids: [String: String]) -> String {
        JSONValue.object(JSONObject(ids.sorted { $0.key < $1.key }.map { ($0.key, .string($0.value)) })).serialized
    }

    /// The ids of a stored JSON object (empty for anything else).
    static func ids(_ text: String?) -> [String: String] {
        guard let text, let object = (try? JSONValue.parse(text))?.objectValue else { return [:] }
        var ids: [String: String] = [:]
        for (name, value) in object { if let value = value.stringValue { ids[name] = value } }
        return ids
    }
}
