package import CSECore
package import CSECrypto

/// The deny-list of RSA public keys whose private key is published: ``PaymentRequestSealer``
/// refuses them unless ``SealingOptions/allowDemoKey`` is set, and `cse encrypt` unless `--demo`.
///
/// A key is listed by the SHA-256 of its modulus n (big-endian, no leading zeros), not by the
/// whole key: the published factors of n decrypt a ciphertext made with *any* public exponent,
/// so the same modulus with e = 65539 is as readable as with e = 65537.
package enum RefusedKeys {
    /// One refused modulus: its first eight bytes (a cheap pre-check, so the hash runs only on a
    /// near-certain match) and the lowercase hex SHA-256 of all its bytes.
    struct Entry {
        let prefix: [UInt8]
        let sha256: String
        let name: String
    }

    /// The listed moduli.
    static let entries: [Entry] = [
        // `csekit-demo-key-TEST-ONLY`: the demo key pair of `cse demo` and the tests
        // (Sources/CSEDemoKeys), private key in the source tree.
        Entry(
            prefix: [0x8B, 0x01, 0x1A, 0x4A, 0x42, 0xD6, 0x2D, 0x99],
            sha256: "4f225f677ccc242c7d9216c86e4480447c210565dde499fc539eaafd4dd1b443",
            name: "the TEST-ONLY demo key")
    ]

    /// Whether `key`'s modulus is on the deny-list.
    /// - Throws: `digest.failure` if SHA-256 fails (the caller then refuses to seal).
    package static func isRefused(_ key: RSAPublicKey) throws(CSEError) -> Bool {
        let modulus = key.modulus
        for entry in entries where modulus.starts(with: entry.prefix) {
            if Base16.encode(try DigestAlgorithm.sha256.hash(modulus)) == entry.sha256 { return true }
        }
        return false
    }
}
