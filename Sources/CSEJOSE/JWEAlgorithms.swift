public import CSECore
package import CSECrypto

/// A JWE key-management algorithm (the `alg` header, RFC 7518 §4.1). Only RSAES-OAEP is on the
/// allow-list: `RSA1_5` (RFC 7518 §4.2) is refused because of Bleichenbacher-style padding
/// oracles, and `dir`/`none` because they make no sense for client-side encryption.
public struct JWEKeyAlgorithm: Hashable, Sendable, CustomStringConvertible {
    /// The registered name, e.g. `RSA-OAEP`.
    public let name: String
    /// The OAEP hash (MGF1 uses the same hash).
    package let oaepHash: DigestAlgorithm

    /// `RSA-OAEP`: RSAES-OAEP with SHA-1 and MGF1-SHA-1 (RFC 7518 §4.3). The Worldline default.
    public static let rsaOAEP = JWEKeyAlgorithm(name: "RSA-OAEP", oaepHash: .sha1)
    /// `RSA-OAEP-256`: RSAES-OAEP with SHA-256 and MGF1-SHA-256 (RFC 7518 §4.3).
    public static let rsaOAEP256 = JWEKeyAlgorithm(name: "RSA-OAEP-256", oaepHash: .sha256)

    /// Every supported algorithm.
    public static let allowList: [JWEKeyAlgorithm] = [.rsaOAEP, .rsaOAEP256]

    /// Looks up an allowed algorithm by its registered name.
    /// - Throws: ``CSEError/Code/jweUnsupportedAlgorithm`` for anything else.
    public init(name: String) throws(CSEError) {
        guard let found = Self.allowList.first(where: { $0.name.isByteEqual(to: name) }) else {
            throw CSEError(.jweUnsupportedAlgorithm, "unsupported JWE alg", context: ["alg": Self.printable(name)])
        }
        self = found
    }

    private init(name: String, oaepHash: DigestAlgorithm) {
        self.name = name
        self.oaepHash = oaepHash
    }

    /// The registered name.
    public var description: String { name }

    /// A header value made safe to echo in an error: at most 32 printable ASCII characters, and
    /// redacted when it holds 8 or more digits (see `SecretMasking.echoName`).
    static func printable(_ text: String) -> String {
        SecretMasking.echoName(text)
    }
}

/// A JWE content-encryption algorithm (the `enc` header, RFC 7518 §5.1).
public struct JWEContentEncryption: Hashable, Sendable, CustomStringConvertible {
    /// The underlying AEAD.
    package let algorithm: ContentEncryptionAlgorithm

    /// `A128CBC-HS256` (RFC 7518 §5.2.3).
    public static let a128cbcHS256 = JWEContentEncryption(algorithm: .a128cbcHS256)
    /// `A192CBC-HS384` (RFC 7518 §5.2.4).
    public static let a192cbcHS384 = JWEContentEncryption(algorithm: .a192cbcHS384)
    /// `A256CBC-HS512` (RFC 7518 §5.2.5). The Worldline default.
    public static let a256cbcHS512 = JWEContentEncryption(algorithm: .a256cbcHS512)
    /// `A128GCM` (RFC 7518 §5.3).
    public static let a128gcm = JWEContentEncryption(algorithm: .a128gcm)
    /// `A192GCM` (RFC 7518 §5.3).
    public static let a192gcm = JWEContentEncryption(algorithm: .a192gcm)
    /// `A256GCM` (RFC 7518 §5.3).
    public static let a256gcm = JWEContentEncryption(algorithm: .a256gcm)

    /// Every supported content encryption.
    public static let allowList: [JWEContentEncryption] = [.a128cbcHS256, .a192cbcHS384, .a256cbcHS512, .a128gcm, .a192gcm, .a256gcm]

    /// Looks up an allowed content encryption by its registered name.
    /// - Throws: ``CSEError/Code/jweUnsupportedEncryption`` for anything else.
    public init(name: String) throws(CSEError) {
        guard let found = Self.allowList.first(where: { $0.name.isByteEqual(to: name) }) else {
            throw CSEError(.jweUnsupportedEncryption, "unsupported JWE enc", context: ["enc": JWEKeyAlgorithm.printable(name)])
        }
        self = found
    }

    private init(algorithm: ContentEncryptionAlgorithm) { self.algorithm = algorithm }

    /// The registered name, e.g. `A256CBC-HS512`.
    public var name: String { algorithm.name }
    /// The registered name.
    public var description: String { name }
}
