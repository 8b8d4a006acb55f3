import Foundation
import Testing
import TestSupport

/// libcurl appends every TLS session's secrets to the file `SSLKEYLOGFILE` names, if the variable
/// is set when it initialises. `cse`'s calls carry card data and credentials: none of their
/// secrets may reach such a file. Run as a child process, so that libcurl initialises with the
/// variable set.
@Suite("cse never writes TLS secrets to the file SSLKEYLOGFILE names")
struct TLSKeyLogTests {
    @Test("a TLS create-session call with SSLKEYLOGFILE set succeeds and writes no key-log line")
    func keyLogFileStaysEmpty() throws {
        let ca = try TestCA()
        defer { ca.remove() }
        let server = try LoopbackEmulator(
            script: "server_api_emulator.py",
            arguments: ["--platform", "worldline", "--secret-api-key", ServerCommandTests.worldlineSecret],
            tls: try ca.issueServerCertificate())
        defer { server.stop() }
        let directory = try CommandRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let keyLog = directory + "/keys.log"
        var environment = ProcessInfo.processInfo.environment
        environment["SSLKEYLOGFILE"] = keyLog
        let result = try CommandRunner.run(
            [
                "worldline", "create-session", "--credentials", try ServerCommandTests.worldlineCredentials(), "--endpoint",
                server.baseURL, "--ca-file", ca.certificatePath,
            ], environment: environment)
        #expect(result.status == 0, "\(result.err)")
        #expect(try server.requests().count == 1)
        // libcurl 7.88 opens (creates) the file when it initialises; nothing may be written to it.
        let written = FileManager.default.contents(atPath: keyLog) ?? Data()
        #expect(written.isEmpty, "\(written.count) bytes of TLS secrets logged")
        ServerCommandTests.checkCanaries(result)
    }
}
