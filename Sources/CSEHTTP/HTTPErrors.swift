public import CSECore

extension CSEError.Code {
    /// `http` is refused for a host other than loopback (127.0.0.0/8, `::1`, `localhost`), or the
    /// scheme is neither `http` nor `https`. Checked when the URL is parsed: no connection is made.
    public static let httpInsecureURL = Self("http.insecureURL")
    /// The URL is not an absolute `http(s)` URL CSEKit accepts (RFC 3986 §3): a bad host, port,
    /// path or query, userinfo, a fragment, dot segments, or over the length limit. The reason
    /// names the component, never its text.
    public static let httpInvalidURL = Self("http.invalidURL")
    /// A path segment built from a value (a merchant id, a customer id, a session id) is empty,
    /// `.` or `..`: RFC 3986 §5.2.4 would remove it or climb to the parent resource, even
    /// percent-encoded (§6.2.2.2). The context gives the segment's position, never its text.
    public static let httpInvalidPathSegment = Self("http.invalidPathSegment")
    /// A request header name is not an RFC 9110 §5.1 token, or its value holds CR, LF, NUL or
    /// another control character (RFC 9110 §5.5). The value is never shown.
    public static let httpInvalidHeader = Self("http.invalidHeader")
    /// The connection could not be made, or broke before the whole response arrived (refused,
    /// unresolvable host, reset, closed early, truncated body). Idempotent requests retry on it.
    public static let httpConnectionFailed = Self("http.connectionFailed")
    /// TLS failed: the peer's certificate chain does not verify against the trusted CAs, the
    /// certificate does not match the host name, the handshake failed, or the CA file is unusable.
    public static let httpTLS = Self("http.tls")
    /// An attempt ran past its timeout, or the call ran past its overall deadline.
    public static let httpTimeout = Self("http.timeout")
    /// The response body (or its header block) is larger than the configured limit. Detected while
    /// streaming: the transfer stops as soon as the limit is passed.
    public static let httpResponseTooLarge = Self("http.responseTooLarge")
    /// The calling task was cancelled; the transfer was stopped.
    public static let httpCancelled = Self("http.cancelled")
    /// Any other transport failure (an unparseable response, a libcurl setup failure). The context
    /// carries the libcurl result number.
    public static let httpTransport = Self("http.transport")
    /// An ``HTTPClientConfiguration`` value is out of range (a non-positive timeout, deadline or
    /// size limit, `maxRetries` outside 0...5).
    public static let httpInvalidConfiguration = Self("http.invalidConfiguration")
}
