@testable import CSECrypto
import CSECore
import Testing
import TestSupport

/// MGF1 (RFC 8017 §B.2.1) on its own, for all four hashes, against masks computed by an independent
/// implementation: Python's hashlib, by the RFC's definition (T ‖= Hash(seed ‖ I2OSP(counter, 4))
/// for counter = 0, 1, …, truncated to maskLen), with seed[i] = i mod 256:
///
///     def mgf1(h, seed, n):
///         out, c = b"", 0
///         while len(out) < n:
///             out += hashlib.new(h, seed + c.to_bytes(4, "big")).digest(); c += 1
///         return out[:n]
///
/// The cases cover an empty seed, a partial last block (107 bytes), and a 235-byte seed (the DB of a
/// 2048-bit OAEP block with SHA-1) spanning several hash blocks before the midstate is taken.
struct MGF1Case: Sendable, CustomTestStringConvertible {
    let hash: DigestAlgorithm
    let seedLength: Int
    let mask: String

    var testDescription: String { "MGF1-\(hash.name), \(seedLength)-byte seed, \(mask.count / 2)-byte mask" }

    static let all: [MGF1Case] = [
        MGF1Case(hash: .sha1, seedLength: 0, mask: "9069ca78e7"),
        MGF1Case(
            hash: .sha1, seedLength: 20,
            mask: "028553d821db1e8d1bc66ba574c0e3103105293199f37263a574171d607880917aefcf642294b08b982711c0fa68f6485f62c73054ab"
                + "50a0c756695e2a53bd585a81948527ecf015614f8bbe3e96feaa86894fd543fb37ca4ca358ca98880783dd07a56fdbe4be7dd44f45"),
        MGF1Case(hash: .sha1, seedLength: 235, mask: "310d245f274ab1c612ce908e6aaacf8a02f09f57"),
        MGF1Case(hash: .sha256, seedLength: 0, mask: "df3f619804"),
        MGF1Case(
            hash: .sha256, seedLength: 20,
            mask: "4e28bae1afb369dc4acfeea5e8568cdffd25cca5975eedad2f362dda26afcd0db67b9cbd115437869c4b1fe5f7329c8ab3cad8ec5b"
                + "d482eda6f804621544db4a31c0671cb4716ca44e178848e46755898a286fd932cc0c2b7b489b16c46802688ce7498c231610c53fc878"),
        MGF1Case(hash: .sha256, seedLength: 235, mask: "ce1f9753d16382f5dacfd08415eca70cf7780669ff05a5bce9f11ed6ae6d2886"),
        MGF1Case(hash: .sha384, seedLength: 0, mask: "394341b718"),
        MGF1Case(
            hash: .sha384, seedLength: 20,
            mask: "8069bd9aed7a22d603221efe0b369c5bf3ad2dca707b210fe58b3357b3a79b0efda3e8d43424eaedb4775c3c07c028fc5079f5e4ac"
                + "054bf1b44a0e97dd7a938f44f74af8cc7f3c395b66b9eeaaaceb910b85cbb4715a69e95e74931f41311465f477827762bb5e2f5606c6"),
        MGF1Case(
            hash: .sha384, seedLength: 235,
            mask: "cc0a1d69697faa2a2cbba4365ef98e1b8923cdb8f88469899887ad44c5cb5187d7f5cb5ee21a9090f058e32b54f389e9"),
        MGF1Case(hash: .sha512, seedLength: 0, mask: "ec2d57691d"),
        MGF1Case(
            hash: .sha512, seedLength: 20,
            mask: "0663db5cd797d240017eefd01da9b7fb96f5811776304bee82804a670e8391f19df3f05a88f33285e4d540dedf091a935613ab0b8c"
                + "a439806bee334bb90d22117b450e31ce5106d512f27b543f9afd55f09c0d0fc56c9425984492de884f3e4045e3648713ba77aedb1bd6"),
        MGF1Case(
            hash: .sha512, seedLength: 235,
            mask: "67513315ef99e905ecd983115df678b4b69d2cac31937099d5f41d320a4cc36c911f105f60e723962a4675aa122d1707b0d64f8e3f"
                + "0179dd3a0f891039dafdae"),
    ]
}

@Suite("MGF1 known answers (RFC 8017 §B.2.1)")
struct MGF1KnownAnswerTests {
    @Test("MGF1 XORs the independently computed mask into the target", arguments: MGF1Case.all)
    func knownAnswer(vector: MGF1Case) throws {
        let seed = (0..<vector.seedLength).map { UInt8(truncatingIfNeeded: $0) }
        let mask = Hex.decode(vector.mask)
        // Into zeros: the mask itself.
        var target = [UInt8](repeating: 0, count: mask.count)
        try seed.withUnsafeBytes { s in
            try target.withUnsafeMutableBytes { try OAEPEncoding.xorMGF1(hash: vector.hash, seed: s, into: $0) }
        }
        #expect(Hex.encode(target) == vector.mask)
        // Into other bytes: XORed, not written over.
        let filler = (0..<mask.count).map { UInt8(truncatingIfNeeded: 0xA5 &+ $0 &* 3) }
        target = filler
        try seed.withUnsafeBytes { s in
            try target.withUnsafeMutableBytes { try OAEPEncoding.xorMGF1(hash: vector.hash, seed: s, into: $0) }
        }
        #expect(target == zip(filler, mask).map { $0 ^ $1 })
    }

    @Test("every prefix length of a mask is the prefix of the longer mask", arguments: [DigestAlgorithm.sha1, .sha256, .sha384, .sha512])
    func prefixes(hash: DigestAlgorithm) throws {
        let seed = (0..<20).map { UInt8(truncatingIfNeeded: $0) }
        let full = Hex.decode(try #require(MGF1Case.all.first { $0.hash == hash && $0.seedLength == 20 }).mask)
        for length in 0...full.count {
            var target = [UInt8](repeating: 0, count: length)
            try seed.withUnsafeBytes { s in
                try target.withUnsafeMutableBytes { try OAEPEncoding.xorMGF1(hash: hash, seed: s, into: $0) }
            }
            #expect(target == Array(full.prefix(length)), "\(hash) length \(length)")
        }
    }
}
