package import CSECore
internal import CCSEShims
#if canImport(Glibc)
import Glibc
#endif

/// Access to the process's standard streams through `read(2)`/`write(2)`, with explicit
/// buffering where the CLI wants it. No Foundation on the batch hot path.
///
/// Every read and every write checks its result: a read error is an error (only `EINTR` is
/// retried), and a failed write to standard output is never success. Each write runs in an
/// output section (``CCSEShims_output_section_begin``), so SIGINT, SIGTERM or SIGHUP never cut
/// it in half: the signal takes effect when the write is complete.
enum StandardStreams {
    /// Reads all of standard input, up to `limit` bytes.
    /// - Returns: The bytes, or `nil` when more than `limit` bytes arrive.
    /// - Throws: ``CSEError/Code/cliRead`` when reading fails.
    static func readAll(limit: Int) throws(CSEError) -> [UInt8]? {
        var data: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let n = try readChunk(into: &chunk, from: 0)
            if n == 0 { return data }
            if data.count + n > limit { return nil }
            data.append(contentsOf: chunk[0..<n])
        }
    }

    /// One `read(2)` from `fd` into `chunk`, retried only on `EINTR`.
    /// - Returns: The number of bytes read; 0 at end of input.
    /// - Throws: ``CSEError/Code/cliRead`` for any other failure (`EIO`, `EISDIR`, `EBADF`, …).
    static func readChunk(into chunk: inout [UInt8], from fd: Int32) throws(CSEError) -> Int {
        while true {
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n >= 0 { return n }
            let code = errno
            if code == EINTR { continue }
            throw CSEError(.cliRead, "cannot read \(streamName(fd)): \(String(cString: strerror(code)))")
        }
    }

    /// Writes all `bytes` to `fd`, retrying short writes and `EINTR`, waiting when the
    /// descriptor is non-blocking and full. The write runs in one output section.
    /// - Throws: ``CSEError/Code/cliBrokenPipe`` when the reader has gone (`EPIPE` with SIGPIPE
    ///   ignored), ``CSEError/Code/cliWrite`` for any other failure (`ENOSPC`, `EBADF`, `EIO`, …).
    static func writeAll(_ bytes: [UInt8], to fd: Int32) throws(CSEError) {
        if let failure = bytes.withUnsafeBytes({ attemptWrite($0, to: fd) }) { throw failure }
    }

    /// Writes all of `buffer` to `fd` in one output section; returns the failure, if any.
    private static func attemptWrite(_ buffer: UnsafeRawBufferPointer, to fd: Int32) -> CSEError? {
        guard buffer.count > 0 else { return nil }
        CCSEShims_output_section_begin()
        defer { CCSEShims_output_section_end() }
        var offset = 0
        while offset < buffer.count {
            let n = Glibc.write(fd, buffer.baseAddress! + offset, buffer.count - offset)
            if n > 0 { offset += n; continue }
            let code = n < 0 ? errno : EIO
            if code == EINTR { continue }
            if code == EAGAIN || code == EWOULDBLOCK {
                var ready = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
                _ = poll(&ready, 1, -1)
                continue
            }
            if code == EPIPE { return CSEError(.cliBrokenPipe, "the reader of \(streamName(fd)) has gone") }
            return CSEError(.cliWrite, "cannot write \(streamName(fd)): \(String(cString: strerror(code)))")
        }
        return nil
    }

    /// Writes all `bytes` to `fd`. A failure on standard output is remembered and turns the
    /// command's exit code into a failure (see ``finish(_:)``); standard error is best effort,
    /// since a diagnostic that cannot be written has nowhere else to go.
    static func write(_ bytes: [UInt8], to fd: Int32) {
        do throws(CSEError) {
            try writeAll(bytes, to: fd)
        } catch {
            if fd == 1 { outputFailure.record(error) }
        }
    }

    /// Writes a string to standard output (failures as in ``write(_:to:)``).
    static func out(_ text: String) { write(Array(text.utf8), to: 1) }
    /// Writes a string to standard error (best effort).
    static func err(_ text: String) { write(Array(text.utf8), to: 2) }

    /// Whether standard error is a terminal (progress output is shown only then).
    static var stderrIsTerminal: Bool { isatty(2) == 1 }

    /// Prepares the process's streams before a command runs: a closed descriptor 0, 1 or 2 is
    /// held by `/dev/null` opened the *wrong* way round (stdin write-only, stdout and stderr
    /// read-only), so no file the command opens can land on it and every use of it still fails
    /// (`EBADF`) instead of silently succeeding. SIGINT, SIGTERM and SIGHUP are deferred while
    /// an output section runs. Forgets an earlier stdout failure.
    static func prepare() {
        for fd: Int32 in 0...2 where fcntl(fd, F_GETFD) == -1 && errno == EBADF {
            let holder = open("/dev/null", (fd == 0 ? O_WRONLY : O_RDONLY) | O_CLOEXEC)
            if holder >= 0 && holder != fd {
                dup2(holder, fd)
                close(holder)
            }
        }
        _ = CCSEShims_defer_interrupts()
        outputFailure.reset()
    }

    /// The exit code of a command that returned `status`, after every stdout write: a write
    /// failure makes it 1 (with an `Error:` line on stderr), or ``ExitCode/brokenPipe`` after
    /// `EPIPE`; otherwise `status`.
    static func finish(_ status: Int32) -> Int32 {
        guard let error = outputFailure.first else { return status }
        return report(error)
    }

    /// Prints `error` the way `cse` reports a failed command and returns the exit code: quietly
    /// ``ExitCode/brokenPipe`` for a reader that has gone (unless
    /// ``reportBrokenPipeAsFailure()`` was called), else one `Error:` line and 1.
    static func report(_ error: CSEError) -> Int32 {
        if error.code == .cliBrokenPipe && !brokenPipeIsFailure.withLock({ $0 }) { return ExitCode.brokenPipe }
        err("Error: \(SafeEcho.text(error.description, limit: SafeEcho.errorLineLimit))\n")
        return ExitCode.failure
    }

    private static func streamName(_ fd: Int32) -> String {
        switch fd {
        case 0: return "standard input"
        case 1: return "standard output"
        case 2: return "standard error"
        default: return "file descriptor \(fd)"
        }
    }

    /// Makes a reader of standard output that has gone an ordinary failure for the rest of the
    /// process: SIGPIPE is ignored, so a write fails with `EPIPE` instead of ending `cse`, and
    /// ``finish(_:)`` reports it with its `Error:` line and exit 1. For the commands whose output
    /// is the record of a payment: they must print its ids on stderr when stdout is gone (issue #26).
    static func reportBrokenPipeAsFailure() {
        signal(SIGPIPE, SIG_IGN)
        brokenPipeIsFailure.withLock { $0 = true }
    }

    private static let brokenPipeIsFailure = ThreadLock(false)

    /// Whether a write to standard output has failed since ``prepare()``.
    static var outputFailed: Bool { outputFailure.first != nil }

    /// The first failed write to standard output since ``prepare()``.
    private static let outputFailure = FirstFailure()
}

/// The first of several errors, recorded from any thread.
private final class FirstFailure: Sendable {
    private let error = ThreadLock<CSEError?>(nil)

    func record(_ failure: CSEError) {
        error.withLock { if $0 == nil { $0 = failure } }
    }

    func reset() {
        error.withLock { $0 = nil }
    }

    var first: CSEError? { error.withLock { $0 } }
}

/// Reads standard input line by line in fixed-size chunks, so memory stays bounded however large
/// the input is. Lines longer than the limit are reported, not buffered without end. `package`
/// (not internal) for the `cli-lines` fuzz driver, which checks it against a model.
package struct LineReader {
    /// One input line.
    package enum Line: Sendable {
        /// A complete line (without its `\n` or `\r\n`).
        case text([UInt8])
        /// A line longer than the limit; its bytes were discarded.
        case tooLong
    }

    private let fd: Int32
    private let maxLineBytes: Int
    private var buffer: [UInt8] = []
    private var chunk = [UInt8](repeating: 0, count: 65_536)
    private var start = 0
    private var eof = false
    private var discarding = false

    /// Creates a reader for `fd` (standard input by default).
    package init(fd: Int32 = 0, maxLineBytes: Int) {
        self.fd = fd
        self.maxLineBytes = maxLineBytes
    }

    /// The next line, or `nil` at end of input. A final line without `\n` is still returned.
    /// - Throws: ``CSEError/Code/cliRead`` when reading fails; a partial line read before the
    ///   failure is not returned.
    package mutating func next() throws(CSEError) -> Line? {
        while true {
            if let nl = buffer[start...].firstIndex(of: 0x0A) {
                var end = nl
                if end > start && buffer[end - 1] == 0x0D { end -= 1 }
                let line = Array(buffer[start..<end])
                start = nl + 1
                if discarding { discarding = false; return .tooLong }
                if line.count > maxLineBytes { return .tooLong }
                return .text(line)
            }
            // One byte more than the limit may be a CR whose LF has not arrived yet.
            if buffer.count - start > maxLineBytes + 1 {
                // Drop what we have of an over-long line and keep reading until its newline.
                discarding = true
                buffer.removeAll(keepingCapacity: true)
                start = 0
            }
            if eof {
                guard start < buffer.count else {
                    // An over-long last line without `\n` was dropped while reading: report it.
                    if discarding { discarding = false; return .tooLong }
                    return nil
                }
                var line = Array(buffer[start...])
                if line.last == 0x0D { line.removeLast() }
                start = buffer.count
                if discarding { discarding = false; return .tooLong }
                return line.count > maxLineBytes ? .tooLong : .text(line)
            }
            if start > 0 {
                buffer.removeSubrange(0..<start)
                start = 0
            }
            let n = try StandardStreams.readChunk(into: &chunk, from: fd)
            if n == 0 { eof = true; continue }
            buffer.append(contentsOf: chunk[0..<n])
        }
    }
}
