import CSECore
import CSECrypto
import CSEJOSE
import Testing
import TestSupport

@Suite("JWE: Wycheproof json_web_encryption_test.json")
struct JWEWycheproofTests {
    /// wycheproof/testvectors/json_web_encryption_test.json.
    struct File: Decodable {
        struct Case: Decodable {
            let tcId: Int
            let comment: String
            /// A compact JWE (a string) or the JSON serialization (an object).
            let jwe: AnyJSON
            let pt: String?
            let result: String
        }
        struct Group: Decodable {
            /// The JWK of the recipient's private key (not always RSA).
            let `private`: AnyJSON
            let tests: [Case]
        }
        let testGroups: [Group]
    }

    @Test(
        "every case gets its verdict; cases with an unsupported alg are refused",
        .enabled(if: TestPaths.sharedVectors != nil, "needs ../shared/vectors (wycheproof/testvectors/json_web_encryption_test.json)"))
    func everyCase() throws {
        let file = try #require(try VectorFiles.shared(File.self, "wycheproof/testvectors/json_web_encryption_test.json"))
        let fallbackKey = try JOSEVectors.rfc7516A1Key()
        var decrypted = 0, rejected = 0, refusedUnsupported = 0, total = 0
        for group in file.testGroups {
            let jwk = group.private
            if jwk["kty"]?.stringValue == "RSA", let declared = jwk["alg"]?.stringValue, !declared.hasPrefix("RSA-OAEP") {
                // A key declared for another algorithm (the RSA1_5 groups) is not an RSA-OAEP key:
                // refused at import (issue #24 point 18), so none of its cases can be decrypted.
                let error = #expect(throws: CSEError.self) { try RSAPrivateKey(jwkRepresentation: jwk.bytes) }
                #expect(error?.code == .jwkWrongPurpose, "alg \(declared)")
                total += group.tests.count
                refusedUnsupported += group.tests.count
                continue
            }
            let groupKey: RSAPrivateKey? = jwk["kty"]?.stringValue == "RSA" ? try RSAPrivateKey(jwkRepresentation: jwk.bytes) : nil
            let decryptor = try JWEDecryptor(privateKey: groupKey ?? fallbackKey)
            for test in group.tests {
                total += 1
                let tcId = test.tcId
                let expected = test.result
                guard case .string(let token) = test.jwe else {
                    // The JSON serialization is not a compact JWE: refused as malformed.
                    let error = #expect(throws: CSEError.self, "tcId \(tcId)") {
                        _ = try decryptor.decrypt(String(decoding: test.jwe.bytes, as: UTF8.self))
                    }
                    #expect(error?.code == .jweMalformed, "tcId \(tcId)")
                    refusedUnsupported += 1
                    continue
                }
                let alg = Self.headerAlg(token)
                let supported = alg.map { name in JWEKeyAlgorithm.allowList.contains { $0.name == name } } ?? false
                if !supported || groupKey == nil {
                    let error = #expect(throws: CSEError.self, "tcId \(tcId): alg \(alg ?? "<unreadable>") must be refused") {
                        _ = try decryptor.decrypt(token)
                    }
                    let refusal: Set<CSEError.Code> = [.jweUnsupportedAlgorithm, .jweMalformed, .jweUnsupportedHeader]
                    #expect(error.map { refusal.contains($0.code) } == true, "tcId \(tcId): \(String(describing: error))")
                    refusedUnsupported += 1
                    continue
                }
                if expected == "valid" {
                    let result = try? decryptor.decrypt(token)
                    #expect(result?.plaintext.unsafeCopyToArray() == Hex.decode(test.pt ?? ""), "tcId \(tcId) should decrypt")
                    decrypted += 1
                } else {
                    let error = #expect(throws: CSEError.self, "tcId \(tcId) (\(test.comment)) must fail") {
                        _ = try decryptor.decrypt(token)
                    }
                    #expect(error?.code == .jweDecryptionFailed || error?.code == .jweMalformed, "tcId \(tcId)")
                    rejected += 1
                }
            }
        }
        #expect(total == 139, "the file holds 139 cases")
        #expect(decrypted == 14, "RSA-OAEP / RSA-OAEP-256 valid cases, incl. RFC 7520 Figure 92")
        #expect(decrypted + rejected + refusedUnsupported == total)
    }

    private static func headerAlg(_ token: String) -> String? {
        guard let first = token.split(separator: ".", omittingEmptySubsequences: false).first,
            let bytes = try? Base64URL.decode(first), let header = try? JSONValue.parse(bytes)
        else { return nil }
        return header["alg"]?.stringValue
    }
}
