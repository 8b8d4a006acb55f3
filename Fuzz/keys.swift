// Fuzz target `keys`: RSA key import from untrusted bytes through the one content-sniffing entry
// point, `RSAKeyMaterial(contents:)` (PEM, DER SPKI/PKCS#1/PKCS#8, public and private JWK, the
// Client API `{"keyId","publicKey"}` response). A success must satisfy the key policy and
// survive a re-export/re-import round trip; a failure must carry a key-import error code.
import CSECore
import CSECrypto
import CSEPayments

let keyDomains: Set<Substring> = ["pem", "der", "jwk", "keyResponse", "key", "json", "base64"]

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzKeys(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = Array(FuzzInput(data, size).bytes)
    do throws(CSEError) {
        let material = try RSAKeyMaterial(contents: bytes)
        let key = material.publicKey
        require(
            key.bitCount >= RSAPublicKey.minimumBitCount && key.bitCount <= RSAPublicKey.maximumBitCount,
            "accepted a \(key.bitCount)-bit key")
        require(key.modulus.last.map { $0 & 1 == 1 } ?? false, "accepted an even modulus")
        require((try? RSAPublicKey(derRepresentation: key.derRepresentation)) == key, "SPKI round trip")
        require((try? RSAPublicKey(pemRepresentation: key.pemRepresentation)) == key, "PEM round trip")
        require((try? RSAPublicKey(jwkRepresentation: Array(key.jwkRepresentation().utf8))) == key, "JWK round trip")
        if let privateKey = material.privateKey {
            require(privateKey.publicKey == key, "private key and public key disagree")
            guard let der = try? privateKey.derRepresentation.unsafeCopyToArray() else {
                require(false, "private key does not export"); return 0
            }
            require((try? RSAPrivateKey(derRepresentation: der))?.publicKey == key, "PKCS#8 round trip")
        }
    } catch {
        let domain = error.code.rawValue.split(separator: ".").first ?? ""
        require(keyDomains.contains(domain), "unexpected code \(error.code)")
    }
    return 0
}
