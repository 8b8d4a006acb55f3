public import CSECore

/// One item of a platform error body (`APIError` in WL-Java; research note §1.5).
public struct APIErrorItem: Hashable, Sendable {
    /// The error code; a string on the wire, but some responses write a JSON number.
    public let errorCode: String
    /// `DIRECT_PLATFORM_ERROR`, `PAYMENT_PLATFORM_ERROR`, `IO_ERROR`, …
    public let category: String?
    /// The deprecated `code` (string or number).
    public let code: String?
    /// The HTTP status the platform reports for this item.
    public let httpStatusCode: Int?
    /// A short upper-case message id, for example `IIN_NOT_FOUND`.
    public let id: String?
    /// The human message; the SDKs' default `This error does not contain a message` when absent.
    public let message: String
    /// The request member the error is about, for example `bin`.
    public let propertyName: String?
    /// Whether a retry (with a new idempotence key) may succeed; `true` when absent, as the SDKs
    /// default it.
    public let retriable: Bool

    /// The SDKs' message for an item without one.
    package static let defaultMessage = "This error does not contain a message"

    /// Creates an item.
    package init(
        errorCode: String, category: String? = nil, code: String? = nil, httpStatusCode: Int? = nil,
        id: String? = nil, message: String = APIErrorItem.defaultMessage, propertyName: String? = nil,
        retriable: Bool = true
    ) {
        self.errorCode = errorCode
        self.category = category
        self.code = code
        self.httpStatusCode = httpStatusCode
        self.id = id
        self.message = message
        self.propertyName = propertyName
        self.retriable = retriable
    }

    /// Decodes one item. `errorCode` is required.
    /// - Throws: ``CSEError/Code/clientAPIMalformedResponse``.
    package init(jsonValue: JSONValue) throws(CSEError) {
        try self.init(jsonValue, ResponseReader(endpoint: "error"))
    }

    init(_ value: JSONValue, _ reader: ResponseReader) throws(CSEError) {
        let object = try reader.object(value, member: "errors")
        self.init(
            errorCode: try reader.requiredIdentifier(object, "errorCode"), category: try reader.optionalString(object, "category"),
            code: try reader.identifier(object, "code"), httpStatusCode: try reader.optionalInt(object, "httpStatusCode"),
            id: try reader.optionalString(object, "id"), message: try reader.optionalString(object, "message") ?? Self.defaultMessage,
            propertyName: try reader.optionalString(object, "propertyName"), retriable: try reader.bool(object, "retriable", default: true))
    }
}

/// A platform error body: `{"errorId":"…","errors":[…]}` (WL-Java `ErrorResponse`).
public struct APIError: Hashable, Sendable {
    /// The platform's id of this occurrence, for support requests.
    public let errorID: String
    /// The items, in the order given.
    public let errors: [APIErrorItem]

    /// Creates an error body.
    package init(errorID: String, errors: [APIErrorItem]) {
        self.errorID = errorID
        self.errors = errors
    }

    /// Decodes an error body. `errorId` is required; `errors` may be absent (empty).
    /// - Throws: ``CSEError/Code/clientAPIMalformedResponse``.
    public init(json: some Collection<UInt8>) throws(CSEError) {
        let reader = ResponseReader(endpoint: "error")
        try self.init(try reader.parse(json), reader)
    }

    init(_ value: JSONValue, _ reader: ResponseReader) throws(CSEError) {
        let object = try reader.object(value, member: "error")
        var items: [APIErrorItem] = []
        for element in try reader.optionalArray(object, "errors") ?? [] { items.append(try APIErrorItem(element, reader)) }
        self.init(errorID: try reader.requiredIdentifier(object, "errorId"), errors: items)
    }

    /// This body with every item's message and its error id made safe to hand to a caller
    /// (``safeMessage(_:secrets:)``, ``echo(_:secrets:)``).
    /// - Parameter secrets: The caller's secrets to redact by value (the client session id).
    package func redactingMessages(secrets: [String] = []) -> APIError {
        APIError(
            errorID: Self.echo(errorID, secrets: secrets),
            errors: errors.map {
                APIErrorItem(
                    errorCode: $0.errorCode, category: $0.category, code: $0.code, httpStatusCode: $0.httpStatusCode, id: $0.id,
                    message: Self.safeMessage($0.message, secrets: secrets), propertyName: $0.propertyName, retriable: $0.retriable)
            })
    }

    /// A platform message made safe to hand to a caller by the package's one rule
    /// (``SecretMasking/platformText(_:limit:values:)``): the caller's `secrets` and any
    /// `Basic`/`Bearer` credential become `<redacted>`, a run of 12 or more digits (single
    /// separators allowed), which could be a card number the platform echoed, becomes
    /// `<redacted N chars>`, and the rest is printable ASCII, at most 512 characters.
    static func safeMessage(_ text: String, secrets: [String] = []) -> String {
        SecretMasking.platformText(text, limit: 512, values: secrets)
    }

    /// The error facts a ``CSEError`` carries: `errorId`, then each item's `errorCode`, `id`,
    /// `propertyName` and `retriable`, joined by `,` in item order (an absent value is empty).
    /// Messages are left out: the platform may echo request input in them.
    package var context: [String: String] { context(secrets: []) }

    /// ``context``, with the caller's `secrets` (the client session id, which a platform may
    /// echo as its `errorId`) redacted by value.
    package func context(secrets: [String]) -> [String: String] {
        [
            "errorId": Self.echo(errorID, secrets: secrets),
            "errorCode": errors.map { Self.echo($0.errorCode, secrets: secrets) }.joined(separator: ","),
            "id": errors.map { Self.echo($0.id ?? "", secrets: secrets) }.joined(separator: ","),
            "propertyName": errors.map { Self.echo($0.propertyName ?? "", secrets: secrets) }.joined(separator: ","),
            "retriable": errors.map { $0.retriable ? "true" : "false" }.joined(separator: ","),
        ]
    }

    /// A platform token made safe to echo by the same rule as ``safeMessage(_:secrets:)``, at most
    /// 64 characters, with `,` (the separator of ``context``) replaced by `?`. Error codes
    /// (`50001111`) and error ids (UUIDs: 4-hex groups between dashes) pass unchanged.
    static func echo(_ text: String, secrets: [String] = []) -> String {
        String(
            String.UnicodeScalarView(
                SecretMasking.platformText(text, limit: 64, values: secrets).unicodeScalars.map { $0 == "," ? "?" : $0 }))
    }
}
