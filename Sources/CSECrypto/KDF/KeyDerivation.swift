package import CSECore
internal import COpenSSL
internal import CCSEShims

/// The key-derivation functions of the wallet formats, on SHA-256 (`LowLevelSHA256`) and the
/// HMAC of ``HMAC`` (issue #37: OpenSSL's `EVP_KDF` fetched the KDF and its digest by name and set
/// up a context for every token; the same bytes come out, checked by Wycheproof's HKDF vectors and
/// the single-step KDF's known answers in `KeyDerivationTests`).
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
        let hashBytes = 32
        do {
            // PRK, then T(i) = HMAC(PRK, T(i-1) ‖ info ‖ i), in one wiped scratch: PRK ‖ T(i).
            return try withUnsafeTemporaryAllocation(byteCount: 2 * hashBytes, alignment: 16) {
                (scratch) throws(CSEError) -> SecureBytes in
                defer { secureZero(scratch) }
                let prk = UnsafeMutableRawBufferPointer(rebasing: scratch[0..<hashBytes])
                let block = UnsafeMutableRawBufferPointer(rebasing: scratch[hashBytes...])
                prk.initializeMemory(as: UInt8.self, repeating: 0)
                try inputKeyMaterial.withUnsafeBytes { (ikm) throws(CSEError) in
                    try salt.withUnsafeBytes { saltBytes in
                        // An empty salt is HashLen zeros (§2.2): the zeroed PRK slot serves as it.
                        let key = saltBytes.isEmpty ? UnsafeRawBufferPointer(prk) : saltBytes
                        return Result { () throws(CSEError) in try HMAC.compute(.sha256, key: key, ikm, into: block.baseAddress!) }
                    }.get()
                }
                prk.copyMemory(from: UnsafeRawBufferPointer(block))
                return try SecureBytes(count: outputByteCount) { (out) throws(CSEError) in
                    var written = 0
                    var counter: UInt8 = 1
                    while written < outputByteCount {
                        let previous = UnsafeRawBufferPointer(start: block.baseAddress, count: counter == 1 ? 0 : hashBytes)
                        try info.withUnsafeBytes { infoBytes in
                            withUnsafeBytes(of: counter) { counterByte in
                                Result { () throws(CSEError) in
                                    try HMAC.compute(
                                        .sha256, key: UnsafeRawBufferPointer(prk), previous, infoBytes, counterByte,
                                        into: block.baseAddress!)
                                }
                            }
                        }.get()
                        let take = min(hashBytes, outputByteCount - written)
                        UnsafeMutableRawBufferPointer(rebasing: out[written..<(written + take)])
                            .copyMemory(from: UnsafeRawBufferPointer(rebasing: block[0..<take]))
                        written += take
                        counter &+= 1
                    }
                }
            }
        } catch {
            throw failure("HKDF-SHA-256")
        }
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
        let hashBytes = LowLevelSHA256.digestByteCount
        let contextBytes = MemoryLayout<LowLevelSHA256.Context>.stride
        // The hash state and one block, in one wiped scratch.
        return try withUnsafeTemporaryAllocation(byteCount: contextBytes + hashBytes, alignment: 16) {
            (scratch) throws(CSEError) -> SecureBytes in
            defer { secureZero(scratch) }
            let context = scratch.baseAddress!.bindMemory(to: LowLevelSHA256.Context.self, capacity: 1)
            let block = (scratch.baseAddress! + contextBytes).bindMemory(to: UInt8.self, capacity: hashBytes)
            return try SecureBytes(count: outputByteCount) { (out) throws(CSEError) in
                var written = 0
                var counter: UInt32 = 1
                while written < outputByteCount {
                    let ok = withUnsafeBytes(of: counter.bigEndian) { counterBytes in
                        sharedSecret.withUnsafeBytes { z in
                            otherInfo.withUnsafeBytes { info in
                                LowLevelSHA256.initialize(context) == 1
                                    && LowLevelSHA256.update(context, counterBytes.baseAddress, 4) == 1
                                    && LowLevelSHA256.update(context, z.baseAddress, z.count) == 1
                                    && (info.isEmpty || LowLevelSHA256.update(context, info.baseAddress, info.count) == 1)
                                    && LowLevelSHA256.finalize(context, into: block) == 1
                            }
                        }
                    }
                    guard ok else { throw failure("the single-step KDF") }
                    let take = min(hashBytes, outputByteCount - written)
                    UnsafeMutableRawPointer(out.baseAddress! + written).copyMemory(from: block, byteCount: take)
                    written += take
                    counter &+= 1
                }
            }
        }
    }

    private static func failure(_ name: String) -> CSEError {
        ERR_clear_error()
        return CSEError(.keyDerivationFailed, "\(name) failed")
    }
}
