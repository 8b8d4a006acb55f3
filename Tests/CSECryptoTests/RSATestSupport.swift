import CSECore
import CSECrypto
import Foundation
import TestSupport
import Testing

/// Shared helpers for the RSA, key and OAEP tests.
enum RSAVectors {
    /// `true` when ../shared/vectors is present.
    static let available = TestPaths.sharedVectors != nil

    /// A shared JSON vector file as a schema-less JSON object, or `nil` when absent.
    static func json(_ path: String) throws -> AnyJSON? { try VectorFiles.shared(AnyJSON.self, path) }

    /// One seeded OAEP example with its key.
    struct SeededExample: CustomTestStringConvertible, Sendable {
        let id: String
        let keyTitle: String
        let modulusBits: Int
        let n, e, d, p, q, dp, dq, qinv: [UInt8]
        let message, seed, ciphertext: [UInt8]
        var testDescription: String { "example \(id)" }
    }

    /// A seeded OAEP vector file (`oaep-vect-sha1.json`, `oaep-sha256-seeded.json`).
    struct SeededFile: Decodable {
        struct PrivateKey: Decodable { let n, e, d, p, q, dp, dq, qinv: String }
        struct Example: Decodable { let id, message, seed, ciphertext: String }
        struct Key: Decodable {
            let title: String
            let modulusBits: Int
            let `private`: PrivateKey
            let examples: [Example]
        }
        let keys: [Key]
    }

    /// The examples of a seeded OAEP vector file; empty when the shared vectors are absent.
    static func seededExamples(_ path: String) -> [SeededExample] {
        guard let file = try! VectorFiles.shared(SeededFile.self, path) else { return [] }
        return file.keys.flatMap { key in
            let priv = key.private
            return key.examples.map { example in
                SeededExample(
                    id: example.id, keyTitle: key.title, modulusBits: key.modulusBits,
                    n: Hex.decode(priv.n), e: Hex.decode(priv.e), d: Hex.decode(priv.d),
                    p: Hex.decode(priv.p), q: Hex.decode(priv.q), dp: Hex.decode(priv.dp),
                    dq: Hex.decode(priv.dq), qinv: Hex.decode(priv.qinv),
                    message: Hex.decode(example.message), seed: Hex.decode(example.seed),
                    ciphertext: Hex.decode(example.ciphertext))
            }
        }
    }

    static let sha1Examples = seededExamples("rsa-oaep/oaep-vect-sha1.json")
    static let sha256Examples = seededExamples("rsa-oaep/oaep-sha256-seeded.json")
}

/// Keys generated once per test process (generation is the slow part).
enum GeneratedKeys {
    static let rsa2048: RSAPrivateKey = try! RSAPrivateKey.generate(bits: 2048)
    static let rsa3072: RSAPrivateKey = try! RSAPrivateKey.generate(bits: 3072)
    static let rsa4096: RSAPrivateKey = try! RSAPrivateKey.generate(bits: 4096)

    static func key(bits: Int) -> RSAPrivateKey {
        switch bits {
        case 2048: rsa2048
        case 3072: rsa3072
        default: rsa4096
        }
    }
}

/// Runs the `openssl` command-line tool (tests only) and returns its stdout.
enum OpenSSLTool {
    static let path: String? = ["/usr/bin/openssl", "/usr/local/bin/openssl"].first {
        FileManager.default.isExecutableFile(atPath: $0)
    }

    static func run(_ arguments: [String], stdin: Data? = nil) throws -> Data {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path!)
        process.arguments = arguments
        let output = Pipe()
        let input = Pipe()
        process.standardOutput = output
        process.standardInput = input
        process.standardError = FileHandle.nullDevice
        try process.run()
        if let stdin { input.fileHandleForWriting.write(stdin) }
        try input.fileHandleForWriting.close()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw CSEError(.init("test.openssl"), "openssl \(arguments.joined(separator: " ")) failed")
        }
        return data
    }
}
