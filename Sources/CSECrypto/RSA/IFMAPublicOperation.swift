internal import CSECore
internal import COpenSSL
internal import CMontgomeryIFMA
internal import CCSEShims

/// RSAEP for e = 65537 on AVX-512 IFMA: 52-bit-digit Montgomery arithmetic in zmm registers
/// (`CMontgomeryIFMA`). On the project machine `encryptOAEP` with it is 1.39× the OpenSSL engine
/// at 2048 bits and 2.43× at 4096 (Benchmarks/README.md, `rsa-engine/ifma/…`).
///
/// Coverage: on a CPU without AVX-512 IFMA no test can reach this type (keys get no IFMA
/// operation there), so `Scripts/coverage.sh` reports it uncovered on such machines; where the CPU
/// has IFMA, the OAEP vector, cross-engine and GMP differential tests run it.
///
/// Built the first time ``RSAEngine/ifma`` encrypts with a key, and only when the CPU has AVX-512 IFMA, the exponent is 65537 and the modulus
/// size has a kernel (415–4,158 bits); otherwise the key has no IFMA operation and
/// ``RSAEngine/ifma`` uses the OpenSSL one. Correctness is the same evidence as for the other
/// engines: every seeded OAEP vector, Wycheproof, jwcrypto interop and the `rsa-differential`
/// fuzz target run on it.
final class IFMAPublicOperation: RSAPublicOperation, @unchecked Sendable {
    /// Modulus digits, R² mod n digits and k0, owned here and cleared in `deinit`.
    private let key: UnsafeMutablePointer<UInt64>
    private let keyWords: Int
    private let digits: Int
    private let modulus: [UInt8]

    /// Whether this process can use the IFMA kernel at all.
    static let isAvailable: Bool = CSEIFMA_available() != 0

    /// `nil` when the CPU, the exponent or the size rules the kernel out.
    init?(modulus: [UInt8], exponent: [UInt8]) {
        let bits = RSAKeyPolicy.bitCount(modulus[...])
        let digits = CSEIFMA_digits(bits)
        guard Self.isAvailable, digits > 0, modulus.last.map({ $0 & 1 == 1 }) == true,
            exponent.drop(while: { $0 == 0 }).elementsEqual([0x01, 0x00, 0x01]),
            let rr = Self.montgomerySquare(modulus: modulus, digits: digits)
        else { return nil }
        self.digits = digits
        self.modulus = modulus
        keyWords = 2 * digits + 1
        key = .allocate(capacity: keyWords)
        key.initialize(repeating: 0, count: keyWords)
        let prepared = modulus.withUnsafeBufferPointer { n in
            rr.withUnsafeBufferPointer { r in
                CSEIFMA_prepare(key, digits, n.baseAddress, r.baseAddress, n.count)
            }
        }
        // Every stored property is set, so returning nil runs `deinit`, which clears and frees `key`.
        guard prepared == 1 else { return nil }
    }

    deinit {
        secureZero(UnsafeMutableRawBufferPointer(start: key, count: keyWords * MemoryLayout<UInt64>.size))
        key.deallocate()
    }

    func apply(_ input: UnsafeRawBufferPointer, into output: UnsafeMutableRawBufferPointer) throws(CSEError) {
        let length = modulus.count
        guard input.count == length, output.count == length,
            let inBase = input.baseAddress?.assumingMemoryBound(to: UInt8.self),
            let outBase = output.baseAddress?.assumingMemoryBound(to: UInt8.self)
        else {
            throw CSEError(.rsaOperationFailed, "the RSA input does not have the modulus length")
        }
        guard Self.isBelow(inBase, modulus, length) else {
            throw CSEError(.rsaOperationFailed, "the RSA input is not smaller than the modulus")
        }
        guard CSEIFMA_pow65537(key, digits, inBase, outBase, length) == 1 else {
            throw CSEError(.rsaOperationFailed, "the IFMA RSA kernel is unavailable")
        }
    }

    /// Big-endian `a < b` for equal lengths.
    private static func isBelow(_ a: UnsafePointer<UInt8>, _ b: [UInt8], _ length: Int) -> Bool {
        for i in 0..<length where a[i] != b[i] { return a[i] < b[i] }
        return false
    }

    /// R² mod n with R = 2^(52·digits), big-endian in the modulus length.
    private static func montgomerySquare(modulus: [UInt8], digits: Int) -> [UInt8]? {
        guard let n = try? BigNumber(bigEndian: modulus), let r = try? BigNumber(),
            let ctx = BN_CTX_new()
        else { return nil }
        defer { BN_CTX_free(ctx) }
        guard BN_set_bit(r.pointer, Int32(2 * 52 * digits)) == 1,
            BN_nnmod(r.pointer, r.pointer, n.pointer, ctx) == 1
        else {
            ERR_clear_error()
            return nil
        }
        var bytes = [UInt8](repeating: 0, count: modulus.count)
        let written = bytes.withUnsafeMutableBufferPointer { BN_bn2binpad(r.pointer, $0.baseAddress, Int32($0.count)) }
        return written == Int32(modulus.count) ? bytes : nil
    }
}
