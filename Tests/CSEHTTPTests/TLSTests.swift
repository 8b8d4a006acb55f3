import CSECore
@_spi(CustomTransport) import CSEHTTP
import Foundation
import Testing
import TestSupport

/// TLS verification for real: a CA and server certificates made by the test with the `openssl`
/// CLI, an emulator serving TLS on 127.0.0.1, and the default libcurl transport.
@Suite("TLS: always verified, custom CA bundles, host names")
struct TLSTests {
    /// A CA, a server certificate for localhost/127.0.0.1/::1, and an unrelated second CA.
    private final class Fixture {
        let ca: TestCA
        let otherCA: TestCA
        let server: TestCA.ServerCertificate
        init() throws {
            ca = try TestCA()
            otherCA = try TestCA(commonName: "Unrelated Test CA")
            server = try ca.issueServerCertificate()
        }
        deinit {
            ca.remove()
            otherCA.remove()
        }
    }

    private func get(_ url: String) throws(CSEError) -> HTTPRequest { HTTPRequest(method: .get, url: try HTTPURL(url)) }

    @Test("the right CA passes, by IP address and by DNS name")
    func rightCA() async throws {
        let fixture = try Fixture()
        try await withEmulator(tls: fixture.server) { (server) async throws in
            let client = try loopbackClient(trust: .caFile(fixture.ca.certificatePath))
            #expect(try await client.send(try get(server.baseURL + "/status/200")).status == 200)
            #expect(try await client.send(try get(server.localhostURL + "/echo")).status == 200)
            #expect(try server.requests().count == 2)
        }
    }

    @Test("a CA bundle holding several certificates works when the right one is in it")
    func bundle() async throws {
        let fixture = try Fixture()
        let bundle = fixture.ca.directory + "/bundle.pem"
        let pem =
            try String(contentsOfFile: fixture.otherCA.certificatePath, encoding: .utf8)
            + String(contentsOfFile: fixture.ca.certificatePath, encoding: .utf8)
        try pem.write(toFile: bundle, atomically: true, encoding: .utf8)
        try await withEmulator(tls: fixture.server) { (server) async throws in
            let response = try await loopbackClient(trust: .caFile(bundle)).send(try get(server.baseURL + "/echo"))
            #expect(response.status == 200)
        }
    }

    @Test("the wrong CA fails with http.tls, says the chain does not verify, and is not retried")
    func wrongCA() async throws {
        let fixture = try Fixture()
        try await withEmulator(tls: fixture.server) { (server) async throws in
            let events = EventLog()
            let error = await caught { () async throws(CSEError) in
                try await loopbackClient(trust: .caFile(fixture.otherCA.certificatePath), events: events).send(
                    try get(server.baseURL + "/echo"))
            }
            #expect(error?.code == .httpTLS)
            #expect(error?.reason.contains("does not verify") == true)
            #expect(events.all.map(\.errorCode) == [.httpTLS])
            #expect(try server.requests().count == 0)
            #expect(try server.stats().connections == 1)
        }
    }

    @Test("the system store does not trust the test CA: http.tls")
    func systemTrust() async throws {
        let fixture = try Fixture()
        try await withEmulator(tls: fixture.server) { (server) async throws in
            let error = await caught { () async throws(CSEError) in
                try await loopbackClient(trust: .system).send(try get(server.baseURL + "/echo"))
            }
            #expect(error?.code == .httpTLS)
            #expect(try server.requests().count == 0)
        }
    }

    @Test("a certificate for another host name fails with http.tls even from the right CA")
    func hostNameMismatch() async throws {
        let fixture = try Fixture()
        let wrongName = try fixture.ca.issueServerCertificate(name: "wrong", dnsNames: ["wrong.example"], ipAddresses: [])
        try await withEmulator(tls: wrongName) { (server) async throws in
            let client = try loopbackClient(trust: .caFile(fixture.ca.certificatePath))
            for url in [server.baseURL, server.localhostURL] {
                let error = await caught { () async throws(CSEError) in try await client.send(try get(url + "/echo")) }
                #expect(error?.code == .httpTLS)
                #expect(error?.reason.contains("host name") == true, "\(String(describing: error))")
            }
            #expect(try server.requests().count == 0)
        }
    }

    @Test(
        "a CA-signed certificate without a subjectAltName DNS name or IP address is http.tls, even when its common name is the host (RFC 6125 §6.4.4)"
    )
    func commonNameOnly() async throws {
        let fixture = try Fixture()
        let noSAN = try fixture.ca.issueServerCertificate(name: "cn-only", dnsNames: [], ipAddresses: [], commonName: "localhost")
        let emailOnly = try fixture.ca.issueServerCertificate(
            name: "email-only", dnsNames: [], ipAddresses: [], otherNames: ["email:ops@example.com"], commonName: "localhost")
        for certificate in [noSAN, emailOnly] {
            try await withEmulator(tls: certificate) { (server) async throws in
                let client = try loopbackClient(trust: .caFile(fixture.ca.certificatePath))
                let error = await caught { () async throws(CSEError) in try await client.send(try get(server.localhostURL + "/echo")) }
                #expect(error?.code == .httpTLS)
                #expect(error?.reason.contains("subjectAltName") == true, "\(String(describing: error))")
                #expect(try server.requests().count == 0)
            }
        }
    }

    @Test("https to a plain-http server fails the handshake with http.tls")
    func httpsToPlainServer() async throws {
        try await withEmulator { (server) async throws in
            let error = await caught { () async throws(CSEError) in
                try await loopbackClient().send(try get("https://127.0.0.1:\(server.port)/echo"))
            }
            #expect(error?.code == .httpTLS)
            #expect(try server.requests().count == 0)
        }
    }

    @Test("a CA file that is missing, or holds no certificate, is http.tls when the client is made")
    func badCAFile() throws {
        let directory = try CommandRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let empty = directory + "/empty.pem"
        try "not a certificate\n".write(toFile: empty, atomically: true, encoding: .utf8)
        for path in [directory + "/missing.pem", empty, directory] {
            #expect(throws: CSEError(.httpTLS, "")) { try loopbackClient(trust: .caFile(path)) }
        }
    }

    @Test("plain http to a non-loopback address is refused as http.insecureURL before any transport call")
    func insecureNeverConnects() async throws {
        final class Recorder: HTTPTransport, @unchecked Sendable {
            var calls = 0
            func perform(_ request: HTTPRequest, timeout: Duration, maxResponseBytes: Int) async throws(CSEError) -> HTTPResponse {
                calls += 1
                return HTTPResponse(status: 200, headers: [:], body: [])
            }
        }
        let recorder = Recorder()
        let client = try HTTPClient(transport: recorder)
        for text in ["http://192.0.2.1/x", "http://example.com/x", "http://[2001:db8::1]/x"] {
            let error = await caught { () async throws(CSEError) in try await client.send(HTTPRequest(method: .get, url: try HTTPURL(text)))
            }
            #expect(error?.code == .httpInsecureURL)
        }
        #expect(recorder.calls == 0)
    }
}
