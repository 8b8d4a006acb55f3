internal import CSECore

/// The journal's schema and its migrations (documented in `docs/JOURNAL.md`). Version 0 is an
/// empty file; each migration moves the file one version up, inside the opening transaction, so
/// a crash mid-migration leaves the older version whole.
enum JournalSchema {
    /// The statements that bring a file from version `index` to `index + 1`.
    static let migrations: [String] = [
        // 0 → 1: the entries.
        """
        CREATE TABLE entry (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            platform TEXT NOT NULL,
            operation TEXT NOT NULL,
            amount INTEGER,
            currency TEXT,
            merchant_reference TEXT,
            idempotence_key TEXT,
            platform_ids TEXT NOT NULL DEFAULT '{}',
            state TEXT NOT NULL CHECK (state IN ('open', 'succeeded', 'refused', 'pending', 'unknown', 'notSent')),
            code TEXT,
            created_at INTEGER NOT NULL,
            updated_at INTEGER NOT NULL
        );
        CREATE INDEX entry_by_platform_state ON entry (platform, state);
        """,
        // 1 → 2: what a pending payment waits for (issue #34): the action's type, never its URL or page.
        "ALTER TABLE entry ADD COLUMN action TEXT;",
    ]

    /// Checks the file's identity and version, switches it to WAL, and migrates it.
    /// - Throws: `journal.foreignFile`, `journal.newerSchema` or `journal.unavailable`.
    static func open(_ connection: SQLiteConnection) throws(CSEError) {
        // Read before writing anything, so a foreign database is left as it was; in one read
        // transaction, so the three values are of one moment (another process may be creating the
        // schema of a new file meanwhile: read apart, its tables could be seen without its id).
        try connection.execute("BEGIN")
        let application: Int64, version: Int64, tables: Int64
        do throws(CSEError) {
            (application, version) = try identity(connection)
            tables = try tableCount(connection)
            try connection.execute("COMMIT")
        } catch {
            try? connection.execute("ROLLBACK")
            throw error
        }
        let isNew = application == 0 && version == 0 && tables == 0
        guard isNew || application == SQLiteJournal.applicationID else {
            throw CSEError(.journalForeignFile, "the file is an SQLite database of another application")
        }
        guard version <= SQLiteJournal.schemaVersion else {
            throw CSEError(
                .journalNewerSchema, "the journal was written by a newer CSEKit",
                context: ["fileVersion": String(version), "supportedVersion": String(SQLiteJournal.schemaVersion)])
        }
        try connection.execute("PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL;")
        guard isNew || version < SQLiteJournal.schemaVersion else { return }
        try connection.execute("BEGIN IMMEDIATE")
        do throws(CSEError) {
            // Another process may have migrated the file while this one waited for the lock.
            let (_, current) = try identity(connection)
            for step in Int(current)..<Int(SQLiteJournal.schemaVersion) { try connection.execute(migrations[step]) }
            try connection.execute(
                "PRAGMA application_id = \(SQLiteJournal.applicationID); PRAGMA user_version = \(SQLiteJournal.schemaVersion);")
            try connection.execute("COMMIT")
        } catch {
            try? connection.execute("ROLLBACK")
            throw error
        }
    }

    /// `PRAGMA application_id` and `PRAGMA user_version`.
    static func identity(_ connection: SQLiteConnection) throws(CSEError) -> (application: Int64, version: Int64) {
        var application: Int64 = 0
        var version: Int64 = 0
        try connection.query("PRAGMA application_id") { application = $0.integer(0) }
        try connection.query("PRAGMA user_version") { version = $0.integer(0) }
        return (application, version)
    }

    private static func tableCount(_ connection: SQLiteConnection) throws(CSEError) -> Int64 {
        var count: Int64 = 0
        try connection.query("SELECT count(*) FROM sqlite_schema") { count = $0.integer(0) }
        return count
    }
}
