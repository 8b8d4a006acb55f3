public import CSECore

extension CSEError.Code {
    /// A payment context is out of range: a currency that is not three upper-case letters, a
    /// country that is not two, or an amount that is negative or longer than 12 digits. The
    /// context names the `member`.
    public static let clientAPIInvalidContext = Self("clientAPI.invalidContext")
    /// The platform answered with a status outside 2xx. The context carries the `status`, the
    /// method and path, and from the decoded `ApiError` body its `errorId` and each item's
    /// `errorCode`, `id`, `propertyName` and `retriable` (joined by `,` in item order). The
    /// decoded body is also available as ``CSEError/clientAPIError``.
    public static let clientAPIHTTPStatus = Self("clientAPI.httpStatus")
    /// HTTP 401 or 403: the session is missing, expired or not valid for this customer. Same
    /// context as ``clientAPIHTTPStatus``.
    public static let clientAPIUnauthorized = Self("clientAPI.unauthorized")
    /// A 2xx response body is not the documented shape (not JSON, a missing or mistyped member).
    /// The context names the `endpoint` and the `member` where known, never a value.
    public static let clientAPIMalformedResponse = Self("clientAPI.malformedResponse")
    /// The product is one the SDKs refuse to use for encrypted customer input (117 Maestro,
    /// 5700 Intersolve, 5772 Sodexo Sport & Culture, 5784 VVV Giftcard), or a wallet product
    /// (302 Apple Pay, 320 Google Pay) the availability predicate says this host cannot use.
    public static let clientAPIProductUnavailable = Self("clientAPI.productUnavailable")
    /// `GET products/{id}` answered with another product than the one requested (ids compared as
    /// numbers when they are digits). The context gives the `requested` and `returned` ids. The
    /// product is never used, so a request for `1` can never seal `117`.
    public static let clientAPIProductMismatch = Self("clientAPI.productMismatch")
    /// A card number for an IIN, DCC or surcharge call is not 6 to 19 digits (spaces allowed).
    /// The context gives the digit count, never a digit.
    public static let clientAPIInvalidCardNumber = Self("clientAPI.invalidCardNumber")
    /// A request parameter is unusable (an empty product id, an API version that is not `v1`…`v9`).
    public static let clientAPIInvalidArgument = Self("clientAPI.invalidArgument")
}
