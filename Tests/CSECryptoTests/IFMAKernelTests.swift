@testable import CSECrypto
import CSECore
import Testing
import TestSupport

/// The AVX-512 IFMA kernel (`RSAEngine.ifma`) against GMP's `mpz_powm` on the same inputs: every
/// size class the kernel has (2 to 10 zmm registers per number), the sizes at the edges of each
/// class, and the inputs where carries and the final subtraction matter.
@Suite(
    "IFMA kernel: m^65537 mod n agrees with GMP",
    .enabled(if: RSAEngine.isIFMAAvailable, "this CPU has no AVX-512 IFMA; RSAEngine.ifma is the OpenSSL engine here"))
struct IFMAKernelTests {
    /// Sizes at both ends of each register class (R = 2^(416·NZ) must exceed 4n) and the usual ones.
    static let sizes = [512, 830, 831, 1024, 1246, 1247, 1536, 2047, 2048, 2049, 2078, 2079, 3072, 3742, 3743, 4096, 4158]

    /// A random odd modulus of exactly `bits` bits: Montgomery arithmetic needs odd n, not a prime.
    static func modulus(bits: Int, rng: inout SplitMix64) -> [UInt8] {
        var bytes = (0..<(bits + 7) / 8).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
        let topBits = bits - (bytes.count - 1) * 8
        bytes[0] = bytes[0] & UInt8((1 << topBits) - 1) | UInt8(1 << (topBits - 1))
        bytes[bytes.count - 1] |= 1
        return bytes
    }

    static func inputs(for n: [UInt8], rng: inout SplitMix64) -> [[UInt8]] {
        let k = n.count
        var nMinusOne = n
        nMinusOne[k - 1] -= 1  // n is odd
        var all: [[UInt8]] = [
            [UInt8](repeating: 0, count: k),
            [UInt8](repeating: 0, count: k - 1) + [1],
            [UInt8](repeating: 0, count: k - 1) + [2],
            nMinusOne,
            [0] + [UInt8](repeating: 0xFF, count: k - 1),
        ]
        for _ in 0..<40 {
            var x = (0..<k).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
            x[0] = n[0] == 0 ? 0 : x[0] % n[0]
            all.append(x)
        }
        return all.filter { $0.lexicographicallyPrecedes(n) }
    }

    @Test("random odd moduli of every size class and edge size, edge and random inputs", arguments: sizes)
    func agreesWithGMP(bits: Int) throws {
        var rng = SplitMix64(seed: UInt64(bits))
        for _ in 0..<3 {
            let n = Self.modulus(bits: bits, rng: &rng)
            let key = try RSAPublicKey(unsafeModulus: n, exponent: [0x01, 0x00, 0x01])
            #expect(key.hasIFMAKernel, "\(bits) bits")
            for input in Self.inputs(for: n, rng: &rng) {
                var viaIFMA = [UInt8](repeating: 0xEE, count: n.count), viaGMP = viaIFMA
                try input.withUnsafeBytes { i in
                    try viaIFMA.withUnsafeMutableBytes { try key.publicOperation(.ifma).apply(i, into: $0) }
                    try viaGMP.withUnsafeMutableBytes { try key.publicOperation(.gmp).apply(i, into: $0) }
                }
                #expect(viaIFMA == viaGMP, "\(bits) bits, n = \(Hex.encode(n)), m = \(Hex.encode(input))")
            }
        }
    }

    @Test("the kernel is not built where it does not apply: e ≠ 65537, or more than 4,158 bits")
    func coverage() throws {
        var rng = SplitMix64(seed: 7)
        let n2048 = Self.modulus(bits: 2048, rng: &rng)
        #expect(try RSAPublicKey(unsafeModulus: n2048, exponent: [0x03]).hasIFMAKernel == false)
        #expect(try RSAPublicKey(unsafeModulus: n2048, exponent: [0x01, 0x00, 0x03]).hasIFMAKernel == false)
        #expect(try RSAPublicKey(unsafeModulus: Self.modulus(bits: 4159, rng: &rng), exponent: [0x01, 0x00, 0x01]).hasIFMAKernel == false)
        #expect(try RSAPublicKey(unsafeModulus: Self.modulus(bits: 8192, rng: &rng), exponent: [0x01, 0x00, 0x01]).hasIFMAKernel == false)
    }

    @Test("the default engine is the IFMA one on this CPU")
    func defaultEngine() {
        #expect(RSAEngine.default == .ifma)
    }

    @Test("inputs not below the modulus are refused, as by the other engines")
    func inputRange() throws {
        let key = GeneratedKeys.rsa2048.publicKey
        #expect(key.hasIFMAKernel)
        var out = [UInt8](repeating: 0, count: key.byteCount)
        #expect(throws: CSEError(.rsaOperationFailed, "")) {
            try key.modulus.withUnsafeBytes { i in try out.withUnsafeMutableBytes { try key.publicOperation(.ifma).apply(i, into: $0) } }
        }
    }
}
