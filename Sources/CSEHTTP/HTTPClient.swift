public import CSECore

/// One diagnostics event per attempt. Never contains header values, bodies or the query.
public struct HTTPAttemptEvent: Sendable {
    /// The request method token, for example `GET` (RFC 9110 §9).
    public let method: String
    /// The host called.
    public let host: String
    /// The percent-encoded path only; never the query.
    public let path: String
    /// The attempt number, 1-based.
    public let attempt: Int
    /// The response status, or `nil` when the attempt failed before a status.
    public let status: Int?
    /// How long the attempt took.
    public let duration: Duration
    /// The error code of a failed attempt, or `nil`.
    public let errorCode: CSEError.Code?

    /// An event (for transports and tests that report attempts themselves).
    package init(
        method: HTTPMethod, host: String, path: String, attempt: Int, status: Int?, duration: Duration, errorCode: CSEError.Code?
    ) {
        self.method = method.rawValue
        self.host = host
        self.path = path
        self.attempt = attempt
        self.status = status
        self.duration = duration
        self.errorCode = errorCode
    }
}

/// Limits, retries and trust for the HTTP calls of a client (``ClientAPISession``, the server
/// clients such as ``WorldlineServerClient``, ``GooglePayRootKeyFetcher``).
public struct HTTPClientConfiguration: Sendable {
    /// The limit for one attempt: connect, send and receive.
    public var requestTimeout: Duration = .seconds(10)
    /// The limit for the whole call, retries and backoff included.
    public var deadline: Duration = .seconds(30)
    /// The largest response body accepted, in bytes.
    public var maxResponseBytes: Int = 1 << 20
    /// How many times an idempotent request is repeated at most, 0...5.
    public var maxRetries: Int = 2
    /// The backoff before retry n is drawn uniformly from [0, min(`maxBackoff`,
    /// `backoffBase` × 2^(n-1))] ("full jitter").
    public var backoffBase: Duration = .milliseconds(250)
    /// The cap of one backoff draw.
    public var maxBackoff: Duration = .seconds(4)
    /// Where TLS trust comes from.
    public var trust: TLSTrust = .system
    /// Receives one event per attempt, synchronously, on the calling task.
    public var diagnostics: (@Sendable (HTTPAttemptEvent) -> Void)? = nil
    /// Where a client's money-moving calls record their intent before the request leaves and
    /// their outcome after (issue #36; `SQLiteJournal` in CSEJournal, or your own). `nil`: none.
    /// Calls that move no money (sessions, lookups) never use it.
    public var journal: (any PaymentJournal)? = nil

    /// The defaults: 10 s per attempt, 30 s per call, 1 MiB, 2 retries, the system CAs.
    public init() {}

    func validate() throws(CSEError) {
        guard requestTimeout > .zero, deadline > .zero else {
            throw CSEError(.httpInvalidConfiguration, "requestTimeout and deadline must be positive")
        }
        guard maxResponseBytes > 0 else { throw CSEError(.httpInvalidConfiguration, "maxResponseBytes must be positive") }
        guard (0...5).contains(maxRetries) else {
            throw CSEError(.httpInvalidConfiguration, "maxRetries must be in 0...5", context: ["maxRetries": String(maxRetries)])
        }
        guard backoffBase >= .zero, maxBackoff >= .zero else {
            throw CSEError(.httpInvalidConfiguration, "backoffBase and maxBackoff must not be negative")
        }
    }
}

/// The clock, sleep and randomness an `HTTPClient` uses; tests substitute a virtual clock.
package struct HTTPClientEnvironment: Sendable {
    /// A monotonic instant.
    package var now: @Sendable () -> ContinuousClock.Instant
    /// Waits `duration`, throwing `http.cancelled` when the task is cancelled.
    package var sleep: @Sendable (Duration) async throws(CSEError) -> Void
    /// Wall-clock Unix seconds, for `Retry-After` dates.
    package var unixTime: @Sendable () -> Int64
    /// 64 random bits from the CSPRNG.
    package var random: @Sendable () throws(CSEError) -> UInt64

    package init(
        now: @escaping @Sendable () -> ContinuousClock.Instant, sleep: @escaping @Sendable (Duration) async throws(CSEError) -> Void,
        unixTime: @escaping @Sendable () -> Int64, random: @escaping @Sendable () throws(CSEError) -> UInt64
    ) {
        self.now = now
        self.sleep = sleep
        self.unixTime = unixTime
        self.random = random
    }

    /// The real clocks and OpenSSL's CSPRNG.
    package static let live = HTTPClientEnvironment(
        now: { ContinuousClock.now },
        sleep: { (duration) async throws(CSEError) in
            do { try await Task.sleep(for: duration) } catch {
                throw CSEError(.httpCancelled, "the task was cancelled during a retry backoff")
            }
        },
        unixTime: { SystemClock.unixSeconds() },
        random: { () throws(CSEError) in try RetryJitter.random64() })
}

/// An HTTP client with CSEKit's rules: one attempt at a time through an ``HTTPTransport``, a
/// per-attempt timeout, an overall deadline, a response size limit, and retries.
///
/// Retries (only idempotent requests, RFC 9110 §9.2.2) happen on
/// `http.connectionFailed`, 502, 503, 504, and 429, at most ``HTTPClientConfiguration/maxRetries``
/// times. Before a retry the client waits the `Retry-After` of a 429 or 503 (RFC 9110 §10.2.3,
/// delay-seconds or HTTP-date), otherwise an exponential backoff with full jitter drawn from
/// OpenSSL's CSPRNG. A wait that would end past the deadline ends the call instead: with the last
/// response, or by rethrowing the last error. No other status and no other error is retried.
///
/// Non-2xx responses are returned, not thrown: callers decode their platform's error body.
package struct HTTPClient: Sendable {
    /// The configuration the client was created with.
    package let configuration: HTTPClientConfiguration
    private let transport: any HTTPTransport
    private let environment: HTTPClientEnvironment

    /// Statuses that an idempotent request retries on.
    static let retryableStatuses: Set<Int> = [429, 502, 503, 504]

    /// A client. A `nil` transport is the default libcurl transport built from
    /// `configuration.trust` (`CurlTransport`).
    /// - Throws: `http.invalidConfiguration` for out-of-range values; `http.tls` when the CA file
    ///   cannot be read or holds no certificate.
    package init(configuration: HTTPClientConfiguration = .init(), transport: (any HTTPTransport)? = nil) throws(CSEError) {
        try self.init(configuration: configuration, transport: transport, environment: .live)
    }

    /// A client with a substituted clock, sleep and randomness (tests).
    package init(
        configuration: HTTPClientConfiguration, transport: (any HTTPTransport)?, environment: HTTPClientEnvironment
    ) throws(CSEError) {
        try configuration.validate()
        self.configuration = configuration
        if let transport {
            self.transport = transport
        } else {
            self.transport = try CurlTransport(trust: configuration.trust)
        }
        self.environment = environment
    }

    /// Sends `request`, retrying as described above, and returns the final response.
    /// - Returns: The final response; or, when a retry fails in a way that proves it never left
    ///   (`CSEError.provesRequestNotSent`) after an earlier attempt may have reached the server,
    ///   that earlier attempt's response.
    /// - Throws: `http.invalidHeader` before any attempt; the last attempt's `http.*` error (or, as
    ///   above, the earlier attempt's); `http.timeout` when the deadline passes; `http.cancelled`
    ///   when the task is cancelled.
    package func send(_ request: HTTPRequest) async throws(CSEError) -> HTTPResponse {
        try request.headers.validate()
        let deadline = environment.now() + configuration.deadline
        var attempt = 0
        // The latest attempt that may have reached the server (a response, or a failure that does
        // not prove the request unsent). A later attempt that provably never left must not hide
        // it: for a call that moves money, "refused before sending" would read as "not processed".
        var reached: Result<HTTPResponse, CSEError>?
        // Every attempt so far that may have reached the server, for the response returned.
        var earlier: [Result<HTTPResponse, CSEError>] = []
        while true {
            attempt += 1
            guard !Task.isCancelled else { throw CSEError(.httpCancelled, "the task was cancelled", context: context(request)) }
            let remaining = deadline - environment.now()
            guard remaining > .zero else { throw deadlineError(request) }
            let timeout = min(configuration.requestTimeout, remaining)
            let began = environment.now()
            let outcome: Result<HTTPResponse, CSEError>
            do {
                outcome = .success(try await transport.perform(request, timeout: timeout, maxResponseBytes: configuration.maxResponseBytes))
            } catch {
                outcome = .failure(error.code == .httpTimeout && timeout < configuration.requestTimeout ? deadlineError(request) : error)
            }
            report(request, attempt: attempt, began: began, outcome: outcome)
            let mayRetry = request.retry == .idempotent && attempt <= configuration.maxRetries
            switch outcome {
            case .success(var response):
                response.earlierAttempts = earlier
                guard mayRetry, Self.retryableStatuses.contains(response.status) else { return response }
                let delay: Duration
                if let requested = retryAfter(response) { delay = requested } else { delay = try backoff(before: attempt) }
                guard environment.now() + delay < deadline else { return response }
                reached = .success(response)
                earlier.append(.success(HTTPResponse(status: response.status, headers: response.headers, body: response.body)))
                try await environment.sleep(delay)
            case .failure(let error):
                guard mayRetry, error.code == .httpConnectionFailed else { return try Self.finish(error, reached: reached) }
                let delay = try backoff(before: attempt)
                guard environment.now() + delay < deadline else { return try Self.finish(error, reached: reached) }
                if !error.provesRequestNotSent {
                    reached = outcome
                    earlier.append(outcome)
                }
                try await environment.sleep(delay)
            }
        }
    }

    /// Ends a call whose last attempt failed with `error`: the failure, unless it proves the
    /// request never left while an earlier attempt may have reached the server; then that
    /// attempt's response or error, so that "not sent" never hides "maybe processed".
    private static func finish(_ error: CSEError, reached: Result<HTTPResponse, CSEError>?) throws(CSEError) -> HTTPResponse {
        guard error.provesRequestNotSent, let reached else { throw error }
        return try reached.get()
    }

    /// The `Retry-After` delay of a 429 or 503, if the field is present and well-formed.
    private func retryAfter(_ response: HTTPResponse) -> Duration? {
        guard response.status == 429 || response.status == 503, let value = response.headers["Retry-After"] else { return nil }
        return RetryAfter.delay(value, now: environment.unixTime())
    }

    /// Full jitter: uniform in [0, min(maxBackoff, backoffBase × 2^(retry-1))].
    func backoff(before retry: Int) throws(CSEError) -> Duration {
        let exponent = min(retry - 1, 30)
        let ceiling = min(configuration.maxBackoff, configuration.backoffBase * (1 << exponent))
        let fraction = Double(try environment.random() >> 11) / Double(UInt64(1) << 53)
        return ceiling * fraction
    }

    private func report(_ request: HTTPRequest, attempt: Int, began: ContinuousClock.Instant, outcome: Result<HTTPResponse, CSEError>) {
        guard let diagnostics = configuration.diagnostics else { return }
        var status: Int?
        var code: CSEError.Code?
        switch outcome {
        case .success(let response): status = response.status
        case .failure(let error): code = error.code
        }
        diagnostics(
            HTTPAttemptEvent(
                method: request.method, host: request.url.host, path: request.url.path, attempt: attempt, status: status,
                duration: environment.now() - began, errorCode: code))
    }

    private func deadlineError(_ request: HTTPRequest) -> CSEError {
        var facts = context(request)
        facts["deadline"] = configuration.deadline.description
        return CSEError(.httpTimeout, "the call ran past its overall deadline", context: facts)
    }

    private func context(_ request: HTTPRequest) -> [String: String] {
        ["method": request.method.rawValue, "host": request.url.host, "path": request.url.path]
    }
}
