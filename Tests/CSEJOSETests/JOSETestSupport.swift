import CSECore
import CSECrypto
import CSEJOSE
import Foundation
import TestSupport

/// Vectors and keys shared by the JOSE tests.
enum JOSEVectors {
    /// A JSON object file from our own `Vectors/` folder.
    static func project(_ path: String) throws -> JSONValue {
        try JSONValue.parse(Array(try TestPaths.projectFile(path)))
    }

    /// A JSON file from `../shared/vectors`, or `nil` when the shared vectors are absent.
    static func shared(_ path: String) throws -> JSONValue? {
        guard let data = TestPaths.sharedFile(path) else { return nil }
        return try JSONValue.parse(Array(data))
    }

    /// The RFC 7516 A.1 private key (2048-bit RSA, as a JWK).
    static func rfc7516A1Key() throws -> RSAPrivateKey {
        try RSAPrivateKey(jwk: try project("jose/rfc7516-a1.json")["jwk"]!)
    }

    /// Fresh key pairs, generated once per test process.
    static let key2048: RSAPrivateKey = try! RSAPrivateKey.generate(bits: 2048)
    static let key4096: RSAPrivateKey = try! RSAPrivateKey.generate(bits: 4096)

    /// Every supported alg × enc pair.
    static let pairs: [(JWEKeyAlgorithm, JWEContentEncryption)] = JWEKeyAlgorithm.allowList.flatMap { alg in
        JWEContentEncryption.allowList.map { (alg, $0) }
    }
}

/// Runs the independent JOSE implementation (Debian python3-jwcrypto) through
/// `Tests/Interop/jwcrypto_oracle.py`, one batch per call.
enum JWCryptoOracle {
    static let python = "/usr/bin/python3"
    static let script = TestPaths.packageRoot.appendingPathComponent("Tests/Interop/jwcrypto_oracle.py").path

    /// Whether python3-jwcrypto is installed (`.ci/run` installs it).
    static let isAvailable: Bool = {
        guard FileManager.default.isExecutableFile(atPath: python) else { return false }
        return (try? run(["-c", "import jwcrypto"], input: "")) != nil
    }()

    /// Runs python with `arguments`, feeding `input`; returns stdout lines, or throws on a non-zero exit.
    static func run(_ arguments: [String], input: String) throws -> [String] {
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
        let output = stdout.fileHandleForReading.readDataToEndOfFile()
        _ = stderr.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw CSEError(.init("test.oracleFailed"), "python exited \(process.terminationStatus)")
        }
        return String(decoding: output, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
            .dropLast().map(String.init)
    }

    /// Writes `pem` to a temporary file and returns its path.
    static func temporaryFile(_ text: String) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("csekit-\(UUID().uuidString).pem").path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// Decrypts each compact JWE with the private key; returns plaintext bytes or nil per line.
    static func decrypt(_ tokens: [String], privateKeyPEM: String) throws -> [[UInt8]?] {
        let keyPath = try temporaryFile(privateKeyPEM)
        defer { try? FileManager.default.removeItem(atPath: keyPath) }
        let lines = try run([script, "decrypt", "--key", keyPath], input: tokens.joined(separator: "\n") + "\n")
        return lines.map { $0.hasPrefix("ERROR") ? nil : Hex.decode($0) }
    }

    /// Encrypts each plaintext for the public key with the given alg and enc.
    static func encrypt(_ plaintexts: [[UInt8]], publicKeyPEM: String, alg: String, enc: String, kid: String) throws -> [String] {
        let keyPath = try temporaryFile(publicKeyPEM)
        defer { try? FileManager.default.removeItem(atPath: keyPath) }
        return try run(
            [script, "encrypt", "--key", keyPath, "--alg", alg, "--enc", enc, "--kid", kid],
            input: plaintexts.map { Hex.encode($0) }.joined(separator: "\n") + "\n")
    }
}
