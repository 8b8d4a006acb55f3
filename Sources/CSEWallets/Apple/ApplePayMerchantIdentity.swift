public import CSECore
internal import CSECrypto

/// A merchant's Apple Pay **Payment Processing** certificate and its private key: the pair that
/// opens tokens whose `header.publicKeyHash` is the SHA-256 of this certificate's public key.
///
/// Configure several to rotate keys: a token selects its pair by the hash. (The Merchant Identity
/// certificate, used for TLS to Apple, is a different certificate and opens nothing.)
public struct ApplePayMerchantIdentity: Sendable {
    /// The private key, of the kind the certificate's key is.
    enum PrivateKey: Sendable {
        case ec(P256PrivateKey)
        case rsa(RSAPrivateKey)
    }

    /// The marker extension that holds the merchant identifier's SHA-256 in hex.
    static let merchantIdentifierOID = "1.2.840.113635.100.6.32"

    let privateKey: PrivateKey
    /// SHA-256 of the certificate's DER `SubjectPublicKeyInfo`: what `header.publicKeyHash` names.
    public let publicKeyHash: [UInt8]
    /// PartyV of the KDF: SHA-256 of the merchant identifier, from the certificate's extension
    /// 1.2.840.113635.100.6.32.
    public let merchantIdentifierHash: [UInt8]

    /// Pairs a Payment Processing certificate (one PEM `CERTIFICATE` block) with its private key
    /// (PEM: PKCS#8 `PRIVATE KEY`, SEC 1 `EC PRIVATE KEY` with or without an `EC PARAMETERS`
    /// block first, or an RSA `PRIVATE KEY` / `RSA PRIVATE KEY` of at least 2048 bits).
    /// - Throws: `wallet.malformed` when the certificate does not parse, has no merchant
    ///   identifier extension, or has a key that is neither P-256 nor RSA; `wallet.noMatchingKey`
    ///   when the private key does not belong to the certificate; the `pem.*`, `der.*` and `key.*`
    ///   errors of the key parsers.
    public init(certificatePEM: String, privateKeyPEM: String) throws(CSEError) {
        let certificate = try X509Certificate(pem: certificatePEM)
        let spki = certificate.subjectPublicKeyInfo
        publicKeyHash = try DigestAlgorithm.sha256.hash(spki)
        guard let extensionValue = certificate.extensionValue(Self.merchantIdentifierOID) else {
            throw WalletError.malformed(
                "the certificate has no merchant identifier extension \(Self.merchantIdentifierOID) "
                    + "(is it the Payment Processing certificate?)")
        }
        merchantIdentifierHash = try Self.merchantIdentifierHash(extensionValue)
        if let certificateKey = try? P256PublicKey(subjectPublicKeyInfo: spki) {
            let key = try P256PrivateKey(pem: privateKeyPEM)
            guard key.publicKey.subjectPublicKeyInfo == certificateKey.subjectPublicKeyInfo else {
                throw WalletError.noMatchingKey("the private key does not belong to the certificate")
            }
            privateKey = .ec(key)
        } else if let certificateKey = try? RSAPublicKey(subjectPublicKeyInfo: spki) {
            let key = try RSAPrivateKey(pemRepresentation: privateKeyPEM)
            guard key.publicKey == certificateKey else {
                throw WalletError.noMatchingKey("the private key does not belong to the certificate")
            }
            privateKey = .rsa(key)
        } else {
            throw WalletError.malformed("the certificate's key is neither P-256 nor RSA of at least 2048 bits")
        }
    }

    /// The extension's value is a DER UTF8String (or, in older certificates, an IA5String) of the
    /// 64 hex digits of SHA-256(merchant identifier); parsed as DER, never by dropping two bytes.
    static func merchantIdentifierHash(_ der: [UInt8]) throws(CSEError) -> [UInt8] {
        guard der.count == 66, der[0] == 0x0C || der[0] == 0x16, der[1] == 64,
            let hash = Base16.decode(String(decoding: der[2...], as: UTF8.self)), hash.count == 32
        else { throw WalletError.malformed("the merchant identifier extension is not a string of 64 hex digits") }
        return hash
    }

    /// Whether this identity's PartyV is the hash of `merchantIdentifier`.
    func belongs(to merchantIdentifier: String) -> Bool {
        (try? DigestAlgorithm.sha256.hash(Array(merchantIdentifier.utf8))) == merchantIdentifierHash
    }
}
