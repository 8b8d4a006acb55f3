/// Base16 (RFC 4648 §8): lowercase hexadecimal text, the package's one hex encoder and decoder.
@usableFromInline
package enum Base16 {
    /// The sixteen lowercase digits, indexed by nibble value.
    package static let digits: [UInt8] = Array("0123456789abcdef".utf8)

    /// Two lowercase hex digits per byte, most significant nibble first.
    @inlinable
    package static func encode(_ bytes: some Sequence<UInt8>) -> String {
        // One witness call for the storage, then a byte loop over a buffer: the generic
        // element-by-element form ran unspecialized across modules and cost ~3 µs per sealed
        // payload's 16-byte nonce (cse-bench seal-card).
        if let text = bytes.withContiguousStorageIfAvailable({ encode(buffer: UnsafeRawBufferPointer($0)) }) { return text }
        return Array(bytes).withUnsafeBytes { encode(buffer: $0) }
    }

    /// ``encode(_:)`` over raw bytes.
    @usableFromInline
    package static func encode(buffer: UnsafeRawBufferPointer) -> String {
        String(unsafeUninitializedCapacity: buffer.count * 2) { out in
            var o = 0
            for byte in buffer {
                out[o] = digits[Int(byte >> 4)]
                out[o + 1] = digits[Int(byte & 0x0F)]
                o += 2
            }
            return o
        }
    }

    /// Decodes hex text of either case; `nil` for an odd length or any non-hex character.
    @inlinable
    package static func decode(_ text: some StringProtocol) -> [UInt8]? {
        let utf8 = Array(text.utf8)
        guard utf8.count % 2 == 0 else { return nil }
        var out: [UInt8] = []
        out.reserveCapacity(utf8.count / 2)
        var i = 0
        while i < utf8.count {
            guard let high = utf8[i].asciiHexDigitValue, let low = utf8[i + 1].asciiHexDigitValue else { return nil }
            out.append(high << 4 | low)
            i += 2
        }
        return out
    }
}
