#if canImport(Glibc)
import Glibc
#endif

/// Unbuffered-by-design access to the process's standard streams through `read(2)`/`write(2)`,
/// with explicit buffering where the CLI wants it. No Foundation on the batch hot path.
enum StandardStreams {
    /// Reads all of standard input, up to `limit` bytes.
    /// - Returns: The bytes, or `nil` when more than `limit` bytes arrive.
    static func readAll(limit: Int) -> [UInt8]? {
        var data: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let n = chunk.withUnsafeMutableBytes { read(0, $0.baseAddress, $0.count) }
            if n < 0 { if errno == EINTR { continue }; return data }
            if n == 0 { return data }
            if data.count + n > limit { return nil }
            data.append(contentsOf: chunk[0..<n])
        }
    }

    /// Writes all `bytes` to file descriptor `fd`, retrying short writes.
    static func write(_ bytes: [UInt8], to fd: Int32) {
        bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let n = Glibc.write(fd, buffer.baseAddress! + offset, buffer.count - offset)
                if n < 0 { if errno == EINTR { continue }; return }
                offset += n
            }
        }
    }

    /// Writes a string to standard output.
    static func out(_ text: String) { write(Array(text.utf8), to: 1) }
    /// Writes a string to standard error.
    static func err(_ text: String) { write(Array(text.utf8), to: 2) }

    /// Whether standard error is a terminal (progress output is shown only then).
    static var stderrIsTerminal: Bool { isatty(2) == 1 }
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
    private var start = 0
    private var eof = false
    private var discarding = false

    /// Creates a reader for `fd` (standard input by default).
    package init(fd: Int32 = 0, maxLineBytes: Int) {
        self.fd = fd
        self.maxLineBytes = maxLineBytes
    }

    /// The next line, or `nil` at end of input. A final line without `\n` is still returned.
    package mutating func next() -> Line? {
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
            var chunk = [UInt8](repeating: 0, count: 65_536)
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { eof = true; continue }
            buffer.append(contentsOf: chunk[0..<n])
        }
    }
}
