internal import CSECore
internal import COpenSSL
internal import CCSEShims

/// AES (FIPS 197) in the two modes JWE content encryption uses: CBC with PKCS#7 padding (inside
/// AES_CBC_HMAC_SHA2, RFC 7518 §5.2) and GCM (RFC 7518 §5.3, NIST SP 800-38D).
///
/// Prefer ``ContentEncryptionAlgorithm``: it authenticates CBC with HMAC and checks JOSE lengths.
/// These primitives exist for it, for benchmarks and for known-answer tests.
@usableFromInline
package enum AES {
    /// The AES block size in bytes.
    package static let blockByteCount = 16
}

/// The AES key sizes, and the per-thread context slots and fetched ciphers that go with them.
enum AESKeySize {
    case bits128, bits192, bits256

    /// The key size of a key of `byteCount` bytes, or a typed error.
    @inline(__always)
    init(byteCount: Int, algorithm: @autoclosure () -> String) throws(CSEError) {
        switch byteCount {
        case 16: self = .bits128
        case 24: self = .bits192
        case 32: self = .bits256
        default: throw SymmetricError.keyLength(algorithm(), expected: "16, 24 or 32", actual: byteCount)
        }
    }

    var cbc: FetchedAlgorithm {
        switch self {
        case .bits128: SymmetricBackend.aes128CBC
        case .bits192: SymmetricBackend.aes192CBC
        case .bits256: SymmetricBackend.aes256CBC
        }
    }

    var gcm: FetchedAlgorithm {
        switch self {
        case .bits128: SymmetricBackend.aes128GCM
        case .bits192: SymmetricBackend.aes192GCM
        case .bits256: SymmetricBackend.aes256GCM
        }
    }

    func cbcSlot(encrypt: Bool) -> SymmetricThreadState.CipherSlot {
        switch self {
        case .bits128: encrypt ? .cbc128Encrypt : .cbc128Decrypt
        case .bits192: encrypt ? .cbc192Encrypt : .cbc192Decrypt
        case .bits256: encrypt ? .cbc256Encrypt : .cbc256Decrypt
        }
    }

    func gcmSlot(encrypt: Bool) -> SymmetricThreadState.CipherSlot {
        switch self {
        case .bits128: encrypt ? .gcm128Encrypt : .gcm128Decrypt
        case .bits192: encrypt ? .gcm192Encrypt : .gcm192Decrypt
        case .bits256: encrypt ? .gcm256Encrypt : .gcm256Decrypt
        }
    }
}

extension UnsafeRawBufferPointer {
    /// The bytes as the `const unsigned char *` OpenSSL's cipher calls take (`nil` when empty).
    @inline(__always)
    var uint8: UnsafePointer<UInt8>? { baseAddress?.assumingMemoryBound(to: UInt8.self) }
}

extension UnsafeMutableRawBufferPointer {
    /// The bytes as the `unsigned char *` OpenSSL's cipher calls take (`nil` when empty).
    @inline(__always)
    var uint8: UnsafeMutablePointer<UInt8>? { baseAddress?.assumingMemoryBound(to: UInt8.self) }
}
