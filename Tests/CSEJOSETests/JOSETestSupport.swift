import CSECore
import CSECrypto
import CSEJOSE
import Foundation
import TestSupport

/// Vectors and keys shared by the JOSE tests.
enum JOSEVectors {
    /// A JSON object file from our own `Vectors/` folder.
    static func project(_ path: String) throws -> JSONValue {
        try JSONValue.parse(Array(try TestPaths.projectFile(path)))
    }

    /// A JSON file from `../shared/vectors`, or `nil` when the shared vectors are absent.
    static func shared(_ path: String) throws -> JSONValue? {
        guard let data = TestPaths.sharedFile(path) else { return nil }
        return try JSONValue.parse(Array(data))
    }

    /// The RFC 7516 A.1 private key (2048-bit RSA, as a JWK).
    static func rfc7516A1Key() throws -> RSAPrivateKey {
        try RSAPrivateKey(jwk: try project("jose/rfc7516-a1.json")["jwk"]!)
    }

    /// Fresh key pairs, generated once per test process.
    static let key2048: RSAPrivateKey = try! RSAPrivateKey.generate(bits: 2048)
    static let key4096: RSAPrivateKey = try! RSAPrivateKey.generate(bits: 4096)

    /// Every supported alg × enc pair.
    static let pairs: [(JWEKeyAlgorithm, JWEContentEncryption)] = JWEKeyAlgorithm.allowList.flatMap { alg in
        JWEContentEncryption.allowList.map { (alg, $0) }
    }
}
