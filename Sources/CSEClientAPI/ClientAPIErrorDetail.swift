public import CSECore

extension CSEError {
    /// The platform's decoded `ApiError` body behind a ``CSEError/Code/clientAPIHTTPStatus`` or
    /// ``CSEError/Code/clientAPIUnauthorized`` error, when the body was one; `nil` otherwise.
    ///
    /// Item messages are made safe first: a message that holds a run of 12 or more digits, which
    /// could be a card number the platform echoed, is redacted whole.
    public var clientAPIError: APIError? { detail(as: APIError.self) }
}
