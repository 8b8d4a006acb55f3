public import CSECore

extension CSEError {
    /// The platform's decoded `ApiError` body behind a ``CSEError/Code/clientAPIHTTPStatus`` or
    /// ``CSEError/Code/clientAPIUnauthorized`` error, when the body was one; `nil` otherwise.
    ///
    /// Item messages are made safe first, by the package's one redaction rule: a run of 12 or
    /// more digits, which could be a card number the platform echoed, becomes
    /// `<redacted N chars>`; the platform's error codes stay readable.
    public var clientAPIError: APIError? { detail(as: APIError.self) }
}
