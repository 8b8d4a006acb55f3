import CSECore
import CSEHTTP
import Synchronization
import TestSupport

/// A canary card number: it must never appear in an error, description or diagnostic.
let canaryPAN = "4111111111111111"
/// A canary session id for Authorization headers.
let canarySession = "canary-session-7f3e9a"

/// A client for loopback tests. The default limits are generous: in a full parallel `swift test`
/// the cooperative pool can be busy with CPU-bound suites for many seconds before an awaiting
/// call resumes, and the deadline counts that time (it is wall time). Tests about timeouts and
/// deadlines pass small values explicitly.
func loopbackClient(
    trust: TLSTrust = .system, requestTimeout: Duration = .seconds(60), deadline: Duration = .seconds(600), maxResponseBytes: Int = 1 << 20,
    maxRetries: Int = 2, events: EventLog? = nil
) throws(CSEError) -> HTTPClient {
    var configuration = HTTPClientConfiguration()
    configuration.trust = trust
    configuration.requestTimeout = requestTimeout
    configuration.deadline = deadline
    configuration.maxResponseBytes = maxResponseBytes
    configuration.maxRetries = maxRetries
    configuration.backoffBase = .milliseconds(20)
    configuration.maxBackoff = .milliseconds(100)
    if let events { configuration.diagnostics = { events.append($0) } }
    return try HTTPClient(configuration: configuration)
}

/// Collects diagnostics events from any thread.
final class EventLog: Sendable {
    private let events = Mutex<[HTTPAttemptEvent]>([])
    func append(_ event: HTTPAttemptEvent) { events.withLock { $0.append(event) } }
    var all: [HTTPAttemptEvent] { events.withLock { $0 } }
}

/// Runs `body` with a fresh generic emulator and stops it afterwards, whatever happens.
func withEmulator<T>(tls: TestCA.ServerCertificate? = nil, _ body: (LoopbackEmulator) async throws -> T) async throws -> T {
    let emulator = try LoopbackEmulator(tls: tls)
    defer { emulator.stop() }
    return try await body(emulator)
}

/// The error `body` throws, or `nil`.
func caught<T>(_ body: () async throws(CSEError) -> T) async -> CSEError? {
    do {
        _ = try await body()
        return nil
    } catch {
        return error
    }
}

/// Polls the emulator's log until it holds `count` requests; at most 1200 polls of 50 ms.
func waitForRequests(_ server: LoopbackEmulator, count: Int) async throws -> Bool {
    for _ in 0..<1200 {
        if try server.requests().count >= count { return true }
        try await Task.sleep(for: .milliseconds(50))
    }
    return false
}

/// A port on 127.0.0.1 with nothing listening: 1, below the ephemeral range, so no test's server
/// can be given it (a stopped emulator's freed port could be another test's by the next attempt;
/// the refused-connection test once connected on its third).
func closedLoopbackPort() throws -> Int { 1 }
