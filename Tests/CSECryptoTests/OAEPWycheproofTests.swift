import CSECore
import CSECrypto
import Foundation
import Testing
import TestSupport

/// Project Wycheproof RSAES-OAEP decryption vectors (testvectors_v1), read from
/// ../shared/vectors/wycheproof. Every case gets its verdict through `decryptOAEP`: valid cases
/// decrypt to `msg`, invalid ones throw the uniform `rsa.decryptionFailed`, acceptable ones may do
/// either. The group's key is imported from its PKCS#8 DER, and its JWK form must give the same key.
/// Its `privateKeyPem` is labelled `PRIVATE KEY` but holds a PKCS#1 `RSAPrivateKey`; RFC 7468 §10
/// reserves that label for PKCS#8, so CSEKit refuses it.
@Suite("OAEP Wycheproof decryption", .enabled(if: RSAVectors.available, "needs ../shared/vectors/wycheproof"))
struct OAEPWycheproofTests {
    struct File: Sendable, CustomTestStringConvertible {
        let name: String
        let hash: DigestAlgorithm
        let expectedCount: Int
        var testDescription: String { name }
    }

    static let files = [
        File(name: "rsa_oaep_2048_sha1_mgf1sha1_test.json", hash: .sha1, expectedCount: 36),
        File(name: "rsa_oaep_2048_sha256_mgf1sha256_test.json", hash: .sha256, expectedCount: 37),
    ]

    /// One test group of `rsaes_oaep_decrypt_schema.json`, decoded with its types; the JWK is kept
    /// as raw JSON for the JWK import check.
    struct Group: Decodable {
        struct Case: Decodable {
            let tcId: Int
            let comment: String
            let msg: String
            let ct: String
            let label: String
            let result: WycheproofResult
        }
        let sha: String
        let mgfSha: String
        let privateKeyPkcs8: String
        let privateKeyPem: String
        let privateKeyJwk: AnyJSON
        let tests: [Case]
    }

    @Test("every case gets its expected verdict", arguments: files)
    func verdicts(file: File) throws {
        let root = try WycheproofFile<Group>.load(file.name)
        #expect(root.numberOfTests == file.expectedCount)
        var seen = 0, valid = 0, invalid = 0
        for group in root.testGroups {
            #expect(group.sha == file.hash.name && group.mgfSha == file.hash.name)
            let key = try RSAPrivateKey(derRepresentation: Hex.decode(group.privateKeyPkcs8))
            #expect(throws: CSEError(.derMalformed, "")) {
                try RSAPrivateKey(pemRepresentation: group.privateKeyPem)
            }
            let fromJWK = try RSAPrivateKey(jwkRepresentation: group.privateKeyJwk.bytes)
            #expect(fromJWK.publicKey == key.publicKey, "\(file.name) JWK form")
            for test in group.tests {
                seen += 1
                let tcId = test.tcId
                let comment = test.comment
                let ct = Hex.decode(test.ct)
                let label = Hex.decode(test.label)
                let result: Result<[UInt8], CSEError>
                do { result = .success(try key.decryptOAEP(ct, hash: file.hash, label: label).unsafeCopyToArray()) } catch {
                    result = .failure(error)
                }
                switch test.result {
                case .valid:
                    valid += 1
                    #expect((try? result.get()) == Hex.decode(test.msg), "tcId \(tcId): \(comment)")
                case .invalid:
                    invalid += 1
                    guard case .failure(let error) = result else {
                        Issue.record("tcId \(tcId) decrypted but must fail: \(comment)")
                        continue
                    }
                    #expect(
                        error.code == .rsaDecryptionFailed && error.reason == "RSA-OAEP decryption failed"
                            && error.context.isEmpty, "tcId \(tcId) failed with a non-uniform error")
                case .acceptable:
                    if case .failure(let error) = result { #expect(error.code == .rsaDecryptionFailed, "tcId \(tcId)") }
                }
            }
        }
        #expect(seen == file.expectedCount, "\(file.name): ran \(seen) cases")
        #expect(valid > 0 && invalid > 0)
    }
}
