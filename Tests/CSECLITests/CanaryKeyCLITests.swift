import CSECore
import CSEPayments
import Foundation
import Testing
import TestSupport

/// The key canary through the CLI: broken forms of a private key given to every command that
/// reads a key, from a file and from `env:NAME`; stdout and stderr must not contain any
/// 16-character window of the key's PEM body. And the refusal paths: keys under 2048 bits,
/// and the TEST-ONLY demo key outside demo mode.
@Suite("Canary: the CLI never prints private-key material; weak and demo keys are refused")
struct CanaryKeyCLITests {
    static let privatePEM: String = try! String(contentsOfFile: CLIFixtures.privateKey, encoding: .utf8)
    static let windows: [String] = privatePEM.split(separator: "\n").filter { !$0.hasPrefix("-----") }.map { String($0.prefix(16)) }

    /// Broken private keys: (description, file contents).
    static let broken: [(String, String)] = {
        var lines = privatePEM.split(separator: "\n").map(String.init)
        let middle = lines.count / 2
        let truncated = lines.enumerated().filter { $0.offset != middle }.map(\.element).joined(separator: "\n")
        lines[middle] = String(lines[middle].dropLast(3)) + "!!!"
        return [
            ("a body line missing", truncated),
            ("a foreign character", lines.joined(separator: "\n")),
            ("labelled PUBLIC KEY", privatePEM.replacingOccurrences(of: "PRIVATE KEY", with: "PUBLIC KEY")),
            ("labelled CERTIFICATE", privatePEM.replacingOccurrences(of: "PRIVATE KEY", with: "CERTIFICATE")),
            ("mismatched END", privatePEM.replacingOccurrences(of: "END PRIVATE KEY", with: "END RSA PRIVATE KEY")),
            ("a JWK with the PEM body as d", #"{"kty":"RSA","n":"AQAB","e":"AQAB","d":"\#(windows.joined())"}"#),
            ("a key response with the PEM body", #"{"keyId":"k","publicKey":"\#(windows.joined())"}"#),
        ]
    }()

    static func expectNoKeyMaterial(_ result: CommandRunner.Result, _ what: String) {
        #expect(result.status == 1 || result.status == 64, "\(what): status \(result.status)")
        for (stream, text) in [("stdout", result.out), ("stderr", result.err)] {
            for window in windows where text.contains(window) {
                Issue.record("\(what): \(stream) contains private-key material")
            }
        }
    }

    @Test("broken private keys given to decrypt, encrypt and seal, from a file and from the environment")
    func brokenKeys() throws {
        let directory = try CommandRunner.temporaryDirectory()
        let jwe = try CLIFixtures.run(["encrypt", "--key", "@PUBLIC", "--kid", "k"], #"{"a":1}"#).out
        for (index, (what, contents)) in Self.broken.enumerated() {
            let path = directory + "/broken-\(index).pem"
            try contents.write(toFile: path, atomically: true, encoding: .utf8)
            let environment = ProcessInfo.processInfo.environment.merging(["CSE_CANARY_KEY": contents]) { $1 }
            for key in [path, "env:CSE_CANARY_KEY"] {
                let runs: [([String], String)] = [
                    (["decrypt", "--key", key], jwe),
                    (["decrypt", "--key", key, "--lines"], jwe + "\n" + jwe),
                    (["encrypt", "--key", key, "--kid", "k"], #"{"a":1}"#),
                    (
                        ["seal", "--product", "builtin:card", "--key", key, "--kid", "k", "--session-id", "s", "--now", CLIFixtures.now],
                        CLIFixtures.validCard
                    ),
                ]
                for (arguments, input) in runs {
                    let result = try CommandRunner.run(arguments, stdin: Array(input.utf8), environment: environment)
                    Self.expectNoKeyMaterial(result, "\(what) via \(key == path ? "file" : "env"): \(arguments[0])")
                }
            }
        }
    }

    @Test("keygen prints where it wrote the key, never the key", .timeLimit(.minutes(2)))
    func keygenOutput() throws {
        let directory = try CommandRunner.temporaryDirectory()
        let result = try CommandRunner.run(["keygen", "--bits", "2048", "--out", directory, "--key-id", "canary"])
        #expect(result.status == 0, "\(result.err)")
        let written = try String(contentsOfFile: directory + "/private.pem", encoding: .utf8)
        for window in written.split(separator: "\n").filter({ !$0.hasPrefix("-----") }).map({ String($0.prefix(16)) }) {
            #expect(!result.out.contains(window) && !result.err.contains(window), "keygen echoed its private key")
        }
    }

    @Test(
        "a 1024-bit key is refused by encrypt, seal and decrypt with key.tooSmall",
        .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/openssl"), "needs the openssl tool"))
    func smallKey() throws {
        let directory = try CommandRunner.temporaryDirectory()
        let path = directory + "/rsa-1024.pem"
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
        process.arguments = ["genpkey", "-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:1024", "-out", path]
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        let jwe = try CLIFixtures.run(["encrypt", "--key", "@PUBLIC", "--kid", "k"], #"{"a":1}"#).out
        try CLIFixtures.run(["encrypt", "--key", path, "--kid", "k"], #"{"a":1}"#).expectFailure(code: "key.tooSmall")
        try CLIFixtures.run(["decrypt", "--key", path], jwe).expectFailure(code: "key.tooSmall")
        try CLIFixtures.run(
            ["seal", "--product", "builtin:card", "--key", path, "--kid", "k", "--session-id", "s", "--now", CLIFixtures.now],
            CLIFixtures.validCard
        ).expectFailure(code: "key.tooSmall")
    }

    @Test("the demo key from the environment is refused by seal without --demo")
    func demoKeyFromEnvironment() throws {
        let environment = ProcessInfo.processInfo.environment.merging(["CSE_DEMO_KEY": DemoKeys.testOnlyPublicKeyPEM]) { $1 }
        let refused = try CommandRunner.run(
            [
                "seal", "--product", "builtin:card", "--key", "env:CSE_DEMO_KEY", "--kid", "k", "--session-id", "s", "--now",
                CLIFixtures.now,
            ],
            stdin: Array(CLIFixtures.validCard.utf8), environment: environment)
        refused.expectFailure(code: "payments.demoKeyRefused")
        let allowed = try CommandRunner.run(
            [
                "seal", "--product", "builtin:card", "--key", "env:CSE_DEMO_KEY", "--kid", "k", "--session-id", "s", "--now",
                CLIFixtures.now, "--demo",
            ],
            stdin: Array(CLIFixtures.validCard.utf8), environment: environment)
        #expect(allowed.status == 0, "\(allowed.err)")
    }
}
