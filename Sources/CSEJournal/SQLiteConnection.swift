internal import CSECore
internal import CSQLite

/// Owns one SQLite connection (`sqlite3 *`), closed in `deinit`: the one owner of the C handle.
/// Not thread-safe by itself; ``SQLiteJournal`` serialises every use behind its lock.
final class SQLiteConnection {
    private let handle: OpaquePointer

    /// Opens `path` read-write, without creating it (the journal makes the file itself, with its
    /// mode, before SQLite opens it), and without following a symbolic link.
    /// - Throws: `journal.unavailable` with SQLite's result code.
    init(path: String, busyTimeoutMilliseconds: Int32) throws(CSEError) {
        var made: OpaquePointer?
        let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOFOLLOW | SQLITE_OPEN_FULLMUTEX
        let result = sqlite3_open_v2(path, &made, flags, nil)
        guard result == SQLITE_OK, let made else {
            if let made { sqlite3_close_v2(made) }
            throw Self.error(result, "the journal could not be opened")
        }
        handle = made
        sqlite3_busy_timeout(handle, busyTimeoutMilliseconds)
        sqlite3_extended_result_codes(handle, 1)
    }

    deinit { sqlite3_close_v2(handle) }

    /// Runs `sql` (one or more statements without parameters or results).
    /// - Throws: the error of ``error(_:_:)``.
    func execute(_ sql: String) throws(CSEError) {
        let result = sqlite3_exec(handle, sql, nil, nil, nil)
        guard result == SQLITE_OK else { throw Self.error(result, "a journal statement failed") }
    }

    /// Prepares `sql`, binds `arguments` in order, and calls `row` for each result row.
    /// - Throws: the error of ``error(_:_:)``.
    func query(_ sql: String, _ arguments: [SQLiteValue] = [], row: (SQLiteRow) -> Void = { _ in }) throws(CSEError) {
        var statement: OpaquePointer?
        var result = sqlite3_prepare_v2(handle, sql, -1, &statement, nil)
        guard result == SQLITE_OK, let statement else { throw Self.error(result, "a journal statement could not be prepared") }
        defer { sqlite3_finalize(statement) }
        for (index, argument) in arguments.enumerated() {
            let position = Int32(index + 1)
            switch argument {
            case .null: result = sqlite3_bind_null(statement, position)
            case .integer(let value): result = sqlite3_bind_int64(statement, position, value)
            case .text(let value): result = sqlite3_bind_text(statement, position, value, -1, CSQLite_transient())
            }
            guard result == SQLITE_OK else { throw Self.error(result, "a journal value could not be bound") }
        }
        while true {
            result = sqlite3_step(statement)
            if result == SQLITE_DONE { return }
            guard result == SQLITE_ROW else { throw Self.error(result, "a journal statement failed") }
            row(SQLiteRow(statement: statement))
        }
    }

    /// The rowid of the last row inserted on this connection.
    var lastInsertRowID: Int64 { sqlite3_last_insert_rowid(handle) }

    /// The number of rows the last statement changed.
    var changes: Int32 { sqlite3_changes(handle) }

    /// `journal.foreignFile` for "not a database", else `journal.unavailable`, naming SQLite's
    /// result code (the primary code decides: corruption, a full disk, an I/O error, busy).
    static func error(_ result: Int32, _ reason: String) -> CSEError {
        let primary = result & 0xFF
        let name = String(cString: sqlite3_errstr(result))
        if primary == SQLITE_NOTADB {
            return CSEError(.journalForeignFile, "the file is not an SQLite database", context: ["sqlite": name])
        }
        return CSEError(.journalUnavailable, reason, context: ["sqlite": name, "sqliteCode": String(result)])
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
    func integer(_ column: Int32) -> Int64 { sqlite3_column_int64(statement, column) }

    /// The column as an integer, or `nil` for NULL.
    func optionalInteger(_ column: Int32) -> Int64? {
        sqlite3_column_type(statement, column) == SQLITE_NULL ? nil : sqlite3_column_int64(statement, column)
    }

    /// The column as text, or `nil` for NULL.
    func text(_ column: Int32) -> String? {
        guard let bytes = sqlite3_column_text(statement, column) else { return nil }
        return String(cString: bytes)
    }
}
