internal import CCSEShims
public import CSECore

/// Comparisons whose running time does not depend on the content of secret data.
@usableFromInline
package enum ConstantTime {
    /// Compares two byte buffers with `CRYPTO_memcmp`. Buffers of different length are unequal,
    /// and that length check is the only data-dependent branch (lengths are public in JOSE).
    /// - Returns: `true` when both buffers hold the same bytes.
    @usableFromInline
    package static func equals(_ a: UnsafeRawBufferPointer, _ b: UnsafeRawBufferPointer) -> Bool {
        guard a.count == b.count else { return false }
        guard a.count > 0 else { return true }
        return CCSEShims_CRYPTO_memcmp(a.baseAddress!, b.baseAddress!, a.count) == 0
    }

    /// Compares two byte collections in constant time with `CRYPTO_memcmp` (contiguous ones in
    /// place). Collections of different length are unequal, and that length check is the only
    /// data-dependent branch.
    @inlinable
    package static func equals(_ a: some Collection<UInt8>, _ b: some Collection<UInt8>) -> Bool {
        // Inlinable, so the caller's collection type is specialized in its module (see
        // `RSAPublicKey.encryptOAEP(_:hash:label:engine:)`).
        withContiguousBytes(of: a) { pa in withContiguousBytes(of: b) { pb in equals(pa, pb) } }
    }
}
