internal import COpenSSL
internal import CCSEShims

/// One hash function of OpenSSL's low-level SHA API (FIPS 180-4), reached through the CCSEShims
/// forwarders (the API is deprecated in OpenSSL 3, so Swift does not call it directly).
///
/// MGF1 (RFC 8017 §B.2.1) and HMAC (RFC 2104) run on it rather than on `EVP_MD_CTX`: it is the same
/// compression assembly without EVP's provider dispatch on every init, update and final, and a
/// context is a plain C struct, so a midstate is copied with one `memcpy` (measured on the project
/// machine: 47 ns against 87 ns per SHA-1 MGF1 block; 20.6k against 22.7k instructions per
/// HMAC-SHA-512 JWE tag).
///
/// Contexts hold data derived from secrets: callers keep them in scratch memory they wipe with
/// `secureZero` before returning, never in Swift values the compiler may copy. Every function
/// returns OpenSSL's 1 on success and 0 on failure.
protocol LowLevelSHA {
    /// `SHA_CTX`, `SHA256_CTX` or `SHA512_CTX`.
    associatedtype Context
    /// The digest length in bytes (hLen of RFC 8017, L of RFC 2104).
    static var digestByteCount: Int { get }
    /// The input block length in bytes (B of RFC 2104).
    static var blockByteCount: Int { get }
    /// `SHAxxx_Init`: starts a hash in `context`.
    static func initialize(_ context: UnsafeMutablePointer<Context>) -> Int32
    /// `SHAxxx_Update`: absorbs `count` bytes at `data` (which may be `nil` when `count` is 0).
    static func update(_ context: UnsafeMutablePointer<Context>, _ data: UnsafeRawPointer?, _ count: Int) -> Int32
    /// `SHAxxx_Final`: writes the ``digestByteCount``-byte digest to `digest`.
    static func finalize(_ context: UnsafeMutablePointer<Context>, into digest: UnsafeMutablePointer<UInt8>) -> Int32
}

/// SHA-1 (FIPS 180-4 §6.1) on `SHA_CTX`.
enum LowLevelSHA1: LowLevelSHA {
    static var digestByteCount: Int { 20 }
    static var blockByteCount: Int { 64 }
    @inline(__always)
    static func initialize(_ context: UnsafeMutablePointer<SHA_CTX>) -> Int32 { CCSEShims_SHA1_Init(context) }
    @inline(__always)
    static func update(_ context: UnsafeMutablePointer<SHA_CTX>, _ data: UnsafeRawPointer?, _ count: Int) -> Int32 {
        CCSEShims_SHA1_Update(context, data, count)
    }
    @inline(__always)
    static func finalize(_ context: UnsafeMutablePointer<SHA_CTX>, into digest: UnsafeMutablePointer<UInt8>) -> Int32 {
        CCSEShims_SHA1_Final(digest, context)
    }
}

/// SHA-256 (FIPS 180-4 §6.2) on `SHA256_CTX`.
enum LowLevelSHA256: LowLevelSHA {
    static var digestByteCount: Int { 32 }
    static var blockByteCount: Int { 64 }
    @inline(__always)
    static func initialize(_ context: UnsafeMutablePointer<SHA256_CTX>) -> Int32 { CCSEShims_SHA256_Init(context) }
    @inline(__always)
    static func update(_ context: UnsafeMutablePointer<SHA256_CTX>, _ data: UnsafeRawPointer?, _ count: Int) -> Int32 {
        CCSEShims_SHA256_Update(context, data, count)
    }
    @inline(__always)
    static func finalize(_ context: UnsafeMutablePointer<SHA256_CTX>, into digest: UnsafeMutablePointer<UInt8>) -> Int32 {
        CCSEShims_SHA256_Final(digest, context)
    }
}

/// SHA-384 (FIPS 180-4 §6.5) on `SHA512_CTX`.
enum LowLevelSHA384: LowLevelSHA {
    static var digestByteCount: Int { 48 }
    static var blockByteCount: Int { 128 }
    @inline(__always)
    static func initialize(_ context: UnsafeMutablePointer<SHA512_CTX>) -> Int32 { CCSEShims_SHA384_Init(context) }
    @inline(__always)
    static func update(_ context: UnsafeMutablePointer<SHA512_CTX>, _ data: UnsafeRawPointer?, _ count: Int) -> Int32 {
        CCSEShims_SHA384_Update(context, data, count)
    }
    @inline(__always)
    static func finalize(_ context: UnsafeMutablePointer<SHA512_CTX>, into digest: UnsafeMutablePointer<UInt8>) -> Int32 {
        CCSEShims_SHA384_Final(digest, context)
    }
}

/// SHA-512 (FIPS 180-4 §6.4) on `SHA512_CTX`.
enum LowLevelSHA512: LowLevelSHA {
    static var digestByteCount: Int { 64 }
    static var blockByteCount: Int { 128 }
    @inline(__always)
    static func initialize(_ context: UnsafeMutablePointer<SHA512_CTX>) -> Int32 { CCSEShims_SHA512_Init(context) }
    @inline(__always)
    static func update(_ context: UnsafeMutablePointer<SHA512_CTX>, _ data: UnsafeRawPointer?, _ count: Int) -> Int32 {
        CCSEShims_SHA512_Update(context, data, count)
    }
    @inline(__always)
    static func finalize(_ context: UnsafeMutablePointer<SHA512_CTX>, into digest: UnsafeMutablePointer<UInt8>) -> Int32 {
        CCSEShims_SHA512_Final(digest, context)
    }
}
