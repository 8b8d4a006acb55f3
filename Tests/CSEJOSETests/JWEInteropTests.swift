import CSECore
import CSECrypto
import CSEJOSE
import Testing
import TestSupport

/// Interop with a JOSE implementation we did not write: Debian's python3-jwcrypto.
@Suite(
    "JWE: interop with python3-jwcrypto",
    .enabled(if: JWCryptoOracle.isAvailable, "needs /usr/bin/python3 with python3-jwcrypto (apt-get install python3-jwcrypto)"))
struct JWEInteropTests {
    static let plaintexts: [[UInt8]] = [
        Array(
            #"{"clientSessionId":"s-1","nonce":"0123456789abcdef0123456789abcdef","paymentProductId":1,"paymentValues":[{"key":"cardNumber","value":"4111111111111111"}]}"#
                .utf8),
        [],
        Array("é€😀 \u{0}\n\"".utf8),
        [UInt8](repeating: 0xAB, count: 4_097),
    ]

    @Test("jwcrypto decrypts our output for every alg × enc pair", arguments: [2048, 4096])
    func jwcryptoDecryptsOurs(bits: Int) throws {
        let key = bits == 2048 ? JOSEVectors.key2048 : JOSEVectors.key4096
        var tokens: [String] = []
        var expected: [[UInt8]] = []
        for (alg, enc) in JOSEVectors.pairs {
            let encryptor = try JWEEncryptor(publicKey: key.publicKey, keyID: "kid-\(bits)", algorithm: alg, encryption: enc)
            // jwcrypto 1.1 (Debian 12) cannot decrypt an empty payload, not even its own JWE
            // ("No recipient matched"), so the empty plaintext is checked in the other direction only.
            for plaintext in Self.plaintexts where !plaintext.isEmpty {
                tokens.append(try encryptor.encrypt(plaintext))
                expected.append(plaintext)
            }
        }
        let results = try JWCryptoOracle.decrypt(tokens, privateKeyPEM: try key.pemRepresentation)
        #expect(results.count == tokens.count)
        #expect(tokens.count == JOSEVectors.pairs.count * 3)
        for (index, result) in results.enumerated() {
            let perPair = Self.plaintexts.count - 1
            let (alg, enc) = JOSEVectors.pairs[index / perPair]
            #expect(result == expected[index], "jwcrypto failed on \(alg) + \(enc), RSA-\(bits), plaintext #\(index % perPair)")
        }
    }

    @Test("we decrypt jwcrypto's output for every alg × enc pair", arguments: [2048, 4096])
    func weDecryptJwcrypto(bits: Int) throws {
        let key = bits == 2048 ? JOSEVectors.key2048 : JOSEVectors.key4096
        let decryptor = try JWEDecryptor(privateKey: key, expectedKeyID: "their-kid")
        for (alg, enc) in JOSEVectors.pairs {
            let tokens = try JWCryptoOracle.encrypt(
                Self.plaintexts, publicKeyPEM: key.publicKey.pemRepresentation, alg: alg.name, enc: enc.name, kid: "their-kid")
            #expect(tokens.count == Self.plaintexts.count)
            for (token, plaintext) in zip(tokens, Self.plaintexts) {
                let result = try decryptor.decrypt(token)
                #expect(result.plaintext.unsafeCopyToArray() == plaintext, "\(alg) + \(enc), RSA-\(bits)")
                #expect(result.header.algorithm == alg && result.header.encryption == enc)
            }
        }
    }

    @Test("jwcrypto reads our Worldline header exactly")
    func headerAsSeenByJwcrypto() throws {
        let token = try JWEEncryptor(publicKey: JOSEVectors.key2048.publicKey, keyID: "86b64e4e-f43e-4a27-9863-9bbd5b499f82").encrypt(
            "x".utf8)
        let header = try JWCryptoOracle.run([JWCryptoOracle.script, "header"], input: token + "\n")
        #expect(header == [#"{"alg": "RSA-OAEP", "enc": "A256CBC-HS512", "kid": "86b64e4e-f43e-4a27-9863-9bbd5b499f82"}"#])
    }
}
