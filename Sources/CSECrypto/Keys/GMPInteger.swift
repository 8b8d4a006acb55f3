internal import CSECore
internal import CGMP
internal import CCSEShims

/// Owns one GMP `mpz_t` at a stable heap address. Its limbs are zeroed before `__gmpz_clear`.
/// Immutable after construction, so GMP only reads it (as the modulus or exponent of `mpz_powm`).
final class GMPInteger: @unchecked Sendable {
    let pointer: UnsafeMutablePointer<__mpz_struct>

    /// Creates an integer from big-endian magnitude bytes.
    init(bigEndian bytes: some Collection<UInt8>) {
        pointer = .allocate(capacity: 1)
        __gmpz_init(pointer)
        let array = Array(bytes)
        array.withUnsafeBytes { buffer in
            if let base = buffer.baseAddress {
                // order 1: most significant word first; size 1 byte; endian 1 (unused for bytes); no nails.
                __gmpz_import(pointer, buffer.count, 1, 1, 1, 0, base)
            }
        }
    }

    deinit {
        GMPInteger.wipe(pointer)
        __gmpz_clear(pointer)
        pointer.deallocate()
    }

    /// Zeroes the allocated limbs of `value` and sets it to 0.
    static func wipe(_ value: UnsafeMutablePointer<__mpz_struct>) {
        let limbs = Int(value.pointee._mp_alloc)
        if limbs > 0, let data = value.pointee._mp_d {
            secureZero(UnsafeMutableRawBufferPointer(start: data, count: limbs * MemoryLayout<mp_limb_t>.size))
        }
        value.pointee._mp_size = 0
    }
}
