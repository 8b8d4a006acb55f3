internal import CSECore
internal import CSQLite
internal import CSQLiteLoader

#if canImport(Glibc)
internal import Glibc
#elseif canImport(Musl)
internal import Musl
#endif

/// Owns one SQLite connection (`sqlite3 *`), closed in `deinit`: the one owner of the C handle.
/// Not thread-safe by itself; ``SQLiteJournal`` serialises every use behind its lock.
///
/// libsqlite3 is opened on the first connection (`CSQLiteLoader`), never at start-up: a process
/// that never journals never maps it.
///
/// Every statement that can meet another connection's lock waits for it, within one bound
/// (``busyBound``): SQLite's busy handler waits inside a statement, and a statement that still
/// answers `SQLITE_BUSY` (SQLite returns it without calling the handler when waiting could
/// deadlock, or while another connection recovers the write-ahead log) is tried again after a
/// short pause, until the bound has passed since the statement began. Open-time statements (the
/// schema check, `journal_mode = WAL`, the migration's `BEGIN IMMEDIATE`) go through the same wait.
final class SQLiteConnection {
    private let handle: OpaquePointer
    /// How long one statement may wait for locks before `journal.unavailable`.
    private let busyBound: Duration

    /// Opens `path` read-write, without creating it (the journal makes the file itself, with its
    /// mode, before SQLite opens it), and without following a symbolic link.
    /// - Throws: `journal.unavailable` when libsqlite3 cannot be loaded, or with SQLite's result code.
    init(path: String, busyTimeoutMilliseconds: Int32) throws(CSEError) {
        try Self.load()
        var made: OpaquePointer?
        let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOFOLLOW | SQLITE_OPEN_FULLMUTEX
        let result = CSQLiteLoader_open_v2(path, &made, flags, nil)
        guard result == SQLITE_OK, let made else {
            if let made { CSQLiteLoader_close_v2(made) }
            throw Self.error(result, "the journal could not be opened")
        }
        handle = made
        busyBound = .milliseconds(Int64(busyTimeoutMilliseconds))
        CSQLiteLoader_busy_timeout(handle, busyTimeoutMilliseconds)
        CSQLiteLoader_extended_result_codes(handle, 1)
    }

    deinit { CSQLiteLoader_close_v2(handle) }

    /// Opens libsqlite3 (once per process).
    /// - Throws: `journal.unavailable` naming the library and why it could not be loaded.
    static func load() throws(CSEError) {
        guard CSQLiteLoader_load() == 0 else { return }
        let reason = CSQLiteLoader_load_error().map { String(cString: $0) } ?? "unknown"
        throw CSEError(
            .journalUnavailable, "the SQLite library could not be loaded (install Debian's libsqlite3-0)",
            context: ["library": String(cString: CSQLiteLoader_library_name()), "reason": reason])
    }

    /// Runs `sql` (one or more statements without parameters or results), waiting out locks.
    /// - Throws: the error of ``error(_:_:statement:)``.
    func execute(_ sql: String) throws(CSEError) {
        let result = waitingOutLocks { CSQLiteLoader_exec(handle, sql) }
        guard result == SQLITE_OK else { throw Self.error(result, "a journal statement failed", statement: sql) }
    }

    /// Prepares `sql`, binds `arguments` in order, and calls `row` for each result row. A lock met
    /// before the first row is waited out (the statement is reset and stepped again).
    /// - Throws: the error of ``error(_:_:statement:)``.
    func query(_ sql: String, _ arguments: [SQLiteValue] = [], row: (SQLiteRow) -> Void = { _ in }) throws(CSEError) {
        var statement: OpaquePointer?
        var result = waitingOutLocks { CSQLiteLoader_prepare_v2(handle, sql, -1, &statement, nil) }
        guard result == SQLITE_OK, let statement else {
            throw Self.error(result, "a journal statement could not be prepared", statement: sql)
        }
        defer { CSQLiteLoader_finalize(statement) }
        for (index, argument) in arguments.enumerated() {
            let position = Int32(index + 1)
            switch argument {
            case .null: result = CSQLiteLoader_bind_null(statement, position)
            case .integer(let value): result = CSQLiteLoader_bind_int64(statement, position, value)
            case .text(let value): result = CSQLiteLoader_bind_text(statement, position, value, -1)
            }
            guard result == SQLITE_OK else { throw Self.error(result, "a journal value could not be bound", statement: sql) }
        }
        result = waitingOutLocks {
            let first = CSQLiteLoader_step(statement)
            if first & 0xFF == SQLITE_BUSY { CSQLiteLoader_reset(statement) }
            return first
        }
        while true {
            if result == SQLITE_DONE { return }
            guard result == SQLITE_ROW else { throw Self.error(result, "a journal statement failed", statement: sql) }
            row(SQLiteRow(statement: statement))
            result = CSQLiteLoader_step(statement)
        }
    }

    /// The rowid of the last row inserted on this connection.
    var lastInsertRowID: Int64 { CSQLiteLoader_last_insert_rowid(handle) }

    /// The number of rows the last statement changed.
    var changes: Int32 { CSQLiteLoader_changes(handle) }

    /// Runs `attempt` again, after a pause growing from 1 ms to 50 ms, while it answers
    /// `SQLITE_BUSY` and ``busyBound`` has not passed since the first attempt.
    private func waitingOutLocks(_ attempt: () -> Int32) -> Int32 {
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: busyBound)
        var pause: UInt32 = 1_000
        while true {
            let result = attempt()
            guard result & 0xFF == SQLITE_BUSY, clock.now < deadline else { return result }
            usleep(pause)
            pause = min(pause * 2, 50_000)
        }
    }

    /// `journal.foreignFile` for "not a database", else `journal.unavailable`, naming SQLite's
    /// result code (the primary code decides: corruption, a full disk, an I/O error, busy) and
    /// the statement's first word (`INSERT`, `PRAGMA`, `BEGIN`…: never a value).
    static func error(_ result: Int32, _ reason: String, statement: String? = nil) -> CSEError {
        let primary = result & 0xFF
        let name = String(cString: CSQLiteLoader_errstr(result))
        if primary == SQLITE_NOTADB {
            return CSEError(.journalForeignFile, "the file is not an SQLite database", context: ["sqlite": name])
        }
        var context = ["sqlite": name, "sqliteCode": String(result)]
        if let verb = statement?.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == ";" }).first {
            context["statement"] = String(verb)
        }
        return CSEError(.journalUnavailable, reason, context: context)
    }
}

/// A value bound to a statement parameter.
enum SQLiteValue {
    case null
    case integer(Int64)
    case text(String)

    /// `text`, or `null` for `nil`.
    static func optional(_ text: String?) -> SQLiteValue { text.map { .text($0) } ?? .null }
    /// `integer`, or `null` for `nil`.
    static func optional(_ number: Int64?) -> SQLiteValue { number.map { .integer($0) } ?? .null }
}

/// The current row of a statement, read by column index.
struct SQLiteRow {
    let statement: OpaquePointer

    /// The column as an integer (0 for NULL).
    func integer(_ column: Int32) -> Int64 { CSQLiteLoader_column_int64(statement, column) }

    /// The column as an integer, or `nil` for NULL.
    func optionalInteger(_ column: Int32) -> Int64? {
        CSQLiteLoader_column_type(statement, column) == SQLITE_NULL ? nil : CSQLiteLoader_column_int64(statement, column)
    }

    /// The column as text, or `nil` for NULL.
    func text(_ column: Int32) -> String? {
        guard let bytes = CSQLiteLoader_column_text(statement, column) else { return nil }
        return String(cString: bytes)
    }
}
