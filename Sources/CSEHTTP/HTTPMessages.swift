public import CSECore

/// Whether an attempt may be repeated (RFC 9110 §9.2.2).
package enum HTTPRetryPolicy: Sendable, Hashable {
    /// Never repeat: a second attempt could act twice (a POST that creates something).
    case never
    /// The request is idempotent: `HTTPClient` may repeat it on a connection failure, 429,
    /// 502, 503 or 504.
    case idempotent
}

/// One HTTP request. Its ``description`` shows the method, the URL without its query and the
/// header names, never a header value or the body.
@_spi(CustomTransport) public struct HTTPRequest: Sendable, CustomStringConvertible {
    /// The method.
    public var method: HTTPMethod
    /// The target; checked (https, or http to loopback) when it was parsed.
    public var url: HTTPURL
    /// The header fields, in order. The transport adds `Host` and, with a body, `Content-Length`.
    public var headers: HTTPHeaders
    /// The body; empty for none.
    public var body: [UInt8]
    /// Whether `HTTPClient` may repeat the request.
    package var retry: HTTPRetryPolicy

    /// A request. `retry` defaults to `.idempotent` for `GET` and `.never` for `POST`, `PUT` and
    /// `DELETE` (PUT and DELETE are idempotent by RFC 9110 §9.2.2, but a platform API may not
    /// honour that; callers opt in per request).
    package init(method: HTTPMethod, url: HTTPURL, headers: HTTPHeaders = [:], body: [UInt8] = [], retry: HTTPRetryPolicy? = nil) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
        self.retry = retry ?? (method == .get ? .idempotent : .never)
    }

    /// `METHOD url-without-query (header names; n-byte body)`.
    public var description: String {
        "\(method) \(url) (\(headers.map(\.name).joined(separator: ", ")); \(body.count)-byte body)"
    }
}

/// One HTTP response: any status, including 4xx and 5xx. Its ``description`` shows the status,
/// the header names and the body size, never a value or the body.
@_spi(CustomTransport) public struct HTTPResponse: Sendable, CustomStringConvertible {
    /// The status code (RFC 9110 §15).
    public let status: Int
    /// The header fields of the final response, in order.
    public let headers: HTTPHeaders
    /// The body, never longer than the limit the request was sent with.
    public let body: [UInt8]
    /// The earlier attempts of the same request that may have reached the server, oldest first:
    /// the answers that were retried (429, 502, 503, 504) and the failures that do not prove the
    /// request unsent. Set by `HTTPClient` on the response it returns; empty after one attempt.
    /// When it is not empty, this response speaks for the last attempt only: a 4xx or 429 here
    /// cannot prove that the earlier ones processed nothing, so a call that moves money decides
    /// from them too (docs/SECURITY.md, "retries").
    package var earlierAttempts: [Result<HTTPResponse, CSEError>] = []

    /// A response.
    public init(status: Int, headers: HTTPHeaders, body: [UInt8]) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// Whether the status is 2xx.
    public var isSuccess: Bool { (200...299).contains(status) }

    /// `status (header names; n-byte body)`.
    public var description: String {
        "\(status) (\(headers.map(\.name).joined(separator: ", ")); \(body.count)-byte body)"
    }
}

/// One attempt, no retries. An implementation must honour `timeout` (the whole attempt:
/// connect, send, receive), `maxResponseBytes` (throw `http.responseTooLarge` as soon as the body
/// exceeds it) and task cancellation (`http.cancelled`), and must not follow redirects. It maps
/// its failures onto the `http.*` codes and keeps header values, bodies and query strings out of
/// every error.
public protocol HTTPTransport: Sendable {
    /// Performs one attempt of `request`.
    @_spi(CustomTransport) func perform(
        _ request: HTTPRequest, timeout: Duration, maxResponseBytes: Int
    ) async throws(CSEError) -> HTTPResponse
}

/// Where TLS trust comes from. Verification is always on: the peer's chain must verify to a
/// trusted CA and its certificate must match the host name (RFC 9110 §4.3.4, RFC 6125).
public struct TLSTrust: Sendable, Hashable {
    enum Source: Sendable, Hashable {
        case system
        case caFile(String)
    }

    let source: Source

    /// The system CA store (Debian: `/etc/ssl/certs/ca-certificates.crt`).
    public static let system = TLSTrust(source: .system)

    /// The CA certificates of a PEM bundle, instead of the system store (private deployments,
    /// tests). The file is checked when the client is created.
    public static func caFile(_ path: String) -> TLSTrust { TLSTrust(source: .caFile(path)) }

    /// The bundle path, or `nil` for the system store.
    public var caFilePath: String? {
        if case .caFile(let path) = source { return path }
        return nil
    }
}
