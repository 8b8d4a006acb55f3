import CSECore
import CSECrypto
@_spi(CustomTransport) import CSEHTTP
import Synchronization
import Testing

/// The retry, backoff, Retry-After and deadline rules of `HTTPClient`, on a virtual clock with a
/// scripted transport: exact and deterministic (the loopback suites run the same rules for real).
@Suite("HTTPClient retry policy on a virtual clock")
struct RetryPolicyTests {
    /// A clock that only moves when the client sleeps or the scripted transport "takes time".
    final class VirtualClock: Sendable {
        private let state = Mutex<(offset: Duration, sleeps: [Duration])>((.zero, []))
        let origin = ContinuousClock.now
        let unixTime: Int64
        init(unixTime: Int64 = 1_780_000_000) { self.unixTime = unixTime }
        func advance(_ duration: Duration) { state.withLock { $0.offset += duration } }
        var sleeps: [Duration] { state.withLock { $0.sleeps } }
        func environment(random: @escaping @Sendable () throws(CSEError) -> UInt64 = { UInt64.max }) -> HTTPClientEnvironment {
            HTTPClientEnvironment(
                now: { [self] in origin + state.withLock { $0.offset } },
                sleep: { [self] (duration) async throws(CSEError) in
                    state.withLock {
                        $0.sleeps.append(duration)
                        $0.offset += duration
                    }
                },
                unixTime: { [self] in unixTime + Int64(state.withLock { $0.offset }.components.seconds) },
                random: random)
        }
    }

    /// Plays back outcomes in order, each taking `cost` of virtual time; records the timeouts.
    final class ScriptedTransport: HTTPTransport, Sendable {
        private let state: Mutex<(script: [Result<HTTPResponse, CSEError>], timeouts: [Duration])>
        let clock: VirtualClock
        let cost: Duration
        init(_ script: [Result<HTTPResponse, CSEError>], clock: VirtualClock, cost: Duration = .milliseconds(100)) {
            state = Mutex((script, []))
            self.clock = clock
            self.cost = cost
        }
        var timeouts: [Duration] { state.withLock { $0.timeouts } }
        var calls: Int { timeouts.count }
        func perform(_ request: HTTPRequest, timeout: Duration, maxResponseBytes: Int) async throws(CSEError) -> HTTPResponse {
            let next = state.withLock { state -> Result<HTTPResponse, CSEError> in
                state.timeouts.append(timeout)
                return state.script.isEmpty ? .success(HTTPResponse(status: 200, headers: [:], body: [])) : state.script.removeFirst()
            }
            if cost > timeout {
                clock.advance(timeout)
                throw CSEError(.httpTimeout, "scripted timeout")
            }
            clock.advance(cost)
            return try next.get()
        }
    }

    static func status(_ code: Int, _ headers: HTTPHeaders = [:]) -> Result<HTTPResponse, CSEError> {
        .success(HTTPResponse(status: code, headers: headers, body: []))
    }

    static let dropped: Result<HTTPResponse, CSEError> = .failure(CSEError(.httpConnectionFailed, "scripted"))

    func client(
        _ transport: ScriptedTransport, clock: VirtualClock, maxRetries: Int = 2, requestTimeout: Duration = .seconds(10),
        deadline: Duration = .seconds(30), random: @escaping @Sendable () throws(CSEError) -> UInt64 = { UInt64.max }
    ) throws(CSEError) -> HTTPClient {
        var configuration = HTTPClientConfiguration()
        configuration.maxRetries = maxRetries
        configuration.requestTimeout = requestTimeout
        configuration.deadline = deadline
        return try HTTPClient(configuration: configuration, transport: transport, environment: clock.environment(random: random))
    }

    let get = HTTPRequest(method: .get, url: try! HTTPURL("https://example.com/v1/x"))

    @Test("the defaults are the contract's: 10 s per attempt, 30 s per call, 1 MiB, 2 retries, the system store")
    func defaults() {
        let configuration = HTTPClientConfiguration()
        #expect(configuration.requestTimeout == .seconds(10))
        #expect(configuration.deadline == .seconds(30))
        #expect(configuration.maxResponseBytes == 1 << 20)
        #expect(configuration.maxRetries == 2)
        #expect(configuration.trust == .system)
    }

    @Test("GET defaults to idempotent; POST, PUT and DELETE to never")
    func defaultRetryPolicy() throws {
        let url = try HTTPURL("https://example.com")
        #expect(HTTPRequest(method: .get, url: url).retry == .idempotent)
        #expect(HTTPRequest(method: .post, url: url).retry == .never)
        #expect(HTTPRequest(method: .put, url: url).retry == .never)
        #expect(HTTPRequest(method: .delete, url: url).retry == .never)
        #expect(HTTPRequest(method: .post, url: url, retry: .idempotent).retry == .idempotent)
    }

    @Test("backoff is exponential with full jitter: the ceiling at the largest draw, zero at the smallest")
    func backoffBounds() async throws {
        let high = VirtualClock()
        let transport = ScriptedTransport([Self.status(503), Self.status(502), Self.status(504)], clock: high)
        let response = try await client(transport, clock: high, maxRetries: 3).send(get)
        #expect(response.status == 200)
        // backoffBase 250 ms: retry 1 → [0, 250 ms], retry 2 → [0, 500 ms], retry 3 → [0, 1 s]; the
        // largest draw (2^64 - 1) lands just under each ceiling.
        let ceilings: [Duration] = [.milliseconds(250), .milliseconds(500), .seconds(1)]
        #expect(high.sleeps.count == 3)
        for (sleep, ceiling) in zip(high.sleeps, ceilings) {
            #expect(sleep <= ceiling && sleep > ceiling * 0.999)
        }
        let low = VirtualClock()
        let again = ScriptedTransport([Self.status(503), Self.dropped], clock: low)
        _ = try await client(again, clock: low, random: { 0 }).send(get)
        #expect(low.sleeps == [.zero, .zero])
    }

    @Test("a retry refused before sending never hides an earlier attempt that may have reached the server")
    func earlierAttemptThatMayHaveReachedWins() async throws {
        let refused: Result<HTTPResponse, CSEError> = .failure(
            CSEError(.httpConnectionFailed, "scripted", context: ["curlCode": "7"]))
        let reset: Result<HTTPResponse, CSEError> = .failure(CSEError(.httpConnectionFailed, "scripted", context: ["curlCode": "56"]))
        let post = HTTPRequest(method: .post, url: try HTTPURL("https://example.com/v2/1/payments"), retry: .idempotent)
        // A 503 was answered, then both retries' connections were refused: the 503 is the answer.
        let first = VirtualClock()
        let afterStatus = ScriptedTransport([Self.status(503), refused, refused], clock: first)
        #expect(try await client(afterStatus, clock: first).send(post).status == 503)
        // The connection reset after the request was sent, then the retries were refused: the
        // reset (which may have followed a processed request) is what the caller sees.
        let second = VirtualClock()
        let afterReset = ScriptedTransport([reset, refused, refused], clock: second)
        do {
            _ = try await client(afterReset, clock: second).send(post)
            Issue.record("no error")
        } catch {
            #expect(error.context["curlCode"] == "56" && !error.provesRequestNotSent && afterReset.calls == 3)
        }
        // A refused retry does not stop the retries: the next one reads the replayed answer.
        let fourth = VirtualClock()
        let recovers = ScriptedTransport([reset, refused, Self.status(201)], clock: fourth)
        #expect(try await client(recovers, clock: fourth).send(post).status == 201)
        // Refused every time: nothing reached the server, and the error says so.
        let third = VirtualClock()
        let neverSent = ScriptedTransport([refused, refused, refused], clock: third)
        do {
            _ = try await client(neverSent, clock: third).send(post)
            Issue.record("no error")
        } catch {
            #expect(error.provesRequestNotSent && neverSent.calls == 3)
        }
    }

    @Test("the backoff ceiling is capped by maxBackoff")
    func backoffCap() async throws {
        let clock = VirtualClock()
        var configuration = HTTPClientConfiguration()
        configuration.maxRetries = 5
        configuration.backoffBase = .seconds(1)
        configuration.maxBackoff = .seconds(3)
        configuration.deadline = .seconds(300)
        let transport = ScriptedTransport(Array(repeating: Self.status(503), count: 5), clock: clock)
        _ = try await HTTPClient(configuration: configuration, transport: transport, environment: clock.environment()).send(get)
        #expect(clock.sleeps.map { $0 > .seconds(2.99) && $0 <= .seconds(3) } == [false, false, true, true, true])
    }

    @Test("jitter comes from the randomness source, and its failure fails the call closed")
    func randomnessFailure() async throws {
        let clock = VirtualClock()
        let transport = ScriptedTransport([Self.status(503)], clock: clock)
        let failing = try client(
            transport, clock: clock, random: { () throws(CSEError) -> UInt64 in throw CSEError(.randomFailure, "scripted") })
        let error = await caught { () async throws(CSEError) in try await failing.send(get) }
        #expect(error?.code == .randomFailure)
        #expect(transport.calls == 1)
    }

    @Test("Retry-After delay-seconds on a 429 is waited exactly, without jitter")
    func retryAfterSeconds() async throws {
        let clock = VirtualClock()
        let transport = ScriptedTransport([Self.status(429, ["Retry-After": "7"])], clock: clock)
        #expect(try await client(transport, clock: clock).send(get).status == 200)
        #expect(clock.sleeps == [.seconds(7)])
    }

    @Test(
        "Retry-After as an HTTP-date in each of the three RFC 9110 §5.6.7 forms",
        arguments: [
            ("Mon, 01 Jun 2026 20:26:52 GMT", 12),  // IMF-fixdate; the clock is 2026-06-01T20:26:40Z
            ("Monday, 01-Jun-26 20:26:52 GMT", 12),  // rfc850-date
            ("Mon Jun  1 20:26:52 2026", 12),  // asctime-date
            ("Mon, 01 Jun 2026 20:00:00 GMT", 0),  // in the past: retry at once
        ])
    func retryAfterDate(value: String, seconds: Int) async throws {
        let clock = VirtualClock(unixTime: 1_780_345_600)  // 2026-06-01T20:26:40Z
        let transport = ScriptedTransport([Self.status(503, ["Retry-After": value])], clock: clock, cost: .zero)
        #expect(try await client(transport, clock: clock).send(get).status == 200)
        #expect(clock.sleeps == [.seconds(seconds)])
    }

    @Test(
        "a Retry-After that is neither form falls back to the jittered backoff",
        arguments: ["soon", "-5", "1.5", "Mon, 32 Jun 2026 20:26:52 GMT", ""])
    func retryAfterInvalid(value: String) async throws {
        let clock = VirtualClock()
        let transport = ScriptedTransport([Self.status(429, ["Retry-After": value])], clock: clock)
        #expect(try await client(transport, clock: clock, random: { 0 }).send(get).status == 200)
        #expect(clock.sleeps == [.zero])
    }

    @Test("a Retry-After on a 502 or 504 is not the server's to set: backoff applies")
    func retryAfterOnlyFor429And503() async throws {
        let clock = VirtualClock()
        let transport = ScriptedTransport([Self.status(502, ["Retry-After": "9"])], clock: clock)
        _ = try await client(transport, clock: clock, random: { 0 }).send(get)
        #expect(clock.sleeps == [.zero])
    }

    @Test("a Retry-After past the deadline returns the response at once, without sleeping")
    func retryAfterBeyondDeadline() async throws {
        let clock = VirtualClock()
        let transport = ScriptedTransport([Self.status(429, ["Retry-After": "31"])], clock: clock)
        #expect(try await client(transport, clock: clock).send(get).status == 429)
        #expect(clock.sleeps.isEmpty)
        #expect(transport.calls == 1)
    }

    @Test("a huge delay-seconds is capped, not overflowed, and ends the call")
    func retryAfterHuge() async throws {
        let clock = VirtualClock()
        let transport = ScriptedTransport([Self.status(503, ["Retry-After": "99999999999999999999999"])], clock: clock)
        #expect(try await client(transport, clock: clock).send(get).status == 503)
        #expect(transport.calls == 1)
    }

    @Test("each attempt gets min(requestTimeout, time left before the deadline)")
    func attemptTimeouts() async throws {
        let clock = VirtualClock()
        let transport = ScriptedTransport(
            [Self.status(503, ["Retry-After": "4"]), Self.status(503, ["Retry-After": "4"])], clock: clock, cost: .seconds(1))
        _ = try await client(transport, clock: clock, requestTimeout: .seconds(5), deadline: .seconds(12)).send(get)
        // t=0: 5 s (12 left); t=5 after 1 s + 4 s: 5 s (7 left); t=10: 2 s left.
        #expect(transport.timeouts == [.seconds(5), .seconds(5), .seconds(2)])
    }

    @Test("an attempt cut short by the deadline is reported as the deadline, not the attempt timeout")
    func deadlineReported() async throws {
        let clock = VirtualClock()
        let transport = ScriptedTransport([], clock: clock, cost: .seconds(20))
        let error = await caught { () async throws(CSEError) in
            try await client(transport, clock: clock, requestTimeout: .seconds(30), deadline: .seconds(3)).send(get)
        }
        #expect(error?.code == .httpTimeout)
        #expect(error?.reason.contains("deadline") == true)
        #expect(error?.context["deadline"] == "3.0 seconds")
    }

    @Test("connection failures are retried up to maxRetries, then the last error is thrown")
    func connectionFailures() async throws {
        let clock = VirtualClock()
        let transport = ScriptedTransport(Array(repeating: Self.dropped, count: 6), clock: clock)
        let error = await caught { () async throws(CSEError) in try await client(transport, clock: clock, maxRetries: 4).send(get) }
        #expect(error?.code == .httpConnectionFailed)
        #expect(transport.calls == 5)
    }

    @Test(
        "no error other than http.connectionFailed is retried",
        arguments: [CSEError.Code.httpTLS, .httpTimeout, .httpResponseTooLarge, .httpTransport, .httpCancelled])
    func otherErrorsNotRetried(code: CSEError.Code) async throws {
        let clock = VirtualClock()
        let transport = ScriptedTransport([.failure(CSEError(code, "scripted"))], clock: clock)
        let error = await caught { () async throws(CSEError) in try await client(transport, clock: clock).send(get) }
        #expect(error?.code == code)
        #expect(transport.calls == 1)
    }

    @Test("a .never request gets one attempt whatever happens")
    func neverRetried() async throws {
        let clock = VirtualClock()
        let transport = ScriptedTransport([Self.status(503), Self.dropped], clock: clock)
        let post = HTTPRequest(method: .post, url: try HTTPURL("https://example.com/x"), body: [1])
        #expect(try await client(transport, clock: clock).send(post).status == 503)
        let error = await caught { () async throws(CSEError) in try await client(transport, clock: clock).send(post) }
        #expect(error?.code == .httpConnectionFailed)
        #expect(transport.calls == 2)
    }

    @Test("the deadline stops a backoff that would end after it: the last error is thrown")
    func backoffPastDeadline() async throws {
        let clock = VirtualClock()
        let transport = ScriptedTransport([Self.dropped, Self.dropped], clock: clock, cost: .milliseconds(900))
        let error = await caught { () async throws(CSEError) in try await client(transport, clock: clock, deadline: .seconds(1)).send(get) }
        #expect(error?.code == .httpConnectionFailed)
        #expect(transport.calls == 1)
    }

    @Test("out-of-range configurations are http.invalidConfiguration")
    func invalidConfiguration() {
        var changes: [(inout HTTPClientConfiguration) -> Void] = [
            { $0.requestTimeout = .zero }, { $0.deadline = .seconds(-1) }, { $0.maxResponseBytes = 0 }, { $0.maxRetries = -1 },
            { $0.maxRetries = 6 }, { $0.backoffBase = .seconds(-1) },
        ]
        changes.append { $0.maxBackoff = .milliseconds(-1) }
        for change in changes {
            var configuration = HTTPClientConfiguration()
            change(&configuration)
            #expect(throws: CSEError(.httpInvalidConfiguration, "")) { try HTTPClient(configuration: configuration) }
        }
    }

    @Test("one diagnostics event per attempt with method, host, path, attempt, status or error code")
    func events() async throws {
        let clock = VirtualClock()
        let log = EventLog()
        var configuration = HTTPClientConfiguration()
        configuration.diagnostics = { log.append($0) }
        let transport = ScriptedTransport([Self.dropped, Self.status(503)], clock: clock, cost: .milliseconds(40))
        let request = HTTPRequest(method: .get, url: try HTTPURL("https://example.com/v1/c/products?countryCode=NL"))
        _ = try await HTTPClient(configuration: configuration, transport: transport, environment: clock.environment()).send(request)
        let events = log.all
        #expect(events.map(\.attempt) == [1, 2, 3])
        #expect(events.map(\.status) == [nil, 503, 200])
        #expect(events.map(\.errorCode) == [.httpConnectionFailed, nil, nil])
        #expect(events.allSatisfy { $0.method == "GET" && $0.host == "example.com" && $0.path == "/v1/c/products" })
        #expect(events.allSatisfy { $0.duration == .milliseconds(40) })
    }
}
