import CSECore
@_spi(CustomTransport) import CSEHTTP
import CSEWallets
@testable import CSEWalletsHTTP
import Foundation
import Synchronization
import Testing
import TestSupport

/// The root-key fetcher against a server the test starts on 127.0.0.1 (plain HTTP to loopback,
/// and HTTPS with a test CA), with a clock the test moves.
@Suite("Google Pay root keys: fetched over HTTP(S) from loopback, cached for max-age minus Age")
struct GooglePayRootKeyFetcherTests {
    /// The SubjectPublicKeyInfo of the P-256 base point G (SEC 2 §2.4.2): a valid public key that
    /// belongs to no one.
    static let generatorSPKI =
        "MFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAEaxfR8uEsQkf4vOblY6RA8ncDfYEt6zOg9KE5RdiYwpZP40Li/hp/m47n60p8D54WK84zV2sxXs7LtkBoN79R9Q=="

    static func document(keys: Int) -> String {
        let entry = "{\"keyValue\":\"\(generatorSPKI)\",\"protocolVersion\":\"ECv2\",\"keyExpiration\":\"2154841200000\"}"
        return "{\"keys\":[" + Array(repeating: entry, count: keys).joined(separator: ",") + "]}"
    }

    /// A clock the test sets.
    final class TestClock: Sendable {
        private let now = Mutex<Int64>(1_700_000_000_000)
        func advance(seconds: Int64) { now.withLock { $0 += seconds * 1000 } }
        var clock: WalletClock { WalletClock { self.now.withLock { $0 } } }
    }

    static func configuration(trust: TLSTrust = .system) -> HTTPClientConfiguration {
        var configuration = HTTPClientConfiguration()
        configuration.trust = trust
        configuration.maxRetries = 0
        configuration.requestTimeout = .seconds(60)
        configuration.deadline = .seconds(600)
        return configuration
    }

    static func fetcher(
        _ server: LoopbackEmulator, clock: TestClock, configuration: HTTPClientConfiguration? = nil
    ) throws -> GooglePayRootKeyFetcher {
        try GooglePayRootKeyFetcher(
            source: .init(url: try HTTPURL(server.baseURL + "/paymentmethodtoken/test/keys.json")),
            configuration: configuration ?? Self.configuration(), clock: clock.clock)
    }

    @Test("A set is reused until half its lifetime (max-age minus Age), then fetched again")
    func cachesAndRefreshesAhead() async throws {
        let server = try LoopbackEmulator()
        defer { server.stop() }
        let clock = TestClock()
        let fetcher = try Self.fetcher(server, clock: clock)
        try server.enqueue(.json(200, Self.document(keys: 1), headers: [("Cache-Control", "public, max-age=100"), ("Age", "20")]))
        #expect(try await fetcher.rootKeys().count == 1)
        clock.advance(seconds: 39)
        #expect(try await fetcher.rootKeys().count == 1)
        #expect(try server.requests().count == 1)
        clock.advance(seconds: 2)  // 41 s: past half of the 80 s lifetime
        try server.enqueue(.json(200, Self.document(keys: 2), headers: [("Cache-Control", "max-age=100")]))
        #expect(try await fetcher.rootKeys().count == 2)
        let requests = try server.requests()
        #expect(requests.count == 2)
        #expect(requests.allSatisfy { $0.method == "GET" && $0.path == "/paymentmethodtoken/test/keys.json" })
    }

    @Test("A failed refresh keeps the last good set until it expires (no new attempt for 60 s), then the failure is thrown")
    func keepsLastGoodSet() async throws {
        let server = try LoopbackEmulator()
        defer { server.stop() }
        let clock = TestClock()
        let fetcher = try Self.fetcher(server, clock: clock)
        try server.enqueue(.json(200, Self.document(keys: 3), headers: [("Cache-Control", "max-age=80")]))
        #expect(try await fetcher.rootKeys().count == 3)
        clock.advance(seconds: 50)
        try server.enqueue(.status(503, body: "busy"))
        #expect(try await fetcher.rootKeys().count == 3)
        clock.advance(seconds: 20)  // 70 s: within the retry interval, no new attempt
        #expect(try await fetcher.rootKeys().count == 3)
        #expect(try server.requests().count == 2)
        clock.advance(seconds: 11)  // 81 s: the set has expired
        try server.enqueue(.status(503, body: "busy"))
        await #expect(throws: CSEError(.walletMalformed, "")) { try await fetcher.rootKeys() }
        try server.enqueue(.malformedBody)
        await #expect(throws: CSEError(.walletMalformed, "")) { try await fetcher.rootKeys() }
        #expect(try server.requests().count == 4)
    }

    @Test("Without max-age, or with no-store, every call fetches")
    func noCaching() async throws {
        let server = try LoopbackEmulator()
        defer { server.stop() }
        let clock = TestClock()
        let fetcher = try Self.fetcher(server, clock: clock)
        try server.enqueue(.json(200, Self.document(keys: 1)))
        try server.enqueue(.json(200, Self.document(keys: 1), headers: [("Cache-Control", "no-store, max-age=600")]))
        try server.enqueue(.json(200, Self.document(keys: 2)))
        #expect(try await fetcher.rootKeys().count == 1)
        #expect(try await fetcher.rootKeys().count == 1)
        #expect(try await fetcher.rootKeys().count == 2)
        #expect(try server.requests().count == 3)
    }

    @Test("Concurrent callers share one fetch")
    func concurrentCallersShareOneFetch() async throws {
        let server = try LoopbackEmulator()
        defer { server.stop() }
        let fetcher = try Self.fetcher(server, clock: TestClock())
        try server.enqueue(
            .json(200, Self.document(keys: 1), headers: [("Cache-Control", "max-age=600")]).delayed(milliseconds: 300))
        let counts = try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<4 { group.addTask { try await fetcher.rootKeys().count } }
            return try await group.reduce(into: [Int]()) { $0.append($1) }
        }
        #expect(counts == [1, 1, 1, 1])
        #expect(try server.requests().count == 1)
    }

    @Test("The default client refuses a response above the document limit (64 KiB)")
    func boundedResponse() async throws {
        let server = try LoopbackEmulator()
        defer { server.stop() }
        let fetcher = try GooglePayRootKeyFetcher(
            source: .init(url: try HTTPURL(server.baseURL + "/keys.json")), clock: TestClock().clock)
        try server.enqueue(.oversizedBody(bytes: GooglePayRootKeys.maximumDocumentByteCount + 1, chunked: true))
        await #expect(throws: CSEError(.httpResponseTooLarge, "")) { try await fetcher.rootKeys() }
    }

    @Test("Over HTTPS, the keys are fetched with the server certificate verified against the configured CA")
    func https() async throws {
        let ca = try TestCA()
        defer { ca.remove() }
        let server = try LoopbackEmulator(tls: try ca.issueServerCertificate())
        defer { server.stop() }
        let clock = TestClock()
        let verified = try Self.fetcher(server, clock: clock, configuration: Self.configuration(trust: .caFile(ca.certificatePath)))
        try server.enqueue(.json(200, Self.document(keys: 1)))
        #expect(try await verified.rootKeys().count == 1)
        let untrusted = try Self.fetcher(server, clock: clock)
        try server.enqueue(.json(200, Self.document(keys: 1)))
        await #expect(throws: CSEError(.httpTLS, "")) { try await untrusted.rootKeys() }
    }

    @Test("Google's test and production sources are HTTPS URLs on payments.developers.google.com")
    func sources() throws {
        #expect(
            try GooglePayRootKeyFetcher.Source.test().url.absoluteString
                == "https://payments.developers.google.com/paymentmethodtoken/test/keys.json")
        #expect(
            try GooglePayRootKeyFetcher.Source.production().url.absoluteString
                == "https://payments.developers.google.com/paymentmethodtoken/keys.json")
    }

    @Test("Cache lifetimes: max-age minus Age, quoted values, no-cache, a cap of 7 days, and garbage")
    func lifetimes() {
        func lifetime(_ fields: [(String, String)]) -> Int64 {
            var headers = HTTPHeaders()
            for (name, value) in fields { headers.add(name: name, value: value) }
            return GooglePayRootKeyFetcher.lifetime(of: headers)
        }
        #expect(lifetime([("Cache-Control", "max-age=3600")]) == 3_600_000)
        #expect(lifetime([("Cache-Control", "public, max-age=3600, must-revalidate"), ("Age", "600")]) == 3_000_000)
        #expect(lifetime([("Cache-Control", "max-age=60"), ("Age", "61")]) == 0)
        #expect(lifetime([("Cache-Control", "max-age=\"60\"")]) == 60_000)
        #expect(lifetime([("Cache-Control", ", ,MAX-AGE = 5")]) == 5_000)
        #expect(lifetime([("Cache-Control", "max-age=600, no-cache")]) == 0)
        #expect(lifetime([("Cache-Control", "max-age=99999999999999999999")]) == GooglePayRootKeyFetcher.maximumCacheLifetime)
        #expect(lifetime([("Cache-Control", "max-age=-5")]) == 0)
        #expect(lifetime([("Cache-Control", "max-age=60"), ("Age", "x")]) == 60_000)
        #expect(lifetime([]) == 0)
    }
}
