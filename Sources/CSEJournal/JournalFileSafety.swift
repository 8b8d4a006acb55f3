internal import CSECore

#if canImport(Glibc)
internal import Glibc
#elseif canImport(Musl)
internal import Musl
#endif

/// The checks a journal path passes before SQLite opens it (issue #36, "Safety"): the directory
/// and the file belong to the user, are not symbolic links, and are closed to group and others;
/// a missing file is created mode 0600 with `O_EXCL | O_NOFOLLOW`, so it is never one somebody
/// else placed there.
enum JournalFileSafety {
    /// Checks (and, where missing, creates) the directory and the file of `path`.
    /// - Throws: `journal.unsafeFile` or `journal.unavailable`.
    static func prepare(path: String, createsDirectory: Bool) throws(CSEError) {
        guard path.hasPrefix("/") || !path.isEmpty, !path.hasSuffix("/") else {
            throw unsafe("the journal path names no file", role: "file")
        }
        let directory = Self.directory(of: path)
        if createsDirectory { try createDirectories(directory) }
        try checkDirectory(directory)
        var status = stat()
        if lstat(path, &status) != 0 {
            guard errno == ENOENT else { throw unavailable("the journal file cannot be examined", errno) }
            let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
            if descriptor >= 0 {
                defer { close(descriptor) }
                guard fchmod(descriptor, 0o600) == 0 else { throw unavailable("the journal file's mode cannot be set", errno) }
                return
            }
            // Another process made the file between the two calls (several `cse` processes
            // starting on a new journal): check it as the existing file it now is.
            guard errno == EEXIST, lstat(path, &status) == 0 else { throw unavailable("the journal file cannot be created", errno) }
        }
        guard status.st_mode & S_IFMT == S_IFREG else {
            throw unsafe("the journal path is a symbolic link or not a regular file", role: "file")
        }
        guard status.st_uid == geteuid() else { throw unsafe("the journal file belongs to another user", role: "file") }
        guard status.st_mode & 0o077 == 0 else {
            throw unsafe("the journal file is open to group or others (it must be mode 0600)", role: "file")
        }
    }

    /// The directory part of `path` (`.` for a bare name).
    static func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    /// The directory must be a real directory of the user, writable by nobody else.
    private static func checkDirectory(_ directory: String) throws(CSEError) {
        var status = stat()
        guard lstat(directory, &status) == 0 else { throw unavailable("the journal's directory cannot be examined", errno) }
        guard status.st_mode & S_IFMT == S_IFDIR else {
            throw unsafe("the journal's directory is a symbolic link or not a directory", role: "directory")
        }
        guard status.st_uid == geteuid() else { throw unsafe("the journal's directory belongs to another user", role: "directory") }
        guard status.st_mode & 0o022 == 0 else {
            throw unsafe("the journal's directory is writable by group or others", role: "directory")
        }
    }

    /// Creates `directory` and its missing parents, each mode 0700.
    private static func createDirectories(_ directory: String) throws(CSEError) {
        var status = stat()
        if lstat(directory, &status) == 0 { return }
        let parent = Self.directory(of: directory)
        if parent != directory { try createDirectories(parent) }
        guard mkdir(directory, 0o700) == 0 || errno == EEXIST else {
            throw unavailable("the journal's directory cannot be created", errno)
        }
    }

    private static func unsafe(_ reason: String, role: String) -> CSEError {
        CSEError(.journalUnsafeFile, reason, context: ["path": role])
    }

    private static func unavailable(_ reason: String, _ number: Int32) -> CSEError {
        CSEError(.journalUnavailable, reason, context: ["errno": String(cString: strerror(number))])
    }
}
