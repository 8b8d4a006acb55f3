import CSECore
import CSECrypto
import CSEJOSE

/// RSA-OAEP and JWE: the raw OpenSSL references, the library's JWE encryptor and decryptor, and
/// the three RSA engines.
enum CryptoSuite {
    static var definitions: [Definition] {
        var all: [Definition] = []
        for bits in [2048, 4096] {
            all.append(Definition("raw-oaep/rsa\(bits)") { rawOAEP($0.keys(bits: bits)) })
            all.append(Definition("jwe-encrypt/rsa\(bits)") { jweEncrypt($0.keys(bits: bits)) })
        }
        // The JWE as on a CPU without AVX-512 IFMA, where the default engine is OpenSSL's.
        all.append(Definition("jwe-encrypt/rsa2048/openSSL") { jweEncrypt($0.keys(bits: 2048), engine: .openSSL) })
        all.append(Definition("raw-decrypt/rsa2048") { rawDecrypt($0.keys(bits: 2048)) })
        all.append(Definition("jwe-decrypt/rsa2048") { jweDecrypt($0.keys(bits: 2048)) })
        for bits in [2048, 4096] {
            for engine in [RSAEngine.openSSL, .gmp, .ifma] {
                all.append(Definition("rsa-engine/\(engine)/rsa\(bits)") { rsaEngine($0.keys(bits: bits), engine: engine) })
            }
        }
        all.append(Definition("key-import/rsa2048") { keyImport($0.keys(bits: 2048)) })
        all.append(Definition("key-import/rsa2048/openSSL") { keyImportReference($0.keys(bits: 2048)) })
        all.append(Definition("jwe-parts/content-seal") { _ in contentSeal() })
        all.append(
            Definition("jwe-parts/random-148B") { _ in
                Benchmark("jwe-parts/random-148B") { iterations in
                    repeatSinking(iterations) { mustSucceed { () throws(CSEError) in try SecureRandom.secureBytes(148) } }
                }
            })
        return all
    }

    /// `RSAPublicKey(derRepresentation:)` of a 2048-bit SubjectPublicKeyInfo: strict DER, the key
    /// policy and the engine state built at import (what a sealer pays per fetched key).
    static func keyImport(_ keys: BenchmarkKeys) -> Benchmark {
        let der = keys.publicKey.derRepresentation
        return Benchmark("key-import/rsa\(keys.bits)") { iterations in
            repeatSinking(iterations) { mustSucceed { () throws(CSEError) in try RSAPublicKey(derRepresentation: der) } }
        }
    }

    /// The reference for `key-import/…`: OpenSSL `d2i_PUBKEY` of the same DER, then `EVP_PKEY_free`.
    static func keyImportReference(_ keys: BenchmarkKeys) -> Benchmark {
        let der = keys.publicKey.derRepresentation
        return Benchmark("key-import/rsa\(keys.bits)/openSSL") { iterations in
            repeatSinking(iterations) { decodeSubjectPublicKeyInfo(der) }
        }
    }

    /// A256CBC-HS512 sealing of the payload with a JWE-sized AAD: the symmetric part of a JWE.
    static func contentSeal() -> Benchmark {
        let payload = PayloadSuite.payloadBytes()
        let key = SecureBytes(Fixtures.cek)
        let iv = Array(Fixtures.cek.prefix(16))
        let aad = Array(repeating: UInt8(ascii: "e"), count: 110)
        return Benchmark("jwe-parts/content-seal") { iterations in
            repeatSinking(iterations) {
                mustSucceed { () throws(CSEError) in
                    try ContentEncryptionAlgorithm.a256cbcHS512.seal(plaintext: payload, key: key, iv: iv, aad: aad)
                }
            }
        }
    }

    /// OpenSSL `EVP_PKEY_encrypt`, RSA-OAEP/SHA-1 of a 64-byte CEK, context reused.
    static func rawOAEP(_ keys: BenchmarkKeys) -> Benchmark {
        let reference = keys.openSSL
        let message = Fixtures.cek
        var out = [UInt8](repeating: 0, count: reference.byteCount)
        return Benchmark("raw-oaep/rsa\(keys.bits)") { iterations in
            message.withUnsafeBytes { m in
                out.withUnsafeMutableBytes { o in repeatSinking(iterations) { reference.encrypt(m, into: o) } }
            }
            blackHole(out)
        }
    }

    /// OpenSSL `EVP_PKEY_decrypt`, RSA-OAEP/SHA-1, context reused.
    static func rawDecrypt(_ keys: BenchmarkKeys) -> Benchmark {
        let reference = keys.openSSL
        var ciphertext = [UInt8](repeating: 0, count: reference.byteCount)
        Fixtures.cek.withUnsafeBytes { m in ciphertext.withUnsafeMutableBytes { _ = reference.encrypt(m, into: $0) } }
        var out = [UInt8](repeating: 0, count: reference.byteCount)
        return Benchmark("raw-decrypt/rsa\(keys.bits)") { iterations in
            ciphertext.withUnsafeBytes { c in
                out.withUnsafeMutableBytes { o in repeatSinking(iterations) { reference.decrypt(c, into: o) } }
            }
            blackHole(out)
        }
    }

    /// The whole JWE compact encryption (RSA-OAEP + A256CBC-HS512) of the ~290-byte card payload:
    /// randomness, OAEP, AES-CBC, HMAC-SHA-512, header, base64url, the final String.
    /// `engine` forces the RSA engine (named in the benchmark unless it is the default).
    static func jweEncrypt(_ keys: BenchmarkKeys, engine: RSAEngine? = nil) -> Benchmark {
        var encryptor = mustSucceed { () throws(CSEError) in try JWEEncryptor(publicKey: keys.publicKey, keyID: Fixtures.keyID) }
        if let engine { encryptor.rsaEngine = engine }
        let name = "jwe-encrypt/rsa\(keys.bits)" + (engine.map { "/\($0)" } ?? "")
        let payload = PayloadSuite.payloadBytes()
        // Setup proves the output decrypts to the payload, so the timed loop measures real work.
        let decryptor = mustSucceed { () throws(CSEError) in try JWEDecryptor(privateKey: keys.privateKey) }
        let check = mustSucceed { () throws(CSEError) in try decryptor.decrypt(try encryptor.encrypt(payload)) }
        guard check.plaintext.unsafeCopyToArray() == payload else { fatalError("\(name) setup: round trip differs") }
        return Benchmark(name) { iterations in
            repeatSinking(iterations) { mustSucceed { () throws(CSEError) in try encryptor.encrypt(payload) } }
        }
    }

    /// The whole JWE decryption: parsing, header checks, OAEP decrypt, tag check, AES-CBC.
    static func jweDecrypt(_ keys: BenchmarkKeys) -> Benchmark {
        let encryptor = mustSucceed { () throws(CSEError) in try JWEEncryptor(publicKey: keys.publicKey, keyID: Fixtures.keyID) }
        let decryptor = mustSucceed { () throws(CSEError) in try JWEDecryptor(privateKey: keys.privateKey) }
        let payload = PayloadSuite.payloadBytes()
        let compact = mustSucceed { () throws(CSEError) in try encryptor.encrypt(payload) }
        return Benchmark("jwe-decrypt/rsa\(keys.bits)") { iterations in
            repeatSinking(iterations) { mustSucceed { () throws(CSEError) in try decryptor.decrypt(compact) } }
        }
    }

    /// `RSAPublicKey.encryptOAEP(_:hash:engine:)` of a 64-byte CEK. The OAEP encoding and the seed
    /// draw are the same code for every engine, so the differences are the engines'.
    static func rsaEngine(_ keys: BenchmarkKeys, engine: RSAEngine) -> Benchmark {
        let key = keys.publicKey
        let message = Fixtures.cek
        // Both engines must produce ciphertexts OpenSSL decrypts to the message.
        let ciphertext = mustSucceed { () throws(CSEError) in try key.encryptOAEP(message, hash: .sha1, engine: engine) }
        let plain = mustSucceed { () throws(CSEError) in try keys.privateKey.decryptOAEP(ciphertext, hash: .sha1) }
        guard plain.unsafeCopyToArray() == message else { fatalError("rsa-engine setup: \(engine) round trip differs") }
        return Benchmark("rsa-engine/\(engine)/rsa\(keys.bits)") { iterations in
            repeatSinking(iterations) { mustSucceed { () throws(CSEError) in try key.encryptOAEP(message, hash: .sha1, engine: engine) } }
        }
    }
}
