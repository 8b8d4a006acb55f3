import CSECore
import CSECrypto
import Testing
import TestSupport

/// One sealed message per algorithm, for tampering with.
private struct Sealed {
    let enc: ContentEncryptionAlgorithm
    let key: SecureBytes
    let iv: [UInt8]
    let aad: [UInt8]
    let plaintext: [UInt8]
    let ciphertext: [UInt8]
    let tag: [UInt8]

    init(_ enc: ContentEncryptionAlgorithm) throws {
        self.enc = enc
        key = SecureBytes((0..<enc.keyByteCount).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) })
        iv = (0..<enc.ivByteCount).map { UInt8(truncatingIfNeeded: $0 &* 53 &+ 7) }
        aad = Array("eyJhbGciOiJSU0EtT0FFUCJ9".utf8)
        plaintext = Array(#"{"cardNumber":"4111111111111111","cvv":"123"}"#.utf8)
        (ciphertext, tag) = try enc.seal(plaintext: plaintext, key: key, iv: iv, aad: aad)
    }

    func open(ciphertext: [UInt8]? = nil, iv: [UInt8]? = nil, aad: [UInt8]? = nil, tag: [UInt8]? = nil) -> CSEError? {
        SymmetricTestSupport.error {
            try enc.open(
                ciphertext: ciphertext ?? self.ciphertext, key: key, iv: iv ?? self.iv,
                aad: aad ?? self.aad, tag: tag ?? self.tag)
        }
    }
}

@Suite("Content encryption: tampering, lengths and uniform failure")
struct ContentEncryptionTamperTests {
    private typealias S = SymmetricTestSupport

    @Test("the algorithms have the RFC 7518 §5.2.3–5.2.5 and §5.3 names and sizes")
    func parameters() {
        let table = ContentEncryptionAlgorithm.allSupported.map {
            "\($0.name) \($0.keyByteCount) \($0.ivByteCount) \($0.tagByteCount)"
        }
        #expect(
            table == [
                "A128CBC-HS256 32 16 16", "A192CBC-HS384 48 16 24", "A256CBC-HS512 64 16 32",
                "A128GCM 16 12 16", "A192GCM 24 12 16", "A256GCM 32 12 16",
            ])
        for enc in ContentEncryptionAlgorithm.allSupported {
            #expect(ContentEncryptionAlgorithm(name: enc.name) == enc)
            #expect(enc.description == enc.name)
        }
        for unknown in ["a256gcm", "A256CBC-HS512 ", "A128KW", "dir", ""] {
            #expect(ContentEncryptionAlgorithm(name: unknown) == nil, "\(unknown)")
        }
        #expect(ContentEncryptionAlgorithm.a256cbcHS512.ciphertextByteCount(plaintextByteCount: 292) == 304)
        #expect(ContentEncryptionAlgorithm.a256cbcHS512.ciphertextByteCount(plaintextByteCount: 16) == 32)
        #expect(ContentEncryptionAlgorithm.a256gcm.ciphertextByteCount(plaintextByteCount: 292) == 292)
    }

    @Test("an untouched message opens", arguments: ContentEncryptionAlgorithm.allSupported)
    func roundTrip(enc: ContentEncryptionAlgorithm) throws {
        let sealed = try Sealed(enc)
        #expect(sealed.ciphertext.count == enc.ciphertextByteCount(plaintextByteCount: sealed.plaintext.count))
        #expect(sealed.tag.count == enc.tagByteCount)
        let opened = try enc.open(
            ciphertext: sealed.ciphertext, key: sealed.key, iv: sealed.iv, aad: sealed.aad,
            tag: sealed.tag)
        #expect(S.bytes(opened) == sealed.plaintext)
    }

    @Test(
        "every single bit flip of ciphertext, IV, AAD or tag fails with decryptionFailed",
        arguments: ContentEncryptionAlgorithm.allSupported)
    func everyBitFlip(enc: ContentEncryptionAlgorithm) throws {
        let sealed = try Sealed(enc)
        var flips = 0
        for bit in 0..<(sealed.ciphertext.count * 8) {
            #expect(
                sealed.open(ciphertext: S.flipping(sealed.ciphertext, bit: bit))?.code == .decryptionFailed,
                "\(enc) ciphertext bit \(bit)")
            flips += 1
        }
        for bit in 0..<(sealed.iv.count * 8) {
            #expect(sealed.open(iv: S.flipping(sealed.iv, bit: bit))?.code == .decryptionFailed, "\(enc) IV bit \(bit)")
            flips += 1
        }
        for bit in 0..<(sealed.aad.count * 8) {
            #expect(sealed.open(aad: S.flipping(sealed.aad, bit: bit))?.code == .decryptionFailed, "\(enc) AAD bit \(bit)")
            flips += 1
        }
        for bit in 0..<(sealed.tag.count * 8) {
            #expect(sealed.open(tag: S.flipping(sealed.tag, bit: bit))?.code == .decryptionFailed, "\(enc) tag bit \(bit)")
            flips += 1
        }
        #expect(flips == 8 * (sealed.ciphertext.count + enc.ivByteCount + sealed.aad.count + enc.tagByteCount))
    }

    @Test(
        "truncated, extended or missing tags and ciphertexts fail with the same decryptionFailed",
        arguments: ContentEncryptionAlgorithm.allSupported)
    func lengthTampering(enc: ContentEncryptionAlgorithm) throws {
        let sealed = try Sealed(enc)
        let cases: [(String, CSEError?)] = [
            ("tag missing its last byte", sealed.open(tag: Array(sealed.tag.dropLast()))),
            ("tag with an extra byte", sealed.open(tag: sealed.tag + [0])),
            ("empty tag", sealed.open(tag: [])),
            ("full-length HMAC instead of T", sealed.open(tag: sealed.tag + sealed.tag)),
            ("ciphertext missing its last byte", sealed.open(ciphertext: Array(sealed.ciphertext.dropLast()))),
            ("ciphertext missing its last block", sealed.open(ciphertext: Array(sealed.ciphertext.dropLast(16)))),
            ("ciphertext with an extra block", sealed.open(ciphertext: sealed.ciphertext + Array(repeating: 0, count: 16))),
            ("empty ciphertext", sealed.open(ciphertext: [])),
            ("empty AAD", sealed.open(aad: [])),
            (
                "wrong key",
                SymmetricTestSupport.error {
                    try enc.open(
                        ciphertext: sealed.ciphertext, key: SecureBytes(zeros: enc.keyByteCount), iv: sealed.iv,
                        aad: sealed.aad, tag: sealed.tag)
                }
            ),
        ]
        for (what, error) in cases {
            #expect(error?.code == .decryptionFailed, "\(enc): \(what)")
            #expect(error?.reason == "decryption failed", "\(enc): \(what): the error carries no detail")
        }
    }

    @Test("a CBC ciphertext with a valid tag but bad padding still fails with the same decryptionFailed")
    func validTagBadPadding() throws {
        // An encryptor that MACs a ciphertext whose last block does not decrypt to PKCS#7 padding:
        // AES-CBC with padding switched off, via the primitive on a full block of 0x00 bytes.
        let enc = ContentEncryptionAlgorithm.a128cbcHS256
        let macKey = Array(repeating: UInt8(1), count: 16), encKey = Array(repeating: UInt8(2), count: 16)
        let iv = Array(repeating: UInt8(3), count: 16), aad = Array("x".utf8)
        let padded = try AES.CBC.unauthenticatedEncrypt(
            plaintext: [UInt8](repeating: 0, count: 16).span.bytes,
            key: SecureBytes(encKey), iv: iv.span.bytes)
        let ciphertext = Array(padded.prefix(16))  // drop the padding block: the last byte decrypts to 0x00
        let al: [UInt8] = [0, 0, 0, 0, 0, 0, 0, 8]
        let mac = try HMAC.authenticationCode(
            .sha256, key: SecureBytes(macKey),
            message: (aad + iv + ciphertext + al).span.bytes)
        let error = SymmetricTestSupport.error {
            try enc.open(
                ciphertext: ciphertext, key: SecureBytes(macKey + encKey), iv: iv, aad: aad,
                tag: Array(mac.prefix(16)))
        }
        #expect(error?.code == .decryptionFailed)
        #expect(error?.reason == "decryption failed")
    }

    @Test(
        "wrong key and IV lengths give typed errors when sealing and opening",
        arguments: ContentEncryptionAlgorithm.allSupported)
    func wrongKeyAndIVLengths(enc: ContentEncryptionAlgorithm) throws {
        let sealed = try Sealed(enc)
        for keyCount in [0, 1, enc.keyByteCount - 1, enc.keyByteCount + 1, 2 * enc.keyByteCount] {
            let key = SecureBytes(zeros: keyCount)
            let sealError = S.error { try enc.seal(plaintext: sealed.plaintext, key: key, iv: sealed.iv, aad: sealed.aad) }
            #expect(sealError?.code == .invalidSymmetricKeyLength, "\(enc) seal, \(keyCount)-byte key")
            let openError = S.error {
                try enc.open(ciphertext: sealed.ciphertext, key: key, iv: sealed.iv, aad: sealed.aad, tag: sealed.tag)
            }
            #expect(openError?.code == .invalidSymmetricKeyLength, "\(enc) open, \(keyCount)-byte key")
        }
        for ivCount in [0, 8, 12, 16, 32] where ivCount != enc.ivByteCount {
            let iv = [UInt8](repeating: 0, count: ivCount)
            let sealError = S.error { try enc.seal(plaintext: sealed.plaintext, key: sealed.key, iv: iv, aad: sealed.aad) }
            #expect(sealError?.code == .invalidIVLength, "\(enc) seal, \(ivCount)-byte IV")
            let openError = S.error {
                try enc.open(ciphertext: sealed.ciphertext, key: sealed.key, iv: iv, aad: sealed.aad, tag: sealed.tag)
            }
            #expect(openError?.code == .invalidIVLength, "\(enc) open, \(ivCount)-byte IV")
        }
    }

    @Test(
        "sealing into caller buffers gives the same bytes, and refuses buffers that are too small",
        arguments: ContentEncryptionAlgorithm.allSupported)
    func sealIntoBuffers(enc: ContentEncryptionAlgorithm) throws {
        let sealed = try Sealed(enc)
        let needed = enc.ciphertextByteCount(plaintextByteCount: sealed.plaintext.count)
        var ciphertext = [UInt8](repeating: 0xEE, count: needed + 5)
        var tag = [UInt8](repeating: 0xEE, count: enc.tagByteCount + 3)
        var written = 0
        try ciphertext.withUnsafeMutableBytes { ciphertextBuffer in
            try tag.withUnsafeMutableBytes { tagBuffer in
                var ciphertextSpan = ciphertextBuffer.mutableBytes
                var tagSpan = tagBuffer.mutableBytes
                written = try enc.seal(
                    plaintext: sealed.plaintext.span.bytes, key: sealed.key, iv: sealed.iv.span.bytes,
                    aad: sealed.aad.span.bytes, ciphertext: &ciphertextSpan, tag: &tagSpan)
            }
        }
        #expect(written == needed)
        #expect(Array(ciphertext.prefix(written)) == sealed.ciphertext)
        #expect(Array(ciphertext.suffix(5)) == [0xEE, 0xEE, 0xEE, 0xEE, 0xEE], "nothing written past the ciphertext")
        #expect(Array(tag.prefix(enc.tagByteCount)) == sealed.tag)

        for (ciphertextCount, tagCount) in [(needed - 1, enc.tagByteCount), (needed, enc.tagByteCount - 1), (0, 0)] {
            var smallCiphertext = [UInt8](repeating: 0, count: ciphertextCount)
            var smallTag = [UInt8](repeating: 0, count: tagCount)
            let error = S.error {
                try smallCiphertext.withUnsafeMutableBytes { ciphertextBuffer in
                    try smallTag.withUnsafeMutableBytes { tagBuffer in
                        var ciphertextSpan = ciphertextBuffer.mutableBytes
                        var tagSpan = tagBuffer.mutableBytes
                        return try enc.seal(
                            plaintext: sealed.plaintext.span.bytes, key: sealed.key,
                            iv: sealed.iv.span.bytes, aad: sealed.aad.span.bytes,
                            ciphertext: &ciphertextSpan, tag: &tagSpan)
                    }
                }
            }
            #expect(error?.code == .outputBufferTooSmall, "\(enc): \(ciphertextCount)-byte ciphertext, \(tagCount)-byte tag")
        }
    }

    @Test(
        "the empty plaintext seals and opens (CBC pads it to one block)",
        arguments: ContentEncryptionAlgorithm.allSupported)
    func emptyPlaintext(enc: ContentEncryptionAlgorithm) throws {
        let key = SecureBytes(zeros: enc.keyByteCount), iv = [UInt8](repeating: 9, count: enc.ivByteCount)
        let sealed = try enc.seal(plaintext: [], key: key, iv: iv, aad: [])
        #expect(sealed.ciphertext.count == enc.ciphertextByteCount(plaintextByteCount: 0))
        let opened = try enc.open(ciphertext: sealed.ciphertext, key: key, iv: iv, aad: [], tag: sealed.tag)
        #expect(opened.count == 0)
    }

    @Test("an input over the 2 GiB limit is refused before any byte is read")
    func inputTooLarge() throws {
        let enc = ContentEncryptionAlgorithm.a256gcm
        let one = UnsafeMutableRawBufferPointer.allocate(byteCount: 1, alignment: 1)
        defer { one.deallocate() }
        // A view that claims 2 GiB − 1 over one byte: the length check must fire first.
        let huge = UnsafeRawBufferPointer(start: one.baseAddress, count: Int(Int32.max))
        let error = S.error {
            try enc.seal(
                plaintext: huge.bytes, key: SecureBytes(zeros: 32), iv: [UInt8](repeating: 0, count: 12).span.bytes,
                aad: [UInt8]().span.bytes)
        }
        #expect(error?.code == .symmetricInputTooLarge)
    }
}
