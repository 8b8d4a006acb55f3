import Foundation
import TestSupport

/// Runs a bash script with `$CSE` set to the built `cse`, for the I/O cases that need a shell:
/// redirections to `/dev/full`, a closed descriptor, a directory on stdin, `trap '' PIPE`,
/// `LD_PRELOAD`. Every command that could block is wrapped in `timeout` by the script itself.
enum IOShell {
    struct Result {
        let stdout: [UInt8]
        let stderr: String
        let status: Int32
        var out: String { String(decoding: stdout, as: UTF8.self) }
    }

    static func run(_ script: String, environment: [String: String] = [:]) throws -> Result {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = ["-c", script]
        var env = ProcessInfo.processInfo.environment
        env["CSE"] = CommandRunner.executable
        env["XDG_STATE_HOME"] = CommandRunner.stateDirectory
        for (key, value) in environment { env[key] = value }
        process.environment = env
        let output = Pipe(), error = Pipe()
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = output
        process.standardError = error
        try process.run()
        let box = ErrorBox()
        let done = DispatchSemaphore(value: 0)
        Thread {
            box.data = error.fileHandleForReading.readDataToEndOfFile()
            done.signal()
        }.start()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        done.wait()
        return Result(stdout: Array(data), stderr: String(decoding: box.data, as: UTF8.self), status: process.terminationStatus)
    }

    /// Single-quotes `text` for bash.
    static func quote(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }

    private final class ErrorBox: @unchecked Sendable {
        var data = Data()
    }
}

/// `LD_PRELOAD` fault injectors, compiled once per test process with `cc`.
enum FaultShim {
    /// `read(0, …)` delivers the first 64 KiB of standard input, then fails with `EIO`.
    static let readEIOAfter64KiB: String = build(
        "read-eio",
        """
        #define _GNU_SOURCE
        #include <dlfcn.h>
        #include <errno.h>
        #include <unistd.h>
        static size_t delivered;
        ssize_t read(int fd, void *buf, size_t n) {
            static ssize_t (*real)(int, void *, size_t);
            if (!real) real = (ssize_t (*)(int, void *, size_t))dlsym(RTLD_NEXT, "read");
            if (fd != 0) return real(fd, buf, n);
            if (delivered >= 65536) { errno = EIO; return -1; }
            if (n > 65536 - delivered) n = 65536 - delivered;
            ssize_t got = real(fd, buf, n);
            if (got > 0) delivered += (size_t)got;
            return got;
        }
        """)

    /// `write` to a regular file fails with `ENOSPC` (a full disk); other writes are untouched.
    static let writeENOSPCToFiles: String = build(
        "write-enospc",
        """
        #define _GNU_SOURCE
        #include <dlfcn.h>
        #include <errno.h>
        #include <sys/stat.h>
        #include <unistd.h>
        ssize_t write(int fd, const void *buf, size_t n) {
            static ssize_t (*real)(int, const void *, size_t);
            if (!real) real = (ssize_t (*)(int, const void *, size_t))dlsym(RTLD_NEXT, "write");
            struct stat info;
            if (fd > 2 && fstat(fd, &info) == 0 && S_ISREG(info.st_mode)) { errno = ENOSPC; return -1; }
            return real(fd, buf, n);
        }
        """)

    private static func build(_ name: String, _ source: String) -> String {
        let directory = try! CommandRunner.temporaryDirectory()
        let sourcePath = directory + "/\(name).c", library = directory + "/\(name).so"
        try! source.write(toFile: sourcePath, atomically: true, encoding: .utf8)
        let result = try! IOShell.run("cc -shared -fPIC -O1 -o \(IOShell.quote(library)) \(IOShell.quote(sourcePath)) -ldl")
        precondition(result.status == 0, "cc failed: \(result.stderr)")
        return library
    }
}

/// The longest run of ASCII digits in `text`, where single spaces or dashes between digits do
/// not end a run (the way a card number is written).
func longestDigitRun(_ text: String) -> Int {
    let scalars = Array(text.unicodeScalars)
    var best = 0, current = 0, index = 0
    while index < scalars.count {
        let scalar = scalars[index]
        if ("0"..."9").contains(scalar) {
            current += 1
            best = max(best, current)
        } else if (scalar == " " || scalar == "-"), current > 0, index + 1 < scalars.count, ("0"..."9").contains(scalars[index + 1]) {
            // a separator inside a number
        } else {
            current = 0
        }
        index += 1
    }
    return best
}
