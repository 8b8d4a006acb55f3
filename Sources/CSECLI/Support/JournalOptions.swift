import CSECore
import CSEJournal
#if canImport(Glibc)
import Glibc
#endif

/// `--journal FILE` and `--no-journal` (issue #36): where a money-moving command records each
/// call before its request leaves and after its answer. By default the journal is
/// `${XDG_STATE_HOME:-~/.local/state}/cse/journal.sqlite`, its directory created 0700.
struct JournalOptions: Sendable {
    /// The two keys.
    struct Keys: Sendable {
        /// `--journal FILE`.
        let file: OptionKey<String?>
        /// `--no-journal`.
        let off: OptionKey<Bool>

        /// Declares the options; one excludes the other.
        init(_ declare: inout OptionDeclarations) {
            file = JournalOptions.fileKey(&declare, help: "Record each money-moving call in this journal")
            off = declare.flag("no-journal", help: "Record nothing (an outcome lost with the process is then lost).")
            declare.conflict([file], with: off)
        }
    }

    /// The journal file, or `nil` with `--no-journal`; `nil` path means the default.
    let file: String?
    /// `--no-journal`.
    let isOff: Bool

    /// Reads the options.
    init(arguments: ParsedArguments<Keys>) {
        file = arguments[\.file]
        isOff = arguments[\.off]
    }

    /// The journal these options name, opened on its first use (so a command that fails before
    /// it would send anything leaves no file behind); `nil` with `--no-journal`.
    var journal: (any PaymentJournal)? {
        isOff ? nil : CommandJournal(path: file)
    }

    /// Declares `--journal FILE`, `help` followed by the default path: the one declaration of the
    /// option, for the money-moving commands and `cse journal list|settle` alike.
    static func fileKey(_ declare: inout OptionDeclarations, help: String) -> OptionKey<String?> {
        declare.value("journal", "FILE", help: help + " (default: ${XDG_STATE_HOME:-~/.local/state}/cse/journal.sqlite).")
    }

    /// Opens the journal at `path`, or the default one (its directory made 0700 when missing):
    /// the one place `cse` opens a journal file.
    /// - Throws: `journal.*`.
    static func open(_ path: String?) throws(CSEError) -> SQLiteJournal {
        if let path { return try SQLiteJournal(path: path) }
        return try SQLiteJournal(path: try defaultPath(), createsDirectory: true)
    }

    /// The default journal path, `${XDG_STATE_HOME:-$HOME/.local/state}/cse/journal.sqlite`.
    /// - Throws: `journal.unavailable` when neither variable names an absolute directory.
    static func defaultPath() throws(CSEError) -> String {
        if let state = getenv("XDG_STATE_HOME").map({ String(cString: $0) }), state.hasPrefix("/") {
            return state + "/cse/journal.sqlite"
        }
        if let home = getenv("HOME").map({ String(cString: $0) }), home.hasPrefix("/") {
            return home + "/.local/state/cse/journal.sqlite"
        }
        throw CSEError(
            .journalUnavailable, "neither XDG_STATE_HOME nor HOME names a directory for the journal; give --journal FILE or --no-journal")
    }
}

/// The journal of one `cse` process: the SQLite journal at `path` (the default when `nil`),
/// opened when the first intent is recorded. An error opening it is the intent's error: nothing
/// is sent.
final class CommandJournal: PaymentJournal {
    private let path: String?
    private let opened = ThreadLock<SQLiteJournal?>(nil)

    init(path: String?) { self.path = path }

    private func journal() throws(CSEError) -> SQLiteJournal {
        try opened.withLock { (journal) throws(CSEError) -> SQLiteJournal in
            if let journal { return journal }
            let made = try JournalOptions.open(path)
            journal = made
            return made
        }
    }

    func recordIntent(_ intent: JournalIntent) throws(CSEError) -> JournalEntryID { try journal().recordIntent(intent) }

    func recordOutcome(_ id: JournalEntryID, _ outcome: JournalOutcome) throws(CSEError) { try journal().recordOutcome(id, outcome) }

    func entries(matching filter: JournalFilter) throws(CSEError) -> [JournalEntry] { try journal().entries(matching: filter) }
}
