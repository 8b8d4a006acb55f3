public import CSECore
public import CSECrypto
import CSEHTTP

/// The credentials of the Worldline server API: the merchant id (PSPID), the API key id and the
/// secret API key. The secret stays in a wiping buffer; it never appears in a description.
public struct WorldlineServerCredentials: Sendable, CustomStringConvertible {
    /// The merchant id, the `{merchantId}` of every path.
    public let merchantID: String
    /// The API key id, sent in the `Authorization` header.
    public let apiKeyID: String
    /// The secret API key (UTF-8 bytes), used only as the HMAC key.
    let secretAPIKey: SecureBytes

    /// Creates credentials.
    /// - Throws: ``CSEError/Code/serverAPICredentials`` when a member is empty, the merchant id
    ///   or key id holds characters other than letters, digits, `-`, `_` and `.`, or the merchant
    ///   id (a path segment) is `.` or `..`.
    public init(merchantID: String, apiKeyID: String, secretAPIKey: SecureBytes) throws(CSEError) {
        try ServerIdentifier.check(merchantID, member: "merchantId", isPathSegment: true)
        try ServerIdentifier.check(apiKeyID, member: "apiKeyId")
        guard secretAPIKey.count > 0 else {
            throw CSEError(.serverAPICredentials, "a credentials member is empty", context: ["member": "secretApiKey"])
        }
        self.merchantID = merchantID
        self.apiKeyID = apiKeyID
        self.secretAPIKey = secretAPIKey
    }

    /// Reads `{"merchantId","apiKeyId","secretApiKey"}`.
    /// - Throws: ``CSEError/Code/serverAPICredentials``.
    package init(document: CredentialsDocument) throws(CSEError) {
        try self.init(
            merchantID: try document.text("merchantId"), apiKeyID: try document.text("apiKeyId"),
            secretAPIKey: try document.secret("secretApiKey"))
    }

    /// The merchant and key ids; never the secret.
    public var description: String { "WorldlineServerCredentials(merchantId: \(merchantID), apiKeyId: \(apiKeyID))" }
}

/// Checks for identifiers that go into paths and headers (merchant ids, key ids, access codes).
enum ServerIdentifier {
    /// - Parameter isPathSegment: The value becomes a path segment: `.` and `..` are refused
    ///   (RFC 3986 §5.2.4; see `HTTPURL.appending(pathSegments:)`).
    static func check(_ value: String, member: String, limit: Int = 64, isPathSegment: Bool = false) throws(CSEError) {
        guard !value.isEmpty else {
            throw CSEError(.serverAPICredentials, "a credentials member is empty", context: ["member": member])
        }
        if isPathSegment && HTTPURL.isUnsafePathSegment(value) {
            throw CSEError(
                .serverAPICredentials, "an identifier that goes into a URL path cannot be '.' or '..'", context: ["member": member])
        }
        guard value.utf8.count <= limit, value.utf8.allSatisfy({ isIdentifierByte($0) }) else {
            throw CSEError(
                .serverAPICredentials, "an identifier may hold only letters, digits, '-', '_' and '.' (at most \(limit))",
                context: ["member": member])
        }
    }

    static func isIdentifierByte(_ b: UInt8) -> Bool {
        switch b {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
            UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."):
            return true
        default: return false
        }
    }
}
