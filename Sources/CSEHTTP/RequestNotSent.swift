package import CSECore

extension CSEError {
    /// Whether this transport error proves that the request never reached the server, so that a
    /// call that moves money is known not to have been processed: the URL, a header or the
    /// configuration was refused before any connection, the host did not resolve, the connection
    /// was refused, or TLS failed (the handshake precedes the request). Anything else (a timeout, a
    /// reset, a truncated or unreadable answer) may have followed a processed request.
    ///
    /// ``HTTPClient`` keeps this true of the error it throws: when a retry fails this way after an
    /// earlier attempt may have reached the server, it reports the earlier attempt instead.
    package var provesRequestNotSent: Bool {
        switch code {
        case .httpInvalidURL, .httpInsecureURL, .httpInvalidPathSegment, .httpInvalidHeader, .httpInvalidConfiguration, .httpTLS:
            return true
        case .httpConnectionFailed:
            // libcurl: CURLE_COULDNT_RESOLVE_PROXY 5, CURLE_COULDNT_RESOLVE_HOST 6, CURLE_COULDNT_CONNECT 7.
            return ["5", "6", "7"].contains(context["curlCode"] ?? "")
        default:
            return false
        }
    }
}
