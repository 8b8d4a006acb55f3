@testable import CSECLI
import CSECore
import Foundation
import Testing
import TestSupport

/// Issue #13, F03: nothing reports success that did not reach its destination. Every write is
/// checked; a batch stops at the first failed write; `EPIPE` exits 141, any other failure 1 with
/// one `Error: cli.write: …` line.
@Suite("a failed write to standard output is never success")
struct StandardOutputWriteErrorTests {
    @Test("> /dev/full: a single result and a whole batch exit 1 with cli.write (ENOSPC)")
    func devFull() throws {
        let single = try IOShell.run(#"echo 4111 | "$CSE" iin > /dev/full"#)
        #expect(single.status == 1)
        #expect(single.stderr == "Error: cli.write: cannot write standard output: No space left on device\n")
        let input = try CommandRunner.temporaryDirectory() + "/numbers"
        try Data(String(repeating: "\"41111111\"\n", count: 2_000).utf8).write(to: URL(fileURLWithPath: input))
        let batch = try IOShell.run(#""$CSE" iin --lines < "$INPUT" > /dev/full"#, environment: ["INPUT": input])
        #expect(batch.status == 1)
        #expect(batch.stderr == "Error: cli.write: cannot write standard output: No space left on device\n", "one message, then stop")
        let help = try IOShell.run(#""$CSE" --help > /dev/full"#)
        #expect(help.status == 1)
        #expect(help.stderr.hasPrefix("Error: cli.write: "))
    }

    @Test("a closed stdout (>&-) exits 1 with cli.write (EBADF), and no file the command opens lands on fd 1")
    func closedStdout() throws {
        let single = try IOShell.run(#"echo 4111 | "$CSE" iin >&-"#)
        #expect(single.status == 1)
        #expect(single.stderr == "Error: cli.write: cannot write standard output: Bad file descriptor\n")
        let batch = try IOShell.run(#"printf '"41111111"\n' | "$CSE" iin --lines >&-"#)
        #expect(batch.status == 1)
        #expect(batch.stderr.hasPrefix("Error: cli.write: "))
        // The key file is opened while fd 1 is closed: it must not become "standard output".
        let key = try IOShell.run(
            #"echo '{"a":1}' | "$CSE" encrypt --key \#(IOShell.quote(CLIFixtures.publicKey)) >&-; echo "status=$?" >&2"#)
        #expect(key.stderr == "Error: cli.write: cannot write standard output: Bad file descriptor\nstatus=1\n", "\(key.stderr)")
    }

    /// The finding: with SIGPIPE ignored, all 2,000,000 lines were processed after `head -1` had
    /// gone, and the exit code was 0. Now the batch stops at the first EPIPE and exits 141
    /// quietly; the producer upstream sees its reader go (so `cse` stopped reading early).
    @Test("EPIPE with SIGPIPE ignored (| head -1): exit 141, no message, input no longer read")
    func brokenPipe() throws {
        let result = try IOShell.run(
            #"""
            trap '' PIPE
            yes '"41111111"' | head -n 2000000 | "$CSE" iin --lines 2>"$ERRFILE" | head -1
            echo "statuses=${PIPESTATUS[*]}" >&2
            cat "$ERRFILE" >&2
            """#, environment: ["ERRFILE": try CommandRunner.temporaryDirectory() + "/stderr"])
        #expect(result.out.hasPrefix(#"{"status":"SUPPORTED","productId":"visa""#))
        let statuses =
            result.stderr.split(separator: "\n").first { $0.hasPrefix("statuses=") }.map { $0.dropFirst(9).split(separator: " ") } ?? []
        try #require(statuses.count == 4, "\(result.stderr)")
        #expect(statuses[2] == "141", "cse exits 141 after EPIPE: \(result.stderr)")
        #expect(statuses[1] != "0", "head -n 2000000 could not write everything: cse stopped reading")
        #expect(!result.stderr.contains("Error:"), "no message after EPIPE: \(result.stderr)")
    }
}

/// Issue #13, F04: a read error on standard input is an error (exit 1 and a message), never the
/// end of input; only EINTR is retried. The shim fails `read(0, …)` with EIO after 64 KiB.
@Suite("a read error on standard input is an error, not end of input")
struct StandardInputReadErrorTests {
    @Test("encrypt: EIO after 64 KiB of a 266 KB input exits 1 with cli.read and seals nothing")
    func encryptEIO() throws {
        let input = try CommandRunner.temporaryDirectory() + "/plaintext"
        try Data(repeating: 0x61, count: 266_000).write(to: URL(fileURLWithPath: input))
        let result = try IOShell.run(
            #"LD_PRELOAD="$SHIM" "$CSE" encrypt --key "$KEY" < "$INPUT""#,
            environment: ["SHIM": FaultShim.readEIOAfter64KiB, "KEY": CLIFixtures.publicKey, "INPUT": input])
        #expect(result.status == 1)
        #expect(result.stdout.isEmpty, "nothing sealed")
        #expect(result.stderr == "Error: cli.read: cannot read standard input: Input/output error\n")
    }

    @Test("iin --lines: EIO after 64 KiB answers exactly the complete lines read, then exits 1 with cli.read")
    func linesEIO() throws {
        let input = try CommandRunner.temporaryDirectory() + "/numbers"
        try Data(String(repeating: "\"41111111\"\n", count: 50_000).utf8).write(to: URL(fileURLWithPath: input))
        let result = try IOShell.run(
            #"LD_PRELOAD="$SHIM" "$CSE" iin --lines < "$INPUT""#,
            environment: ["SHIM": FaultShim.readEIOAfter64KiB, "INPUT": input])
        #expect(result.status == 1)
        #expect(result.stderr == "Error: cli.read: cannot read standard input: Input/output error\n")
        let lines = CLIFixtures.lines(result.out)
        #expect(lines.count == 65_536 / 11, "the complete 11-byte lines of the first 64 KiB")
        #expect(lines.allSatisfy { $0.hasPrefix(#"{"status":"SUPPORTED""#) })
        #expect(result.out.hasSuffix("\n"))
    }

    @Test("a directory on stdin (EISDIR) is cli.read, in batch and single-value mode")
    func directory() throws {
        for command in [#""$CSE" iin --lines < /tmp"#, #""$CSE" iin < /tmp"#, #""$CSE" validate --product builtin:card < /tmp"#] {
            let result = try IOShell.run(command)
            #expect(result.status == 1, "\(command)")
            #expect(result.stdout.isEmpty, "\(command)")
            #expect(result.stderr == "Error: cli.read: cannot read standard input: Is a directory\n", "\(command)")
        }
    }

    @Test("a closed stdin (<&-) is cli.read, not an empty input")
    func closedStdin() throws {
        let result = try IOShell.run(#""$CSE" iin --lines <&-"#)
        #expect(result.status == 1)
        #expect(result.stderr == "Error: cli.read: cannot read standard input: Bad file descriptor\n")
    }
}

/// Issue #13, F05 and F11: `keygen` writes each file to a new temporary file in the target
/// directory (O_EXCL | O_NOFOLLOW, mode 0600 from the start), fsyncs it and renames it into
/// place; it refuses a target that is not a regular file and checks every result.
@Suite("keygen never follows, blocks on or half-writes its targets")
struct KeygenTargetFileTests {
    static func entries(_ directory: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: directory).sorted()
    }

    /// The finding: an attacker plants `private.pem → their 0666 file`; the victim's key landed
    /// there, world-readable, and keygen exited 0.
    @Test("--force refuses a planted symlink; the link's target is untouched")
    func symlink() throws {
        let directory = try CommandRunner.temporaryDirectory()
        let victim = directory + "/attacker-owned"
        try "attacker\n".write(toFile: victim, atomically: false, encoding: .utf8)
        chmod(victim, 0o666)
        try FileManager.default.createSymbolicLink(atPath: directory + "/private.pem", withDestinationPath: victim)
        let result = try CommandRunner.run(["keygen", "--out", directory, "--force"])
        result.expectFailure(code: "cli.file")
        #expect(result.err.contains("not a regular file (a symbolic link)"))
        #expect(try String(contentsOfFile: victim, encoding: .utf8) == "attacker\n")
        #expect(try Self.entries(directory) == ["attacker-owned", "private.pem"], "nothing else written, no temporary file left")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: directory + "/private.pem") == victim)
    }

    @Test("--force refuses a FIFO at the path instead of blocking on it")
    func fifo() throws {
        let directory = try CommandRunner.temporaryDirectory()
        #expect(mkfifo(directory + "/public.pem", 0o644) == 0)
        // `timeout` only keeps a regression from hanging the suite; the assertion is the refusal.
        let result = try IOShell.run(#"timeout -s KILL 120 "$CSE" keygen --out "$DIR" --force"#, environment: ["DIR": directory])
        #expect(result.status == 1)
        #expect(result.stderr.contains("not a regular file (a FIFO)"), "\(result.stderr)")
        #expect(try Self.entries(directory) == ["public.pem"])
    }

    @Test("--force replaces regular files by rename: new inode, exact modes, no temporary files")
    func replace() throws {
        let directory = try CommandRunner.temporaryDirectory()
        let path = directory + "/private.pem"
        try "old\n".write(toFile: path, atomically: false, encoding: .utf8)
        chmod(path, 0o644)
        var before = stat()
        stat(path, &before)
        let refused = try CommandRunner.run(["keygen", "--out", directory])
        refused.expectFailure(code: "cli.file")
        #expect(refused.err.contains("File exists"))
        #expect(try Self.entries(directory) == ["private.pem"], "no file written when one target exists")
        let result = try CommandRunner.run(["keygen", "--out", directory, "--force"])
        #expect(result.status == 0, "\(result.err)")
        var after = stat()
        stat(path, &after)
        #expect(after.st_ino != before.st_ino, "a new file was renamed into place")
        #expect(after.st_mode & 0o777 == 0o600)
        #expect(try String(contentsOfFile: path, encoding: .utf8).hasPrefix("-----BEGIN PRIVATE KEY-----"))
        var info = stat()
        stat(directory + "/public.pem", &info)
        #expect(info.st_mode & 0o777 == 0o644)
        #expect(try Self.entries(directory) == ["private.pem", "public-key.json", "public.pem"])
    }

    /// F11: on a full disk keygen exited 1 but left a 0-byte `private.pem`, so a retry failed
    /// with "File exists". The shim makes every write to a regular file fail with ENOSPC.
    @Test("a full disk (ENOSPC) leaves no file behind, and a retry works")
    func fullDisk() throws {
        let directory = try CommandRunner.temporaryDirectory()
        let result = try IOShell.run(
            #"LD_PRELOAD="$SHIM" "$CSE" keygen --out "$DIR""#,
            environment: ["SHIM": FaultShim.writeENOSPCToFiles, "DIR": directory])
        #expect(result.status == 1)
        #expect(result.stderr.hasPrefix("Error: cli.file: cannot write file: No space left on device (path="), "\(result.stderr)")
        #expect(try Self.entries(directory) == [], "no 0-byte private.pem, no temporary file")
        let retry = try CommandRunner.run(["keygen", "--out", directory])
        #expect(retry.status == 0, "\(retry.err)")
    }

    @Test("a missing or non-directory --out fails before a key is generated")
    func notADirectory() throws {
        let file = try CommandRunner.temporaryDirectory() + "/file"
        try "x".write(toFile: file, atomically: false, encoding: .utf8)
        let result = try CommandRunner.run(["keygen", "--out", file])
        result.expectFailure(code: "cli.file")
        #expect(result.err.contains("Not a directory"))
    }
}

/// Issue #13, F10: SIGINT in the middle of a batch, with stdout on a pipe, left a partial last
/// line. A signal now waits for the write in progress: the line being written is finished, then
/// the process ends by the same signal.
@Suite("SIGINT never leaves half a line")
struct InterruptTests {
    /// Starts `cse` with `arguments`, stdin from `input`, stdout on a pipe; reads at least
    /// `before` bytes, sends `signal`, reads to the end. Returns the output and the process.
    static func interrupt(_ arguments: [String], input: String, after before: Int, signal: Int32 = SIGINT) throws -> ([UInt8], Process) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: CommandRunner.executable)
        process.arguments = arguments
        process.standardInput = try FileHandle(forReadingFrom: URL(fileURLWithPath: input))
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        var data = Data()
        while data.count < before {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            data.append(chunk)
        }
        kill(process.processIdentifier, signal)
        // A hang guard, not a timing assertion: a process the signal did not end is killed so
        // the test fails on its termination status instead of waiting forever.
        let pid = process.processIdentifier
        let guardTimer = DispatchSource.makeTimerSource()
        guardTimer.schedule(deadline: .now() + 120)
        guardTimer.setEventHandler { kill(pid, SIGKILL) }
        guardTimer.resume()
        defer { guardTimer.cancel() }
        data.append(output.fileHandleForReading.readDataToEndOfFile())
        process.waitUntilExit()
        return (Array(data), process)
    }

    /// Deterministic form: each output line (~535 KB) is far larger than the pipe, so when the
    /// signal arrives the writer is blocked in the middle of a line.
    @Test("a signal while a 535 KB line is being written: the line is finished, then SIGINT ends the process")
    func longLine() throws {
        let input = try CommandRunner.temporaryDirectory() + "/lines"
        let line = "\"" + String(repeating: "a", count: 400_000) + "\"\n"
        try Data(String(repeating: line, count: 3).utf8).write(to: URL(fileURLWithPath: input))
        let (output, process) = try Self.interrupt(["encrypt", "--lines", "--key", CLIFixtures.publicKey], input: input, after: 100_000)
        #expect(
            process.terminationReason == .uncaughtSignal && process.terminationStatus == SIGINT,
            "ends by SIGINT: \(process.terminationReason == .exit ? "exit" : "signal") \(process.terminationStatus)")
        #expect(output.last == 0x0A, "no partial last line (\(output.count) bytes)")
        for text in CLIFixtures.lines(String(decoding: output, as: UTF8.self)) {
            #expect(try CLIFixtures.json(text)["jwe"]?.stringValue?.split(separator: ".").count == 5)
        }
        let lines = CLIFixtures.lines(String(decoding: output, as: UTF8.self))
        #expect(!lines.isEmpty && lines.count < 3, "interrupted before the end: \(lines.count) lines")
    }

    /// The finding's form: short lines (7–18 of 20 trials left a partial line before the fix).
    @Test("SIGINT or SIGTERM during an iin --lines batch on a pipe: every line complete (10 trials)")
    func shortLines() throws {
        let input = try CommandRunner.temporaryDirectory() + "/numbers"
        try Data(String(repeating: "\"41111111\"\n", count: 400_000).utf8).write(to: URL(fileURLWithPath: input))
        for trial in 0..<10 {
            let signal = trial % 2 == 0 ? SIGINT : SIGTERM
            let (output, process) = try Self.interrupt(["iin", "--lines"], input: input, after: 200_000 + trial * 37_000, signal: signal)
            #expect(output.last == 0x0A, "trial \(trial): no partial last line")
            let lines = CLIFixtures.lines(String(decoding: output, as: UTF8.self))
            #expect(lines.allSatisfy { $0.hasPrefix("{\"status\":\"SUPPORTED\"") && $0.hasSuffix("]}") }, "trial \(trial)")
            #expect(
                process.terminationReason == .uncaughtSignal && process.terminationStatus == signal, "trial \(trial): ends by the signal")
        }
    }
}

/// Issue #13, F15: file paths and `env:` names were echoed raw in errors, escape sequences and
/// 16-digit runs included. Paths now go through `SafeEcho.text` (controls become `?`, a run of
/// 12+ digits is redacted), names through `SafeEcho.name`, and every error line through
/// `SafeEcho.text` as well.
@Suite("paths and env: names are echoed safely")
struct SafeEchoTests {
    static let escapes: [Character] = ["\u{1B}", "\u{07}", "\u{9B}", "\u{202E}"]

    static func expectSafe(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(!text.contains { escapes.contains($0) }, "no control characters: \(text.debugDescription)", sourceLocation: sourceLocation)
        #expect(longestDigitRun(text) < 12, "no card-number-like run: \(text)", sourceLocation: sourceLocation)
        #expect(!text.contains("4111"), "\(text)", sourceLocation: sourceLocation)
    }

    @Test(
        "a key, product, phrase or output path with ESC sequences and a card number",
        arguments: [
            ["encrypt", "--key", "/nonexistent/\u{1B}[31m4111 1111 1111 1111/key.pem"],
            ["decrypt", "--key", "/nonexistent/\u{1B}]0;owned\u{07}4111-1111-1111-1111.pem"],
            ["validate", "--product", "/nonexistent/\u{9B}2J4111111111111111.json"],
            ["aps", "sign", "--phrase-file", "/nonexistent/\u{202E}4111111111111111"],
            ["keygen", "--out", "/nonexistent/\u{1B}[1m4111111111111111"],
        ])
    func paths(_ arguments: [String]) throws {
        let result = try CommandRunner.run(arguments, stdin: Array("{}".utf8))
        #expect(result.status == 1, "\(result.err)")
        #expect(result.err.hasPrefix("Error: cli.file: "), "\(result.err)")
        #expect(result.err.contains("<redacted "), "\(result.err)")
        #expect(result.err.contains("/nonexistent/"), "the readable part of the path is kept")
        Self.expectSafe(result.err)
    }

    @Test("an env: variable name with ESC sequences and a card number")
    func environmentName() throws {
        let name = "\u{1B}]0;owned\u{07}4111111111111111"
        let result = try CommandRunner.run(["encrypt", "--key", "env:" + name], stdin: Array("{}".utf8))
        result.expectFailure(code: "cli.missingEnvironment")
        #expect(result.err.contains("variable=<redacted \(name.unicodeScalars.count) chars>"), "\(result.err)")
        Self.expectSafe(result.err)
    }

    @Test("SafeEcho.text: controls, bidi overrides and digit runs of 12+ (spaced or dashed)")
    func rule() {
        #expect(SafeEcho.text("keys/\u{1B}[2Jx.pem") == "keys/?[2Jx.pem")
        #expect(SafeEcho.text("/tmp/4111 1111 1111 1111.pem") == "/tmp/<redacted 19 chars>.pem")
        #expect(SafeEcho.text("/keys/2026-12-01/k.pem") == "/keys/2026-12-01/k.pem", "dates stay readable")
        #expect(SafeEcho.text("a\u{202E}b\u{9B}c") == "a?b?c")
        #expect(SafeEcho.text("41111111111") == "41111111111", "11 digits stay")
        #expect(SafeEcho.text("411111111111") == "<redacted 12 chars>")
        #expect(SafeEcho.text("résumé/ключ.pem") == "résumé/ключ.pem", "printable non-ASCII stays")
        // Issue #24, point 9: any single non-alphanumeric character between digits joins the run.
        #expect(SafeEcho.text("/tmp/4111.1111.1111.1111.pem") == "/tmp/<redacted 19 chars>.pem")
        #expect(SafeEcho.text("/tmp/4111_1111_1111_1111") == "/tmp/<redacted 19 chars>")
        #expect(SafeEcho.text("4111/1111/1111/1111") == "<redacted 19 chars>")
    }
}

/// Issue #13, F16: one trailing line break is not part of the value, and it is dropped before
/// the size check, so `echo` and `printf` agree at the 64 KiB and 1 MiB edges.
@Suite("echo and printf agree at the size limits")
struct LineBreakSizeEdgeTests {
    @Test("64 KiB value (iin): accepted with \\n, \\r\\n or nothing; one byte more is too large either way")
    func singleValue() throws {
        let value = [UInt8](repeating: UInt8(ascii: "4"), count: 65_536)
        for ending in [[], [0x0A], [0x0D, 0x0A]] as [[UInt8]] {
            let atLimit = try CommandRunner.run(["iin"], stdin: value + ending)
            #expect(
                atLimit.err.hasPrefix("Error: cli.notDigits: a card number has 1 to 19 digits (digits=65536)"),
                "ending \(ending): \(atLimit.err)")
            let over = try CommandRunner.run(["iin"], stdin: value + [0x34] + ending)
            over.expectFailure(code: "cli.inputTooLarge")
        }
    }

    @Test("1 MiB JSON (validate): accepted with or without \\n; one byte more is too large either way")
    func document() throws {
        let head = Array(#"{"cardNumber":"4111 1111 1111 1111""#.utf8)
        let document = head + [UInt8](repeating: 0x20, count: (1 << 20) - head.count - 1) + [UInt8(ascii: "}")]
        #expect(document.count == 1 << 20)
        for ending in [[], [0x0A]] as [[UInt8]] {
            let atLimit = try CommandRunner.run(
                ["validate", "--product", "builtin:card", "--now", CLIFixtures.now], stdin: document + ending)
            #expect(atLimit.out.hasPrefix(#"{"valid":false,"errors":[{"field":"#), "ending \(ending): \(atLimit.err)")
            #expect(atLimit.err.isEmpty, "a verdict, not an error: \(atLimit.err)")
            let over = try CommandRunner.run(
                ["validate", "--product", "builtin:card", "--now", CLIFixtures.now], stdin: [0x20] + document + ending)
            over.expectFailure(code: "cli.inputTooLarge")
        }
    }

    @Test("encrypt keeps the line break: it is plaintext, and it counts against the 512 KiB limit")
    func verbatim() throws {
        let plaintext = [UInt8](repeating: 0x61, count: 512 * 1024)
        let result = try CommandRunner.run(["encrypt", "--key", CLIFixtures.publicKey], stdin: plaintext + [0x0A])
        result.expectFailure(code: "cli.inputTooLarge")
    }
}

/// Issue #13, F01 (batch part) and F02: a batch held whole blocks of results (256 lines), so
/// large output lines (66 MB IIN co-brand lists, 4.7 MB escaped plaintexts) reached gigabytes.
/// Output is now written as soon as the lines before it are, and the workers take no new line
/// while more than `maxPendingOutputBytes` waits: the output held is bounded in bytes.
@Suite("a batch holds a bounded number of output bytes")
struct BatchMemoryTests {
    /// Produced output bytes and a gate that holds line 1 (so nothing can be written).
    final class Probe: @unchecked Sendable {
        private let lock = NSCondition()
        private var produced = 0
        private var open = false
        func add(_ bytes: Int) { lock.lock(); produced += bytes; lock.broadcast(); lock.unlock() }
        var value: Int { lock.lock(); defer { lock.unlock() }; return produced }
        func waitForGate() { lock.lock(); while !open { lock.wait() }; lock.unlock() }
        func openGate() { lock.lock(); open = true; lock.broadcast(); lock.unlock() }
        /// Waits until `produced` exceeds `bound` or stops growing for `quiet` seconds (at most
        /// `limit` seconds in all); returns the largest value seen.
        func settle(above bound: Int, quiet: TimeInterval, limit: TimeInterval) -> Int {
            lock.lock(); defer { lock.unlock() }
            let end = Date(timeIntervalSinceNow: limit)
            while produced <= bound && Date() < end {
                let before = produced
                if !lock.wait(until: Date(timeIntervalSinceNow: quiet)) && produced == before { break }
            }
            return produced
        }
    }

    @Test("line 1 held back: the other workers stop after the output budget, not after a block of 256 lines")
    func boundedWhileHeadIsSlow() throws {
        let lineBytes = 256 << 10, budget = 1 << 20, workers = 2, lineCount = 600
        let input = try #require(tmpfile())
        defer { fclose(input) }
        let text = [UInt8](String(repeating: "x\n", count: lineCount).utf8)
        #expect(text.withUnsafeBytes { write(fileno(input), $0.baseAddress, $0.count) } == text.count)
        lseek(fileno(input), 0, SEEK_SET)
        var pipeFDs: [Int32] = [0, 0]
        try #require(pipe(&pipeFDs) == 0)
        var runner = BatchRunner()
        runner.input = fileno(input)
        runner.output = pipeFDs[1]
        runner.workers = workers
        runner.maxPendingOutputBytes = budget
        let probe = Probe()
        let outcome = OutcomeBox()
        let writeEnd = pipeFDs[1]
        let finished = DispatchSemaphore(value: 0)
        Thread { [runner] in
            do throws(CSEError) {
                outcome.failures = try runner.run { number, _ in
                    if number == 1 { probe.waitForGate() }
                    probe.add(lineBytes)
                    return .output([UInt8](repeating: 0x61, count: lineBytes))
                }
            } catch {
                outcome.error = error
            }
            close(writeEnd)
            finished.signal()
        }.start()
        // Nothing can be written while line 1 is held: what was produced is what is held.
        let bound = budget + (workers + 2) * lineBytes
        let held = probe.settle(above: bound, quiet: 1.0, limit: 20)
        probe.openGate()
        var lines = 0
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = buffer.withUnsafeMutableBytes { read(pipeFDs[0], $0.baseAddress, $0.count) }
            if n <= 0 { break }
            lines += buffer[0..<n].lazy.filter { $0 == 0x0A }.count
        }
        close(pipeFDs[0])
        finished.wait()
        #expect(held <= bound, "held \(held) bytes of output against a bound of \(bound)")
        #expect(lines == lineCount, "every line answered")
        #expect(outcome.failures == 0 && outcome.error == nil)
    }

    final class OutcomeBox: @unchecked Sendable {
        var failures = -1
        var error: CSEError?
    }
}
