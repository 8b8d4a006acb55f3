import Foundation
import Testing
import TestSupport

/// Issue #24, point 17: a file holding a secret that others may read is used, with a warning on
/// standard error, as ssh warns about a private key ("UNPROTECTED PRIVATE KEY FILE"). The warning
/// names the path and the mode, never the content.
@Suite("cse: secret files readable by others are used with a warning on stderr")
struct SecretFileModeTests {
    static let secret = "c2VjcmV0LWFwaS1rZXktZm9yLXRlc3Rz"

    /// Whether `stderr` holds the warning for a `kind` file of permissions `mode` (the path
    /// between them is echoed through SafeEcho, which may redact digit runs of the random
    /// directory name).
    static func warns(_ stderr: String, _ kind: String, mode: Int) -> Bool {
        stderr.split(separator: "\n").contains { line in
            line.hasPrefix("warning: the \(kind) ")
                && line.hasSuffix(
                    " is accessible by others (mode 0\(String(mode, radix: 8))); chmod 600 it so that only its owner can read it")
        }
    }

    /// A file with `text` and permissions `mode` in a fresh directory.
    static func file(_ text: String, mode: Int) throws -> String {
        let path = try CommandRunner.temporaryDirectory() + "/secret"
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: path)
        return path
    }

    @Test(
        "a secret file (worldline sign --secret-file): a warning for group or other access, none at 0600 or 0400",
        arguments: [(0o644, true), (0o640, true), (0o604, true), (0o660, true), (0o600, false), (0o400, false)])
    func secretFile(mode: Int, warns: Bool) throws {
        let path = try Self.file(Self.secret + "\n", mode: mode)
        let result = try CommandRunner.run(["worldline", "sign", "--secret-file", path], input: "POST\n\n\n/v2/1/sessions\n")
        #expect(result.status == 0, "\(result.err)")
        #expect(Self.warns(result.err, "secret file", mode: mode) == warns, "\(result.err)")
        #expect(!result.err.contains(Self.secret) && !result.out.contains(Self.secret))
    }

    @Test("a credentials file: the warning comes before the call is made, the call goes on")
    func credentialsFile() throws {
        let credentials = #"{"merchantId":"1234","apiKeyId":"5e45c937b9db33ae","secretApiKey":"\#(Self.secret)"}"#
        for (mode, warns) in [(0o644, true), (0o600, false)] {
            let path = try Self.file(credentials, mode: mode)
            // Port 1 on loopback: nothing listens, so the call fails at once, after the warning.
            let result = try CommandRunner.run([
                "worldline", "create-session", "--credentials", path, "--endpoint", "http://127.0.0.1:1", "--timeout", "5",
            ])
            #expect(result.status != 0)
            #expect(Self.warns(result.err, "credentials file", mode: mode) == warns, "\(result.err)")
            #expect(result.err.contains("http.") || result.err.contains("connect"), "\(result.err)")
            #expect(!result.err.contains(Self.secret))
        }
    }

    @Test("an APS phrase file and a private key file get the same warning")
    func phraseAndKeyFiles() throws {
        let phrase = try Self.file("phrase-\(Self.secret)\n", mode: 0o644)
        let sign = try CommandRunner.run(["aps", "sign", "--phrase-file", phrase], input: #"{"a":"1"}"#)
        #expect(sign.status == 0, "\(sign.err)")
        #expect(Self.warns(sign.err, "phrase file", mode: 0o644), "\(sign.err)")
        let directory = try CommandRunner.temporaryDirectory()
        let keygen = try CommandRunner.run(["keygen", "--out", directory])
        #expect(keygen.status == 0, "\(keygen.err)")
        // keygen writes the private key at 0600: no warning; at 0644, one.
        let quiet = try CommandRunner.run(["decrypt", "--key", directory + "/private.pem"], input: "a.b.c.d.e\n")
        #expect(!quiet.err.contains("warning:"), "\(quiet.err)")
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: directory + "/private.pem")
        let decrypt = try CommandRunner.run(["decrypt", "--key", directory + "/private.pem"], input: "a.b.c.d.e\n")
        #expect(Self.warns(decrypt.err, "private key file", mode: 0o644), "\(decrypt.err)")
    }
}
