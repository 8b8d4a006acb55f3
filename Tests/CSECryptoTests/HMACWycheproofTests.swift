import CSECore
import CSECrypto
import Foundation
import Testing
import TestSupport

private struct MacGroup: Decodable {
    struct Test: Decodable {
        let tcId: Int
        let comment: String
        let key, msg, tag: String
        let result: WycheproofResult
    }
    let keySize: Int
    let tagSize: Int
    let tests: [Test]
}

@Suite("HMAC: Wycheproof hmac_sha256")
struct HMACWycheproofTests {
    private typealias S = SymmetricTestSupport

    @Test(
        "HMAC-SHA-256: every valid tag (full or truncated to 128 bits) verifies, every modified one does not",
        .enabled(
            if: WycheproofFile<MacGroup>.isPresent("hmac_sha256_test.json"),
            "needs ../shared/vectors/wycheproof/testvectors_v1/hmac_sha256_test.json"))
    func hmacSHA256() throws {
        let file = try WycheproofFile<MacGroup>.load("hmac_sha256_test.json")
        #expect(file.algorithm == "HMACSHA256")
        var valid = 0, invalid = 0
        for group in file.testGroups {
            for test in group.tests {
                let id = "tcId \(test.tcId) (\(test.comment))"
                let key = S.key(test.key), msg = Hex.decode(test.msg), tag = Hex.decode(test.tag)
                #expect(tag.count * 8 == group.tagSize, "\(id)")
                let verdict = try HMAC.isValidAuthenticationCode(
                    tag.span.bytes, algorithm: .sha256, key: key,
                    message: msg.span.bytes)
                switch test.result {
                case .valid:
                    valid += 1
                    #expect(verdict, "\(id): a valid tag must verify")
                    let full = try HMAC.authenticationCode(.sha256, key: key, message: msg.span.bytes)
                    #expect(Array(full.prefix(tag.count)) == tag, "\(id): computed MAC")
                case .invalid, .acceptable:
                    invalid += 1
                    #expect(!verdict, "\(id): a modified tag must not verify")
                }
            }
        }
        #expect(file.numberOfTests == 174)
        #expect(valid + invalid == 174, "every case of the file was run")
        #expect((valid, invalid) == (66, 108))
    }
}
