import COpenSSL
import CSECore
import CSECrypto
import CSEWallets
import Foundation

/// Wallet tokens (issue #25): CSEKit's decryptors against the same steps done with plain OpenSSL
/// calls and no caching, in the same run. The tokens come from CSEKit's own test PKIs
/// (`WalletFixtures`); each clock is the token's own time.
enum WalletSuite {
    static var definitions: [Definition] {
        [
            Definition("wallet/apple-ec-v1") { _ in apple(WalletFixtures.appleECToken, WalletFixtures.appleECTokenSigningTime, "ec-v1") },
            Definition("wallet/apple-ec-v1/openssl") { _ in
                appleReference(WalletFixtures.appleECToken, WalletFixtures.appleECTokenSigningTime, "ec-v1")
            },
            Definition("wallet/apple-rsa-v1") { _ in
                apple(WalletFixtures.appleRSAToken, WalletFixtures.appleRSATokenSigningTime, "rsa-v1")
            },
            Definition("wallet/apple-rsa-v1/openssl") { _ in
                appleReference(WalletFixtures.appleRSAToken, WalletFixtures.appleRSATokenSigningTime, "rsa-v1")
            },
            Definition("wallet/google-ecv2") { _ in google() },
            Definition("wallet/google-ecv2/openssl") { _ in googleReference() },
        ]
    }

    static func apple(_ token: String, _ signingTime: Int64, _ name: String) -> Benchmark {
        let decryptor = mustSucceed { () throws(CSEError) in
            try ApplePayDecryptor(
                merchantIdentities: [
                    try ApplePayMerchantIdentity(
                        certificatePEM: WalletFixtures.appleMainCertificate, privateKeyPEM: WalletFixtures.appleMainKey),
                    try ApplePayMerchantIdentity(
                        certificatePEM: WalletFixtures.appleRsaCertificate, privateKeyPEM: WalletFixtures.appleRsaKey),
                ],
                trustedRoot: try ApplePayTrustedRoot(pemRepresentation: WalletFixtures.appleRoot),
                clock: .fixed(unixMilliseconds: signingTime * 1000))
        }
        let bytes = Array(token.utf8)
        let expected = mustSucceed { () throws(CSEError) in try decryptor.decrypt(bytes) }.decryptedJSON
        let reference = AppleReference()
        guard reference.decrypt(bytes, signingTime: signingTime) == expected.withUnsafeBytes({ Array($0) }) else {
            fatalError("wallet/apple-\(name): CSEKit and the OpenSSL reference disagree")
        }
        return Benchmark("wallet/apple-\(name)") { iterations in
            repeatSinking(iterations) { mustSucceed { () throws(CSEError) in try decryptor.decrypt(bytes) }.decryptedJSON.count }
        }
    }

    static func appleReference(_ token: String, _ signingTime: Int64, _ name: String) -> Benchmark {
        let reference = AppleReference()
        let bytes = Array(token.utf8)
        return Benchmark("wallet/apple-\(name)/openssl") { iterations in
            repeatSinking(iterations) { reference.decrypt(bytes, signingTime: signingTime).count }
        }
    }

    static func google() -> Benchmark {
        let recipient = mustSucceed { () throws(CSEError) in
            try GooglePayRecipient(
                recipientID: WalletFixtures.googleRecipient, privateKeysPEM: [WalletFixtures.googleKey],
                rootKeys: try GooglePayRootKeys(document: Array(WalletFixtures.googleRootKeys.utf8)),
                clock: .fixed(unixMilliseconds: WalletFixtures.googleClock))
        }
        let bytes = Array(WalletFixtures.googleToken.utf8)
        let expected = mustSucceed { () throws(CSEError) in try recipient.decrypt(bytes) }.plaintextString
        guard GoogleReference().decrypt(bytes) == Array(expected.utf8) else {
            fatalError("wallet/google-ecv2: CSEKit and the OpenSSL reference disagree")
        }
        return Benchmark("wallet/google-ecv2") { iterations in
            repeatSinking(iterations) { mustSucceed { () throws(CSEError) in try recipient.decrypt(bytes) }.plaintext.count }
        }
    }

    static func googleReference() -> Benchmark {
        let reference = GoogleReference()
        let bytes = Array(WalletFixtures.googleToken.utf8)
        return Benchmark("wallet/google-ecv2/openssl") { iterations in
            repeatSinking(iterations) { reference.decrypt(bytes).count }
        }
    }
}

// MARK: - Plain OpenSSL, the way a careful C program would do it, nothing cached between tokens

/// Reads a PEM private key with OpenSSL.
private func readPrivateKey(_ pem: String) -> OpaquePointer {
    let bytes = Array(pem.utf8)
    let key = bytes.withUnsafeBytes { buffer -> OpaquePointer? in
        let bio = BIO_new_mem_buf(buffer.baseAddress, Int32(buffer.count))
        defer { BIO_free(bio) }
        return PEM_read_bio_PrivateKey(bio, nil, nil, nil)
    }
    guard let key else { fatalError("reference: the private key does not read") }
    return key
}

private func readCertificate(_ pem: String) -> OpaquePointer {
    let bytes = Array(pem.utf8)
    let certificate = bytes.withUnsafeBytes { buffer -> OpaquePointer? in
        let bio = BIO_new_mem_buf(buffer.baseAddress, Int32(buffer.count))
        defer { BIO_free(bio) }
        return PEM_read_bio_X509(bio, nil, nil, nil)
    }
    guard let certificate else { fatalError("reference: the certificate does not read") }
    return certificate
}

private func base64(_ value: JSONValue?) -> [UInt8] {
    guard let text = value?.stringValue, let bytes = Data(base64Encoded: text) else { fatalError("reference: bad base64") }
    return Array(bytes)
}

private func hex(_ text: String) -> [UInt8] {
    var out: [UInt8] = []
    var index = text.startIndex
    while index < text.endIndex {
        let next = text.index(index, offsetBy: 2)
        out.append(UInt8(text[index..<next], radix: 16)!)
        index = next
    }
    return out
}

/// ECDH of `privateKey` with the SubjectPublicKeyInfo `peer`.
private func ecdh(_ privateKey: OpaquePointer, peerSPKI: [UInt8]) -> [UInt8] {
    let peer = peerSPKI.withUnsafeBufferPointer { buffer -> OpaquePointer? in
        var cursor = buffer.baseAddress
        return d2i_PUBKEY(nil, &cursor, buffer.count)
    }
    guard let peer, let ctx = EVP_PKEY_CTX_new(privateKey, nil) else { fatalError("reference: ECDH setup") }
    defer {
        EVP_PKEY_CTX_free(ctx)
        EVP_PKEY_free(peer)
    }
    var length = 32
    var secret = [UInt8](repeating: 0, count: 32)
    guard EVP_PKEY_derive_init(ctx) == 1, EVP_PKEY_derive_set_peer(ctx, peer) == 1, EVP_PKEY_derive(ctx, &secret, &length) == 1
    else { fatalError("reference: ECDH") }
    return secret
}

private func sha256(_ parts: [[UInt8]]) -> [UInt8] {
    let ctx = EVP_MD_CTX_new()
    defer { EVP_MD_CTX_free(ctx) }
    var out = [UInt8](repeating: 0, count: 32)
    EVP_DigestInit_ex(ctx, EVP_sha256(), nil)
    for part in parts { EVP_DigestUpdate(ctx, part, part.count) }
    EVP_DigestFinal_ex(ctx, &out, nil)
    return out
}

/// Apple Pay `EC_v1`/`RSA_v1` with `CMS_verify` (chain to the root, at the signing time), ECDH or
/// RSA-OAEP, the one-step KDF and AES-GCM (256-bit for EC_v1, 128-bit for RSA_v1) with a 16-byte
/// zero IV.
final class AppleReference {
    private let store: OpaquePointer
    private let ecKey: OpaquePointer
    private let rsaKey: OpaquePointer
    private let merchantHashes: [String: [UInt8]]

    init() {
        store = X509_STORE_new()
        let root = readCertificate(WalletFixtures.appleRoot)
        X509_STORE_add_cert(store, root)
        X509_free(root)
        X509_VERIFY_PARAM_set_purpose(X509_STORE_get0_param(store), X509_PURPOSE_ANY)
        ecKey = readPrivateKey(WalletFixtures.appleMainKey)
        rsaKey = readPrivateKey(WalletFixtures.appleRsaKey)
        // The merchant identifier hash: the DER UTF8String of extension 1.2.840.113635.100.6.32,
        // read once per merchant certificate (configuration, as CSEKit reads it once).
        var hashes: [String: [UInt8]] = [:]
        for (version, pem) in [("EC_v1", WalletFixtures.appleMainCertificate), ("RSA_v1", WalletFixtures.appleRsaCertificate)] {
            let certificate = readCertificate(pem)
            let oid = OBJ_txt2obj("1.2.840.113635.100.6.32", 1)
            let index = X509_get_ext_by_OBJ(certificate, oid, -1)
            let data = X509_EXTENSION_get_data(X509_get_ext(certificate, index))!
            let value = Array(UnsafeBufferPointer(start: ASN1_STRING_get0_data(data), count: Int(ASN1_STRING_length(data))))
            hashes[version] = hex(String(decoding: value.dropFirst(2), as: UTF8.self))
            ASN1_OBJECT_free(oid)
            X509_free(certificate)
        }
        merchantHashes = hashes
    }

    deinit {
        X509_STORE_free(store)
        EVP_PKEY_free(ecKey)
        EVP_PKEY_free(rsaKey)
    }

    func decrypt(_ token: [UInt8], signingTime: Int64) -> [UInt8] {
        guard let object = try? JSONValue.parse(token).objectValue, let header = object["header"]?.objectValue,
            let version = object["version"]?.stringValue, let transactionID = header["transactionId"]?.stringValue
        else { fatalError("reference: bad token") }
        let data = base64(object["data"])
        let signature = base64(object["signature"])
        let isEC = version == "EC_v1"
        let keyMaterial = isEC ? base64(header["ephemeralPublicKey"]) : base64(header["wrappedKey"])
        let content = keyMaterial + data + hex(transactionID)
        // CMS_verify: the signer's chain to the root at the signing time, then the signature.
        let cms = signature.withUnsafeBytes { buffer -> OpaquePointer? in
            let bio = BIO_new_mem_buf(buffer.baseAddress, Int32(buffer.count))
            defer { BIO_free(bio) }
            return d2i_CMS_bio(bio, nil)
        }
        guard let cms else { fatalError("reference: CMS") }
        defer { CMS_ContentInfo_free(cms) }
        X509_VERIFY_PARAM_set_time(X509_STORE_get0_param(store), time_t(signingTime))
        let verified = content.withUnsafeBytes { buffer -> Bool in
            let bio = BIO_new_mem_buf(buffer.baseAddress, Int32(buffer.count))
            defer { BIO_free(bio) }
            return CMS_verify(cms, nil, store, bio, nil, UInt32(CMS_BINARY)) == 1
        }
        guard verified else { fatalError("reference: CMS_verify failed") }
        // The symmetric key.
        let key: [UInt8]
        if isEC {
            let z = ecdh(ecKey, peerSPKI: keyMaterial)
            let algorithm: [UInt8] = [0x0D] + Array("id-aes256-GCM".utf8)
            key = sha256([[0, 0, 0, 1], z, algorithm, Array("Apple".utf8), merchantHashes["EC_v1"]!])
        } else {
            guard let ctx = EVP_PKEY_CTX_new(rsaKey, nil) else { fatalError("reference: RSA") }
            defer { EVP_PKEY_CTX_free(ctx) }
            var out = [UInt8](repeating: 0, count: 512)
            var length = out.count
            guard EVP_PKEY_decrypt_init(ctx) == 1, EVP_PKEY_CTX_set_rsa_padding(ctx, RSA_PKCS1_OAEP_PADDING) == 1,
                EVP_PKEY_CTX_set_rsa_oaep_md(ctx, EVP_sha256()) == 1, EVP_PKEY_CTX_set_rsa_mgf1_md(ctx, EVP_sha256()) == 1,
                EVP_PKEY_decrypt(ctx, &out, &length, keyMaterial, keyMaterial.count) == 1
            else { fatalError("reference: RSA-OAEP") }
            key = Array(out.prefix(length))
        }
        // AES-256-GCM, 16-byte zero IV, the tag last.
        let ciphertext = Array(data.dropLast(16)), tag = Array(data.suffix(16))
        let ctx = EVP_CIPHER_CTX_new()
        defer { EVP_CIPHER_CTX_free(ctx) }
        var plaintext = [UInt8](repeating: 0, count: ciphertext.count + 16)
        var length: Int32 = 0, final: Int32 = 0
        let iv = [UInt8](repeating: 0, count: 16)
        var mutableTag = tag
        // RSA_v1 unwraps an AES-128 key (id-aes128-GCM), EC_v1 derives an AES-256 key.
        guard EVP_DecryptInit_ex(ctx, key.count == 16 ? EVP_aes_128_gcm() : EVP_aes_256_gcm(), nil, nil, nil) == 1,
            EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_GCM_SET_IVLEN, 16, nil) == 1,
            EVP_DecryptInit_ex(ctx, nil, nil, key, iv) == 1,
            EVP_DecryptUpdate(ctx, &plaintext, &length, ciphertext, Int32(ciphertext.count)) == 1,
            EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_GCM_SET_TAG, 16, &mutableTag) == 1,
            plaintext.withUnsafeMutableBufferPointer({ EVP_DecryptFinal_ex(ctx, $0.baseAddress! + Int(length), &final) }) == 1
        else { fatalError("reference: AES-GCM") }
        return Array(plaintext.prefix(Int(length + final)))
    }
}

/// Google Pay `ECv2`: two ECDSA P-256/SHA-256 verifications (the intermediate key by a root key,
/// the message by the intermediate key), ECDH with the ephemeral point, HKDF-SHA-256, the
/// HMAC-SHA-256 tag, AES-256-CTR.
final class GoogleReference {
    private let rootKeys: [[UInt8]]
    private let privateKey: OpaquePointer
    /// The DER prefix of a P-256 SubjectPublicKeyInfo for an uncompressed point.
    private static let pointPrefix: [UInt8] = hex("3059301306072a8648ce3d020106082a8648ce3d030107034200")

    init() {
        guard let document = try? JSONValue.parse(Array(WalletFixtures.googleRootKeys.utf8)).objectValue,
            let keys = document["keys"]?.arrayValue
        else { fatalError("reference: root keys") }
        rootKeys = keys.compactMap { key in
            key["protocolVersion"]?.stringValue == "ECv2" ? base64(key["keyValue"]) : nil
        }
        privateKey = readPrivateKey(WalletFixtures.googleKey)
    }

    deinit { EVP_PKEY_free(privateKey) }

    /// Google's length-prefixed concatenation (4-byte little-endian lengths).
    private static func signedBytes(_ parts: [String]) -> [UInt8] {
        var out: [UInt8] = []
        for part in parts {
            let bytes = Array(part.utf8)
            withUnsafeBytes(of: UInt32(bytes.count).littleEndian) { out.append(contentsOf: $0) }
            out.append(contentsOf: bytes)
        }
        return out
    }

    private static func verify(_ spki: [UInt8], _ signature: [UInt8], _ message: [UInt8]) -> Bool {
        let key = spki.withUnsafeBufferPointer { buffer -> OpaquePointer? in
            var cursor = buffer.baseAddress
            return d2i_PUBKEY(nil, &cursor, buffer.count)
        }
        guard let key else { return false }
        defer { EVP_PKEY_free(key) }
        let ctx = EVP_MD_CTX_new()
        defer { EVP_MD_CTX_free(ctx) }
        return EVP_DigestVerifyInit(ctx, nil, EVP_sha256(), nil, key) == 1
            && EVP_DigestVerify(ctx, signature, signature.count, message, message.count) == 1
    }

    func decrypt(_ token: [UInt8]) -> [UInt8] {
        guard let object = try? JSONValue.parse(token).objectValue,
            let intermediate = object["intermediateSigningKey"]?.objectValue,
            let signedKey = intermediate["signedKey"]?.stringValue, let signatures = intermediate["signatures"]?.arrayValue,
            let signedMessage = object["signedMessage"]?.stringValue
        else { fatalError("reference: bad token") }
        // The intermediate signing key, signed by a root key.
        let keyBytes = Self.signedBytes(["Google", "ECv2", signedKey])
        guard signatures.contains(where: { signature in rootKeys.contains { Self.verify($0, base64(signature), keyBytes) } })
        else { fatalError("reference: intermediate signature") }
        guard let keyObject = try? JSONValue.parse(Array(signedKey.utf8)).objectValue else { fatalError("reference: signedKey") }
        // The message, signed by the intermediate key for this recipient.
        let messageBytes = Self.signedBytes(["Google", WalletFixtures.googleRecipient, "ECv2", signedMessage])
        guard Self.verify(base64(keyObject["keyValue"]), base64(object["signature"]), messageBytes) else {
            fatalError("reference: message signature")
        }
        guard let message = try? JSONValue.parse(Array(signedMessage.utf8)).objectValue else { fatalError("reference: signedMessage") }
        let ephemeral = base64(message["ephemeralPublicKey"])
        let encrypted = base64(message["encryptedMessage"])
        let tag = base64(message["tag"])
        // ECIES-KEM: ECDH, then HKDF-SHA-256 over ephemeral ‖ Z with info "Google": 64 bytes.
        let z = ecdh(privateKey, peerSPKI: Self.pointPrefix + ephemeral)
        var keys = [UInt8](repeating: 0, count: 64)
        guard let kdf = EVP_PKEY_CTX_new_id(EVP_PKEY_HKDF, nil) else { fatalError("reference: HKDF") }
        defer { EVP_PKEY_CTX_free(kdf) }
        var keysLength = 64
        let ikm = ephemeral + z
        let salt = [UInt8](repeating: 0, count: 32)
        let info = Array("Google".utf8)
        guard EVP_PKEY_derive_init(kdf) == 1, EVP_PKEY_CTX_set_hkdf_md(kdf, EVP_sha256()) == 1,
            EVP_PKEY_CTX_set1_hkdf_salt(kdf, salt, Int32(salt.count)) == 1,
            EVP_PKEY_CTX_set1_hkdf_key(kdf, ikm, Int32(ikm.count)) == 1,
            EVP_PKEY_CTX_add1_hkdf_info(kdf, info, Int32(info.count)) == 1, EVP_PKEY_derive(kdf, &keys, &keysLength) == 1
        else { fatalError("reference: HKDF") }
        // The tag, compared in constant time, before decrypting.
        var mac = [UInt8](repeating: 0, count: 32)
        var macLength = 0
        let macKey = Array(keys[32...])
        guard EVP_Q_mac(nil, "HMAC", nil, "SHA256", nil, macKey, macKey.count, encrypted, encrypted.count, &mac, 32, &macLength) != nil,
            tag.count == 32, CRYPTO_memcmp(mac, tag, 32) == 0
        else { fatalError("reference: tag") }
        // AES-256-CTR with a zero counter block.
        let ctx = EVP_CIPHER_CTX_new()
        defer { EVP_CIPHER_CTX_free(ctx) }
        var plaintext = [UInt8](repeating: 0, count: encrypted.count + 16)
        var length: Int32 = 0
        let aesKey = Array(keys[..<32])
        let iv = [UInt8](repeating: 0, count: 16)
        guard EVP_DecryptInit_ex(ctx, EVP_aes_256_ctr(), nil, aesKey, iv) == 1,
            EVP_DecryptUpdate(ctx, &plaintext, &length, encrypted, Int32(encrypted.count)) == 1
        else { fatalError("reference: AES-CTR") }
        return Array(plaintext.prefix(Int(length)))
    }
}
