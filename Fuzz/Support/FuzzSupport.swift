// Shared by every fuzz target: compiled into each target's executable by Scripts/fuzz.sh.

/// Stops the fuzzer with a crash report naming the broken invariant. libFuzzer records the
/// input that caused it under the artifact prefix.
@inline(never)
func require(_ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String) {
    if !condition() { fatalError("fuzz invariant broken: \(message())") }
}

/// A cursor over one fuzz input that hands out selector bytes and separator-delimited fields.
struct FuzzInput {
    private(set) var bytes: ArraySlice<UInt8>

    init(_ data: UnsafePointer<UInt8>?, _ size: Int) {
        bytes = size > 0 && data != nil ? Array(UnsafeBufferPointer(start: data, count: size))[...] : []
    }

    /// The next byte, or 0 when the input is used up.
    mutating func byte() -> UInt8 {
        guard let first = bytes.first else { return 0 }
        bytes = bytes.dropFirst()
        return first
    }

    /// The bytes up to (not including) the next `separator`, which is consumed; all the rest
    /// when there is none.
    mutating func field(separator: UInt8 = 0) -> [UInt8] {
        if let index = bytes.firstIndex(of: separator) {
            let field = Array(bytes[..<index])
            bytes = bytes[(index + 1)...]
            return field
        }
        defer { bytes = [] }
        return Array(bytes)
    }

    /// Everything not consumed yet.
    mutating func rest() -> [UInt8] {
        defer { bytes = [] }
        return Array(bytes)
    }
}

/// Text from fuzz bytes: invalid UTF-8 is repaired (U+FFFD), as a String from the network would be.
func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }
