import Foundation

/// Runs the built `cse` binary the way a user would (swift-argument-parser's
/// `AssertExecuteCommand` style): arguments, standard input, and captured stdout, stderr and
/// exit status.
public enum CommandRunner {
    /// The result of one run.
    public struct Result: Sendable {
        /// Standard output bytes.
        public let stdout: [UInt8]
        /// Standard error bytes.
        public let stderr: [UInt8]
        /// The exit status.
        public let status: Int32
        /// Standard output as text.
        public var out: String { String(decoding: stdout, as: UTF8.self) }
        /// Standard error as text.
        public var err: String { String(decoding: stderr, as: UTF8.self) }
    }

    /// The `cse` executable next to the test bundle (the same build), or in `.build/debug`.
    public static let executable: String = {
        let candidates = [
            Bundle.main.bundleURL.deletingLastPathComponent().appendingPathComponent("cse").path,
            URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("cse").path,
            TestPaths.packageRoot.appendingPathComponent(".build/debug/cse").path,
        ]
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0) } ?? candidates[2]
    }()

    /// The `XDG_STATE_HOME` of the commands this test process runs: a 0700 directory of its own.
    public static let stateDirectory: String = {
        let path = NSTemporaryDirectory() + "cse-tests-state-\(getpid())"
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        return path
    }()

    /// SIGPIPE ignored once per process, so writing to a child that has exited is an error
    /// return, not the death of the test process.
    private static let ignoreBrokenPipes: Void = { _ = signal(SIGPIPE, SIG_IGN) }()

    /// Runs `cse` with `arguments`, feeding `stdin`.
    public static func run(_ arguments: [String], stdin: [UInt8] = [], environment: [String: String]? = nil) throws -> Result {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        // A money-moving command journals by default under XDG_STATE_HOME (issue #36): the tests'
        // journal goes to a directory of this test process, never the user's ~/.local/state.
        var environment = environment ?? ProcessInfo.processInfo.environment
        if environment["XDG_STATE_HOME"] == nil { environment["XDG_STATE_HOME"] = stateDirectory }
        process.environment = environment
        let input = Pipe(), output = Pipe(), error = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = error
        _ = ignoreBrokenPipes
        try process.run()
        let writer = Thread {
            // A command may exit before reading its input (a bad key, a usage error): the write
            // then fails with EPIPE, which is expected and must not kill the test process.
            try? input.fileHandleForWriting.write(contentsOf: Data(stdin))
            try? input.fileHandleForWriting.close()
        }
        writer.start()
        let errBox = DataBox()
        let done = DispatchSemaphore(value: 0)
        let errReader = Thread {
            errBox.data = error.fileHandleForReading.readDataToEndOfFile()
            done.signal()
        }
        errReader.start()
        let outData = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        done.wait()
        return Result(stdout: Array(outData), stderr: Array(errBox.data), status: process.terminationStatus)
    }

    /// Runs `cse` with text on standard input.
    public static func run(_ arguments: [String], input: String) throws -> Result {
        try run(arguments, stdin: Array(input.utf8))
    }

    /// A fresh temporary directory.
    public static func temporaryDirectory() throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("cse-test-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    /// A copy of the secret file at `path` (a private key of the shared vectors, which the
    /// read-only checkout gives mode 0444) in a fresh directory with mode 0600, as a deployment
    /// keeps it, so that `cse` prints no permission warning (docs/SECURITY.md, issue #24
    /// point 17). A path that does not exist is returned unchanged.
    public static func ownerOnlyCopy(of path: String) -> String {
        guard FileManager.default.fileExists(atPath: path), let directory = try? temporaryDirectory() else { return path }
        let copy = directory + "/" + URL(fileURLWithPath: path).lastPathComponent
        guard (try? FileManager.default.copyItem(atPath: path, toPath: copy)) != nil,
            (try? FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: copy)) != nil
        else { return path }
        return copy
    }

    /// Sets the mode of the files at `paths` to 0600 (secret fixtures the tests write).
    public static func ownerOnly(_ paths: String...) {
        for path in paths { try? FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: path) }
    }
}

/// Hands stderr bytes from the reader thread to the caller (written once, read after the
/// semaphore, so no further synchronisation is needed).
private final class DataBox: @unchecked Sendable {
    var data = Data()
}
