internal import CSECore

/// The checks every imported RSA key passes. The structural checks always apply; the policy checks
/// (size ≥ 2048 bits, exponent ≥ 65537) are skipped only by the explicitly named `unsafe`
/// initializers, which exist for known-answer tests with small historical keys.
enum RSAKeyPolicy {
    /// The smallest modulus accepted at the public API (NIST SP 800-131A: 2048 bits).
    static let minimumBits = 2048
    /// The largest modulus accepted anywhere, bounding the cost of one operation.
    static let maximumBits = 16384
    /// The smallest modulus the `unsafe` initializers accept: enough for OAEP with SHA-1.
    static let unsafeMinimumBits = 512

    /// Checks a modulus and public exponent (big-endian magnitudes without leading zeros).
    /// - Throws: `key.malformed`, `key.tooSmall`, `key.tooLarge`, `key.badExponent`.
    static func check(modulus: ArraySlice<UInt8>, exponent: ArraySlice<UInt8>, enforcingPolicy: Bool) throws(CSEError) {
        guard let last = modulus.last, let first = modulus.first, first != 0 else {
            throw CSEError(.keyMalformed, "the RSA modulus is zero or not minimally encoded")
        }
        guard last & 1 == 1 else { throw CSEError(.keyMalformed, "the RSA modulus is even") }
        let bits = bitCount(modulus)
        guard bits <= maximumBits else {
            throw CSEError(.keyTooLarge, "the RSA modulus is too large", context: ["bits": "\(bits)", "limit": "\(maximumBits)"])
        }
        let floor = enforcingPolicy ? minimumBits : unsafeMinimumBits
        guard bits >= floor else {
            throw CSEError(.keyTooSmall, "the RSA modulus is too small", context: ["bits": "\(bits)", "minimum": "\(floor)"])
        }
        guard let eFirst = exponent.first, eFirst != 0, let eLast = exponent.last else {
            throw CSEError(.keyBadExponent, "the RSA public exponent is zero")
        }
        guard eLast & 1 == 1 else { throw CSEError(.keyBadExponent, "the RSA public exponent is even") }
        let eBits = bitCount(exponent)
        guard eBits >= 2 else { throw CSEError(.keyBadExponent, "the RSA public exponent is 1") }
        guard eBits < bits || (eBits == bits && exponent.lexicographicallyPrecedes(modulus)) else {
            throw CSEError(.keyBadExponent, "the RSA public exponent is not smaller than the modulus")
        }
        if enforcingPolicy {
            // NIST SP 800-56B §6.2.1: 2^16 < e < 2^256. For an odd e, e > 2^16 ⇔ it has ≥ 17 bits.
            guard eBits >= 17, eBits <= 256 else {
                throw CSEError(
                    .keyBadExponent, "the RSA public exponent must be at least 65537 and below 2^256",
                    context: ["bits": "\(eBits)"])
            }
        }
    }

    /// The bit length of a big-endian magnitude without leading zeros.
    static func bitCount(_ magnitude: ArraySlice<UInt8>) -> Int {
        guard let first = magnitude.first, first != 0 else { return 0 }
        return (magnitude.count - 1) * 8 + (8 - first.leadingZeroBitCount)
    }
}
