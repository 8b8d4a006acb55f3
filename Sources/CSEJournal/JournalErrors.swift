public import CSECore

extension CSEError.Code {
    /// The journal file or its directory is not safe to use: a symbolic link, not a regular file
    /// or directory, owned by another user, or readable or writable by group or others. Nothing
    /// is recorded and nothing is sent. The context names the path's role, never its contents.
    public static let journalUnsafeFile = Self("journal.unsafeFile")
    /// The file is not a CSEKit journal: not an SQLite database, or one made by another
    /// application (its `application_id`). Nothing is recorded and nothing is sent.
    public static let journalForeignFile = Self("journal.foreignFile")
    /// The journal was written by a newer CSEKit (its schema version is above the one this build
    /// knows). Nothing is recorded and nothing is sent. The context gives both versions.
    public static let journalNewerSchema = Self("journal.newerSchema")
    /// The journal cannot be read or written: SQLite reported corruption, a full disk, an I/O
    /// error, or the database stayed locked past the bounded wait. The context gives SQLite's
    /// result code. When this happens while recording an intent, nothing is sent.
    public static let journalUnavailable = Self("journal.unavailable")
    /// ``PaymentJournal/recordOutcome(_:_:)`` named an entry the journal does not hold.
    public static let journalUnknownEntry = Self("journal.unknownEntry")
}
