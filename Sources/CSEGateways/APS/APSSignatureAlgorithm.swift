public import CSECore
package import CSECrypto

/// The SHA types the Amazon Payment Services dashboard offers for request and response
/// signatures: SHA-256, SHA-512 and "SHA-128", which is SHA-1 (FIPS 180-4 §6.1; a 160-bit digest).
///
/// - Warning: ``sha1`` exists only because merchants may have configured it in the APS
///   dashboard. It is never chosen implicitly; the default is ``sha256``.
public struct APSSignatureAlgorithm: Hashable, Sendable, CustomStringConvertible {
    /// The digest behind the name.
    package let digest: DigestAlgorithm
    /// The CLI spelling: `sha256`, `sha512` or `sha1`.
    public let name: String

    private init(_ digest: DigestAlgorithm, _ name: String) {
        self.digest = digest
        self.name = name
    }

    /// SHA-256, the recommended and default type.
    public static let sha256 = APSSignatureAlgorithm(.sha256, "sha256")
    /// SHA-512.
    public static let sha512 = APSSignatureAlgorithm(.sha512, "sha512")
    /// SHA-1, shown as "SHA-128" in the APS dashboard. Legacy; see the type's warning.
    public static let sha1 = APSSignatureAlgorithm(.sha1, "sha1")

    /// Reads a name: `sha256`/`SHA-256`, `sha512`/`SHA-512`, `sha1`/`SHA-1`/`sha128`/`SHA-128`
    /// (case-insensitive, hyphen optional).
    /// - Throws: ``CSEError/Code/apsSignatureUnknownAlgorithm``.
    public init(name: String) throws(CSEError) {
        let key = String(name.lowercased().filter { $0 != "-" })
        switch key {
        case "sha256": self = .sha256
        case "sha512": self = .sha512
        case "sha1", "sha128": self = .sha1
        default:
            throw CSEError(
                .apsSignatureUnknownAlgorithm, "APS signatures use sha256, sha512 or sha1 (SHA-128)",
                context: ["algorithm": SecretMasking.echoIdentifier(name)])
        }
    }

    /// The CLI spelling.
    public var description: String { name }
}
