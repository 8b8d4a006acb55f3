/// An HTTP request method (RFC 9110 §9). CSEKit uses the four below; none other is sent.
@_spi(CustomTransport) public struct HTTPMethod: Hashable, Sendable, CustomStringConvertible {
    /// The method token as sent, for example `GET`.
    public let rawValue: String

    private init(_ rawValue: String) { self.rawValue = rawValue }

    /// `GET` (RFC 9110 §9.3.1): safe and idempotent.
    public static let get = HTTPMethod("GET")
    /// `POST` (RFC 9110 §9.3.3): neither safe nor idempotent.
    public static let post = HTTPMethod("POST")
    /// `PUT` (RFC 9110 §9.3.4): idempotent.
    public static let put = HTTPMethod("PUT")
    /// `DELETE` (RFC 9110 §9.3.5): idempotent.
    public static let delete = HTTPMethod("DELETE")

    /// The method token.
    public var description: String { rawValue }
}
