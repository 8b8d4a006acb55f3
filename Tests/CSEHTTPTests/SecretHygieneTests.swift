import CSECore
@_spi(CustomTransport) import CSEHTTP
import Testing
import TestSupport

/// Canary: a card number in the query, the Authorization header and the body, through every error
/// path of the real transport. It must never appear in an error (description, debug description,
/// reason, context), a diagnostics event, or a request/response description.
@Suite("Secret hygiene: no header value, body or query in any error, event or description")
struct SecretHygieneTests {
    private let canaries = [canaryPAN, canarySession, "41111111"]

    private func canaryRequest(_ base: String, path: String = "/echo", method: HTTPMethod = .get) throws(CSEError) -> HTTPRequest {
        let url = try HTTPURL(base + path).settingQuery([(name: "bin", value: canaryPAN), (name: "s", value: canarySession)])
        return HTTPRequest(
            method: method, url: url, headers: ["Authorization": "GCS v1Client:\(canarySession)", "X-Card": canaryPAN],
            body: Array(#"{"cardNumber":"\#(canaryPAN)"}"#.utf8))
    }

    private func expectClean(_ text: String, _ comment: Comment, sourceLocation: SourceLocation = #_sourceLocation) {
        for canary in canaries {
            #expect(!text.contains(canary), comment, sourceLocation: sourceLocation)
        }
    }

    private func expectClean(_ error: CSEError?, _ events: EventLog, _ label: String, sourceLocation: SourceLocation = #_sourceLocation) {
        guard let error else {
            Issue.record("\(label): no error", sourceLocation: sourceLocation)
            return
        }
        expectClean(
            error.description + error.debugDescription + error.reason + error.context.values.joined(), "\(label): \(error)",
            sourceLocation: sourceLocation)
        expectClean(String(describing: error) + String(reflecting: error), "\(label)", sourceLocation: sourceLocation)
        for event in events.all { expectClean(String(reflecting: event) + "\(event)", "\(label): event", sourceLocation: sourceLocation) }
    }

    @Test("every transport error path, over real sockets")
    func everyErrorPath() async throws {
        let ca = try TestCA(), otherCA = try TestCA(commonName: "Other CA")
        defer {
            ca.remove()
            otherCA.remove()
        }
        let certificate = try ca.issueServerCertificate()
        let wrongName = try ca.issueServerCertificate(name: "wrong", dnsNames: ["wrong.example"], ipAddresses: [])

        try await withEmulator { (server) async throws in
            let cases: [(String, LoopbackEmulator.Fault?, Int, Duration, Duration)] = [
                ("drop", .drop.times(3), 1 << 20, .seconds(60), .seconds(600)),
                ("truncated", .truncatedBody.times(3), 1 << 20, .seconds(60), .seconds(600)),
                ("oversized", .oversizedBody(bytes: 100_000, chunked: false), 1000, .seconds(60), .seconds(600)),
                ("oversized chunked", .oversizedBody(bytes: 100_000, chunked: true), 1000, .seconds(60), .seconds(600)),
                ("garbage", .garbage, 1 << 20, .seconds(60), .seconds(600)),
                ("timeout", .delay(milliseconds: 3_000), 1 << 20, .milliseconds(200), .seconds(600)),
                ("deadline", .delay(milliseconds: 3_000), 1 << 20, .seconds(60), .milliseconds(300)),
            ]
            for (label, fault, limit, timeout, deadline) in cases {
                if let fault { try server.enqueue(fault) }
                let events = EventLog()
                let client = try loopbackClient(requestTimeout: timeout, deadline: deadline, maxResponseBytes: limit, events: events)
                let error = await caught { () async throws(CSEError) in try await client.send(try canaryRequest(server.baseURL)) }
                expectClean(error, events, label)
            }
            // The canaries really were on the wire.
            let log = try server.requests()
            #expect(log.contains { $0.query?.contains(canaryPAN) == true && $0.header("Authorization")?.contains(canarySession) == true })
            #expect(log.contains { $0.bodyText.contains(canaryPAN) })
        }

        let refusedEvents = EventLog()
        let port = try closedLoopbackPort()
        let refused = await caught { () async throws(CSEError) in
            try await loopbackClient(events: refusedEvents).send(try canaryRequest("http://127.0.0.1:\(port)"))
        }
        expectClean(refused, refusedEvents, "refused")

        for (label, certificate, trust) in [
            ("wrong CA", certificate, otherCA.certificatePath), ("host name", wrongName, ca.certificatePath),
        ] {
            try await withEmulator(tls: certificate) { (server) async throws in
                let events = EventLog()
                let error = await caught { () async throws(CSEError) in
                    try await loopbackClient(trust: .caFile(trust), events: events).send(try canaryRequest(server.baseURL))
                }
                #expect(error?.code == .httpTLS)
                expectClean(error, events, label)
            }
        }

        try await withEmulator { (server) async throws in
            let events = EventLog()
            let client = try loopbackClient(events: events)
            let request = try canaryRequest(server.baseURL)
            let task = Task {
                withUnsafeCurrentTask { $0?.cancel() }
                return await caught { () async throws(CSEError) in try await client.send(request) }
            }
            expectClean(await task.value, events, "cancelled")
        }
    }

    @Test("URL and header refusals never quote the offending text")
    func refusals() async throws {
        let insecure = await caught { () async throws(CSEError) in try HTTPURL("http://example.com/iin?bin=\(canaryPAN)") }
        #expect(insecure?.code == .httpInsecureURL)
        expectClean(insecure, EventLog(), "insecure")
        let invalid = await caught { () async throws(CSEError) in try HTTPURL("https://example.com/iin?bin=\(canaryPAN) \(canarySession)") }
        #expect(invalid?.code == .httpInvalidURL)
        expectClean(invalid, EventLog(), "invalid")
        let header = await caught { () async throws(CSEError) in
            try await loopbackClient().send(
                HTTPRequest(
                    method: .get, url: try HTTPURL("https://example.com/x"),
                    headers: ["Authorization": "GCS v1Client:\(canarySession)\r\n\(canaryPAN)"]))
        }
        #expect(header?.code == .httpInvalidHeader)
        expectClean(header, EventLog(), "header")
    }

    @Test("requests, responses, URLs and headers describe themselves without values")
    func descriptions() throws {
        let request = try canaryRequest("https://example.com")
        expectClean("\(request) \(request.url) \(request.headers)", "request")
        let response = HTTPResponse(status: 402, headers: ["Set-Cookie": canarySession], body: Array(canaryPAN.utf8))
        expectClean("\(response)", "response")
        #expect("\(request)".contains("GET https://example.com/echo?[redacted]"))
        #expect("\(response)".hasPrefix("402"))
    }
}
