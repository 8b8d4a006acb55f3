public import CSECore
internal import CCSEShims

/// Randomness from OpenSSL's CSPRNG (`RAND_bytes`). A failure is an error for that call; CSEKit
/// never falls back to a weaker source.
///
/// Draws of up to 512 bytes are served from a per-thread block of `RAND_bytes` output
/// (`RandomPool`: fork-safe, cleansed as served, failing closed); larger draws call `RAND_bytes`
/// directly.
package enum SecureRandom {
    /// Fills `buffer` from the CSPRNG.
    /// - Throws: ``CSEError/Code/randomFailure`` when OpenSSL reports a failure.
    package static func fill(_ buffer: UnsafeMutableRawBufferPointer) throws(CSEError) {
        guard buffer.count > 0 else { return }
        if buffer.count <= RandomPool.largestPooledDraw {
            do throws(CSEError) {
                try RandomPool.current().fill(buffer)
            } catch {
                secureZero(UnsafeMutableRawBufferPointer(start: buffer.baseAddress!, count: buffer.count))
                throw error
            }
            return
        }
        guard CCSEShims_RAND_bytes(buffer.baseAddress!, buffer.count) == 1 else {
            secureZero(UnsafeMutableRawBufferPointer(start: buffer.baseAddress!, count: buffer.count))
            throw CSEError(.randomFailure, "OpenSSL RAND_bytes failed; refusing to continue without a CSPRNG")
        }
    }

    /// `count` random bytes in an ordinary array (for public values such as IVs and nonces).
    package static func bytes(_ count: Int) throws(CSEError) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: count)
        var failure: CSEError?
        out.withUnsafeMutableBytes { buffer in
            do throws(CSEError) { try fill(buffer) } catch { failure = error }
        }
        if let failure { throw failure }
        return out
    }

    /// A version-4 UUID (RFC 9562 §5.4) from the CSPRNG, in lower case: `xxxxxxxx-xxxx-4xxx-yxxx-xxxxxxxxxxxx`.
    /// - Throws: ``CSEError/Code/randomFailure`` when OpenSSL reports a failure.
    package static func uuidV4() throws(CSEError) -> String {
        var b = try bytes(16)
        b[6] = b[6] & 0x0F | 0x40
        b[8] = b[8] & 0x3F | 0x80
        let c = Array(Base16.encode(b))
        return String(c[0..<8]) + "-" + String(c[8..<12]) + "-" + String(c[12..<16]) + "-" + String(c[16..<20]) + "-" + String(c[20..<32])
    }

    /// `count` random bytes in a zeroing buffer (for keys and CEKs).
    package static func secureBytes(_ count: Int) throws(CSEError) -> SecureBytes {
        try SecureBytes(count: count) { (buffer) throws(CSEError) in try fill(buffer) }
    }
}
