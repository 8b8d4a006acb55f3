// Fuzz target `cli-lines`: the CLI's JSON-lines reader and batch mode. The input becomes the
// process's standard input (an unlinked temporary file); standard output is captured.
// - selector 0: LineReader alone with a small line limit, against a naive model of the
//   documented line splitting (LF or CRLF, final line without LF, over-long lines reported);
// - selector 1–3: `cse validate --lines`, `cse iin --lines`, `cse seal --lines --demo`: exit
//   code 0 or 1 and exactly one output line per input line (the documented batch contract).
@testable import CSECLI  // LineReader is internal; the fuzz modules are built with -enable-testing
import CSECore
#if canImport(Glibc)
import Glibc
#endif

let devNull: Int32 = open("/dev/null", O_WRONLY)

/// A file descriptor for an unlinked temporary file holding `bytes`, positioned at 0.
func temporaryFile(_ bytes: [UInt8]) -> Int32 {
    guard let file = tmpfile() else { fatalError("tmpfile") }
    let fd = dup(fileno(file))
    fclose(file)
    bytes.withUnsafeBytes { raw in
        var offset = 0
        while offset < raw.count {
            let n = write(fd, raw.baseAddress! + offset, raw.count - offset)
            if n <= 0 { fatalError("write") }
            offset += n
        }
    }
    lseek(fd, 0, SEEK_SET)
    return fd
}

/// Everything in `fd` from the start.
func contents(_ fd: Int32) -> [UInt8] {
    lseek(fd, 0, SEEK_SET)
    var out: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 65_536)
    while true {
        let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        if n <= 0 { return out }
        out += chunk[0..<n]
    }
}

enum ModelLine: Equatable { case text([UInt8]), tooLong }

/// The documented splitting: lines end in LF (a CR before it is dropped); a final line without
/// LF counts when non-empty; a line over the limit (ending excluded) is reported as too long.
func modelLines(_ bytes: [UInt8], limit: Int) -> [ModelLine] {
    var lines = bytes.split(separator: 0x0A, omittingEmptySubsequences: false).map(Array.init)
    if lines.last == [] { lines.removeLast() }
    return lines.map { line in
        let body = line.last == 0x0D ? Array(line.dropLast()) : line
        return body.count > limit ? .tooLong : .text(body)
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCLILines(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    var input = FuzzInput(data, size)
    let selector = input.byte() % 4
    let limitByte = input.byte()
    let bytes = input.rest()
    let stdin = temporaryFile(bytes)
    defer { close(stdin) }
    if selector == 0 {
        let limit = Int(limitByte % 64)
        var reader = LineReader(fd: stdin, maxLineBytes: limit)
        var lines: [ModelLine] = []
        do throws(CSEError) {
            while let line = try reader.next() {
                switch line {
                case .text(let text): lines.append(.text(text))
                case .tooLong: lines.append(.tooLong)
                }
            }
        } catch {
            require(false, "reading a regular file failed: \(error)")
        }
        require(lines == modelLines(bytes, limit: limit), "LineReader differs from the model")
        return 0
    }
    let arguments: [String]
    switch selector {
    case 1: arguments = ["validate", "--lines", "--product", "builtin:card", "--now", "2026-05"]
    case 2: arguments = ["iin", "--lines"]
    default: arguments = ["seal", "--lines", "--product", "builtin:card", "--demo", "--session-id", "fuzz", "--now", "2026-05"]
    }
    let stdout = temporaryFile([])
    defer { close(stdout) }
    dup2(stdin, 0)
    dup2(stdout, 1)
    let status = CommandLineTool.mainWithoutNetwork(arguments)
    dup2(devNull, 1)
    dup2(devNull, 0)
    require(status == 0 || status == 1, "exit code \(status)")
    let output = contents(stdout)
    let expected = modelLines(bytes, limit: 1 << 20).count
    let produced = output.split(separator: 0x0A, omittingEmptySubsequences: false).count - 1
    require(
        output.isEmpty ? expected == 0 : output.last == 0x0A && produced == expected,
        "\(produced) output lines for \(expected) input lines")
    return 0
}
