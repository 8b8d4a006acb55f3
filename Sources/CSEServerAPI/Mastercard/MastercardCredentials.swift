public import CSECore
public import CSECrypto

/// The credentials of the Mastercard Gateway REST API with password authentication: the merchant
/// id and the API password (HTTP Basic user `merchant.<merchantId>`). The password stays in a
/// wiping buffer and never appears in a description.
public struct MastercardCredentials: Sendable, CustomStringConvertible {
    /// The merchant id.
    public let merchantID: String
    /// The API password.
    let apiPassword: SecureBytes

    /// Creates credentials.
    /// - Throws: ``CSEError/Code/serverAPICredentials`` for an empty member or a merchant id with
    ///   characters other than letters, digits, `-`, `_` and `.`.
    public init(merchantID: String, apiPassword: SecureBytes) throws(CSEError) {
        try ServerIdentifier.check(merchantID, member: "merchantId", limit: 40, isPathSegment: true)
        guard apiPassword.count > 0 else {
            throw CSEError(.serverAPICredentials, "a credentials member is empty", context: ["member": "apiPassword"])
        }
        self.merchantID = merchantID
        self.apiPassword = apiPassword
    }

    /// Reads `{"merchantId","apiPassword"}`.
    package init(document: CredentialsDocument) throws(CSEError) {
        try self.init(merchantID: try document.text("merchantId"), apiPassword: try document.secret("apiPassword"))
    }

    /// The `Authorization` value `Basic base64(merchant.<id>:<password>)` (RFC 7617 §2). The
    /// user-pass bytes are assembled in a wiping buffer.
    func basicAuthorization() -> String {
        let user = Array(("merchant." + merchantID + ":").utf8)
        let joined = SecureBytes(count: user.count + apiPassword.count) { out in
            out.copyBytes(from: user)
            apiPassword.withUnsafeBytes { UnsafeMutableRawBufferPointer(rebasing: out[user.count...]).copyMemory(from: $0) }
        }
        return "Basic " + joined.withUnsafeBytes { Base64.encode($0) }
    }

    /// The merchant id; never the password.
    public var description: String { "MastercardCredentials(merchantId: \(merchantID))" }
}
