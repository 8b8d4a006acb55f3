// `Array.withUnsafeBytes` is `rethrows`, which erases a typed `CSEError` to `any Error`. These
// wrappers carry the typed error through a `Result`, so callers keep `throws(CSEError)`.

extension Array where Element == UInt8 {
    /// `withUnsafeBytes` that preserves a typed `CSEError`.
    @inlinable
    package func withCSEBytes<R>(_ body: (UnsafeRawBufferPointer) throws(CSEError) -> R) throws(CSEError) -> R {
        let result: Result<R, CSEError> = withUnsafeBytes { buffer in
            Result { () throws(CSEError) -> R in try body(buffer) }
        }
        return try result.get()
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
