import Foundation
import TestSupport
import Testing

/// Issue #16, "Start-up": `cse` links neither libcurl nor ICU. libcurl (and the 26 libraries it
/// needs) is opened when a command first makes a transport, ICU when a pattern outside the
/// built-in products needs it; a one-shot `cse seal` maps neither. The dynamic loader's own trace
/// (`LD_DEBUG=files`, glibc) is the witness: it names every library a process opens, with
/// `dlopen` or at start-up.
@Suite("cse start-up: libcurl and ICU are opened on first use, never by cse seal")
struct CLIStartupTests {
    /// Runs `cse` with the loader's file trace on; returns the result and the libraries it opened.
    static func traced(_ arguments: [String], _ input: String = "") throws -> (CommandRunner.Result, [String]) {
        var environment = ProcessInfo.processInfo.environment
        environment["LD_DEBUG"] = "files"
        let result = try CommandRunner.run(arguments, stdin: Array(input.utf8), environment: environment)
        let opened = result.err.split(separator: "\n").compactMap { line -> String? in
            guard let range = line.range(of: "file=") else { return nil }
            return String(line[range.upperBound...].prefix { $0 != " " })
        }
        return (result, opened)
    }

    @Test("cse seal --product builtin:card opens neither libcurl nor ICU nor SQLite (nor GnuTLS, Kerberos, LDAP…)")
    func sealOpensNeither() throws {
        let arguments = [
            "seal", "--product", "builtin:card", "--key", CLIFixtures.publicKeyJSON, "--session-id", "s", "--now", CLIFixtures.now,
        ]
        let (result, opened) = try Self.traced(arguments, CLIFixtures.validCard)
        #expect(result.status == 0)
        #expect(result.out.contains(#""encryptedCustomerInput""#))
        #expect(opened.contains { $0.hasPrefix("libcrypto.so") }, "the trace lists the libraries: \(opened)")
        let onFirstUse = ["libcurl", "libicu", "libgnutls", "libssl", "libsqlite3"]
        #expect(!opened.contains { name in onFirstUse.contains { name.hasPrefix($0) } }, "\(opened)")
    }

    @Test("a product whose pattern needs ICU opens libicui18n and gets ICU's verdicts")
    func lookaheadOpensICU() throws {
        let directory = try CommandRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let product = directory + "/lookahead.json"
        let rule = #"{"regularExpression":{"regularExpression":"^(?=[A-Z]{2})[A-Z0-9]{6}$"}}"#
        try #"{"id":"x","fields":[{"id":"code","type":"string","dataRestrictions":{"validators":\#(rule)}}]}"#
            .write(toFile: product, atomically: true, encoding: .utf8)
        let (valid, opened) = try Self.traced(["validate", "--product", product], #"{"code":"AB12C3"}"#)
        #expect(valid.status == 0, "\(valid.out)")
        #expect(valid.out.contains(#""valid":true"#))
        #expect(opened.contains { $0.hasPrefix("libicui18n.so") }, "\(opened)")
        #expect(!opened.contains { $0.hasPrefix("libcurl") }, "\(opened)")
        let (invalid, _) = try Self.traced(["validate", "--product", product], #"{"code":"1B12C3"}"#)
        #expect(invalid.status == 1)
        #expect(invalid.out.contains(#""code":"regularExpression""#), "\(invalid.out)")
    }

    @Test("a network command opens libcurl on its first transport (here a refused loopback connection)")
    func networkOpensCurl() throws {
        let directory = try CommandRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let session = directory + "/session.json"
        // Port 1 on loopback: nothing listens, so the connection is refused at once.
        let base = "http://127.0.0.1:1"
        try #"{"clientSessionId":"9b1f3e5d7c2a4e6f8a0b1c2d3e4f5a6b","customerId":"c","clientApiUrl":"\#(base)","#
            .appending(#""assetUrl":"\#(base)/assets","invalidTokens":[]}"#)
            .write(toFile: session, atomically: true, encoding: .utf8)
        let (result, opened) = try Self.traced(["session", "publickey", "--session", session, "--timeout", "5"])
        #expect(result.status != 0)
        #expect(result.err.contains("Error: http."), "\(result.err.suffix(300))")
        #expect(opened.contains { $0.hasPrefix("libcurl.so") }, "\(opened)")
    }

    @Test("cse journal list opens libsqlite3 on first use; cse links it not (issue #36)")
    func journalOpensSQLite() throws {
        let directory = try CommandRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        chmod(directory, 0o700)
        let (listed, opened) = try Self.traced(["journal", "list", "--journal", directory + "/journal.sqlite"])
        #expect(listed.status == 0 && listed.out.isEmpty, "\(listed.err)")
        #expect(opened.contains { $0.hasPrefix("libsqlite3.so") }, "\(opened)")
        let linked = try IOShell.run("ldd \"$CSE\"")
        #expect(linked.status == 0 && !linked.out.contains("libsqlite3"), "\(linked.out)")
    }
}
