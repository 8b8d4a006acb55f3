public import CSECore
internal import CSECrypto

/// The one certificate an Apple Pay token's chain must end at: Apple Root CA - G3 by default
/// (embedded, see ``appleRootCAG3``), or another root for tests.
public struct ApplePayTrustedRoot: Sendable {
    let certificate: X509Certificate

    /// Apple Root CA - G3 (SHA-256 fingerprint `63:34:3A:BF:…:3E:91:79`, valid to 2039-04-30),
    /// the root Apple's "Payment token format reference" names.
    public static let appleRootCAG3: ApplePayTrustedRoot = {
        // The embedded PEM is a constant that the tests check; it always parses.
        guard let root = try? ApplePayTrustedRoot(pemRepresentation: AppleRootCAG3.pem) else {
            preconditionFailure("the embedded Apple Root CA - G3 does not parse")
        }
        return root
    }()

    /// Trusts the root certificate in one PEM `CERTIFICATE` block instead (a test PKI).
    /// - Throws: `wallet.malformed` when the text is not one PEM certificate.
    public init(pemRepresentation pem: String) throws(CSEError) {
        certificate = try X509Certificate(pem: pem)
    }

    /// The SHA-256 fingerprint of the certificate's DER.
    public var sha256Fingerprint: [UInt8] { (try? DigestAlgorithm.sha256.hash(certificate.der)) ?? [] }
}
