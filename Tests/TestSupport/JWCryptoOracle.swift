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
        let process = Process()
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = arguments
        let stdin = Pipe(), stdout = Pipe(), stderr = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = stderr
        try process.run()
        let writer = Thread {
            stdin.fileHandleForWriting.write(Data(input.utf8))
            try? stdin.fileHandleForWriting.close()
        }
        writer.start()
        let errorDrain = Thread { _ = stderr.fileHandleForReading.readDataToEndOfFile() }
        errorDrain.start()
        let output = stdout.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw CSEError(.init("test.oracleFailed"), "python exited \(process.terminationStatus)")
        }
        return String(decoding: output, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
            .dropLast().map(String.init)
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
