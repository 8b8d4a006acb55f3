@testable import CSECrypto
import CSECore
import Foundation
import Testing
import TestSupport

/// FIPS 180-4 example messages ("abc", the empty string and the 448-bit two-block message), with
/// the digests published in NIST's "Cryptographic Standards and Guidelines: Examples with
/// Intermediate Values" (SHA1.pdf, SHA256.pdf, SHA384.pdf, SHA512.pdf).
@Suite("Digests: SHA-1 and SHA-2 over OpenSSL")
struct DigestTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let algorithm: DigestAlgorithm
        let message: String
        let digest: String
        var testDescription: String { "\(algorithm.name)(\"\(message.prefix(12))\")" }
    }

    static let twoBlock = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"

    static let cases: [Case] = [
        Case(algorithm: .sha1, message: "abc", digest: "a9993e364706816aba3e25717850c26c9cd0d89d"),
        Case(algorithm: .sha1, message: "", digest: "da39a3ee5e6b4b0d3255bfef95601890afd80709"),
        Case(algorithm: .sha1, message: twoBlock, digest: "84983e441c3bd26ebaae4aa1f95129e5e54670f1"),
        Case(algorithm: .sha256, message: "abc", digest: "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
        Case(algorithm: .sha256, message: "", digest: "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
        Case(algorithm: .sha256, message: twoBlock, digest: "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"),
        Case(
            algorithm: .sha384, message: "abc",
            digest: "cb00753f45a35e8bb5a03d699ac65007272c32ab0eded1631a8b605a43ff5bed8086072ba1e7cc2358baeca134c825a7"),
        Case(
            algorithm: .sha384, message: "",
            digest: "38b060a751ac96384cd9327eb1b1e36a21fdb71114be07434c0cc7bf63f6e1da274edebfe76f65fbd51ad2f14898b95b"),
        Case(
            algorithm: .sha512, message: "abc",
            digest:
                "ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f"
        ),
        Case(
            algorithm: .sha512, message: "",
            digest:
                "cf83e1357eefb8bdf1542850d66d8007d620e4050b5715dc83f4a921d36ce9ce47d0d13c5d85f2b0ff8318d2877eec2f63b931bd47417a81a538327af927da3e"
        ),
    ]

    @Test("each algorithm reproduces the FIPS 180-4 example digests", arguments: cases)
    func knownAnswers(_ testCase: Case) throws {
        let digest = try testCase.algorithm.hash(Array(testCase.message.utf8))
        #expect(Hex.encode(digest) == testCase.digest, "\(testCase.testDescription)")
        #expect(digest.count == testCase.algorithm.byteCount)
    }

    @Test("one million 'a' hashes to the FIPS 180-4 SHA-256 value")
    func millionA() throws {
        let digest = try DigestAlgorithm.sha256.hash([UInt8](repeating: 0x61, count: 1_000_000))
        #expect(Hex.encode(digest) == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    @Test("lengths, names and the cached empty-label hashes agree with OpenSSL")
    func metadata() throws {
        for (algorithm, length, block, name) in [
            (DigestAlgorithm.sha1, 20, 64, "SHA-1"), (.sha256, 32, 64, "SHA-256"),
            (.sha384, 48, 128, "SHA-384"), (.sha512, 64, 128, "SHA-512"),
        ] {
            #expect(algorithm.byteCount == length)
            #expect(algorithm.blockByteCount == block)
            #expect(algorithm.name == name && algorithm.description == name)
            #expect(OAEPEncoding.emptyLabelHash(algorithm) == (try algorithm.hash([])), "\(name)")
        }
    }

    @Test("two-part hashing equals hashing the concatenation")
    func twoParts() throws {
        let message = Array(Self.twoBlock.utf8)
        var out = [UInt8](repeating: 0, count: 32)
        try message.withUnsafeBytes { bytes in
            try out.withUnsafeMutableBytes { buffer in
                try DigestAlgorithm.sha256.hash(
                    UnsafeRawBufferPointer(rebasing: bytes[0..<10]),
                    UnsafeRawBufferPointer(rebasing: bytes[10...]), into: buffer.baseAddress!)
            }
        }
        #expect(out == (try DigestAlgorithm.sha256.hash(message)))
    }

    @Test("hashing from 8 threads at once gives the same digests", .tags(.concurrency))
    func concurrent() async throws {
        let expected = try DigestAlgorithm.sha1.hash(Array("abc".utf8))
        let results = await withTaskGroup(of: Bool.self) { group in
            for _ in 0..<8 {
                group.addTask {
                    (0..<500).allSatisfy { _ in (try? DigestAlgorithm.sha1.hash(Array("abc".utf8))) == expected }
                }
            }
            return await group.reduce(into: [Bool]()) { $0.append($1) }
        }
        #expect(results == Array(repeating: true, count: 8))
    }
}
