/// C strings with static storage for OpenSSL calls that keep the pointer after returning
/// (`OSSL_ENCODER_CTX_new_for_pkey` stores its output type and structure; `EVP_PKEY_CTX` keeps its
/// key type name). A Swift string argument is only valid during the call, so those calls use these.
enum StaticCString {
    /// `"RSA"`.
    static var rsa: UnsafePointer<CChar> { pointer("RSA") }
    /// `"DER"`.
    static var der: UnsafePointer<CChar> { pointer("DER") }
    /// `"PrivateKeyInfo"` (PKCS#8).
    static var privateKeyInfo: UnsafePointer<CChar> { pointer("PrivateKeyInfo") }
    /// `"SHA256"`, OpenSSL's digest name.
    static var sha256: UnsafePointer<CChar> { pointer("SHA256") }
    /// `"HKDF"` and `"SSKDF"`, OpenSSL's KDF names.
    static var hkdf: UnsafePointer<CChar> { pointer("HKDF") }
    static var sskdf: UnsafePointer<CChar> { pointer("SSKDF") }
    /// The `OSSL_PARAM` keys of the KDFs (`OSSL_KDF_PARAM_*`).
    static var digest: UnsafePointer<CChar> { pointer("digest") }
    static var key: UnsafePointer<CChar> { pointer("key") }
    static var salt: UnsafePointer<CChar> { pointer("salt") }
    static var info: UnsafePointer<CChar> { pointer("info") }
    /// A file name for OpenSSL's allocation bookkeeping.
    static var file: UnsafePointer<CChar> { pointer("CSECrypto") }

    private static func pointer(_ string: StaticString) -> UnsafePointer<CChar> {
        UnsafeRawPointer(string.utf8Start).assumingMemoryBound(to: CChar.self)
    }
}
