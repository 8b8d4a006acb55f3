import CSECore
#if canImport(Glibc)
import Glibc
#endif

/// File and standard-input helpers for commands. Errors name the path, never the content.
enum Files {
    /// Reads a whole file of at most `limit` bytes.
    /// - Throws: ``CSEError/Code/cliFile`` when it cannot be opened or read, or is too large.
    static func read(_ path: String, limit: Int = 4 << 20) throws(CSEError) -> [UInt8] {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            throw CSEError(.cliFile, "cannot open file: \(String(cString: strerror(errno)))", context: ["path": path])
        }
        defer { close(fd) }
        var data: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let n = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                throw CSEError(.cliFile, "cannot read file: \(String(cString: strerror(errno)))", context: ["path": path])
            }
            if n == 0 { break }
            guard data.count + n <= limit else { throw CSEError(.cliFile, "file is larger than \(limit) bytes", context: ["path": path]) }
            data.append(contentsOf: chunk[0..<n])
        }
        return data
    }

    /// Writes `bytes` to a new file with the given permissions, refusing to overwrite unless `force`.
    static func write(_ bytes: [UInt8], to path: String, mode: mode_t, force: Bool) throws(CSEError) {
        let flags = O_WRONLY | O_CREAT | O_CLOEXEC | (force ? O_TRUNC : O_EXCL)
        let fd = open(path, flags, mode)
        guard fd >= 0 else {
            throw CSEError(.cliFile, "cannot create file: \(String(cString: strerror(errno)))", context: ["path": path])
        }
        defer { close(fd) }
        fchmod(fd, mode)
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + offset, $0.count - offset) }
            if n < 0 {
                if errno == EINTR { continue }
                throw CSEError(.cliFile, "cannot write file", context: ["path": path])
            }
            offset += n
        }
    }

    /// All of standard input (at most `limit` bytes), refusing empty input.
    /// - Throws: ``CSEError/Code/cliEmptyInput`` or ``CSEError/Code/cliInputTooLarge``.
    static func readStandardInput(limit: Int) throws(CSEError) -> [UInt8] {
        guard let data = StandardStreams.readAll(limit: limit) else {
            throw CSEError(.cliInputTooLarge, "standard input is larger than \(limit) bytes", context: ["limit": String(limit)])
        }
        guard !data.isEmpty else { throw CSEError(.cliEmptyInput, "standard input is empty") }
        return data
    }

    /// `bytes` without trailing ASCII whitespace (a final newline from `echo` or a file).
    static func trimmingTrailingWhitespace(_ bytes: [UInt8]) -> ArraySlice<UInt8> {
        var end = bytes.endIndex
        while end > bytes.startIndex, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[end - 1]) { end -= 1 }
        return bytes[..<end]
    }
}
