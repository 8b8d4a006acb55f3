import CSECore
@_spi(CustomTransport) import CSEHTTP

/// The request side the platform clients share: a JSON call with `Accept: application/json`,
/// `Content-Type: application/json` when there is a body (unless the caller set it, as the
/// Worldline signature needs it first), and the body bytes wiped once the call is over, whether it
/// succeeded or not (they may hold card data).
enum ServerRequest {
    /// Sends `method url` with `headers` and `body` as compact JSON.
    /// - Throws: The transport errors of `HTTPClient.send(_:)`.
    static func send(
        _ http: HTTPClient, _ method: HTTPMethod, url: HTTPURL, headers: HTTPHeaders = HTTPHeaders(), body: JSONValue?,
        retry: HTTPRetryPolicy? = nil
    ) async throws(CSEError) -> HTTPResponse {
        var headers = headers
        if body != nil && headers["Content-Type"] == nil { headers.add(name: "Content-Type", value: "application/json") }
        if headers["Accept"] == nil { headers.add(name: "Accept", value: "application/json") }
        var bytes = body.map(ServerResponse.body) ?? []
        defer { secureZero(&bytes) }
        return try await http.send(HTTPRequest(method: method, url: url, headers: headers, body: bytes, retry: retry))
    }
}
