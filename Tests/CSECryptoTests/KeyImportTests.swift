import CSECore
import CSECrypto
import CSEPayments
import Foundation
import Testing
import TestSupport

/// RSA key import from every supported form, against published keys (RFC 7520 §3.3/§3.4,
/// RFC 7516 A.1, RFC 7520 §5.2) and keys written by the `openssl` tool, plus the policy rejects.
@Suite("Key import and export")
struct KeyImportTests {
    static let cookbook = "jose/rfc7520-cookbook/"

    /// An RFC 7520 §3.3/§3.4 key without its `"use":"sig"`: the cookbook publishes the key for
    /// signatures, which CSEKit refuses as an encryption key (`JWKPurposeTests`); these tests
    /// check the import of its members.
    static func cookbookKey(_ file: String) throws -> [UInt8] {
        var object = try #require(try JSONValue.parse(try sharedBytes(cookbook + file)).objectValue)
        #expect(object["use"] == .string("sig"))
        object["use"] = nil
        return JSONValue.object(object).serializedBytes
    }

    static func sharedBytes(_ path: String) throws -> [UInt8] {
        Array(try #require(TestPaths.sharedFile(path), "\(path) is missing"))
    }

    static func b64u(_ text: String) throws -> [UInt8] { try Base64URL.decode(text) }

    // MARK: Published JWKs

    @Test(
        "RFC 7520 §3.3: the public RSA JWK imports as a 2048-bit key with e = 65537",
        .enabled(if: RSAVectors.available, "needs ../shared/vectors/jose"))
    func rfc7520PublicJWK() throws {
        let text = try Self.cookbookKey("jwk_3_3.rsa_public_key.json")
        let key = try RSAPublicKey(jwkRepresentation: text)
        #expect(key.bitCount == 2048 && key.byteCount == 256)
        #expect(key.exponent == [0x01, 0x00, 0x01])
        let jwk = try JSONValue.parse(text)
        #expect(key.modulus == (try Self.b64u(jwk["n"]!.stringValue!)))
        // Export and re-import give the same key; the export carries kid when asked.
        let exported = key.jwkRepresentation(keyID: "bilbo.baggins@hobbiton.example")
        #expect(try RSAPublicKey(jwkRepresentation: Array(exported.utf8)) == key)
        #expect(try JSONValue.parse(Array(exported.utf8))["kid"]?.stringValue == "bilbo.baggins@hobbiton.example")
        #expect(try JSONValue.parse(Array(exported.utf8))["n"] == jwk["n"])
    }

    @Test(
        "RFC 7520 §3.4: the private RSA JWK imports and matches the §3.3 public key",
        .enabled(if: RSAVectors.available, "needs ../shared/vectors/jose"))
    func rfc7520PrivateJWK() throws {
        let privateKey = try RSAPrivateKey(jwkRepresentation: try Self.cookbookKey("jwk_3_4.rsa_private_key.json"))
        let publicKey = try RSAPublicKey(jwkRepresentation: try Self.cookbookKey("jwk_3_3.rsa_public_key.json"))
        #expect(privateKey.publicKey == publicKey)
        // A public key imported from the private JWK ignores the private members.
        #expect(try RSAPublicKey(jwkRepresentation: try Self.cookbookKey("jwk_3_4.rsa_private_key.json")) == publicKey)
        // A JWK without d is not a private key.
        #expect(throws: CSEError(.jwkMalformed, "")) {
            try RSAPrivateKey(jwkRepresentation: try Self.cookbookKey("jwk_3_3.rsa_public_key.json"))
        }
        for engine in [RSAEngine.openSSL, .gmp] {
            let ciphertext = try publicKey.encryptOAEP(Array("Thank you, Mr. Frodo".utf8), hash: .sha256, engine: engine)
            #expect(try privateKey.decryptOAEP(ciphertext, hash: .sha256).unsafeCopyToArray() == Array("Thank you, Mr. Frodo".utf8))
        }
    }

    @Test(
        "RFC 7516 A.1 and RFC 7520 §5.2: the JWE encrypted keys decrypt to the published CEKs",
        .enabled(if: RSAVectors.available, "needs ../shared/vectors/jose"),
        arguments: ["jose/rfc7516-a1-rsa-oaep-a256gcm.json", "jose/rfc7520-5_2-rsa-oaep-a256gcm.json"])
    func jweEncryptedKeys(path: String) throws {
        let root = try #require(try RSAVectors.json(path))
        let key = try RSAPrivateKey(jwkRepresentation: try #require(root["jwk"]).bytes)
        let cek = try key.decryptOAEP(try Self.b64u(root["encryptedKey_b64u"]!.stringValue!), hash: .sha1)
        #expect(cek.unsafeCopyToArray() == Hex.decode(root["cek_hex"]!.stringValue!), "\(path)")
    }

    // MARK: Keys written by the openssl tool

    /// One 2048-bit key in every format `openssl` writes.
    struct OpenSSLForms {
        let pkcs8PEM: String, pkcs1PEM: String, spkiPEM: String, pkcs1PublicPEM: String
        let pkcs8DER: [UInt8], pkcs1DER: [UInt8], spkiDER: [UInt8], pkcs1PublicDER: [UInt8]

        static let shared: OpenSSLForms? = try? make()

        static func make() throws -> OpenSSLForms {
            let pem = try OpenSSLTool.run(["genpkey", "-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:2048"])
            func run(_ args: [String]) throws -> Data { try OpenSSLTool.run(args, stdin: pem) }
            func text(_ data: Data) -> String { String(decoding: data, as: UTF8.self) }
            return OpenSSLForms(
                pkcs8PEM: text(pem),
                pkcs1PEM: text(try run(["rsa", "-traditional"])),
                spkiPEM: text(try run(["pkey", "-pubout"])),
                pkcs1PublicPEM: text(try run(["rsa", "-RSAPublicKey_out"])),
                pkcs8DER: Array(try run(["pkcs8", "-topk8", "-nocrypt", "-outform", "DER"])),
                pkcs1DER: Array(try run(["rsa", "-traditional", "-outform", "DER"])),
                spkiDER: Array(try run(["pkey", "-pubout", "-outform", "DER"])),
                pkcs1PublicDER: Array(try run(["rsa", "-RSAPublicKey_out", "-outform", "DER"])))
        }
    }

    @Test(
        "every PEM and DER form openssl writes imports to the same key, and exports match openssl byte for byte",
        .enabled(if: OpenSSLTool.path != nil, "needs the openssl tool"))
    func openSSLForms() throws {
        let forms = try #require(OpenSSLForms.shared, "openssl could not generate a key")
        let key = try RSAPrivateKey(pemRepresentation: forms.pkcs8PEM)
        #expect(key.bitCount == 2048)
        for other in [
            try RSAPrivateKey(pemRepresentation: forms.pkcs1PEM), try RSAPrivateKey(derRepresentation: forms.pkcs8DER),
            try RSAPrivateKey(derRepresentation: forms.pkcs1DER),
        ] {
            #expect(other.publicKey == key.publicKey)
        }
        for publicKey in [
            try RSAPublicKey(pemRepresentation: forms.spkiPEM), try RSAPublicKey(pemRepresentation: forms.pkcs1PublicPEM),
            try RSAPublicKey(derRepresentation: forms.spkiDER), try RSAPublicKey(derRepresentation: forms.pkcs1PublicDER),
        ] {
            #expect(publicKey == key.publicKey)
        }
        #expect(key.publicKey.derRepresentation == forms.spkiDER)
        #expect(key.publicKey.pkcs1DERRepresentation == forms.pkcs1PublicDER)
        #expect(key.publicKey.pemRepresentation == forms.spkiPEM)
        #expect(try key.pemRepresentation == forms.pkcs8PEM)
        #expect(try key.derRepresentation.unsafeCopyToArray() == forms.pkcs8DER)
        // A PEM with CRLF line ends and surrounding whitespace is still one strict block.
        let crlf = "\n  " + forms.spkiPEM.replacingOccurrences(of: "\n", with: "\r\n") + "\t\n"
        #expect(try RSAPublicKey(pemRepresentation: crlf) == key.publicKey)
    }

    @Test(
        "openssl decrypts what both engines encrypt, for SHA-1 and SHA-256 OAEP",
        .enabled(if: OpenSSLTool.path != nil, "needs the openssl tool"),
        arguments: [RSAEngine.openSSL, .gmp], [DigestAlgorithm.sha1, .sha256])
    func openSSLToolDecrypts(engine: RSAEngine, hash: DigestAlgorithm) throws {
        let forms = try #require(OpenSSLForms.shared)
        let key = try RSAPublicKey(pemRepresentation: forms.spkiPEM)
        let message = try SecureRandom.bytes(64)
        let ciphertext = try key.encryptOAEP(message, hash: hash, engine: engine)
        let keyFile = FileManager.default.temporaryDirectory.appendingPathComponent("cse-test-\(UUID().uuidString).pem")
        try forms.pkcs8PEM.write(to: keyFile, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: keyFile) }
        let md = hash == .sha1 ? "sha1" : "sha256"
        let plaintext = try OpenSSLTool.run(
            [
                "pkeyutl", "-decrypt", "-inkey", keyFile.path, "-pkeyopt", "rsa_padding_mode:oaep",
                "-pkeyopt", "rsa_oaep_md:\(md)", "-pkeyopt", "rsa_mgf1_md:\(md)",
            ],
            stdin: Data(ciphertext))
        #expect(Array(plaintext) == message, "\(engine) \(hash)")
    }

    @Test("a generated key exports to PKCS#8 PEM and SPKI PEM that import back to the same key")
    func generatedRoundTrip() throws {
        let key = GeneratedKeys.rsa2048
        #expect(key.bitCount == 2048 && key.publicKey.exponent == [1, 0, 1])
        let again = try RSAPrivateKey(pemRepresentation: try key.pemRepresentation)
        #expect(again.publicKey == key.publicKey)
        #expect(try RSAPublicKey(pemRepresentation: key.publicKey.pemRepresentation) == key.publicKey)
        #expect(try RSAPublicKey(derRepresentation: key.publicKey.pkcs1DERRepresentation) == key.publicKey)
        #expect(try RSAPrivateKey(derRepresentation: try key.derRepresentation.unsafeCopyToArray()).publicKey == key.publicKey)
    }

    @Test("descriptions and mirrors never show key material")
    func descriptions() {
        let key = GeneratedKeys.rsa2048
        #expect(key.description == "RSAPrivateKey(2048 bits)")
        #expect(key.publicKey.description == "RSAPublicKey(2048 bits)")
        #expect(String(reflecting: key) == "RSAPrivateKey(2048 bits)")
        var dumped = ""
        dump(key, to: &dumped)
        dump(key.publicKey, to: &dumped)
        #expect(!dumped.contains(Hex.encode(key.publicKey.modulus.prefix(8))))
        #expect(Mirror(reflecting: key).children.isEmpty && Mirror(reflecting: key.publicKey).children.isEmpty)
    }

    // MARK: Client API response

    @Test("the Client API public-key response yields the keyId and the SPKI key")
    func clientAPIResponse() throws {
        let key = GeneratedKeys.rsa2048.publicKey
        let body = #"{"keyId":"86b64e4e-f43e-4a27-9863-9bbd5b499f82","publicKey":"\#(Base64.encode(key.derRepresentation))"}"#
        let response = try PublicKeyResponse(json: Array(body.utf8))
        #expect(response.keyID == "86b64e4e-f43e-4a27-9863-9bbd5b499f82")
        #expect(response.key == key)
        #expect(
            response.key.derRepresentation.prefix(24) == [
                0x30, 0x82, 0x01, 0x22, 0x30, 0x0D, 0x06, 0x09, 0x2A, 0x86, 0x48, 0x86,
                0xF7, 0x0D, 0x01, 0x01, 0x01, 0x05, 0x00, 0x03, 0x82, 0x01, 0x0F, 0x00,
            ])
        // A 4096-bit key works too (the reference SDKs accept only 2048).
        let big = GeneratedKeys.rsa4096.publicKey
        let bigBody = #"{"publicKey":"\#(Base64.encode(big.derRepresentation))","keyId":"k2","extra":1}"#
        #expect(try PublicKeyResponse(json: Array(bigBody.utf8)).key == big)
    }

    @Test(
        "malformed Client API responses are refused with a specific code",
        arguments: [
            (#"not json"#, "keyResponse.malformed"),
            (#"[]"#, "keyResponse.malformed"),
            (#"{"publicKey":"MIIB"}"#, "keyResponse.malformed"),
            (#"{"keyId":"","publicKey":"MIIB"}"#, "keyResponse.malformed"),
            (#"{"keyId":7,"publicKey":"MIIB"}"#, "keyResponse.malformed"),
            (#"{"keyId":"k"}"#, "keyResponse.malformed"),
            (#"{"keyId":"k","publicKey":"MIIB-_"}"#, "keyResponse.malformed"),
            (#"{"keyId":"k","publicKey":"MIIB\n"}"#, "keyResponse.malformed"),
            (#"{"keyId":"k","publicKey":"MAA="}"#, "der.truncated"),
        ])
    func clientAPIRejects(body: String, code: String) {
        #expect(throws: CSEError(.init(code), "")) { try PublicKeyResponse(json: Array(body.utf8)) }
    }

    @Test("a Client API response holding a PKCS#1 key instead of an SPKI is refused")
    func clientAPIRequiresSPKI() {
        let key = GeneratedKeys.rsa2048.publicKey
        let body = #"{"keyId":"k","publicKey":"\#(Base64.encode(key.pkcs1DERRepresentation))"}"#
        #expect(throws: CSEError(.derMalformed, "")) { try PublicKeyResponse(json: Array(body.utf8)) }
    }

    // MARK: Policy rejects

    @Test(
        "a 1024-bit key is refused by the checked initializers but accepted by the unsafe ones",
        .enabled(if: RSAVectors.available, "needs ../shared/vectors/rsa-oaep"))
    func smallKey() throws {
        let example = try #require(RSAVectors.sha1Examples.first)
        let unsafeKey = try RSAPublicKey(unsafeModulus: example.n, exponent: example.e)
        #expect(unsafeKey.bitCount == 1024)
        #expect(throws: CSEError(.keyTooSmall, "")) { try RSAPublicKey(modulus: example.n, exponent: example.e) }
        #expect(throws: CSEError(.keyTooSmall, "")) { try RSAPublicKey(derRepresentation: unsafeKey.derRepresentation) }
        #expect(throws: CSEError(.keyTooSmall, "")) { try RSAPublicKey(pemRepresentation: unsafeKey.pemRepresentation) }
        #expect(try RSAPublicKey(unsafeDERRepresentation: unsafeKey.derRepresentation) == unsafeKey)
        let privateKey = try OAEPKnownAnswerTests.privateKey(example)
        #expect(throws: CSEError(.keyTooSmall, "")) { try RSAPrivateKey(pemRepresentation: try privateKey.pemRepresentation) }
        #expect(try RSAPrivateKey(unsafeDERRepresentation: try privateKey.derRepresentation.unsafeCopyToArray()).publicKey == unsafeKey)
        #expect(throws: CSEError(.keyTooSmall, "")) { try RSAPrivateKey.generate(bits: 1024) }
        #expect(throws: CSEError(.keyTooLarge, "")) { try RSAPrivateKey.generate(bits: 16385) }
    }

    static let modulus2048 = GeneratedKeys.rsa2048.publicKey.modulus

    @Test(
        "exponents that are even, tiny, 1 or 2^256 and above are refused",
        arguments: [
            ([0x03], "key.badExponent"),
            ([0x01, 0x00, 0x00], "key.badExponent"),
            ([0x01], "key.badExponent"),
            ([0x00], "key.badExponent"),
            ([0xFF, 0xFF], "key.badExponent"),
            ([0x01] + [UInt8](repeating: 0, count: 31) + [0x01], "key.badExponent"),
        ] as [([UInt8], String)])
    func badExponents(exponent: [UInt8], code: String) {
        #expect(throws: CSEError(.init(code), "")) { try RSAPublicKey(modulus: Self.modulus2048, exponent: exponent) }
    }

    @Test("the largest allowed exponent (2^256 − 1) and e = 3 under the unsafe initializer are accepted")
    func edgeExponents() throws {
        _ = try RSAPublicKey(modulus: Self.modulus2048, exponent: [UInt8](repeating: 0xFF, count: 32))
        _ = try RSAPublicKey(unsafeModulus: Self.modulus2048, exponent: [0x03])
        #expect(throws: CSEError(.keyBadExponent, "")) { try RSAPublicKey(unsafeModulus: Self.modulus2048, exponent: [0x02]) }
    }

    @Test("an even, zero or oversized modulus is refused")
    func badModuli() {
        var even = Self.modulus2048
        even[even.count - 1] &= 0xFE
        #expect(throws: CSEError(.keyMalformed, "")) { try RSAPublicKey(modulus: even, exponent: [1, 0, 1]) }
        #expect(throws: CSEError(.keyMalformed, "")) { try RSAPublicKey(modulus: [0, 0], exponent: [1, 0, 1]) }
        let huge = [UInt8](repeating: 0xFF, count: 16384 / 8 + 1)
        #expect(throws: CSEError(.keyTooLarge, "")) { try RSAPublicKey(modulus: huge, exponent: [1, 0, 1]) }
    }

    @Test("trailing bytes after a DER key are refused, at the top level and inside the BIT STRING")
    func trailingBytes() throws {
        let key = GeneratedKeys.rsa2048
        #expect(throws: CSEError(.derMalformed, "")) { try RSAPublicKey(derRepresentation: key.publicKey.derRepresentation + [0]) }
        #expect(throws: CSEError(.derMalformed, "")) { try RSAPublicKey(derRepresentation: key.publicKey.pkcs1DERRepresentation + [0]) }
        let pkcs8 = try key.derRepresentation.unsafeCopyToArray()
        #expect(throws: CSEError(.derMalformed, "")) { try RSAPrivateKey(derRepresentation: pkcs8 + [0x05, 0x00]) }
        // SPKI whose BIT STRING holds the PKCS#1 key plus one extra byte (lengths adjusted).
        let pkcs1 = key.publicKey.pkcs1DERRepresentation + [0x00]
        var inner: [UInt8] = [0x30, 0x0D, 0x06, 0x09] + [0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x01, 0x01] + [0x05, 0x00]
        inner += [0x03, 0x82, UInt8((pkcs1.count + 1) >> 8), UInt8((pkcs1.count + 1) & 0xFF), 0x00] + pkcs1
        let spki = [0x30, 0x82, UInt8(inner.count >> 8), UInt8(inner.count & 0xFF)] + inner
        #expect(throws: CSEError(.derMalformed, "")) { try RSAPublicKey(derRepresentation: spki) }
    }

    @Test("an SPKI of another algorithm, or with absent parameters, is refused")
    func wrongAlgorithm() throws {
        // id-ecPublicKey with prime256v1 and a dummy point.
        let ecSPKI: [UInt8] = [
            0x30, 0x19, 0x30, 0x13, 0x06, 0x07, 0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x02, 0x01, 0x06, 0x08,
            0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x03, 0x01, 0x07, 0x03, 0x02, 0x00, 0x04,
        ]
        #expect(throws: CSEError(.keyUnsupportedType, "")) { try RSAPublicKey(derRepresentation: ecSPKI) }
        let pkcs1 = GeneratedKeys.rsa2048.publicKey.pkcs1DERRepresentation
        var inner: [UInt8] = [0x30, 0x0B, 0x06, 0x09, 0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x01, 0x01]
        inner += [0x03, 0x82, UInt8((pkcs1.count + 1) >> 8), UInt8((pkcs1.count + 1) & 0xFF), 0x00] + pkcs1
        let noNull = [0x30, 0x82, UInt8(inner.count >> 8), UInt8(inner.count & 0xFF)] + inner
        #expect(throws: CSEError(.keyMalformed, "")) { try RSAPublicKey(derRepresentation: noNull) }
    }

    @Test(
        "private components that do not belong together are refused, naming the failed check",
        .enabled(if: RSAVectors.available, "needs ../shared/vectors/rsa-oaep"),
        arguments: ["d", "p=q", "dp", "dq", "qi", "qi+p", "p=1"])
    func inconsistentPrivateKey(change: String) throws {
        let x = try #require(RSAVectors.sha1Examples.last)  // the 2048-bit key
        var (d, p, q, dp, dq, qi) = (x.d, x.p, x.q, x.dp, x.dq, x.qinv)
        func flip(_ bytes: inout [UInt8]) { bytes[bytes.count - 1] ^= 0x02 }
        let expected: String
        switch change {
        case "d": flip(&d); expected = "e·d ≡ 1"
        case "p=q": p = q; expected = "n = p·q"
        case "dp": flip(&dp); expected = "dP, dQ"
        case "dq": flip(&dq); expected = "dP, dQ"
        case "qi": flip(&qi); expected = "qInv"
        case "qi+p":
            // qInv + p is ≡ qInv (mod p) but not reduced.
            var sum = [UInt8](repeating: 0, count: max(qi.count, p.count) + 1)
            var carry = 0
            for i in 0..<sum.count {
                let a = i < qi.count ? Int(qi[qi.count - 1 - i]) : 0, b = i < p.count ? Int(p[p.count - 1 - i]) : 0
                sum[sum.count - 1 - i] = UInt8((a + b + carry) & 0xFF)
                carry = (a + b + carry) >> 8
            }
            qi = sum
            expected = "qInv"
        default: p = [1]; expected = "p, q > 1"
        }
        do {
            _ = try RSAPrivateKey(
                unsafeModulus: x.n, publicExponent: x.e, privateExponent: d, prime1: p, prime2: q,
                exponent1: dp, exponent2: dq, coefficient: qi)
            Issue.record("\(change): an inconsistent key was accepted")
        } catch {
            #expect(error.code == .keyMalformed && error.context["check"] == expected, "\(change): \(error)")
        }
    }

    // MARK: PEM and JWK rejects

    @Test("PEM with the wrong label, mismatched labels or a bad body is refused")
    func pemRejects() throws {
        let key = GeneratedKeys.rsa2048
        let spki = key.publicKey.pemRepresentation
        #expect(throws: CSEError(.pemUnexpectedLabel, "")) {
            try RSAPublicKey(pemRepresentation: spki.replacingOccurrences(of: "PUBLIC KEY", with: "CERTIFICATE"))
        }
        #expect(throws: CSEError(.pemUnexpectedLabel, "")) { try RSAPublicKey(pemRepresentation: try key.pemRepresentation) }
        #expect(throws: CSEError(.pemUnexpectedLabel, "")) { try RSAPrivateKey(pemRepresentation: spki) }
        #expect(throws: CSEError(.pemMalformed, "")) {
            try RSAPublicKey(pemRepresentation: spki.replacingOccurrences(of: "END PUBLIC KEY", with: "END RSA PUBLIC KEY"))
        }
        #expect(throws: CSEError(.pemMalformed, "")) { try RSAPublicKey(pemRepresentation: spki + spki) }
        #expect(throws: CSEError(.pemMalformed, "")) { try RSAPublicKey(pemRepresentation: "junk\n" + spki) }
        #expect(throws: CSEError(.pemMalformed, "")) {
            try RSAPublicKey(pemRepresentation: spki.replacingOccurrences(of: "-----\n", with: "-----\nProc-Type: 4,ENCRYPTED\n\n"))
        }
        #expect(throws: CSEError(.pemMalformed, "")) { try RSAPublicKey(pemRepresentation: spki.replacingOccurrences(of: "M", with: "*")) }
        #expect(throws: CSEError(.pemMalformed, "")) {
            try RSAPublicKey(pemRepresentation: spki.replacingOccurrences(of: "\n", with: "\n\n"))
        }
        #expect(throws: CSEError(.pemMalformed, "")) {
            try RSAPublicKey(pemRepresentation: "-----BEGIN PUBLIC KEY-----\n-----END PUBLIC KEY-----\n")
        }
        // A PKCS#1 body under the PKCS#8 label (and the reverse) is refused.
        let pkcs1Body = key.publicKey.pkcs1DERRepresentation
        let mislabelled = "-----BEGIN PUBLIC KEY-----\n\(Base64.encode(pkcs1Body))\n-----END PUBLIC KEY-----\n"
        #expect(throws: CSEError(.derMalformed, "")) { try RSAPublicKey(pemRepresentation: mislabelled) }
        let spkiUnderPKCS1 =
            "-----BEGIN RSA PUBLIC KEY-----\n\(Base64.encode(key.publicKey.derRepresentation))\n-----END RSA PUBLIC KEY-----\n"
        #expect(throws: CSEError(.derMalformed, "")) { try RSAPublicKey(pemRepresentation: spkiUnderPKCS1) }
    }

    static let n =
        "n4EPtAOCc9AlkeQHPzHStgAbgs7bTZLwUBZdR8_KuKPEHLd4rHVTeT-O-XV2jRojdNhxJWTDvNd7nqQ0VEiZQHz_AJmSCpMaJMRBSFKrKb2wqVwGU_NsYOYL-QtiWN2lbzcEe6XC0dApr5ydQLrHqkHHig3RBordaZ6Aj-oBHqFEHYpPe7Tpe-OfVfHd1E6cS6M1FZcD1NNLYD5lFHpPI9bTwJlsde3uhGqC0ZCuEHg8lhzwOHrtIQbS0FVbb9k3-tVTU4fg_3L_vniUFAKwuCLqKnS2BYwdq_mzSnbLY7h_qixoR7jig3__kRhuaxwUkRz5iaiQkqgc5gHdrNP5zw"

    @Test(
        "JWKs with the wrong kty, missing or non-base64url members are refused",
        arguments: [
            (#"{"kty":"EC","n":"\#(n)","e":"AQAB"}"#, "key.unsupportedType"),
            (#"{"kty":"oct","k":"AAAA"}"#, "key.unsupportedType"),
            (#"{"n":"\#(n)","e":"AQAB"}"#, "jwk.malformed"),
            (#"{"kty":1,"n":"\#(n)","e":"AQAB"}"#, "jwk.malformed"),
            (#"{"kty":"RSA","e":"AQAB"}"#, "jwk.malformed"),
            (#"{"kty":"RSA","n":"\#(n)"}"#, "jwk.malformed"),
            (#"{"kty":"RSA","n":"\#(n)","e":65537}"#, "jwk.malformed"),
            (#"{"kty":"RSA","n":"\#(n)=","e":"AQAB"}"#, "jwk.malformed"),
            (#"{"kty":"RSA","n":"\#(n.replacingOccurrences(of: "_", with: "/"))","e":"AQAB"}"#, "jwk.malformed"),
            (#"{"kty":"RSA","n":"AA\#(n)","e":"AQAB"}"#, "jwk.malformed"),
            (#"{"kty":"RSA","n":"\#(n)","e":"AAEAAQ"}"#, "jwk.malformed"),
            (#"{"kty":"RSA","n":"\#(n)","e":"Aw"}"#, "key.badExponent"),
            (#"{"kty":"RSA","n":"\#(n)","e":"AQAB","oth":[]}"#, "key.unsupportedType"),
            (#"{"kty":"RSA","n":"\#(n)","e":"AQAB""#, "jwk.malformed"),
            (#"["RSA"]"#, "jwk.malformed"),
        ])
    func jwkRejects(json: String, code: String) {
        #expect(throws: CSEError(.init(code), "")) { try RSAPublicKey(jwkRepresentation: Array(json.utf8)) }
    }

    @Test(
        "a private JWK missing a CRT member is refused", .enabled(if: RSAVectors.available, "needs ../shared/vectors/jose"),
        arguments: ["p", "q", "dp", "dq", "qi"])
    func privateJWKMissingMember(member: String) throws {
        var object = try #require(try JSONValue.parse(try Self.cookbookKey("jwk_3_4.rsa_private_key.json")).objectValue)
        object[member] = nil
        #expect(throws: CSEError(.jwkMalformed, "")) { try RSAPrivateKey(jwk: .object(object)) }
    }
}
