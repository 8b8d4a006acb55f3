// The standard library's `withUnsafeBytes` and `withContiguousStorageIfAvailable` are `rethrows`,
// which erases a typed error to `any Error`. These helpers carry the typed error through a
// `Result`, once, so callers keep `throws(CSEError)`.

/// Calls `body` with the bytes of `bytes` as one contiguous buffer: the collection's own storage
/// when it has one (`[UInt8]`, `ArraySlice`, `Data`, a native `String.UTF8View`, buffer pointers),
/// otherwise a temporary copy that is zeroed after `body` returns (the bytes may be a secret).
///
/// This is the one fast path behind every public `some Collection<UInt8>` input in CSEKit.
@inlinable
package func withContiguousBytes<R, E: Error>(
    of bytes: some Collection<UInt8>, _ body: (UnsafeRawBufferPointer) throws(E) -> R
) throws(E) -> R {
    let direct: Result<R, E>? = bytes.withContiguousStorageIfAvailable { buffer in
        Result { () throws(E) -> R in try body(UnsafeRawBufferPointer(buffer)) }
    }
    if let direct { return try direct.get() }
    var copy = Array(bytes)
    defer { secureZero(&copy) }
    let copied: Result<R, E> = copy.withUnsafeBytes { buffer in
        Result { () throws(E) -> R in try body(buffer) }
    }
    return try copied.get()
}

extension Array where Element == UInt8 {
    /// `withUnsafeBytes` that preserves a typed `CSEError`.
    @inlinable
    package func withCSEBytes<R>(_ body: (UnsafeRawBufferPointer) throws(CSEError) -> R) throws(CSEError) -> R {
        try withContiguousBytes(of: self, body)
    }

    /// `withUnsafeMutableBytes` that preserves a typed `CSEError`.
    @inlinable
    package mutating func withCSEMutableBytes<R>(
        _ body: (UnsafeMutableRawBufferPointer) throws(CSEError) -> R
    ) throws(CSEError) -> R {
        let result: Result<R, CSEError> = withUnsafeMutableBytes { buffer in
            Result { () throws(CSEError) -> R in try body(buffer) }
        }
        return try result.get()
    }
}
