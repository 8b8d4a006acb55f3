import CSECore
import CSECrypto
internal import CCSEShims
#if canImport(Glibc)
import Glibc
#endif

/// File and standard-input helpers for commands. Errors name the path (through
/// ``SafeEcho/text(_:limit:)``), never the content, and every system call's result is checked.
enum Files {
    /// Reads a whole file of at most `limit` bytes.
    /// - Throws: ``CSEError/Code/cliFile`` when it cannot be opened or read, or is too large.
    static func read(_ path: String, limit: Int = 4 << 20) throws(CSEError) -> [UInt8] {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw failure("cannot open file", path: path) }
        defer { close(fd) }
        var data: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let n: Int
            do throws(CSEError) {
                n = try StandardStreams.readChunk(into: &chunk, from: fd)
            } catch {
                throw failure("cannot read file", path: path)
            }
            if n == 0 { break }
            guard data.count + n <= limit else {
                throw CSEError(.cliFile, "file is larger than \(limit) bytes", context: ["path": SafeEcho.text(path)])
            }
            data.append(contentsOf: chunk[0..<n])
        }
        return data
    }

    /// Reads a file that holds a secret (credentials, a password, a phrase, a private key), as
    /// ``read(_:limit:)`` does, and warns on standard error when the file is a regular file that
    /// its group or others may read, write or execute (`mode & 077`), as ssh does for a private
    /// key (issue #24, point 17). The file is still used: refusing would break deployments whose
    /// secrets sit in a directory others cannot enter. The warning names the path and the mode,
    /// never the content.
    /// - Parameter kind: What the file holds, for the warning (`credentials file`).
    static func readSecret(_ path: String, kind: String, limit: Int = 4 << 20) throws(CSEError) -> [UInt8] {
        let bytes = try read(path, limit: limit)
        warnIfAccessibleByOthers(path, kind: kind)
        return bytes
    }

    /// The warning of ``readSecret(_:kind:limit:)``, for a file already read.
    static func warnIfAccessibleByOthers(_ path: String, kind: String) {
        var status = stat()
        guard stat(path, &status) == 0, status.st_mode & S_IFMT == S_IFREG, status.st_mode & 0o077 != 0 else { return }
        let mode = String(status.st_mode & 0o777, radix: 8)
        StandardStreams.err(
            "warning: the \(kind) \(SafeEcho.text(path)) is accessible by others (mode 0\(mode)); "
                + "chmod 600 it so that only its owner can read it\n")
    }

    /// Puts `bytes` at `path` with permissions `mode`, all or nothing.
    ///
    /// The bytes go to a new temporary file in the same directory (`O_CREAT | O_EXCL |
    /// O_NOFOLLOW`, created with `mode` so it is never more readable than that), which is
    /// `fchmod`ed, written, `fsync`ed and closed, then moved into place: `rename(2)` when
    /// `replacing`, else `link(2)`, which fails when the name exists. The directory is synced
    /// afterwards. Nothing at `path` is ever opened or followed: a symbolic link, FIFO, device or
    /// directory there is refused. On any failure the temporary file is removed and `path` is
    /// as it was. The whole sequence runs in an output section, so SIGINT waits for it.
    /// - Throws: ``CSEError/Code/cliFile`` naming the step that failed.
    static func writeAtomically(_ bytes: [UInt8], to path: String, mode: mode_t, replacing: Bool) throws(CSEError) {
        CCSEShims_output_section_begin()
        defer { CCSEShims_output_section_end() }
        try checkTarget(path, replacing: replacing)
        let directory = directoryName(of: path)
        var (fd, temporary) = try createTemporary(in: directory, for: path, mode: mode)
        var done = false
        defer {
            if fd >= 0 { close(fd) }
            if !done { unlink(temporary) }
        }
        guard fchmod(fd, mode) == 0 else { throw failure("cannot set the file mode", path: path) }
        do throws(CSEError) {
            try StandardStreams.writeAll(bytes, to: fd)
        } catch {
            throw failure("cannot write file", path: path)
        }
        guard fsync(fd) == 0 else { throw failure("cannot write file (fsync)", path: path) }
        let closed = close(fd)
        fd = -1
        guard closed == 0 else { throw failure("cannot write file (close)", path: path) }
        if replacing {
            guard rename(temporary, path) == 0 else { throw failure("cannot move the new file into place", path: path) }
        } else {
            guard link(temporary, path) == 0 else { throw failure("cannot create file", path: path) }
            unlink(temporary)
        }
        done = true
        try syncDirectory(directory, for: path)
    }

    /// Checks that `path` may be written by ``writeAtomically(_:to:mode:replacing:)``: it does
    /// not exist, or (when `replacing`) it is a regular file. A symbolic link is refused even
    /// when it points to a regular file.
    /// - Throws: ``CSEError/Code/cliFile``.
    static func checkTarget(_ path: String, replacing: Bool) throws(CSEError) {
        var info = stat()
        guard lstat(path, &info) == 0 else {
            guard errno == ENOENT else { throw failure("cannot inspect file", path: path) }
            return
        }
        guard (info.st_mode & S_IFMT) == S_IFREG else {
            throw CSEError(
                .cliFile, "refusing to replace something that is not a regular file (\(kind(info.st_mode)))",
                context: ["path": SafeEcho.text(path)])
        }
        guard replacing else {
            throw CSEError(.cliFile, "cannot create file: File exists (use --force to replace it)", context: ["path": SafeEcho.text(path)])
        }
    }

    /// Checks that `path` is an existing directory (following symbolic links).
    /// - Throws: ``CSEError/Code/cliFile``.
    static func checkDirectory(_ path: String) throws(CSEError) {
        var info = stat()
        guard stat(path, &info) == 0 else { throw failure("cannot use the directory", path: path) }
        guard (info.st_mode & S_IFMT) == S_IFDIR else {
            throw CSEError(.cliFile, "cannot use the directory: Not a directory", context: ["path": SafeEcho.text(path)])
        }
    }

    /// All of standard input (at most `limit` bytes), refusing empty input. One trailing line
    /// break (`\n` or `\r\n`) is not part of the input and does not count against `limit`, so
    /// `echo` and `printf` give the same result at the edge; `keepingTrailingLineBreak` keeps
    /// it (and counts it), for input taken verbatim.
    /// - Throws: ``CSEError/Code/cliEmptyInput``, ``CSEError/Code/cliInputTooLarge`` or
    ///   ``CSEError/Code/cliRead``.
    static func readStandardInput(limit: Int, keepingTrailingLineBreak: Bool = false) throws(CSEError) -> [UInt8] {
        let allowance = keepingTrailingLineBreak ? 0 : 2
        guard var data = try StandardStreams.readAll(limit: limit + allowance) else { throw inputTooLarge(limit) }
        guard !data.isEmpty else { throw CSEError(.cliEmptyInput, "standard input is empty") }
        if !keepingTrailingLineBreak && data.last == 0x0A {
            data.removeLast()
            if data.last == 0x0D { data.removeLast() }
        }
        guard data.count <= limit else {
            secureZero(&data)
            throw inputTooLarge(limit)
        }
        return data
    }

    /// `bytes` without trailing ASCII whitespace (a final newline from `echo` or a file).
    static func trimmingTrailingWhitespace(_ bytes: [UInt8]) -> ArraySlice<UInt8> {
        var end = bytes.endIndex
        while end > bytes.startIndex, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[end - 1]) { end -= 1 }
        return bytes[..<end]
    }

    private static func inputTooLarge(_ limit: Int) -> CSEError {
        CSEError(.cliInputTooLarge, "standard input is larger than \(limit) bytes", context: ["limit": String(limit)])
    }

    /// A `cli.file` error for the current `errno`.
    private static func failure(_ what: String, path: String) -> CSEError {
        let code = errno
        return CSEError(.cliFile, "\(what): \(String(cString: strerror(code)))", context: ["path": SafeEcho.text(path)])
    }

    private static func kind(_ mode: mode_t) -> String {
        switch mode & S_IFMT {
        case S_IFLNK: return "a symbolic link"
        case S_IFDIR: return "a directory"
        case S_IFIFO: return "a FIFO"
        case S_IFCHR, S_IFBLK: return "a device"
        case S_IFSOCK: return "a socket"
        default: return "not a regular file"
        }
    }

    private static func directoryName(of path: String) -> String {
        guard let slash = path.utf8.lastIndex(of: UInt8(ascii: "/")) else { return "." }
        let directory = String(path[..<slash])
        return directory.isEmpty ? "/" : directory
    }

    /// A new file `DIR/.NAME.XXXXXXXXXXXXXXXX.tmp`, created exclusively with `mode`.
    private static func createTemporary(in directory: String, for path: String, mode: mode_t) throws(CSEError) -> (Int32, String) {
        let name = path.utf8.lastIndex(of: UInt8(ascii: "/")).map { String(path[path.utf8.index(after: $0)...]) } ?? path
        for _ in 0..<8 {
            let suffix = try SecureRandom.bytes(8).map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
            let temporary = (directory == "/" ? "" : directory) + "/." + name + "." + suffix + ".tmp"
            let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode)
            if fd >= 0 { return (fd, temporary) }
            guard errno == EEXIST else { throw failure("cannot create file", path: path) }
        }
        throw failure("cannot create a temporary file", path: path)
    }

    /// `fsync` of the directory, so the new name survives a crash. File systems that cannot sync
    /// a directory (`EINVAL`) are accepted.
    private static func syncDirectory(_ directory: String, for path: String) throws(CSEError) {
        let fd = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { throw failure("cannot open the directory to sync it", path: path) }
        defer { close(fd) }
        guard fsync(fd) == 0 || errno == EINVAL else { throw failure("cannot sync the directory", path: path) }
    }
}
