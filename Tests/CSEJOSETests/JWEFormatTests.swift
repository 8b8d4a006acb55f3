import CSECore
import CSECrypto
import CSEJOSE
import Foundation
import Testing
import TestSupport

@Suite("JWE: wire format, allow-lists and strict compact parsing (RFC 7516 §7.1)")
struct JWEFormatTests {
    static let key = JOSEVectors.key2048

    @Test("the default protected header is exactly the Worldline one")
    func worldlineHeader() throws {
        let encryptor = try JWEEncryptor(publicKey: Self.key.publicKey, keyID: "86b64e4e-f43e-4a27-9863-9bbd5b499f82")
        #expect(encryptor.protectedHeaderJSON == #"{"alg":"RSA-OAEP","enc":"A256CBC-HS512","kid":"86b64e4e-f43e-4a27-9863-9bbd5b499f82"}"#)
        let jwe = try encryptor.encrypt("{}".utf8)
        let segments = jwe.split(separator: ".", omittingEmptySubsequences: false)
        #expect(segments.count == 5)
        #expect(try Base64URL.decode(segments[0]) == Array(encryptor.protectedHeaderJSON.utf8))
        #expect(try Base64URL.decode(segments[1]).count == 256, "RSA-2048 encrypted key")
        #expect(try Base64URL.decode(segments[2]).count == 16, "A256CBC-HS512 IV")
        #expect(try Base64URL.decode(segments[3]).count == 16, "one AES block for 2 bytes")
        #expect(try Base64URL.decode(segments[4]).count == 32, "A256CBC-HS512 tag T_LEN")
    }

    @Test("the kid is JSON-escaped, never interpolated raw")
    func kidEscaping() throws {
        let encryptor = try JWEEncryptor(publicKey: Self.key.publicKey, keyID: "a\"b\\c\n\u{1}é")
        #expect(encryptor.protectedHeaderJSON == #"{"alg":"RSA-OAEP","enc":"A256CBC-HS512","kid":"a\"b\\c\n\u0001é"}"#)
        let result = try JWEDecryptor(privateKey: Self.key).decrypt(try encryptor.encrypt("x".utf8))
        #expect(result.header.keyID == "a\"b\\c\n\u{1}é")
    }

    @Test("keys under 2048 bits are refused by the public JWE API")
    func keySizePolicy() throws {
        let body = Self.test1024BitKeyPEM.split(separator: "\n").filter { !$0.hasPrefix("-----") }.joined()
        let small = try RSAPrivateKey(unsafeDERRepresentation: try Base64.decode(body))
        #expect(small.bitCount == 1024)
        let e1 = #expect(throws: CSEError.self) { _ = try JWEEncryptor(publicKey: small.publicKey, keyID: nil) }
        #expect(e1?.code == .jweKeyTooSmall)
        let e2 = #expect(throws: CSEError.self) { _ = try JWEDecryptor(privateKey: small) }
        #expect(e2?.code == .jweKeyTooSmall)
    }

    /// A 1024-bit test key (below policy), generated with `openssl genpkey` for this test only.
    static let test1024BitKeyPEM = """
        -----BEGIN PRIVATE KEY-----
        MIICeQIBADANBgkqhkiG9w0BAQEFAASCAmMwggJfAgEAAoGBAMWFj0K/7RLBI/lW
        myLB6pcdV0txlFFstWThvGhmIkp2FF6VO4rhDKqj8huyuwJffrEaO9EZJCLxLzbL
        FfmKDA48/vk/b+D+jeK+yPC1gGuPxUw5+ynnT4yQkU/i4IqCIu0jFZz8EH4Uirtu
        DQbSygRmL/G/efSjPUU8T/PhmtTxAgMBAAECgYEAsKph1WkGaUTYoTYGMdNRuHFk
        17Sx3RYnNCD3PEVFnGX6mBJQHEpn4uQaMw3sWBYDofH92GrtOFeSTCbe87+2QR98
        Al1P3SvJmq/wkF+mVmJsh6e8yCnSV7wxd8Bn+tv1LJ07QSFg9ErF8LHhoM9gEMJB
        kYkawI+YIi+/4nob7tUCQQDnsomycwyEtUcOfHUeYyQO7LBwRmcVlHD1Fxtfy9N3
        EvkEGF2pXsY35Pb8qjGdlN5nPR3bKbU+7V6r3wX6YL2zAkEA2j1Y5nyD/wrD0VYn
        sWBchRvop/vnwojjylwcLYRtBqI56MYT3qHHZLF92aDoOAVNvvc2omMmocVD1ELa
        WuX4ywJBAJgjMqlbRBgL1EmdzWWTocSvBDfk8qFH5Ff6wT3I3+TrL1nSCgZBthRT
        ox5LPuMDMnpFtkoHe/yC7swaWJmMVmMCQQC8Xo04TCtGXQ1Nx7Z1BH53KfKz49tT
        7wHmrYBozU+plSa0wxttY2gOgqDk0lz91Z4YgZr3qOs0YGc+dAGyyaLnAkEAoFWd
        7fvbF7z0y0Q+0H0qeBv5uEAxWoarQSVE2nJrt12WI6+DkZ690XGmMRK/d3tSTOEe
        mMT6yZmZ6Rtm0IcUTA==
        -----END PRIVATE KEY-----
        """

    static func token(header: String, key: RSAPrivateKey = key, enc: JWEContentEncryption = .a256cbcHS512) throws -> String {
        let valid = try JWEEncryptor(publicKey: key.publicKey, keyID: nil, encryption: enc).encrypt("payload".utf8)
        let rest = valid.split(separator: ".", omittingEmptySubsequences: false).dropFirst().joined(separator: ".")
        return Base64URL.encode(Array(header.utf8)) + "." + rest
    }

    @Test(
        "headers outside the allow-list are refused with their own code",
        arguments: [
            (#"{"alg":"RSA1_5","enc":"A256CBC-HS512"}"#, CSEError.Code.jweUnsupportedAlgorithm),
            (#"{"alg":"dir","enc":"A256CBC-HS512"}"#, .jweUnsupportedAlgorithm),
            (#"{"alg":"none","enc":"A256CBC-HS512"}"#, .jweUnsupportedAlgorithm),
            (#"{"alg":"A128KW","enc":"A256CBC-HS512"}"#, .jweUnsupportedAlgorithm),
            (#"{"alg":"rsa-oaep","enc":"A256CBC-HS512"}"#, .jweUnsupportedAlgorithm),
            (#"{"alg":"RSA-OAEP","enc":"A256CBC-HS256"}"#, .jweUnsupportedEncryption),
            (#"{"alg":"RSA-OAEP","enc":"A256CBC-HS512","zip":"DEF"}"#, .jweUnsupportedHeader),
            (#"{"alg":"RSA-OAEP","enc":"A256CBC-HS512","crit":["exp"],"exp":1}"#, .jweUnsupportedHeader),
            (#"{"alg":"RSA-OAEP","enc":"A256CBC-HS512","crit":[]}"#, .jweUnsupportedHeader),
            (#"{"alg":"RSA-OAEP"}"#, .jweMalformed),
            (#"{"enc":"A256CBC-HS512"}"#, .jweMalformed),
            (#"{"alg":1,"enc":"A256CBC-HS512"}"#, .jweMalformed),
            (#"{"alg":"RSA-OAEP","enc":"A256CBC-HS512","kid":7}"#, .jweMalformed),
            (#"["RSA-OAEP","A256CBC-HS512"]"#, .jweMalformed),
            (#""RSA-OAEP""#, .jweMalformed),
            (#"{"alg":"RSA-OAEP","enc":"A256CBC-HS512","alg":"dir"}"#, .jweMalformed),
            (#"{"alg":"RSA-OAEP","enc":"A256CBC-HS512"} x"#, .jweMalformed),
            ("{\"alg\":\"RSA-OAEP\",\"enc\":\"A256CBC-HS512\",\"kid\":\"\\ud800\"}", .jweMalformed),
        ])
    func allowList(header: String, code: CSEError.Code) throws {
        let error = #expect(throws: CSEError.self, "\(header)") {
            _ = try JWEDecryptor(privateKey: Self.key).decrypt(try Self.token(header: header))
        }
        #expect(error?.code == code, "\(header)")
    }

    @Test("the compact form must have exactly five strict base64url segments")
    func segmentRules() throws {
        let decryptor = try JWEDecryptor(privateKey: Self.key)
        let valid = try JWEEncryptor(publicKey: Self.key.publicKey, keyID: nil).encrypt("payload".utf8)
        let parts = valid.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        let malformed: [String] = [
            "", ".", "....", parts[0...3].joined(separator: "."), valid + ".", valid + ".x", "." + valid,
            parts[0] + "." + "." + parts[2...4].joined(separator: "."),  // empty encrypted key (dir)
            "." + parts[1...4].joined(separator: "."),  // empty header
            valid.replacingOccurrences(of: "-", with: "+"), valid + "=", parts[0] + "=." + parts[1...4].joined(separator: "."),
            valid.replacingOccurrences(of: ".", with: ". "), valid + "\n",
        ]
        for token in malformed where token != valid {
            let error = #expect(throws: CSEError.self) { _ = try decryptor.decrypt(token) }
            #expect(error?.code == .jweMalformed || error?.code == .jweDecryptionFailed, "\(token.prefix(40))…")
        }
    }

    @Test("IV and tag lengths are checked against the enc", arguments: JWEContentEncryption.allowList)
    func ivAndTagLengths(enc: JWEContentEncryption) throws {
        let decryptor = try JWEDecryptor(privateKey: Self.key)
        let valid = try JWEEncryptor(publicKey: Self.key.publicKey, keyID: nil, encryption: enc).encrypt("payload".utf8)
        var parts = valid.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        let iv = try Base64URL.decode(parts[2]), tag = try Base64URL.decode(parts[4])
        for (index, bytes) in [(2, iv + [0]), (2, Array(iv.dropLast())), (4, tag + [0]), (4, Array(tag.dropLast())), (4, [])] {
            let saved = parts[index]
            parts[index] = Base64URL.encode(bytes)
            let error = #expect(throws: CSEError.self) { _ = try decryptor.decrypt(parts.joined(separator: ".")) }
            #expect(error?.code == .jweMalformed, "\(enc) segment \(index + 1) length \(bytes.count)")
            parts[index] = saved
        }
    }

    @Test("size limits are enforced on both sides")
    func sizeLimits() throws {
        let limits = JWELimits(maxCompactBytes: 600, maxPlaintextBytes: 100)
        let encryptor = try JWEEncryptor(publicKey: Self.key.publicKey, keyID: nil, limits: limits)
        let e1 = #expect(throws: CSEError.self) { _ = try encryptor.encrypt([UInt8](repeating: 65, count: 101)) }
        #expect(e1?.code == .jweTooLarge)
        let big = try JWEEncryptor(publicKey: Self.key.publicKey, keyID: nil).encrypt([UInt8](repeating: 65, count: 1_000))
        let e2 = #expect(throws: CSEError.self) { _ = try JWEDecryptor(privateKey: Self.key, limits: limits).decrypt(big) }
        #expect(e2?.code == .jweTooLarge)
    }

    @Test("a JWE for another key id is refused when the decryptor expects a kid")
    func keyIDMismatch() throws {
        let jwe = try JWEEncryptor(publicKey: Self.key.publicKey, keyID: "key-1").encrypt("x".utf8)
        let error = #expect(throws: CSEError.self) { _ = try JWEDecryptor(privateKey: Self.key, expectedKeyID: "key-2").decrypt(jwe) }
        #expect(error?.code == .jweKeyIDMismatch)
    }

    @Test("two encryptions of the same plaintext differ (fresh CEK, IV and OAEP seed)")
    func freshRandomness() throws {
        let encryptor = try JWEEncryptor(publicKey: Self.key.publicKey, keyID: "k")
        let a = try encryptor.encrypt("same".utf8).split(separator: "."), b = try encryptor.encrypt("same".utf8).split(separator: ".")
        #expect(a[0] == b[0])
        #expect(a[1] != b[1] && a[2] != b[2] && a[3] != b[3] && a[4] != b[4])
    }

    @Test("the empty plaintext and non-ASCII UTF-8 round-trip through every enc", arguments: JWEContentEncryption.allowList)
    func edgePlaintexts(enc: JWEContentEncryption) throws {
        let encryptor = try JWEEncryptor(publicKey: Self.key.publicKey, keyID: nil, encryption: enc)
        let decryptor = try JWEDecryptor(privateKey: Self.key)
        for text in ["", "é€😀", String(repeating: "x", count: 10_000)] {
            #expect(try decryptor.decrypt(try encryptor.encrypt(text.utf8)).plaintext.unsafeCopyToArray() == Array(text.utf8))
        }
    }
}
