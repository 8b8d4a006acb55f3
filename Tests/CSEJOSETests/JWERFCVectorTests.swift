import CSECore
import CSECrypto
import CSEJOSE
import Testing
import TestSupport

@Suite("JWE: RFC 7516 and RFC 7520 examples")
struct JWERFCVectorTests {
    @Test("RFC 7516 A.1 (RSA-OAEP + A256GCM) decrypts to the published plaintext")
    func rfc7516A1Decrypts() throws {
        let vector = try JOSEVectors.project("jose/rfc7516-a1.json")
        let decryptor = try JWEDecryptor(privateKey: try JOSEVectors.rfc7516A1Key())
        let result = try decryptor.decrypt(vector["compact"]!.stringValue!)
        #expect(result.plaintext.unsafeCopyToArray() == Hex.decode(vector["plaintext"]!.stringValue!))
        #expect(result.header.algorithm == .rsaOAEP)
        #expect(result.header.encryption == .a256gcm)
    }

    @Test(
        "RFC 7516 A.1 through our encryptor: with the published CEK and IV, header, IV, ciphertext and tag segments are the published ones")
    func rfc7516A1EncryptsContentExactly() throws {
        let vector = try JOSEVectors.project("jose/rfc7516-a1.json")
        let key = try JOSEVectors.rfc7516A1Key()
        let encryptor = try JWEEncryptor(publicKey: key.publicKey, keyID: nil, algorithm: .rsaOAEP, encryption: .a256gcm)
        #expect(encryptor.protectedHeaderJSON == vector["protectedHeader"]!.stringValue!)
        let plaintext = Hex.decode(vector["plaintext"]!.stringValue!)
        let iv = Hex.decode(vector["iv"]!.stringValue!)
        let seed = [UInt8](repeating: 0x5A, count: 20)
        let compact = try plaintext.withUnsafeBytes { p in
            try iv.withUnsafeBytes { i in
                try seed.withUnsafeBytes { s in
                    try encryptor.encrypt(p, cek: SecureBytes(Hex.decode(vector["cek"]!.stringValue!)), iv: i, oaepSeed: s)
                }
            }
        }
        let ours = compact.split(separator: ".", omittingEmptySubsequences: false)
        let published = vector["compact"]!.stringValue!.split(separator: ".", omittingEmptySubsequences: false)
        #expect(ours.count == 5)
        #expect(ours[0] == published[0])
        #expect(ours[2] == published[2])
        #expect(ours[3] == published[3])
        #expect(ours[4] == published[4])
        // The RSA-OAEP segment differs (the RFC's seed is not published) but unwraps to the CEK.
        #expect(try JWEDecryptor(privateKey: key).decrypt(compact).plaintext.unsafeCopyToArray() == plaintext)
    }

    @Test("RFC 7516 A.2 (RSA1_5) is refused as unsupported", .tags(.allowList))
    func rfc7516A2Refused() throws {
        let vector = try JOSEVectors.project("jose/rfc7516-a2.json")
        let key = try RSAPrivateKey(jwk: vector["jwk"]!)
        let error = #expect(throws: CSEError.self) { _ = try JWEDecryptor(privateKey: key).decrypt(vector["compact"]!.stringValue!) }
        #expect(error?.code == .jweUnsupportedAlgorithm)
    }

    @Test(
        "RFC 7520 §5.2 (RSA-OAEP + A256GCM, 4096-bit key, kid) decrypts to the published plaintext",
        .enabled(if: TestPaths.sharedVectors != nil, "needs ../shared/vectors (jose/rfc7520-5_2-rsa-oaep-a256gcm.json)"))
    func rfc7520Section5_2() throws {
        let vector = try #require(try JOSEVectors.shared("jose/rfc7520-5_2-rsa-oaep-a256gcm.json"))
        let key = try RSAPrivateKey(jwk: vector["jwk"]!)
        let result = try JWEDecryptor(privateKey: key, expectedKeyID: "samwise.gamgee@hobbiton.example")
            .decrypt(vector["compact"]!.stringValue!)
        #expect(result.plaintext.unsafeCopyToArray() == Hex.decode(vector["plaintext_hex"]!.stringValue!))
        #expect(result.header.keyID == "samwise.gamgee@hobbiton.example")
    }
}

extension Tag {
    @Tag static var allowList: Self
}
