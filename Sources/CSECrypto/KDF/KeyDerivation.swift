package import CSECore
internal import COpenSSL
internal import CCSEShims

/// The key-derivation functions of the wallet formats, computed by OpenSSL 3's `EVP_KDF`.
///
/// - HKDF with SHA-256 (RFC 5869): Google Pay's ECIES-KEM (`info` = "Google").
/// - The one-step KDF of NIST SP 800-56C Rev. 2 §4.1 (option 1, H = SHA-256), OpenSSL's "SSKDF",
///   the same as the concatenation KDF of SP 800-56A §5.8.1: Apple Pay's EC_v1 symmetric key.
package enum KeyDerivation {
    /// HKDF-SHA-256 (RFC 5869 §2): Extract with `salt` (an empty salt is HashLen zeros, §2.2),
    /// then Expand with `info` to `outputByteCount` bytes.
    /// - Parameter outputByteCount: 1 to 255 · 32 = 8160 bytes (RFC 5869 §2.3).
    /// - Throws: `crypto.keyDerivationFailed` for a length out of range or an OpenSSL failure.
    package static func hkdfSHA256(
        inputKeyMaterial: SecureBytes, salt: [UInt8], info: [UInt8], outputByteCount: Int
    ) throws(CSEError) -> SecureBytes {
        guard (1...255 * 32).contains(outputByteCount) else { throw failure("HKDF-SHA-256") }
        return try derive(
            StaticCString.hkdf, name: "HKDF-SHA-256", secret: inputKeyMaterial, salt: salt, info: info,
            outputByteCount: outputByteCount)
    }

    /// The single-step KDF (NIST SP 800-56C Rev. 2 §4.1, H = SHA-256): the blocks
    /// SHA-256(counter ‖ Z ‖ otherInfo) for counter = 1, 2, … (32-bit big-endian), concatenated
    /// and cut to `outputByteCount` bytes.
    /// - Parameter outputByteCount: 1 to 2^20 bytes (far above any key; SP 800-56C allows more).
    /// - Throws: `crypto.keyDerivationFailed` for a length out of range or an OpenSSL failure.
    package static func singleStepSHA256(
        sharedSecret: SecureBytes, otherInfo: [UInt8], outputByteCount: Int
    ) throws(CSEError) -> SecureBytes {
        guard (1...(1 << 20)).contains(outputByteCount), sharedSecret.count > 0 else {
            throw failure("the single-step KDF")
        }
        return try derive(
            StaticCString.sskdf, name: "the single-step KDF", secret: sharedSecret, salt: [], info: otherInfo,
            outputByteCount: outputByteCount)
    }

    private static func derive(
        _ algorithm: UnsafePointer<CChar>, name: String, secret: SecureBytes, salt: [UInt8], info: [UInt8],
        outputByteCount: Int
    ) throws(CSEError) -> SecureBytes {
        guard let kdf = EVP_KDF_fetch(nil, algorithm, nil) else { throw failure(name) }
        let context = EVP_KDF_CTX_new(kdf)
        EVP_KDF_free(kdf)
        guard let context else { throw failure(name) }
        // EVP_KDF_CTX_free cleanses the key material the context copied.
        defer { EVP_KDF_CTX_free(context) }
        // OpenSSL wants a non-null pointer even for an empty value.
        var empty: UInt8 = 0
        var output = SecureBytes(zeros: outputByteCount)
        let derived = secret.withUnsafeBytes { secretBytes in
            salt.withUnsafeBytes { saltBytes in
                info.withUnsafeBytes { infoBytes in
                    withUnsafeMutablePointer(to: &empty) { emptyPointer in
                        func octets(_ buffer: UnsafeRawBufferPointer) -> UnsafeMutableRawPointer {
                            buffer.baseAddress.map { UnsafeMutableRawPointer(mutating: $0) }
                                ?? UnsafeMutableRawPointer(emptyPointer)
                        }
                        var parameters = [
                            OSSL_PARAM_construct_utf8_string(
                                StaticCString.digest, UnsafeMutablePointer(mutating: StaticCString.sha256), 0),
                            OSSL_PARAM_construct_octet_string(StaticCString.key, octets(secretBytes), secretBytes.count),
                            OSSL_PARAM_construct_octet_string(StaticCString.info, octets(infoBytes), infoBytes.count),
                        ]
                        if !saltBytes.isEmpty {
                            parameters.append(
                                OSSL_PARAM_construct_octet_string(StaticCString.salt, octets(saltBytes), saltBytes.count))
                        }
                        parameters.append(OSSL_PARAM_construct_end())
                        return output.withUnsafeMutableBytes { out in
                            EVP_KDF_derive(context, out.baseAddress?.assumingMemoryBound(to: UInt8.self), out.count, parameters)
                                == 1
                        }
                    }
                }
            }
        }
        guard derived else { throw failure(name) }
        return output
    }

    private static func failure(_ name: String) -> CSEError {
        ERR_clear_error()
        return CSEError(.keyDerivationFailed, "\(name) failed")
    }
}
