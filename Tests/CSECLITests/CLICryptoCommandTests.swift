import CSECore
import CSECrypto
import CSEJOSE
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
        #expect(material.keyId == "kid-cli")
        #expect(material.publicKey.bitCount == 2048)
        let again = try CommandRunner.run(["keygen", "--out", Self.keyDirectory])
        #expect(again.status == 1)
        #expect(again.err.hasPrefix("Error: cli.file: cannot create file"))
    }

    @Test("encrypt writes one compact JWE line with the Worldline header; decrypt gives the plaintext back", arguments: ["public.pem", "public-key.json", "private.pem"])
    func encryptThenDecrypt(keyFile: String) throws {
        let plaintext = #"{"cardNumber":"4111111111111111","cvv":"123"}"#
        let encrypted = try CommandRunner.run(["encrypt", "--key", Self.keyDirectory + "/" + keyFile, "--kid", "kid-cli"], input: plaintext)
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
        let encrypted = try CommandRunner.run(["encrypt", "--key", Self.publicKeyJSON, "--alg", "RSA-OAEP-256", "--enc=A256GCM"], input: "{}")
        #expect(encrypted.status == 0)
        let header = try JSONValue.parse(try Base64URL.decode(encrypted.out.split(separator: ".")[0]))
        #expect(header.serialized == #"{"alg":"RSA-OAEP-256","enc":"A256GCM","kid":"kid-cli"}"#)
    }

    @Test("failures exit 1 with a typed error on stderr and no secret bytes", arguments: [
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
        let decrypted = try CommandRunner.run(["decrypt", "--key", Self.privateKey, "--lines"], input: tokens.joined(separator: "\n") + "\n")
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
