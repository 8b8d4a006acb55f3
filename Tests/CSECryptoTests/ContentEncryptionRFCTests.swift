import CSECore
import CSECrypto
import Foundation
import Testing
import TestSupport

private struct AppendixB: Decodable {
    struct Case: Decodable {
        let enc, ref, key, macKey, encKey, plaintext, iv, aad, al, ciphertext, mac, tag: String
    }
    let plaintextText: String
    let aadText: String
    let cases: [Case]

    static func load() throws -> AppendixB {
        try JSONDecoder().decode(AppendixB.self, from: TestPaths.projectFile("jose/rfc7518-appendix-b.json"))
    }
}

private struct JWEExample: Decodable {
    let source, alg, enc, protectedHeader, protectedHeaderB64u, plaintextText, plaintext: String
    let cek, cekB64u, iv, ivB64u, encryptedKeyB64u, ciphertext, ciphertextB64u, tag, tagB64u, compact: String
    let macKey, encKey, al, mac: String?

    static func load(_ file: String) throws -> JWEExample {
        try JSONDecoder().decode(JWEExample.self, from: TestPaths.projectFile("jose/" + file))
    }
}

@Suite("Content encryption: RFC 7518 Appendix B and RFC 7516 Appendix A")
struct ContentEncryptionRFCTests {
    @Test("the RFC 7518 Appendix B file holds the three AES_CBC_HMAC_SHA2 cases")
    func appendixBIsComplete() throws {
        let vectors = try AppendixB.load()
        #expect(vectors.cases.map(\.enc) == ["A128CBC-HS256", "A192CBC-HS384", "A256CBC-HS512"])
        for c in vectors.cases {
            #expect(Hex.decode(c.plaintext) == Array(vectors.plaintextText.utf8), "\(c.ref)")
            #expect(Hex.decode(c.aad) == Array(vectors.aadText.utf8), "\(c.ref)")
        }
    }

    @Test("AES_CBC_HMAC_SHA2 seals P to exactly E and T, and opens back to P (RFC 7518 App. B)")
    func appendixB() throws {
        for c in try AppendixB.load().cases {
            let enc = try #require(ContentEncryptionAlgorithm(name: c.enc), "\(c.ref)")
            let key = SymmetricTestSupport.key(c.key)
            #expect(c.key == c.macKey + c.encKey, "\(c.ref): K = MAC_KEY || ENC_KEY")
            #expect(enc.keyByteCount == Hex.decode(c.key).count, "\(c.ref)")
            #expect(enc.tagByteCount == Hex.decode(c.tag).count, "\(c.ref)")

            let sealed = try enc.seal(
                plaintext: Hex.decode(c.plaintext), key: key, iv: Hex.decode(c.iv),
                aad: Hex.decode(c.aad))
            #expect(Hex.encode(sealed.ciphertext) == c.ciphertext, "\(c.ref): E")
            #expect(Hex.encode(sealed.tag) == c.tag, "\(c.ref): T")

            let opened = try enc.open(
                ciphertext: Hex.decode(c.ciphertext), key: key, iv: Hex.decode(c.iv),
                aad: Hex.decode(c.aad), tag: Hex.decode(c.tag))
            #expect(Hex.encode(SymmetricTestSupport.bytes(opened)) == c.plaintext, "\(c.ref): P")
        }
    }

    @Test("the full HMAC M over A ‖ IV ‖ E ‖ AL matches, and T is its first half (RFC 7518 App. B)")
    func appendixBIntermediates() throws {
        let macs: [String: HMAC.Algorithm] = [
            "A128CBC-HS256": .sha256, "A192CBC-HS384": .sha384,
            "A256CBC-HS512": .sha512,
        ]
        for c in try AppendixB.load().cases {
            let algorithm = try #require(macs[c.enc])
            let aadBits = UInt64(Hex.decode(c.aad).count * 8)
            #expect(c.al == String(aadBits, radix: 16).leftPadded(to: 16), "\(c.ref): AL")
            let message = Hex.decode(c.aad + c.iv + c.ciphertext + c.al)
            let m = try HMAC.authenticationCode(
                algorithm, key: SymmetricTestSupport.key(c.macKey),
                message: message.span.bytes)
            #expect(Hex.encode(m) == c.mac, "\(c.ref): M")
            #expect(c.mac.hasPrefix(c.tag), "\(c.ref): T = first T_LEN bytes of M")
            // The encryption half on its own is plain AES-CBC with PKCS#7 padding.
            let e = try AES.CBC.unauthenticatedEncrypt(
                plaintext: Hex.decode(c.plaintext).span.bytes,
                key: SymmetricTestSupport.key(c.encKey),
                iv: Hex.decode(c.iv).span.bytes)
            #expect(Hex.encode(e) == c.ciphertext, "\(c.ref): E")
        }
    }

    @Test("a tampered tag fails with the uniform decryptionFailed error (RFC 7518 App. B)")
    func appendixBTagTamper() throws {
        for c in try AppendixB.load().cases {
            let enc = try #require(ContentEncryptionAlgorithm(name: c.enc))
            var tag = Hex.decode(c.tag)
            tag[tag.count - 1] ^= 1
            let error = SymmetricTestSupport.error {
                try enc.open(
                    ciphertext: Hex.decode(c.ciphertext), key: SymmetricTestSupport.key(c.key),
                    iv: Hex.decode(c.iv), aad: Hex.decode(c.aad), tag: tag)
            }
            #expect(error?.code == .decryptionFailed, "\(c.ref)")
        }
    }

    @Test(
        "RFC 7516 A.1 and A.2 content layer: CEK, IV, AAD and plaintext give the published ciphertext and tag",
        arguments: ["rfc7516-a1.json", "rfc7516-a2.json"])
    func jweContentLayer(file: String) throws {
        let example = try JWEExample.load(file)
        let enc = try #require(ContentEncryptionAlgorithm(name: example.enc), "\(example.source)")
        // The base64url strings of the RFC are the same bytes as the hex fields.
        let segments = example.compact.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        #expect(
            segments == [
                example.protectedHeaderB64u, example.encryptedKeyB64u, example.ivB64u,
                example.ciphertextB64u, example.tagB64u,
            ], "\(example.source)")
        #expect(try Base64URL.decode(example.protectedHeaderB64u) == Array(example.protectedHeader.utf8))
        #expect(try Base64URL.decode(example.cekB64u) == Hex.decode(example.cek), "\(example.source)")
        #expect(try Base64URL.decode(example.ivB64u) == Hex.decode(example.iv), "\(example.source)")
        #expect(try Base64URL.decode(example.ciphertextB64u) == Hex.decode(example.ciphertext), "\(example.source)")
        #expect(try Base64URL.decode(example.tagB64u) == Hex.decode(example.tag), "\(example.source)")
        #expect(Hex.decode(example.plaintext) == Array(example.plaintextText.utf8), "\(example.source)")

        let key = SymmetricTestSupport.key(example.cek)
        let aad = Array(example.protectedHeaderB64u.utf8)  // RFC 7516 §5.1 step 14
        let sealed = try enc.seal(
            plaintext: Array(example.plaintextText.utf8), key: key,
            iv: Hex.decode(example.iv), aad: aad)
        #expect(Hex.encode(sealed.ciphertext) == example.ciphertext, "\(example.source): ciphertext")
        #expect(Hex.encode(sealed.tag) == example.tag, "\(example.source): tag")

        let opened = try enc.open(
            ciphertext: Hex.decode(example.ciphertext), key: key, iv: Hex.decode(example.iv),
            aad: aad, tag: Hex.decode(example.tag))
        #expect(String(decoding: SymmetricTestSupport.bytes(opened), as: UTF8.self) == example.plaintextText)
    }

    @Test("RFC 7516 A.2: the CEK splits into MAC_KEY ‖ ENC_KEY and the full HMAC is the published M")
    func jweA2Intermediates() throws {
        let example = try JWEExample.load("rfc7516-a2.json")
        let macKey = try #require(example.macKey), encKey = try #require(example.encKey)
        let al = try #require(example.al), mac = try #require(example.mac)
        #expect(example.cek == macKey + encKey)
        let message = Array(example.protectedHeaderB64u.utf8) + Hex.decode(example.iv + example.ciphertext + al)
        let m = try HMAC.authenticationCode(.sha256, key: SymmetricTestSupport.key(macKey), message: message.span.bytes)
        #expect(Hex.encode(m) == mac)
        #expect(mac.hasPrefix(example.tag))
    }
}

private extension String {
    func leftPadded(to width: Int) -> String { String(repeating: "0", count: max(0, width - count)) + self }
}
