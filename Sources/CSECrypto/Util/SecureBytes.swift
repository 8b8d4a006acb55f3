internal import CSECore
internal import CCSEShims

/// A fixed-size byte buffer for secrets (CEKs, MAC and encryption keys, key material, plaintext
/// copies) that is zeroed with `secureZero` (`explicit_bzero`, the one zeroing function) when its
/// last reference goes away.
///
/// `SecureBytes` is a value type with reference storage. Copies share storage until one of them is
/// mutated (copy-on-write), so a secret is not duplicated in memory by passing it around.
public struct SecureBytes: Sendable {
    @usableFromInline
    final class Storage: @unchecked Sendable {
        // Invariant: `pointer` owns `count` initialised bytes for the lifetime of the object.
        @usableFromInline let pointer: UnsafeMutableRawPointer
        @usableFromInline let count: Int

        init(count: Int) {
            self.count = count
            self.pointer = UnsafeMutableRawPointer.allocate(byteCount: Swift.max(count, 1), alignment: 16)
            self.pointer.initializeMemory(as: UInt8.self, repeating: 0, count: Swift.max(count, 1))
        }

        deinit {
            secureZero(UnsafeMutableRawBufferPointer(start: pointer, count: Swift.max(count, 1)))
            pointer.deallocate()
        }
    }

    @usableFromInline var storage: Storage

    /// Creates `count` zero bytes.
    package init(zeros count: Int) {
        precondition(count >= 0, "SecureBytes count must not be negative")
        storage = Storage(count: count)
    }

    /// Copies `bytes` into a new zeroing buffer. The caller remains responsible for its own copy.
    public init(_ bytes: some Collection<UInt8>) {
        storage = Storage(count: bytes.count)
        let buffer = UnsafeMutableRawBufferPointer(start: storage.pointer, count: storage.count)
        buffer.copyBytes(from: bytes)
    }

    /// Creates a buffer of `count` bytes filled by `initializer`, for example from the CSPRNG.
    public init<E: Error>(
        count: Int, initializingWith initializer: (UnsafeMutableRawBufferPointer) throws(E) -> Void
    ) throws(E) {
        storage = Storage(count: count)
        try initializer(UnsafeMutableRawBufferPointer(start: storage.pointer, count: count))
    }

    /// The number of bytes.
    public var count: Int { storage.count }

    /// Calls `body` with the bytes. Do not let the pointer escape.
    @inlinable
    public func withUnsafeBytes<R, E: Error>(_ body: (UnsafeRawBufferPointer) throws(E) -> R) throws(E) -> R {
        try body(UnsafeRawBufferPointer(start: storage.pointer, count: storage.count))
    }

    /// Calls `body` with mutable bytes, copying first if the storage is shared.
    package mutating func withUnsafeMutableBytes<R, E: Error>(
        _ body: (UnsafeMutableRawBufferPointer) throws(E) -> R
    ) throws(E) -> R {
        if !isKnownUniquelyReferenced(&storage) {
            let copy = Storage(count: storage.count)
            copy.pointer.copyMemory(from: storage.pointer, byteCount: storage.count)
            storage = copy
        }
        return try body(UnsafeMutableRawBufferPointer(start: storage.pointer, count: storage.count))
    }

    /// A non-zeroing copy of the bytes, for handing a *non-secret* result (such as a decrypted
    /// plaintext the caller asked for) out of the secure world. Use sparingly.
    public func unsafeCopyToArray() -> [UInt8] {
        withUnsafeBytes { Array($0) }
    }

    /// A sub-range copied into a new zeroing buffer.
    package func slice(_ range: Range<Int>) -> SecureBytes {
        precondition(range.lowerBound >= 0 && range.upperBound <= count, "SecureBytes slice out of range")
        return withUnsafeBytes { SecureBytes(UnsafeRawBufferPointer(rebasing: $0[range])) }
    }
}

extension SecureBytes: Equatable {
    /// Constant-time equality: the comparison time depends only on the lengths.
    public static func == (lhs: SecureBytes, rhs: SecureBytes) -> Bool {
        lhs.withUnsafeBytes { a in rhs.withUnsafeBytes { b in ConstantTime.equals(a, b) } }
    }
}

extension SecureBytes: CustomStringConvertible, CustomDebugStringConvertible {
    /// Never shows the bytes.
    public var description: String { "SecureBytes(\(count) bytes)" }
    /// Never shows the bytes.
    public var debugDescription: String { description }
}
