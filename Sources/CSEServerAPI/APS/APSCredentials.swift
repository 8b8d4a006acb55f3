public import CSECore
public import CSECrypto
public import CSEGateways

/// The credentials of an Amazon Payment Services (PayFort) merchant account: the access code,
/// the merchant identifier, the SHA request and response phrases and the SHA type. The phrases
/// stay in wiping buffers and never appear in a description.
public struct APSCredentials: Sendable, CustomStringConvertible {
    /// The `access_code`.
    public let accessCode: String
    /// The `merchant_identifier`.
    public let merchantIdentifier: String
    /// The SHA request phrase.
    let requestPhrase: SecureBytes
    /// The SHA response phrase.
    let responsePhrase: SecureBytes
    /// The account's SHA type.
    public let algorithm: APSSignatureAlgorithm

    /// Creates credentials.
    /// - Throws: ``CSEError/Code/serverAPICredentials`` for an empty member, or an access code or
    ///   merchant identifier that is not 1–20 letters and digits.
    public init(
        accessCode: String, merchantIdentifier: String, requestPhrase: SecureBytes, responsePhrase: SecureBytes,
        algorithm: APSSignatureAlgorithm = .sha256
    ) throws(CSEError) {
        for (name, value) in [("access_code", accessCode), ("merchant_identifier", merchantIdentifier)] {
            try ServerIdentifier.check(value, member: name, limit: 20)
            guard value.utf8.allSatisfy({ $0 < 0x80 && (Character(UnicodeScalar($0)).isLetter || Character(UnicodeScalar($0)).isNumber) })
            else {
                throw CSEError(.serverAPICredentials, "an APS identifier is 1 to 20 letters and digits", context: ["member": name])
            }
        }
        guard requestPhrase.count > 0 else {
            throw CSEError(.serverAPICredentials, "a credentials member is empty", context: ["member": "sha_request_phrase"])
        }
        guard responsePhrase.count > 0 else {
            throw CSEError(.serverAPICredentials, "a credentials member is empty", context: ["member": "sha_response_phrase"])
        }
        self.accessCode = accessCode
        self.merchantIdentifier = merchantIdentifier
        self.requestPhrase = requestPhrase
        self.responsePhrase = responsePhrase
        self.algorithm = algorithm
    }

    /// Reads `{"access_code","merchant_identifier","sha_request_phrase","sha_response_phrase","sha_type"}`
    /// (`sha_type` optional, SHA-256 by default).
    package init(document: CredentialsDocument) throws(CSEError) {
        var algorithm = APSSignatureAlgorithm.sha256
        if let name = document.optionalText("sha_type") {
            do throws(CSEError) { algorithm = try APSSignatureAlgorithm(name: name) } catch {
                throw CSEError(.serverAPICredentials, "sha_type is sha256, sha512 or sha1 (SHA-128)", context: ["member": "sha_type"])
            }
        }
        try self.init(
            accessCode: try document.text("access_code"), merchantIdentifier: try document.text("merchant_identifier"),
            requestPhrase: try document.secret("sha_request_phrase"),
            responsePhrase: try document.secret("sha_response_phrase"), algorithm: algorithm)
    }

    /// The identifiers and SHA type; never the phrases.
    public var description: String {
        "APSCredentials(access_code: \(accessCode), merchant_identifier: \(merchantIdentifier), sha_type: \(algorithm))"
    }
}
