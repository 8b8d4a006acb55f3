import CSECore
import CSECrypto
import CSEJOSE
import CSEPayments
import Foundation
import Testing
import TestSupport

@Suite("cse encrypt, decrypt and keygen end to end")
struct CLICryptoCommandTests {
    /// One key pair written by `cse keygen` for the whole suite.
    static let keyDirectory: String = {
        let dir = try! CommandRunner.temporaryDirectory()
        let result = try! CommandRunner.run(["keygen", "--bits", "2048", "--out", dir, "--key-id", "kid-cli"])
        precondition(result.status == 0, result.err)
        return dir
    }()
    static var privateKey: String { keyDirectory + "/private.pem" }
    static var publicKey: String { keyDirectory + "/public.pem" }
    static var publicKeyJSON: String { keyDirectory + "/public-key.json" }

    @Test("keygen writes a 0600 private key, a public key and the Client API JSON, and never overwrites")
    func keygen() throws {
        let attributes = try FileManager.default.attributesOfItem(atPath: Self.privateKey)
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
        let material = try RSAKeyMaterial(contents: Array(try Data(contentsOf: URL(fileURLWithPath: Self.publicKeyJSON))))
        #expect(material.keyID == "kid-cli")
        #expect(material.publicKey.bitCount == 2048)
        let again = try CommandRunner.run(["keygen", "--out", Self.keyDirectory])
        #expect(again.status == 1)
        #expect(again.err.hasPrefix("Error: cli.file: cannot create file"))
    }

    @Test(
        "encrypt writes one compact JWE line with the Worldline header; decrypt gives the plaintext back",
        arguments: ["public.pem", "public-key.json", "private.pem"])
    func encryptThenDecrypt(keyFile: String) throws {
        let plaintext = #"{"cardNumber":"4111111111111111","cvv":"123"}"#
        let encrypted = try CommandRunner.run(
            ["encrypt", "--key", Self.keyDirectory + "/" + keyFile, "--kid", "kid-cli"], input: plaintext)
        #expect(encrypted.status == 0, "\(encrypted.err)")
        #expect(encrypted.err.isEmpty)
        let lines = encrypted.out.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count == 2 && lines[1].isEmpty, "exactly one line")
        let header = try JSONValue.parse(try Base64URL.decode(lines[0].split(separator: ".")[0]))
        #expect(header.serialized == #"{"alg":"RSA-OAEP","enc":"A256CBC-HS512","kid":"kid-cli"}"#)
        let decrypted = try CommandRunner.run(["decrypt", "--key", Self.privateKey], input: encrypted.out)
        #expect(decrypted.status == 0, "\(decrypted.err)")
        #expect(decrypted.out == plaintext)
    }

    @Test("the Client API keyId becomes the kid when --kid is not given; --alg and --enc are honoured")
    func defaultsFromKeyFile() throws {
        let encrypted = try CommandRunner.run(
            ["encrypt", "--key", Self.publicKeyJSON, "--alg", "RSA-OAEP-256", "--enc=A256GCM"], input: "{}")
        #expect(encrypted.status == 0)
        let header = try JSONValue.parse(try Base64URL.decode(encrypted.out.split(separator: ".")[0]))
        #expect(header.serialized == #"{"alg":"RSA-OAEP-256","enc":"A256GCM","kid":"kid-cli"}"#)
    }

    @Test(
        "failures exit 1 with a typed error on stderr and no secret bytes",
        arguments: [
            (["encrypt", "--key", "/nonexistent/key.pem"], "{}", "Error: cli.file: cannot open file"),
            (["encrypt", "--key", "@PUBLIC"], "", "Error: cli.emptyInput"),
            (["decrypt", "--key", "@PUBLIC"], "x.y.z.a.b", "Error: key.unsupportedType"),
            (["decrypt", "--key", "@PRIVATE"], "not a jwe", "Error: jwe.malformed"),
            (["decrypt", "--key", "@PRIVATE"], "", "Error: cli.emptyInput"),
            (["encrypt", "--key", "/etc/hostname"], "{}", "Error: key.unsupportedFormat"),
        ])
    func failures(arguments: [String], input: String, message: String) throws {
        let args = arguments.map { $0 == "@PUBLIC" ? Self.publicKey : $0 == "@PRIVATE" ? Self.privateKey : $0 }
        let result = try CommandRunner.run(args, input: input)
        #expect(result.status == 1, "\(args)")
        #expect(result.out.isEmpty)
        #expect(result.err.hasPrefix(message), "\(result.err)")
        let keyText = try String(contentsOfFile: Self.privateKey, encoding: .utf8)
        let body = keyText.split(separator: "\n").dropFirst().first.map(String.init) ?? "-"
        #expect(!result.err.contains(body))
    }

    @Test("encrypt refuses the bundled TEST-ONLY demo key unless --demo is given")
    func demoKeyRefused() throws {
        let dir = try CommandRunner.temporaryDirectory()
        try DemoKeys.testOnlyPublicKeyPEM.write(toFile: dir + "/demo.pem", atomically: true, encoding: .utf8)
        let refused = try CommandRunner.run(["encrypt", "--key", dir + "/demo.pem"], input: "{}")
        #expect(refused.status == 1)
        #expect(refused.err.hasPrefix("Error: payments.demoKeyRefused"))
        #expect(refused.out.isEmpty)
        let allowed = try CommandRunner.run(["encrypt", "--key", dir + "/demo.pem", "--demo", "--kid", "demo"], input: "{}")
        #expect(allowed.status == 0)
        #expect(allowed.out.split(separator: ".").count == 5)
    }

    // Regression (issue #13, F12): the demo modulus with e = 65539 was accepted without --demo.
    @Test("encrypt refuses the demo modulus with another public exponent unless --demo is given")
    func demoModulusOtherExponentRefused() throws {
        let dir = try CommandRunner.temporaryDirectory()
        let sameModulus = try RSAPublicKey(modulus: DemoKeys.testOnlyPublicKey.modulus, exponent: [0x01, 0x00, 0x03])
        try sameModulus.pemRepresentation.write(toFile: dir + "/e65539.pem", atomically: true, encoding: .utf8)
        let refused = try CommandRunner.run(["encrypt", "--key", dir + "/e65539.pem"], input: "{}")
        #expect(refused.status == 1)
        #expect(refused.err.hasPrefix("Error: payments.demoKeyRefused"))
        #expect(refused.out.isEmpty)
        let allowed = try CommandRunner.run(["encrypt", "--key", dir + "/e65539.pem", "--demo", "--kid", "demo"], input: "{}")
        #expect(allowed.status == 0)
    }

    @Test("a tampered JWE gives the one uniform decryption error")
    func tampered() throws {
        let encrypted = try CommandRunner.run(["encrypt", "--key", Self.publicKey], input: "{\"a\":1}").out
        var parts = encrypted.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: ".").map(String.init)
        var tag = try Base64URL.decode(parts[4])
        tag[0] ^= 1
        parts[4] = Base64URL.encode(tag)
        let result = try CommandRunner.run(["decrypt", "--key", Self.privateKey], input: parts.joined(separator: "."))
        #expect(result.status == 1)
        #expect(result.err == "Error: jwe.decryptionFailed: JWE decryption failed\n")
    }

    @Test("--lines: one output line per input line, in order, errors carry their line number")
    func batchMode() throws {
        var input = ""
        for i in 1...500 { input += i % 50 == 0 ? "not json \(i)\n" : "{\"i\":\(i)}\n" }
        let encrypted = try CommandRunner.run(["encrypt", "--key", Self.publicKey, "--lines"], input: input)
        #expect(encrypted.status == 1, "some lines failed")
        let lines = encrypted.out.split(separator: "\n")
        #expect(lines.count == 500)
        var tokens: [String] = []
        for (index, line) in lines.enumerated() {
            let value = try JSONValue.parse(String(line))
            if (index + 1) % 50 == 0 {
                #expect(value["line"]?.intValue == index + 1)
                #expect(value["error"]?["code"]?.stringValue == "json.syntax")
                tokens.append("bad.bad.bad.bad.bad")
            } else {
                tokens.append(try #require(value["jwe"]?.stringValue))
            }
        }
        let decrypted = try CommandRunner.run(
            ["decrypt", "--key", Self.privateKey, "--lines"], input: tokens.joined(separator: "\n") + "\n")
        let outLines = decrypted.out.split(separator: "\n")
        #expect(outLines.count == 500)
        for (index, line) in outLines.enumerated() {
            let value = try JSONValue.parse(String(line))
            if (index + 1) % 50 == 0 {
                #expect(value["line"]?.intValue == index + 1)
            } else {
                #expect(value["plaintext"]?.stringValue == "{\"i\":\(index + 1)}")
            }
        }
    }
}

@Suite("cse encrypt, decrypt and keygen: the remaining contract cases")
struct CLICryptoContractTests {
    @Test(
        "unknown options are usage errors",
        arguments: [
            (["encrypt", "--key", "k", "--plaintext", "x"], "encrypt", "Unknown option '--plaintext'."),
            (["decrypt", "--key", "k", "--bogus"], "decrypt", "Unknown option '--bogus'."),
            (["keygen", "--out", "/tmp", "--bogus"], "keygen", "Unknown option '--bogus'."),
        ])
    func unknownOption(arguments: [String], command: String, message: String) throws {
        try CommandRunner.run(arguments, input: "{}").expectUsageError(message, command: command)
    }

    @Test(
        "a missing key file exits 1 naming the path; keygen into a missing directory too",
        arguments: [
            ["decrypt", "--key", "@MISSING"], ["encrypt", "--key", "@MISSING", "--lines"], ["keygen", "--out", "@MISSING"],
        ])
    func missingFile(arguments: [String]) throws {
        let result = try CLIFixtures.run(arguments, "{}")
        result.expectFailure(code: "cli.file")
        #expect(result.err.contains(CLIFixtures.missingFile))
    }

    @Test("keys from environment variables (--key env:NAME) encrypt and decrypt")
    func environmentKeys() throws {
        var environment = ProcessInfo.processInfo.environment
        environment["CSE_TEST_PUBLIC"] = try String(contentsOfFile: CLIFixtures.publicKey, encoding: .utf8)
        environment["CSE_TEST_PRIVATE"] = try String(contentsOfFile: CLIFixtures.privateKey, encoding: .utf8)
        let encrypted = try CommandRunner.run(
            ["encrypt", "--key", "env:CSE_TEST_PUBLIC", "--kid", "k"], stdin: Array(#"{"a":1}"#.utf8), environment: environment)
        #expect(encrypted.status == 0, "\(encrypted.err)")
        let decrypted = try CommandRunner.run(
            ["decrypt", "--key", "env:CSE_TEST_PRIVATE"], stdin: Array(encrypted.stdout), environment: environment)
        #expect(decrypted.out == #"{"a":1}"#)
        try CLIFixtures.run(["decrypt", "--key", "env:CSE_TEST_NOT_SET"], "x").expectFailure(code: "cli.missingEnvironment")
    }

    @Test(
        "--lines shows a progress line (lines, lines/s, ETA) on stderr only when stderr is a terminal",
        .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/script"), "needs util-linux script(1) for a pseudo-terminal"))
    func progressOnTerminal() throws {
        let dir = try CommandRunner.temporaryDirectory()
        let input = dir + "/in.jsonl", output = dir + "/out.jsonl"
        try (1...300).map { "{\"i\":\($0)}" }.joined(separator: "\n").write(toFile: input, atomically: true, encoding: .utf8)
        // script(1) gives the command a pseudo-terminal; stdout goes to a file, so what script
        // captures is stderr alone.
        let command = "'\(CommandRunner.executable)' encrypt --key '\(CLICryptoCommandTests.publicKey)' --lines < '\(input)' > '\(output)'"
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/script")
        process.arguments = ["-qec", command, "/dev/null"]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let captured = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        #expect(captured.contains("300 lines · "), "\(captured)")
        #expect(captured.contains(" lines/s"))
        #expect(captured.contains("ETA 0:"), "input is a regular file of known size")
        #expect(try String(contentsOfFile: output, encoding: .utf8).split(separator: "\n").count == 300)
    }
}
