import CSECore
import CSECrypto
import Foundation
import Testing
import TestSupport

private struct HKDFGroup: Decodable {
    struct Test: Decodable {
        let tcId: Int
        let comment: String
        let ikm, salt, info: String
        let size: Int
        let okm: String
        let result: WycheproofResult
    }
    let tests: [Test]
}

@Suite("Key derivation: HKDF-SHA-256 (RFC 5869) and the single-step KDF (NIST SP 800-56C)")
struct KeyDerivationTests {
    private typealias S = SymmetricTestSupport

    @Test(
        "HKDF-SHA-256: every Wycheproof output exact, every oversized request refused",
        .enabled(
            if: WycheproofFile<HKDFGroup>.isPresent("hkdf_sha256_test.json"),
            "needs ../shared/vectors/wycheproof/testvectors_v1/hkdf_sha256_test.json"))
    func hkdfWycheproof() throws {
        let file = try WycheproofFile<HKDFGroup>.load("hkdf_sha256_test.json")
        #expect(file.algorithm == "HKDF-SHA-256")
        var valid = 0, invalid = 0
        for group in file.testGroups {
            for test in group.tests {
                let id = "tcId \(test.tcId) (\(test.comment))"
                let derive = {
                    try KeyDerivation.hkdfSHA256(
                        inputKeyMaterial: SecureBytes(Hex.decode(test.ikm)), salt: Hex.decode(test.salt),
                        info: Hex.decode(test.info), outputByteCount: test.size)
                }
                switch test.result {
                case .valid:
                    valid += 1
                    #expect(Hex.encode(S.bytes(try derive())) == test.okm, "\(id): okm")
                case .invalid, .acceptable:
                    invalid += 1
                    #expect(S.error(derive)?.code == .keyDerivationFailed, "\(id): must be refused")
                }
            }
        }
        #expect(file.numberOfTests == 86)
        #expect((valid, invalid) == (83, 3))
    }

    @Test("HKDF-SHA-256 refuses an output of zero bytes")
    func hkdfZeroLength() {
        let error = S.error {
            try KeyDerivation.hkdfSHA256(inputKeyMaterial: SecureBytes([1, 2, 3]), salt: [], info: [], outputByteCount: 0)
        }
        #expect(error?.code == .keyDerivationFailed)
    }

    /// Z = 00 01 … 1F and otherInfo = 0D ‖ "id-aes256-GCM" ‖ "Apple" ‖ 32 zero bytes (Apple's layout);
    /// expected outputs from python3-cryptography's `ConcatKDFHash(SHA256(), length, otherInfo)`.
    @Test(
        "Single-step KDF: python3-cryptography's ConcatKDFHash outputs of 16, 32, 33 and 80 bytes",
        arguments: [
            (16, "8b7b84d45e66c443cfff64de3c9ae1b5"),
            (32, "8b7b84d45e66c443cfff64de3c9ae1b506fb934179067c9a5975ffebc9504b05"),
            (33, "8b7b84d45e66c443cfff64de3c9ae1b506fb934179067c9a5975ffebc9504b05c6"),
            (
                80,
                "8b7b84d45e66c443cfff64de3c9ae1b506fb934179067c9a5975ffebc9504b05c67a7e4b2c0c11d01c6bd2abd0c368e2"
                    + "88ffc874dd5c5b125277d51c2f6a4edc4138a9a82af4f81e4b2054315acc46cb"
            ),
        ])
    func singleStepKnownAnswers(count: Int, expected: String) throws {
        let otherInfo = [0x0D] + Array("id-aes256-GCMApple".utf8) + [UInt8](repeating: 0, count: 32)
        let key = try KeyDerivation.singleStepSHA256(
            sharedSecret: SecureBytes(Array(0..<32)), otherInfo: otherInfo, outputByteCount: count)
        #expect(Hex.encode(S.bytes(key)) == expected)
    }

    @Test("Single-step KDF: one block is SHA-256(00000001 ‖ Z ‖ otherInfo), the counter before Z (not X9.63)")
    func singleStepDefinition() throws {
        let z = SecureBytes([UInt8](repeating: 0, count: 1) + Array(1..<32))
        let otherInfo = Array("other info".utf8)
        let key = try KeyDerivation.singleStepSHA256(sharedSecret: z, otherInfo: otherInfo, outputByteCount: 32)
        let expected = try DigestAlgorithm.sha256.hash([0, 0, 0, 1] + S.bytes(z) + otherInfo)
        #expect(S.bytes(key) == expected)
        #expect(
            S.error { try KeyDerivation.singleStepSHA256(sharedSecret: z, otherInfo: [], outputByteCount: 0) }?.code
                == .keyDerivationFailed)
    }
}
