import CSECore
import Foundation

/// Runs the independent JOSE implementation (Debian python3-jwcrypto) through
/// `Tests/Interop/jwcrypto_oracle.py`, one batch per call (see the script for the protocol).
/// Shared by the JOSE and CLI tests.
public enum JWCryptoOracle {
    /// The interpreter; the system one, where Debian's python3-jwcrypto is installed.
    public static let python = "/usr/bin/python3"
    /// The oracle script.
    public static let script = TestPaths.packageRoot.appendingPathComponent("Tests/Interop/jwcrypto_oracle.py").path

    /// Whether python3-jwcrypto is installed (`.ci/run` installs it).
    public static let isAvailable: Bool = {
        guard FileManager.default.isExecutableFile(atPath: python), FileManager.default.fileExists(atPath: script) else {
            return false
        }
        return (try? run(["-c", "import jwcrypto"], input: "")) != nil
    }()

    /// Runs python with `arguments`, feeding `input`; returns stdout lines, or throws on a non-zero exit.
    public static func run(_ arguments: [String], input: String) throws -> [String] {
        // stdin is a temporary file, not a pipe: another child spawned meanwhile by a concurrent
        // test can inherit a pipe's write end, and python would then wait for end of file forever.
        let inputPath = FileManager.default.temporaryDirectory.appendingPathComponent("csekit-oracle-\(UUID().uuidString)").path
        try input.write(toFile: inputPath, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: inputPath) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = arguments
        let stdout = Pipe(), stderr = Pipe()
        process.standardInput = try FileHandle(forReadingFrom: URL(fileURLWithPath: inputPath))
        process.standardOutput = stdout
        process.standardError = stderr
        try process.run()
        let errorDrain = Thread { _ = stderr.fileHandleForReading.readDataToEndOfFile() }
        errorDrain.start()
        let output = stdout.fileHandleForReading.readDataToEndOfFile()
        let status = waitBounded(process)
        guard status == 0 else {
            throw CSEError(.init("test.oracleFailed"), "python exited \(status)")
        }
        return String(decoding: output, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
            .dropLast().map(String.init)
    }

    /// The exit status of a child whose output has ended. Foundation's exit monitoring has been
    /// seen to miss a child under many concurrent spawns (a zombie, and `waitUntilExit` waiting
    /// forever), so after 10 s of `isRunning` the child is reaped here with `waitpid`.
    static func waitBounded(_ process: Process) -> Int32 {
        let deadline = Date().addingTimeInterval(10)
        while process.isRunning && Date() < deadline { usleep(5_000) }
        if !process.isRunning { return process.terminationStatus }
        var status: Int32 = 0
        let reaped = waitpid(process.processIdentifier, &status, WNOHANG)
        guard reaped == process.processIdentifier else { return -1 }
        return (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
    }

    /// Writes `text` to a temporary file and returns its path.
    public static func temporaryFile(_ text: String) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("csekit-\(UUID().uuidString).pem").path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// Decrypts each compact JWE with the private key; returns plaintext bytes or nil per line.
    /// - Parameter processes: How many interpreters share the batch (in order-preserving chunks).
    public static func decrypt(_ tokens: [String], privateKeyPEM: String, processes: Int = 1) throws -> [[UInt8]?] {
        let keyPath = try temporaryFile(privateKeyPEM)
        defer { try? FileManager.default.removeItem(atPath: keyPath) }
        let chunkCount = max(1, min(processes, tokens.count))
        let chunkSize = (tokens.count + chunkCount - 1) / max(chunkCount, 1)
        let chunks = stride(from: 0, to: tokens.count, by: max(chunkSize, 1)).map { Array(tokens[$0..<min($0 + chunkSize, tokens.count)]) }
        let results = ChunkResults(count: chunks.count)
        DispatchQueue.concurrentPerform(iterations: chunks.count) { index in
            results.store(
                index,
                Result {
                    try run([script, "decrypt", "--key", keyPath], input: chunks[index].joined(separator: "\n") + "\n")
                })
        }
        var lines: [String] = []
        for index in 0..<chunks.count { lines += try results.take(index).get() }
        return lines.map { $0.hasPrefix("ERROR") ? nil : Hex.decode($0) }
    }

    /// Encrypts each plaintext for the public key with the given alg and enc.
    public static func encrypt(_ plaintexts: [[UInt8]], publicKeyPEM: String, alg: String, enc: String, kid: String) throws -> [String] {
        let keyPath = try temporaryFile(publicKeyPEM)
        defer { try? FileManager.default.removeItem(atPath: keyPath) }
        return try run(
            [script, "encrypt", "--key", keyPath, "--alg", alg, "--enc", enc, "--kid", kid],
            input: plaintexts.map { Hex.encode($0) }.joined(separator: "\n") + "\n")
    }
}

/// Per-chunk results written by `concurrentPerform` workers at distinct indices.
private final class ChunkResults: @unchecked Sendable {
    private var slots: [Result<[String], any Error>?]
    private let lock = NSLock()

    init(count: Int) { slots = Array(repeating: nil, count: count) }

    func store(_ index: Int, _ result: Result<[String], any Error>) {
        lock.lock(); defer { lock.unlock() }
        slots[index] = result
    }

    func take(_ index: Int) -> Result<[String], any Error> {
        lock.lock(); defer { lock.unlock() }
        return slots[index] ?? .failure(CSEError(.init("test.oracleFailed"), "missing chunk"))
    }
}
