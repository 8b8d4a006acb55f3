@testable import CSECLI
import Foundation
import Testing
import TestSupport

/// The JSON-lines reader behind every `--lines` mode, against the documented contract: lines end
/// in LF (a CR before it is dropped), a last line without LF still counts, a line over the limit
/// is reported as too long, and there is exactly one result per line.
@Suite("LineReader keeps one result per input line, over-long lines included", .tags(.concurrency))
struct LineReaderTests {
    enum Line: Equatable { case text(String), tooLong }

    /// Reads `bytes` through a LineReader on an unlinked temporary file.
    static func lines(_ bytes: [UInt8], limit: Int) throws -> [Line] {
        let file = try #require(tmpfile())
        defer { fclose(file) }
        let fd = fileno(file)
        #expect(bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) } == bytes.count)
        lseek(fd, 0, SEEK_SET)
        var reader = LineReader(fd: fd, maxLineBytes: limit)
        var result: [Line] = []
        while let line = try reader.next() {
            switch line {
            case .text(let text): result.append(.text(String(decoding: text, as: UTF8.self)))
            case .tooLong: result.append(.tooLong)
            }
        }
        return result
    }

    /// Regression (found by the `cli-lines` fuzz target): an over-long last line without a final
    /// LF was dropped silently, so `--lines` printed one line fewer than it read.
    @Test("an over-long last line without LF is reported, not dropped")
    func overLongLastLine() throws {
        #expect(try Self.lines(Array("a\u{C7}{\"cardNumber\"".utf8), limit: 3) == [.tooLong])
        #expect(try Self.lines(Array("ok\nabcdef".utf8), limit: 3) == [.text("ok"), .tooLong])
        #expect(try Self.lines(Array("abcdef\r".utf8), limit: 3) == [.tooLong])
        #expect(try Self.lines(Array("abcdef\n".utf8), limit: 3) == [.tooLong])
    }

    /// Regression (found by the `cli-lines` fuzz target): a line of exactly the limit followed by
    /// a CR whose LF was not yet read (the end of input, or the end of a 64 KiB read) was
    /// reported as too long, because the CR was counted against the limit.
    @Test("a line of exactly the limit ending in CR, at the end of input or of a read chunk, is not too long")
    func limitPlusCR() throws {
        #expect(try Self.lines(Array("af\u{8A}\r".utf8), limit: 4) == [.text("af\u{8A}")])
        #expect(try Self.lines(Array("abc\r".utf8), limit: 3) == [.text("abc")])
        #expect(try Self.lines(Array("abcd\r".utf8), limit: 3) == [.tooLong])
        let atChunkEnd = [UInt8](repeating: 0x61, count: 65_535) + Array("\r\nx".utf8)
        #expect(try Self.lines(atChunkEnd, limit: 65_535) == [.text(String(repeating: "a", count: 65_535)), .text("x")])
        #expect(try Self.lines(atChunkEnd, limit: 65_534) == [.tooLong, .text("x")])
    }

    @Test("an over-long line longer than one read chunk is one result, and the next line survives")
    func overLongAcrossChunks() throws {
        let long = [UInt8](repeating: 0x61, count: 200_000)
        #expect(try Self.lines(long + Array("\nnext".utf8), limit: 1_000) == [.tooLong, .text("next")])
        #expect(try Self.lines(long, limit: 1_000) == [.tooLong])
    }

    @Test("line endings: LF, CRLF, a last line without LF, empty lines, a lone CR kept inside a line")
    func endings() throws {
        #expect(try Self.lines(Array("a\r\nb\n\nc".utf8), limit: 10) == [.text("a"), .text("b"), .text(""), .text("c")])
        #expect(try Self.lines(Array("x\ry\n".utf8), limit: 10) == [.text("x\ry")])
        #expect(try Self.lines([], limit: 10) == [])
        #expect(try Self.lines(Array("abc".utf8), limit: 3) == [.text("abc")])
    }

    /// The same regression end to end: `cse validate --lines` answers every line, including a
    /// last line over the 1 MiB limit that has no final LF.
    @Test("cse validate --lines answers an over-long last line with cli.lineTooLong")
    func cliOverLongLastLine() throws {
        let input = Array((CLIFixtures.validCard + "\n").utf8) + [UInt8](repeating: 0x20, count: (1 << 20) + 1)
        let result = try CommandRunner.run(["validate", "--lines", "--product", "builtin:card", "--now", CLIFixtures.now], stdin: input)
        let lines = result.out.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count == 3, "two answers and the final newline")
        #expect(lines.first == #"{"valid":true,"errors":[]}"#)
        #expect(lines.dropFirst().first?.contains(#""line":2,"error":{"code":"cli.lineTooLong""#) == true)
        #expect(result.status == 1)
    }
}
