public import CSECore
@_spi(CustomTransport) public import CSEHTTP
public import CSEWallets

/// Fetches Google's root signing keys over HTTPS and caches them, as Google asks of a recipient
/// that does not pin them ("Payment data cryptography for merchants", "Root signing keys";
/// Tink's `GooglePaymentsPublicKeysManager`):
///
/// - the set is cached for the response's `Cache-Control: max-age` minus its `Age`, at most
///   `maximumCacheLifetime`; `no-store`, `no-cache` or no `max-age` mean no caching;
/// - from half that lifetime on, a call fetches again (refresh ahead of expiry); if that fetch
///   fails, the last good set is returned until its lifetime ends, then the failure is thrown;
///   after a failed refresh the next attempt waits `refreshRetryInterval` (the last good set is
///   served meanwhile), so an outage does not make every call wait for the HTTP deadline;
/// - concurrent calls share one fetch; one set is held, and a response larger than 64 KiB is
///   refused by the client.
///
/// The clock is injected: the cache never reads the system clock itself.
public actor GooglePayRootKeyFetcher {
    /// Where the keys are published.
    public struct Source: Sendable, Hashable {
        /// The document's URL.
        public let url: HTTPURL

        /// Any HTTPS URL (HTTP only to loopback, as ``HTTPURL`` allows).
        public init(url: HTTPURL) { self.url = url }

        /// Google's TEST-environment keys: `https://payments.developers.google.com/paymentmethodtoken/test/keys.json`.
        public static func test() throws(CSEError) -> Source {
            Source(url: try HTTPURL("https://payments.developers.google.com/paymentmethodtoken/test/keys.json"))
        }

        /// Google's PRODUCTION keys: `https://payments.developers.google.com/paymentmethodtoken/keys.json`.
        public static func production() throws(CSEError) -> Source {
            Source(url: try HTTPURL("https://payments.developers.google.com/paymentmethodtoken/keys.json"))
        }
    }

    /// The longest a fetched set is cached, whatever `max-age` says: 7 days, in milliseconds.
    package static let maximumCacheLifetime: Int64 = 7 * 24 * 3_600_000
    /// How long after a failed refresh the last good set is served without trying again: 60 s,
    /// in milliseconds.
    package static let refreshRetryInterval: Int64 = 60_000

    private struct Cached {
        let keys: GooglePayRootKeys
        let fetchedAt: Int64
        let lifetime: Int64
        var refreshAt: Int64 { fetchedAt + lifetime / 2 }
        var expiresAt: Int64 { fetchedAt + lifetime }
    }

    private let source: Source
    private let client: HTTPClient
    private let clock: WalletClock
    private var cached: Cached?
    /// After a failed refresh: no new attempt before this instant while `cached` is valid.
    private var retryNotBefore: Int64 = .min
    private var inFlight: Task<Result<Cached, CSEError>, Never>?

    /// A fetcher.
    /// - Parameters:
    ///   - source: ``Source/test()`` or ``Source/production()`` (a token verifies only under the
    ///     keys of the environment that issued it).
    ///   - configuration: Deadlines, retries and TLS trust; by default a 10 s request timeout and
    ///     a 30 s deadline. The response limit is never above 64 KiB.
    ///   - transport: A transport of your own (tests, a proxy); libcurl when `nil`.
    ///   - clock: The clock of the cache.
    /// - Throws: ``CSEError/Code/httpInvalidConfiguration`` for a configuration out of range.
    public init(
        source: Source, configuration: HTTPClientConfiguration = HTTPClientConfiguration(),
        transport: (any HTTPTransport)? = nil, clock: WalletClock = .system
    ) throws(CSEError) {
        self.source = source
        var configuration = configuration
        configuration.maxResponseBytes = min(configuration.maxResponseBytes, GooglePayRootKeys.maximumDocumentByteCount)
        self.client = try HTTPClient(configuration: configuration, transport: transport)
        self.clock = clock
    }

    /// The current root keys: the cached set while it is fresh, else a newly fetched one.
    /// - Throws: The client's `http.*` error, or `wallet.malformed` for a response that is not a
    ///   root-key document (including a non-2xx status), when no cached set is still valid.
    public func rootKeys() async throws(CSEError) -> GooglePayRootKeys {
        let now = clock.unixMilliseconds()
        if let cached, now < cached.refreshAt || (now < cached.expiresAt && now < retryNotBefore) { return cached.keys }
        switch await fetch() {
        case .success(let fresh):
            return fresh.keys
        case .failure(let error):
            let after = clock.unixMilliseconds()
            if let cached, after < cached.expiresAt {
                retryNotBefore = after + Self.refreshRetryInterval
                return cached.keys
            }
            throw error
        }
    }

    /// One fetch, shared by concurrent callers; a success replaces the cached set.
    private func fetch() async -> Result<Cached, CSEError> {
        if let inFlight { return await inFlight.value }
        let task = Task { [source, client, clock] () async -> Result<Cached, CSEError> in
            do throws(CSEError) {
                let response = try await client.send(HTTPRequest(method: .get, url: source.url, headers: ["Accept": "application/json"]))
                guard response.isSuccess else {
                    throw CSEError(
                        .walletMalformed, "Google Pay: the root-key server answered without a key document",
                        context: ["status": String(response.status)])
                }
                let keys = try GooglePayRootKeys(document: response.body)
                return .success(
                    Cached(keys: keys, fetchedAt: clock.unixMilliseconds(), lifetime: Self.lifetime(of: response.headers)))
            } catch {
                return .failure(error)
            }
        }
        inFlight = task
        let result = await task.value
        inFlight = nil
        if case .success(let fresh) = result { cached = fresh }
        return result
    }

    /// `max-age` minus `Age` (RFC 9111 §4.2.1, §4.2.3), in milliseconds, between 0 and
    /// `maximumCacheLifetime`; 0 for `no-store`, `no-cache` or no `max-age`.
    static func lifetime(of headers: HTTPHeaders) -> Int64 {
        var maxAge: Int64? = nil
        for value in headers.values(for: "Cache-Control") {
            for directive in value.split(separator: ",") {
                let parts = directive.split(separator: "=", maxSplits: 1).map { $0.trimmingASCIISpaces() }
                guard let name = parts.first?.lowercased() else { continue }
                if name == "no-store" || name == "no-cache" { return 0 }
                if name == "max-age", parts.count == 2 { maxAge = seconds(parts[1]) }
            }
        }
        guard let maxAge else { return 0 }
        let age = headers["Age"].flatMap { seconds(Substring($0)) } ?? 0
        let remaining = max(0, maxAge - age)
        return min(remaining, maximumCacheLifetime / 1000) * 1000
    }

    /// A delta-seconds value (RFC 9111 §1.2.2), quotes allowed; values beyond 10 digits are capped.
    private static func seconds(_ text: Substring) -> Int64? {
        var digits = text
        if digits.count >= 2, digits.first == "\"", digits.last == "\"" { digits = digits.dropFirst().dropLast() }
        guard !digits.isEmpty, digits.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
        return digits.count > 10 ? 9_999_999_999 : Int64(digits)
    }
}

extension Substring {
    fileprivate func trimmingASCIISpaces() -> Substring {
        var text = self
        while let first = text.first, first == " " || first == "\t" { text = text.dropFirst() }
        while let last = text.last, last == " " || last == "\t" { text = text.dropLast() }
        return text
    }
}
