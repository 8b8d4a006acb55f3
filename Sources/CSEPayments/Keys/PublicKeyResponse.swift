public import CSECore
public import CSECrypto

/// The Worldline Client API public-key response (`GET /client/v1/{customerId}/crypto/publickey`):
/// `{"keyId":"…","publicKey":"<standard base64 of a DER SubjectPublicKeyInfo>"}`.
///
/// Unlike the reference SDKs, which compare a fixed 24-byte RSA-2048 prefix, the key is parsed as
/// DER, so any size the policy allows (2048–16384 bits) is accepted. Other members are ignored.
public struct PublicKeyResponse: Sendable, Hashable {
    /// The key identifier, sent as the JWE `kid`.
    public let keyID: String
    /// The RSA public key.
    public let key: RSAPublicKey

    /// Creates a response from its parts.
    package init(keyID: String, key: RSAPublicKey) {
        self.keyID = keyID
        self.key = key
    }

    /// Parses the JSON response body.
    /// - Parameter json: The UTF-8 body.
    /// - Throws: `keyResponse.malformed` (not JSON, not an object, a missing, empty or non-string
    ///   `keyId`/`publicKey`, or `publicKey` not strict padded standard base64), then the errors of
    ///   ``RSAPublicKey/init(derRepresentation:)`` restricted to a SubjectPublicKeyInfo.
    public init(json: some Collection<UInt8>) throws(CSEError) {
        let value: JSONValue
        do {
            value = try JSONValue.parse(json, limits: JSONLimits(maxBytes: 64 * 1024, maxDepth: 8))
        } catch {
            throw CSEError(.keyResponseMalformed, "the public-key response is not valid JSON", underlying: error)
        }
        guard let object = value.objectValue else {
            throw CSEError(.keyResponseMalformed, "the public-key response is not a JSON object")
        }
        guard let keyID = object["keyId"]?.stringValue, !keyID.isEmpty else {
            throw CSEError(.keyResponseMalformed, "the public-key response has no keyId string", context: ["member": "keyId"])
        }
        guard let encoded = object["publicKey"]?.stringValue, !encoded.isEmpty else {
            throw CSEError(.keyResponseMalformed, "the public-key response has no publicKey string", context: ["member": "publicKey"])
        }
        let der: [UInt8]
        do {
            der = try Base64.decode(encoded, alphabet: .standard, padding: .required)
        } catch {
            throw CSEError(
                .keyResponseMalformed, "publicKey is not standard base64",
                context: ["member": "publicKey", "base64": error.code.rawValue])
        }
        self.init(keyID: keyID, key: try RSAPublicKey(subjectPublicKeyInfo: der))
    }
}

extension CSEError.Code {
    /// A Client API public-key response lacks `keyId` or `publicKey`, or they are not strings of the
    /// expected shape.
    public static let keyResponseMalformed = Self("keyResponse.malformed")
}
