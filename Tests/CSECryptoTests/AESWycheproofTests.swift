import CSECore
import CSECrypto
import Foundation
import Testing
import TestSupport

private struct IndCpaGroup: Decodable {
    struct Test: Decodable {
        let tcId: Int
        let comment: String
        let key, iv, msg, ct: String
        let result: WycheproofResult
    }
    let keySize: Int
    let ivSize: Int
    let tests: [Test]
}

private struct AeadGroup: Decodable {
    struct Test: Decodable {
        let tcId: Int
        let comment: String
        let key, iv, aad, msg, ct, tag: String
        let result: WycheproofResult
    }
    let keySize: Int
    let ivSize: Int
    let tagSize: Int
    let tests: [Test]
}

@Suite("AES: Wycheproof aes_cbc_pkcs5 and aes_gcm")
struct AESWycheproofTests {
    private typealias S = SymmetricTestSupport

    @Test(
        "AES-CBC-PKCS5: every valid case encrypts and decrypts exactly, every invalid one fails uniformly",
        .enabled(
            if: WycheproofFile<IndCpaGroup>.isPresent("aes_cbc_pkcs5_test.json"),
            "needs ../shared/vectors/wycheproof/testvectors_v1/aes_cbc_pkcs5_test.json"))
    func cbcPKCS5() throws {
        let file = try WycheproofFile<IndCpaGroup>.load("aes_cbc_pkcs5_test.json")
        #expect(file.algorithm == "AES-CBC-PKCS5")
        var valid = 0, invalid = 0
        for group in file.testGroups {
            #expect(group.ivSize == 128)
            for test in group.tests {
                let id = "tcId \(test.tcId) (\(test.comment))"
                let key = S.key(test.key), iv = Hex.decode(test.iv), ct = Hex.decode(test.ct)
                switch test.result {
                case .valid:
                    valid += 1
                    let sealed = try AES.CBC.unauthenticatedEncrypt(
                        plaintext: Hex.decode(test.msg).span.bytes, key: key, iv: iv.span.bytes)
                    #expect(Hex.encode(sealed) == test.ct, "\(id): ciphertext")
                    let opened = try AES.CBC.unauthenticatedDecrypt(ciphertext: ct.span.bytes, key: key, iv: iv.span.bytes)
                    #expect(Hex.encode(S.bytes(opened)) == test.msg, "\(id): plaintext")
                case .invalid, .acceptable:
                    // The file has no "acceptable" CBC cases; one would have to be rejected too.
                    invalid += 1
                    let error = S.error {
                        try AES.CBC.unauthenticatedDecrypt(ciphertext: ct.span.bytes, key: key, iv: iv.span.bytes)
                    }
                    #expect(error?.code == .decryptionFailed, "\(id): expected decryptionFailed")
                }
            }
        }
        #expect(file.numberOfTests == 216)
        #expect(valid + invalid == 216, "every case of the file was run")
        #expect((valid, invalid) == (72, 144))
    }

    @Test(
        "AES-GCM: every 96-bit-IV case gets its verdict; every other IV size is refused by the API",
        .enabled(
            if: WycheproofFile<AeadGroup>.isPresent("aes_gcm_test.json"),
            "needs ../shared/vectors/wycheproof/testvectors_v1/aes_gcm_test.json"))
    func gcm() throws {
        let file = try WycheproofFile<AeadGroup>.load("aes_gcm_test.json")
        #expect(file.algorithm == "AES-GCM")
        let jweAlgorithms: [Int: ContentEncryptionAlgorithm] = [128: .a128gcm, 192: .a192gcm, 256: .a256gcm]
        var valid = 0, invalid = 0, refusedIV = 0, refusedTag = 0
        for group in file.testGroups {
            for test in group.tests {
                let id = "tcId \(test.tcId) (\(test.comment))"
                let key = S.key(test.key), iv = Hex.decode(test.iv), aad = Hex.decode(test.aad)
                let msg = Hex.decode(test.msg), ct = Hex.decode(test.ct), tag = Hex.decode(test.tag)
                let open = {
                    try AES.GCM.open(
                        ciphertext: ct.span.bytes, key: key, iv: iv.span.bytes, aad: aad.span.bytes,
                        tag: tag.span.bytes)
                }
                if group.ivSize != 96 {
                    // Refused parameter set: both directions must say so with a typed error.
                    refusedIV += 1
                    let sealError = S.error {
                        try AES.GCM.seal(plaintext: msg.span.bytes, key: key, iv: iv.span.bytes, aad: aad.span.bytes)
                    }
                    #expect(sealError?.code == .invalidIVLength, "\(id): a \(group.ivSize)-bit IV must be refused")
                    #expect(S.error(open)?.code == .invalidIVLength, "\(id): a \(group.ivSize)-bit IV must be refused")
                    continue
                }
                if group.tagSize != 128 {
                    refusedTag += 1
                    #expect(S.error(open)?.code == .decryptionFailed, "\(id): a \(group.tagSize)-bit tag must be refused")
                    continue
                }
                switch test.result {
                case .valid:
                    valid += 1
                    let sealed = try AES.GCM.seal(
                        plaintext: msg.span.bytes, key: key, iv: iv.span.bytes,
                        aad: aad.span.bytes)
                    #expect(Hex.encode(sealed.ciphertext) == test.ct, "\(id): ciphertext")
                    #expect(Hex.encode(sealed.tag) == test.tag, "\(id): tag")
                    #expect(Hex.encode(S.bytes(try open())) == test.msg, "\(id): plaintext")
                    // The JWE layer gives the same answer for A128GCM / A192GCM / A256GCM.
                    let enc = try #require(jweAlgorithms[group.keySize], "\(id)")
                    let jwe = try enc.seal(plaintext: msg, key: key, iv: iv, aad: aad)
                    #expect(jwe.ciphertext == ct && jwe.tag == tag, "\(id): \(enc.name) seal")
                    let jweOpened = try enc.open(ciphertext: ct, key: key, iv: iv, aad: aad, tag: tag)
                    #expect(S.bytes(jweOpened) == msg, "\(id): \(enc.name) open")
                case .invalid, .acceptable:
                    // No "acceptable" GCM cases exist in the file; one would have to be rejected too.
                    invalid += 1
                    #expect(S.error(open)?.code == .decryptionFailed, "\(id): expected decryptionFailed")
                    let enc = try #require(jweAlgorithms[group.keySize], "\(id)")
                    let jweError = S.error { try enc.open(ciphertext: ct, key: key, iv: iv, aad: aad, tag: tag) }
                    #expect(jweError?.code == .decryptionFailed, "\(id): \(enc.name) open")
                }
            }
        }
        #expect(file.numberOfTests == 316)
        #expect(valid + invalid + refusedIV + refusedTag == 316, "every case of the file was run or refused")
        #expect((valid, invalid) == (116, 81), "96-bit IV cases checked")
        #expect(refusedIV == 119, "cases with IVs other than 96 bits (including the 6 zero-length IVs)")
        #expect(refusedTag == 0)
    }

    @Test(
        "AES-GCM with a 128-bit IV (Apple Pay's parameters): every case of the 128-bit-IV groups gets its verdict",
        .enabled(
            if: WycheproofFile<AeadGroup>.isPresent("aes_gcm_test.json"),
            "needs ../shared/vectors/wycheproof/testvectors_v1/aes_gcm_test.json"))
    func gcm128BitIV() throws {
        let file = try WycheproofFile<AeadGroup>.load("aes_gcm_test.json")
        var valid = 0, invalid = 0, refused = 0
        for group in file.testGroups where group.ivSize != 96 {
            for test in group.tests {
                let id = "tcId \(test.tcId) (\(test.comment))"
                let key = S.key(test.key), iv = Hex.decode(test.iv), aad = Hex.decode(test.aad)
                let ct = Hex.decode(test.ct), tag = Hex.decode(test.tag)
                let open = {
                    try AES.GCM.open(
                        ciphertext: ct.span.bytes, key: key, iv128: iv.span.bytes, aad: aad.span.bytes, tag: tag.span.bytes)
                }
                guard group.ivSize == 128 else {
                    refused += 1
                    #expect(S.error(open)?.code == .invalidIVLength, "\(id): only 128-bit IVs on this entry point")
                    continue
                }
                switch test.result {
                case .valid:
                    valid += 1
                    #expect(Hex.encode(S.bytes(try open())) == test.msg, "\(id): plaintext")
                    // The file has no invalid 128-bit-IV case: a flipped tag bit stands in for one.
                    let badTag = S.flipping(tag, bit: 127)
                    let tampered = S.error {
                        try AES.GCM.open(
                            ciphertext: ct.span.bytes, key: key, iv128: iv.span.bytes, aad: aad.span.bytes,
                            tag: badTag.span.bytes)
                    }
                    #expect(tampered?.code == .decryptionFailed, "\(id): a flipped tag bit must fail")
                case .invalid, .acceptable:
                    invalid += 1
                    #expect(S.error(open)?.code == .decryptionFailed, "\(id): expected decryptionFailed")
                }
            }
        }
        #expect((valid, invalid) == (58, 0), "the file's 128-bit-IV cases are all valid")
        #expect(valid + invalid + refused == 119, "every case with an IV other than 96 bits")
    }
}
