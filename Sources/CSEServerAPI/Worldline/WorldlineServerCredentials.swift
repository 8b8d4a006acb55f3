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
