#if canImport(Glibc)
public import Glibc
#elseif canImport(Musl)
public import Musl
#endif

/// Overwrites `bytes` with zeros with `explicit_bzero`, which the optimiser may not remove even
/// when the array is never read again (a plain loop of stores may be dropped as dead). Use it for
/// every secret held in a plain array: card input, phrases, decoded keys. The array keeps its count.
@inlinable
package func secureZero(_ bytes: inout [UInt8]) {
    bytes.withUnsafeMutableBytes { secureZero($0) }
}

/// Overwrites the memory of `buffer` with zeros with `explicit_bzero` (see `secureZero(_:)`).
@inlinable
package func secureZero(_ buffer: UnsafeMutableRawBufferPointer) {
    guard let base = buffer.baseAddress, buffer.count > 0 else { return }
    explicit_bzero(base, buffer.count)
}
