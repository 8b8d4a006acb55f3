public import CSECore
public import CSECrypto

/// RSA key material in whatever form a payment platform or an operator hands over, detected from
/// the content: PEM (`PUBLIC KEY`, `RSA PUBLIC KEY`, `PRIVATE KEY`, `RSA PRIVATE KEY`), DER
/// (SubjectPublicKeyInfo, PKCS#1, PKCS#8), a JWK (RFC 7517 §4, `kty` = `RSA`, public or private),
/// or the Client API public-key response `{"keyId":"…","publicKey":"<base64 DER>"}`.
///
/// The policy of the typed initialisers applies (2048–16384 bits, odd exponent ≥ 65537).
public struct RSAKeyMaterial: Sendable {
    /// The public key (derived from the private key when one was given).
    public let publicKey: RSAPublicKey
    /// The private key, when the material holds one.
    public let privateKey: RSAPrivateKey?
    /// The key id: the Client API `keyId` or the JWK `kid`, when present.
    public let keyID: String?

    /// Detects the format of `contents` and imports it.
    /// - Throws: ``CSEError/Code/keyUnsupportedFormat`` when the content is none of the formats;
    ///   `json.*` when JSON key material does not parse within 64 KiB and depth 8; otherwise the
    ///   error of the matching typed initialiser (`pem.*`, `der.*`, `jwk.*`, `keyResponse.*`,
    ///   `key.*`).
    public init(contents bytes: some Collection<UInt8>) throws(CSEError) {
        var contents = Array(bytes)
        defer { secureZero(&contents) }
        let start = contents.firstIndex { !($0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D) } ?? contents.endIndex
        guard start < contents.endIndex else { throw CSEError(.keyUnsupportedFormat, "the key file is empty") }
        if contents[start...].starts(with: Array("-----BEGIN ".utf8)) {
            guard let text = String(validating: contents, as: UTF8.self) else {
                throw CSEError(.pemMalformed, "PEM is not valid text")
            }
            let labelStart = contents.index(start, offsetBy: 11)
            let rest = contents[labelStart...]
            if rest.starts(with: Array("PUBLIC KEY-----".utf8)) || rest.starts(with: Array("RSA PUBLIC KEY-----".utf8)) {
                self.init(publicKey: try RSAPublicKey(pemRepresentation: text), privateKey: nil, keyID: nil)
            } else if rest.starts(with: Array("PRIVATE KEY-----".utf8)) || rest.starts(with: Array("RSA PRIVATE KEY-----".utf8)) {
                let key = try RSAPrivateKey(pemRepresentation: text)
                self.init(publicKey: key.publicKey, privateKey: key, keyID: nil)
            } else {
                // Any other label (a CERTIFICATE, an EC key…): name every label accepted here,
                // not only the private ones.
                let label = try PEMDocument(parsing: contents).label
                throw CSEError(
                    .pemUnexpectedLabel,
                    "expected a PUBLIC KEY, RSA PUBLIC KEY, PRIVATE KEY or RSA PRIVATE KEY block",
                    context: ["label": SecretMasking.echoName(label)])
            }
        } else if contents[start] == UInt8(ascii: "{") {
            // The same bounds as the JWK and key-response readers: no key needs more.
            let json = try JSONValue.parse(contents, limits: JSONLimits(maxBytes: 64 * 1024, maxDepth: 8))
            if json["publicKey"] != nil || json["keyId"] != nil {
                let response = try PublicKeyResponse(json: contents)
                self.init(publicKey: response.key, privateKey: nil, keyID: response.keyID)
            } else if json["kty"] != nil {
                let kid = json["kid"]?.stringValue
                if json["d"] != nil {
                    let key = try RSAPrivateKey(jwk: json)
                    self.init(publicKey: key.publicKey, privateKey: key, keyID: kid)
                } else {
                    self.init(publicKey: try RSAPublicKey(jwk: json), privateKey: nil, keyID: kid)
                }
            } else {
                throw CSEError(.keyUnsupportedFormat, "JSON key material is neither a JWK nor a Client API public-key response")
            }
        } else if contents[start] == 0x30 {
            // The structure's shape says public or private; only that reader runs, so its error
            // (an EC key, an even modulus, a negative INTEGER…) is the one reported.
            switch RSAKeyStructures.kind(of: contents[...]) {
            case .publicKey:
                self.init(publicKey: try RSAPublicKey(derRepresentation: contents), privateKey: nil, keyID: nil)
            case .privateKey:
                let key = try RSAPrivateKey(derRepresentation: contents)
                self.init(publicKey: key.publicKey, privateKey: key, keyID: nil)
            }
        } else {
            throw CSEError(.keyUnsupportedFormat, "not PEM, DER, a JWK or a Client API public-key response")
        }
    }

    private init(publicKey: RSAPublicKey, privateKey: RSAPrivateKey?, keyID: String?) {
        self.publicKey = publicKey
        self.privateKey = privateKey
        self.keyID = keyID
    }
}

extension CSEError.Code {
    /// Key material is in none of the supported formats.
    public static let keyUnsupportedFormat = Self("key.unsupportedFormat")
}
