import CSECore
@_spi(CustomTransport) import CSEHTTP
import Testing
import TestSupport

/// Every fault of the transport contract against real sockets on 127.0.0.1 (Tests/Emulators/emulator.py).
@Suite("HTTPClient + CurlTransport fault matrix over loopback")
struct FaultMatrixTests {
    private func get(_ server: LoopbackEmulator, _ path: String = "/echo") throws(CSEError) -> HTTPRequest {
        HTTPRequest(method: .get, url: try HTTPURL(server.baseURL + path))
    }

    @Test("a 3xx is returned as is: redirects are never followed")
    func redirectNotFollowed() async throws {
        try await withEmulator { server in
            try server.enqueue(.status(301, headers: [("Location", "/status/204")]))
            let response = try await loopbackClient().send(try get(server))
            #expect(response.status == 301)
            #expect(response.headers["Location"] == "/status/204")
            #expect(try server.requests().count == 1)
        }
    }

    @Test("each 4xx is returned after one attempt, never retried, with its body", arguments: [400, 401, 403, 404, 408, 409, 422, 425])
    func clientErrorsNotRetried(status: Int) async throws {
        try await withEmulator { server in
            try server.enqueue(.json(status, #"{"errorId":"e1","errors":[{"errorCode":"1002","id":"X"}]}"#).times(3))
            let events = EventLog()
            let response = try await loopbackClient(events: events).send(try get(server))
            #expect(response.status == status)
            #expect(String(decoding: response.body, as: UTF8.self).contains(#""errorId": "e1""#))
            #expect(try server.requests().count == 1)
            #expect(events.all.map(\.status) == [status])
        }
    }

    @Test("500 and 501 are returned without a retry; 502, 503 and 504 are retried until they pass", arguments: [500, 501, 502, 503, 504])
    func serverErrors(status: Int) async throws {
        try await withEmulator { server in
            try server.enqueue(.status(status, body: "down"))
            let events = EventLog()
            let response = try await loopbackClient(events: events).send(try get(server))
            let retried = [502, 503, 504].contains(status)
            #expect(response.status == (retried ? 200 : status))
            #expect(try server.requests().count == (retried ? 2 : 1))
            #expect(events.all.map(\.status) == (retried ? [status, 200] : [status]))
        }
    }

    @Test("503 then success succeeds on attempt 2; the events number the attempts")
    func serviceUnavailableThenSuccess() async throws {
        try await withEmulator { server in
            try server.enqueue(.status(503))
            let events = EventLog()
            let response = try await loopbackClient(events: events).send(try get(server, "/echo/x"))
            #expect(response.status == 200)
            #expect(events.all.map(\.attempt) == [1, 2])
            #expect(events.all.map(\.status) == [503, 200])
            #expect(events.all.allSatisfy { $0.path == "/echo/x" && $0.host == "127.0.0.1" && $0.method == "GET" })
        }
    }

    @Test("a status that keeps failing is returned after 1 + maxRetries attempts", arguments: [0, 1, 2, 5])
    func retriesExhausted(maxRetries: Int) async throws {
        try await withEmulator { server in
            try server.enqueue(.status(503).times(10))
            let response = try await loopbackClient(maxRetries: maxRetries).send(try get(server))
            #expect(response.status == 503)
            #expect(try server.requests().count == 1 + maxRetries)
        }
    }

    @Test("a dropped connection is retried, then fails with http.connectionFailed")
    func droppedConnection() async throws {
        try await withEmulator { server in
            try server.enqueue(.drop.times(5))
            let events = EventLog()
            let error = await caught { () async throws(CSEError) in try await loopbackClient(events: events).send(try get(server)) }
            #expect(error?.code == .httpConnectionFailed)
            #expect(try server.requests().count == 3)
            #expect(events.all.map(\.errorCode) == Array(repeating: .httpConnectionFailed, count: 3))
            #expect(events.all.allSatisfy { $0.status == nil })
        }
    }

    @Test("a dropped connection followed by success succeeds on attempt 2")
    func droppedThenSuccess() async throws {
        try await withEmulator { server in
            try server.enqueue(.drop)
            let response = try await loopbackClient().send(try get(server))
            #expect(response.status == 200)
            #expect(try server.requests().count == 2)
        }
    }

    @Test("a refused connection is http.connectionFailed after the retries")
    func refused() async throws {
        let port = try closedLoopbackPort()
        let events = EventLog()
        let request = HTTPRequest(method: .get, url: try HTTPURL("http://127.0.0.1:\(port)/x"))
        let error = await caught { () async throws(CSEError) in try await loopbackClient(events: events).send(request) }
        #expect(error?.code == .httpConnectionFailed)
        #expect(events.all.count == 3)
    }

    @Test("a truncated body (Content-Length larger than what arrives) is http.connectionFailed")
    func truncatedBody() async throws {
        try await withEmulator { server in
            try server.enqueue(.truncatedBody.times(5))
            let error = await caught { () async throws(CSEError) in
                try await loopbackClient(maxRetries: 0).send(try get(server))
            }
            #expect(error?.code == .httpConnectionFailed)
            #expect(try server.requests().count == 1)
        }
    }

    @Test("a malformed JSON body is returned as is: decoding is the caller's job")
    func malformedBody() async throws {
        try await withEmulator { server in
            try server.enqueue(.malformedBody)
            let response = try await loopbackClient().send(try get(server))
            #expect(response.status == 200)
            #expect(String(decoding: response.body, as: UTF8.self) == #"{"errorId": "x", "errors": ["#)
        }
    }

    @Test("bytes that are not an HTTP response are http.transport")
    func garbage() async throws {
        try await withEmulator { server in
            try server.enqueue(.garbage)
            let error = await caught { () async throws(CSEError) in try await loopbackClient().send(try get(server)) }
            #expect(error?.code == .httpTransport)
            #expect(try server.requests().count == 1)
        }
    }

    @Test("an oversized body is http.responseTooLarge, with and without Content-Length, and is not retried", arguments: [false, true])
    func oversized(chunked: Bool) async throws {
        try await withEmulator { server in
            try server.enqueue(.oversizedBody(bytes: 4 << 20, chunked: chunked).times(3))
            let error = await caught { () async throws(CSEError) in
                try await loopbackClient(maxResponseBytes: 64 * 1024).send(try get(server))
            }
            #expect(error?.code == .httpResponseTooLarge)
            #expect(error?.context["limit"] == "65536")
            #expect(try server.requests().count == 1)
        }
    }

    @Test("a body of exactly the limit passes; one byte more does not")
    func limitBoundary() async throws {
        try await withEmulator { server in
            let client = try loopbackClient(maxResponseBytes: 1000)
            #expect(try await client.send(try get(server, "/bytes/1000")).body.count == 1000)
            let error = await caught { () async throws(CSEError) in try await client.send(try get(server, "/bytes/1001")) }
            #expect(error?.code == .httpResponseTooLarge)
        }
    }

    @Test("a response header block over 64 KiB is http.responseTooLarge")
    func oversizedHeaders() async throws {
        try await withEmulator { server in
            try server.enqueue(.status(200, headers: [("X-Big", String(repeating: "a", count: 70_000))]))
            let error = await caught { () async throws(CSEError) in try await loopbackClient().send(try get(server)) }
            #expect(error?.code == .httpResponseTooLarge)
        }
    }

    @Test("a response slower than the attempt timeout is http.timeout")
    func attemptTimeout() async throws {
        try await withEmulator { server in
            try server.enqueue(.delay(milliseconds: 5_000))
            let events = EventLog()
            let error = await caught { () async throws(CSEError) in
                try await loopbackClient(requestTimeout: .milliseconds(300), maxRetries: 0, events: events).send(try get(server))
            }
            #expect(error?.code == .httpTimeout)
            #expect(events.all.map(\.errorCode) == [.httpTimeout])
        }
    }

    @Test("a timed-out attempt is not retried (only connection failures and 429/502/503/504 are)")
    func timeoutNotRetried() async throws {
        try await withEmulator { server in
            try server.enqueue(.delay(milliseconds: 5_000).times(3))
            let error = await caught { () async throws(CSEError) in
                try await loopbackClient(requestTimeout: .milliseconds(300)).send(try get(server))
            }
            #expect(error?.code == .httpTimeout)
            #expect(try server.requests().count == 1)
        }
    }

    @Test("the overall deadline cuts an attempt that would outlive it: http.timeout")
    func deadlineCutsAttempt() async throws {
        try await withEmulator { server in
            try server.enqueue(.delay(milliseconds: 5_000))
            let error = await caught { () async throws(CSEError) in
                try await loopbackClient(requestTimeout: .seconds(10), deadline: .milliseconds(400)).send(try get(server))
            }
            #expect(error?.code == .httpTimeout)
            #expect(error?.reason.contains("deadline") == true)
        }
    }

    @Test("a Retry-After past the deadline ends the call with that response after one attempt", arguments: [429, 503])
    func retryAfterPastDeadline(status: Int) async throws {
        try await withEmulator { server in
            try server.enqueue(.status(status).retryAfter("1200").times(3))
            let response = try await loopbackClient().send(try get(server))
            #expect(response.status == status)
            #expect(response.headers["Retry-After"] == "1200")
            #expect(try server.requests().count == 1)
        }
    }

    @Test("a POST is never retried: not on 503, not on a dropped connection")
    func postNeverRetried() async throws {
        try await withEmulator { server in
            let client = try loopbackClient()
            let url = try HTTPURL(server.baseURL + "/echo")
            try server.enqueue(.status(503).times(3))
            #expect(try await client.send(HTTPRequest(method: .post, url: url, body: [1])).status == 503)
            #expect(try server.requests().count == 1)
            try server.reset()
            try server.enqueue(.drop.times(3))
            let error = await caught { () async throws(CSEError) in try await client.send(HTTPRequest(method: .post, url: url, body: [1])) }
            #expect(error?.code == .httpConnectionFailed)
            #expect(try server.requests().count == 1)
        }
    }

    @Test("a POST marked idempotent (getIINdetails) is retried like a GET")
    func idempotentPost() async throws {
        try await withEmulator { server in
            try server.enqueue(.status(503))
            let request = HTTPRequest(method: .post, url: try HTTPURL(server.baseURL + "/echo"), body: Array("{}".utf8), retry: .idempotent)
            #expect(try await loopbackClient().send(request).status == 200)
            let log = try server.requests()
            #expect(log.count == 2)
            #expect(log.allSatisfy { $0.bodyText == "{}" })
        }
    }

    @Test("cancelling the task during a slow response ends the call with http.cancelled")
    func cancelDuringTransfer() async throws {
        try await withEmulator { server in
            try server.enqueue(.delay(milliseconds: 120_000))
            let client = try loopbackClient(requestTimeout: .seconds(300))
            let request = try get(server)
            let task = Task { await caught { () async throws(CSEError) in try await client.send(request) } }
            #expect(try await waitForRequests(server, count: 1))
            task.cancel()
            let error = await task.value
            #expect(error?.code == .httpCancelled)
            #expect(try server.requests().count == 1)
        }
    }

    @Test("cancelling the task during a retry backoff ends the call with http.cancelled")
    func cancelDuringBackoff() async throws {
        try await withEmulator { server in
            try server.enqueue(.status(503).retryAfter("300").times(3))
            let events = EventLog()
            let client = try loopbackClient(events: events)
            let request = try get(server)
            let task = Task { await caught { () async throws(CSEError) in try await client.send(request) } }
            for _ in 0..<1200 where events.all.isEmpty { try await Task.sleep(for: .milliseconds(50)) }
            #expect(events.all.count == 1)
            task.cancel()
            let error = await task.value
            #expect(error?.code == .httpCancelled)
            #expect(try server.requests().count == 1)
        }
    }

    @Test("a task cancelled before sending makes no connection")
    func cancelledBeforeSend() async throws {
        try await withEmulator { server in
            let client = try loopbackClient()
            let request = try get(server)
            let task = Task {
                withUnsafeCurrentTask { $0?.cancel() }
                return await caught { () async throws(CSEError) in try await client.send(request) }
            }
            let error = await task.value
            #expect(error?.code == .httpCancelled)
            #expect(try server.stats().connections == 0)
        }
    }

    @Test("an invalid header is refused before any connection")
    func invalidHeaderNoConnection() async throws {
        try await withEmulator { server in
            let request = HTTPRequest(method: .get, url: try HTTPURL(server.baseURL + "/echo"), headers: ["X-Bad": "a\r\nX-Injected: 1"])
            let error = await caught { () async throws(CSEError) in try await loopbackClient().send(request) }
            #expect(error?.code == .httpInvalidHeader)
            #expect(try server.stats().connections == 0)
        }
    }

    @Test("Content-Length and Transfer-Encoding are the transport's: setting one is http.invalidHeader")
    func framingHeadersRefused() async throws {
        let transport = try CurlTransport()
        let url = try HTTPURL("http://127.0.0.1:9/x")
        for name in ["Content-Length", "transfer-encoding"] {
            var headers = HTTPHeaders()
            headers.add(name: name, value: "5")
            let error = await caught { () async throws(CSEError) in
                try await transport.perform(
                    HTTPRequest(method: .post, url: url, headers: headers), timeout: .seconds(1), maxResponseBytes: 10)
            }
            #expect(error?.code == .httpInvalidHeader)
        }
    }
}
