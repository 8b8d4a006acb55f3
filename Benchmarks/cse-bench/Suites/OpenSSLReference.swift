import COpenSSL
import CCSEShims
import CSECore
import CSECrypto

/// The in-run references: OpenSSL called directly, the way a careful C program would.
///
/// `EVP_PKEY_encrypt` with RSA-OAEP (SHA-1, MGF1-SHA-1, empty label) on one reused `EVP_PKEY_CTX`
/// and `EVP_PKEY_decrypt` likewise. Nothing of CSEKit is on these paths, so they measure "what
/// OpenSSL's own OAEP call costs" on this machine, in this run.
final class OpenSSLOAEP {
    /// The `EVP_PKEY` (a private key also serves public operations).
    private let key: OpaquePointer
    private let encryptContext: OpaquePointer
    private let decryptContext: OpaquePointer
    let byteCount: Int

    /// Imports the key from the PKCS#8 DER CSEKit exports, so both sides use the same modulus.
    init(privateKeyDER der: [UInt8]) {
        var consumed = 0
        guard let raw = der.withUnsafeBytes({ CCSEShims_d2i_PrivateKey(CCSEShims_EVP_PKEY_RSA(), $0.baseAddress, $0.count, &consumed) })
        else {
            fatalError("OpenSSL could not import the benchmark key")
        }
        key = OpaquePointer(raw)
        byteCount = Int(EVP_PKEY_get_size(key))
        encryptContext = Self.context(key, encrypt: true)
        decryptContext = Self.context(key, encrypt: false)
    }

    deinit {
        EVP_PKEY_CTX_free(encryptContext)
        EVP_PKEY_CTX_free(decryptContext)
        EVP_PKEY_free(key)
    }

    private static func context(_ key: OpaquePointer, encrypt: Bool) -> OpaquePointer {
        guard let ctx = EVP_PKEY_CTX_new_from_pkey(nil, key, nil),
            (encrypt ? EVP_PKEY_encrypt_init(ctx) : EVP_PKEY_decrypt_init(ctx)) == 1,
            EVP_PKEY_CTX_set_rsa_padding(ctx, RSA_PKCS1_OAEP_PADDING) == 1,
            EVP_PKEY_CTX_set_rsa_oaep_md(ctx, EVP_sha1()) == 1,
            EVP_PKEY_CTX_set_rsa_mgf1_md(ctx, EVP_sha1()) == 1
        else { fatalError("OpenSSL could not set up an RSA-OAEP context") }
        return ctx
    }

    /// One `EVP_PKEY_encrypt` of `message` into `out` (k bytes). Returns the ciphertext length.
    @inline(__always)
    func encrypt(_ message: UnsafeRawBufferPointer, into out: UnsafeMutableRawBufferPointer) -> Int {
        var length = out.count
        guard
            EVP_PKEY_encrypt(
                encryptContext, out.baseAddress!.assumingMemoryBound(to: UInt8.self), &length,
                message.baseAddress!.assumingMemoryBound(to: UInt8.self), message.count) == 1
        else { fatalError("EVP_PKEY_encrypt failed") }
        return length
    }

    /// One `EVP_PKEY_decrypt` of `ciphertext` into `out`. Returns the plaintext length.
    @inline(__always)
    func decrypt(_ ciphertext: UnsafeRawBufferPointer, into out: UnsafeMutableRawBufferPointer) -> Int {
        var length = out.count
        guard
            EVP_PKEY_decrypt(
                decryptContext, out.baseAddress!.assumingMemoryBound(to: UInt8.self), &length,
                ciphertext.baseAddress!.assumingMemoryBound(to: UInt8.self), ciphertext.count) == 1
        else { fatalError("EVP_PKEY_decrypt failed") }
        return length
    }
}

/// Generates an RSA key with OpenSSL (e = 65537) and returns it as PKCS#8 DER.
func generateRSAPrivateKeyDER(bits: Int) -> [UInt8] {
    guard let ctx = EVP_PKEY_CTX_new_from_name(nil, "RSA", nil) else { fatalError("EVP_PKEY_CTX_new_from_name") }
    defer { EVP_PKEY_CTX_free(ctx) }
    var key: OpaquePointer?
    guard EVP_PKEY_keygen_init(ctx) == 1, EVP_PKEY_CTX_set_rsa_keygen_bits(ctx, Int32(bits)) == 1,
        EVP_PKEY_generate(ctx, &key) == 1, let key
    else { fatalError("RSA key generation failed") }
    defer { EVP_PKEY_free(key) }
    guard let info = EVP_PKEY2PKCS8(key) else { fatalError("EVP_PKEY2PKCS8") }
    defer { PKCS8_PRIV_KEY_INFO_free(info) }
    var buffer: UnsafeMutablePointer<UInt8>?
    let length = i2d_PKCS8_PRIV_KEY_INFO(info, &buffer)
    guard length > 0, let buffer else { fatalError("i2d_PKCS8_PRIV_KEY_INFO") }
    defer { CCSEShims_OPENSSL_clear_free(buffer, Int(length)) }
    return Array(UnsafeBufferPointer(start: buffer, count: Int(length)))
}

enum OpenSSLInfo {
    /// `OpenSSL 3.0.x …` as the library reports it.
    static var version: String { String(cString: OpenSSL_version(OPENSSL_VERSION)) }
}

/// OpenSSL's own SubjectPublicKeyInfo import (`d2i_PUBKEY`), freed at once: the key-import reference.
/// - Returns: whether OpenSSL accepted the DER.
func decodeSubjectPublicKeyInfo(_ der: [UInt8]) -> Bool {
    der.withUnsafeBufferPointer { buffer in
        var cursor = buffer.baseAddress
        guard let key = d2i_PUBKEY(nil, &cursor, buffer.count) else { return false }
        EVP_PKEY_free(key)
        return true
    }
}
