import CSECore
@testable import CSECrypto
import Testing
import TestSupport

/// RFC 4231 §4.3, §4.7 and §4.8 (test cases 2, 6 and 7): a short key, and keys longer than the block
/// that must be hashed first, for all three SHA-2 sizes.
struct RFC4231Case: Sendable, CustomTestStringConvertible {
    let id: String
    let key: [UInt8]
    let data: String
    let sha256, sha384, sha512: String

    var testDescription: String { id }

    static let all: [RFC4231Case] = [
        RFC4231Case(
            id: "RFC 4231 §4.3 (test case 2)", key: Array("Jefe".utf8), data: "what do ya want for nothing?",
            sha256: "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843",
            sha384: "af45d2e376484031617f78d2b58a6b1b9c7ef464f5a01b47e42ec3736322445e8e2240ca5e69e2c78b3239ecfab21649",
            sha512: "164b7a7bfcf819e2e395fbe73b56e0a387bd64222e831fd610270cd7ea2505549758bf75c05a994a6d034f65f8f0e6fd"
                + "caeab1a34d4a6b4b636e070a38bce737"),
        RFC4231Case(
            id: "RFC 4231 §4.7 (test case 6)", key: Array(repeating: 0xaa, count: 131),
            data: "Test Using Larger Than Block-Size Key - Hash Key First",
            sha256: "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54",
            sha384: "4ece084485813e9088d2c63a041bc5b44f9ef1012a2b588f3cd11f05033ac4c60c2ef6ab4030fe8296248df163f44952",
            sha512: "80b24263c7c1a3ebb71493c1dd7be8b49b46d1f41b4aeec1121b013783f8f3526b56d037e05f2598bd0fd2215d6a1e52"
                + "95e64f73f63f0aec8b915a985d786598"),
        RFC4231Case(
            id: "RFC 4231 §4.8 (test case 7)", key: Array(repeating: 0xaa, count: 131),
            data: "This is a test using a larger than block-size key and a larger than block-size data. The key needs"
                + " to be hashed before being used by the HMAC algorithm.",
            sha256: "9b09ffa71b942fcb27635fbcd5b0e944bfdc63644f0713938a7f51535c3a35e2",
            sha384: "6617178e941f020d351e2f254e8fd32c602420feb0b8fb9adccebb82461e99c5a678cc31e799176d3860e6110c46523e",
            sha512: "e37b6a775dc87dbaa4dfa9f96e5e3ffddebd71f8867289865df5a32d20cdc944b6022cac3c4982b10d5eeb55c3e4de15"
                + "134676fb6de0446065c97440fa8c6a58"),
    ]
}

@Suite("HMAC-SHA-2 (RFC 2104, RFC 4231)")
struct HMACTests {
    @Test("HMAC-SHA-256/384/512 give the RFC 4231 outputs", arguments: RFC4231Case.all)
    func rfc4231(vector: RFC4231Case) throws {
        let key = SecureBytes(vector.key), data = Array(vector.data.utf8)
        for (algorithm, expected) in [
            (HMAC.Algorithm.sha256, vector.sha256), (.sha384, vector.sha384),
            (.sha512, vector.sha512),
        ] {
            let mac = try HMAC.authenticationCode(algorithm, key: key, message: data.span.bytes)
            #expect(Hex.encode(mac) == expected, "\(vector.id) \(algorithm)")
            #expect(
                try HMAC.isValidAuthenticationCode(
                    Hex.decode(expected).span.bytes, algorithm: algorithm, key: key,
                    message: data.span.bytes), "\(vector.id) \(algorithm)")
        }
    }

    @Test("the algorithms have the FIPS 180-4 output and block sizes")
    func sizes() {
        let table = [HMAC.Algorithm.sha256, .sha384, .sha512].map {
            "\($0) \($0.digestByteCount) \($0.blockByteCount) \($0.minimumTagByteCount)"
        }
        #expect(table == ["HMAC-SHA-256 32 64 16", "HMAC-SHA-384 48 128 24", "HMAC-SHA-512 64 128 32"])
    }

    @Test("tags shorter than half the output or longer than the output are refused with invalidTagLength")
    func tagLengthBounds() throws {
        let key = SecureBytes(zeros: 32), message = Array("m".utf8)
        for (algorithm, counts) in [
            (HMAC.Algorithm.sha256, [0, 1, 15, 33]), (.sha384, [16, 23, 49]),
            (.sha512, [16, 31, 65]),
        ] {
            for count in counts {
                let tag = [UInt8](repeating: 0, count: count)
                let error = SymmetricTestSupport.error {
                    try HMAC.isValidAuthenticationCode(
                        tag.span.bytes, algorithm: algorithm, key: key,
                        message: message.span.bytes)
                }
                #expect(error?.code == .invalidTagLength, "\(algorithm), \(count)-byte tag")
            }
        }
        // The shortest accepted truncation is checked, not just accepted.
        let full = try HMAC.authenticationCode(.sha512, key: key, message: message.span.bytes)
        #expect(
            try HMAC.isValidAuthenticationCode(
                Array(full.prefix(32)).span.bytes, algorithm: .sha512, key: key,
                message: message.span.bytes))
        var wrong = Array(full.prefix(32))
        wrong[31] ^= 1
        #expect(
            try !HMAC.isValidAuthenticationCode(
                wrong.span.bytes, algorithm: .sha512, key: key,
                message: message.span.bytes))
    }

    /// Keys of exactly the block length B (used as they are) and B + 1 (hashed first), the edges of
    /// RFC 2104 §2's key rule that RFC 4231 does not hit. key[i] = 0x0b + i, message[i] = 7·i (mod 256),
    /// 300 bytes; expected values from Python's `hmac.new(key, message, hash)`, checked against a
    /// direct hashlib computation of H((K0 ⊕ opad) ‖ H((K0 ⊕ ipad) ‖ text)).
    @Test(
        "keys of exactly the block length and one byte longer",
        arguments: [
            (HMAC.Algorithm.sha256, 64, "74a87e4449d2ba659f83edf1a828edcb44017a518a694b4951bf6ef0efcc8b75"),
            (HMAC.Algorithm.sha256, 65, "7a7b0bc7ae7ff1866867d901b21cc0991984d19a675f5f9851aa69291cf8bd66"),
            (
                HMAC.Algorithm.sha384, 128,
                "b7b7a78e02d0fa68e476df6cfb0138e6fd39a08ba35fea2638f968d234357fbffdf66750af82dcc8e16155f4f1d9e6ac"
            ),
            (
                HMAC.Algorithm.sha384, 129,
                "41bdc54af8d546fa4fe92c035b6015cca048ecdcffae798390a66966d290a0bce7c2eb095c2ad28535a8634d5faac94f"
            ),
            (
                HMAC.Algorithm.sha512, 128,
                "2617390a754554ad8eb9c96facaa7d03689af11e7e2179f713c9c879662376518042316fef69a3f78fbfddf2b6456540"
                    + "ac819b2a68b86e5f8a7848913c9d1e96"
            ),
            (
                HMAC.Algorithm.sha512, 129,
                "029b52a65e52c6827aebb4cca31d9702cad82d5561735470275cec809a41f82b0beac847b80f84b9975f42e120fbfa21"
                    + "6f207d398332d4de4629a2c7507bcdf4"
            ),
        ])
    func blockLengthKeys(algorithm: HMAC.Algorithm, keyLength: Int, expected: String) throws {
        let key = SecureBytes((0..<keyLength).map { UInt8(truncatingIfNeeded: 0x0b + $0) })
        let message = (0..<300).map { UInt8(truncatingIfNeeded: $0 &* 7) }
        let mac = try HMAC.authenticationCode(algorithm, key: key, message: message.span.bytes)
        #expect(Hex.encode(mac) == expected)
    }

    @Test(
        "the HMAC of four parts is the HMAC of their concatenation, empty parts included",
        arguments: [HMAC.Algorithm.sha256, .sha384, .sha512])
    func parts(algorithm: HMAC.Algorithm) throws {
        let key = SecureBytes((0..<129).map { UInt8(truncatingIfNeeded: 0x0b + $0) })
        let message = (0..<300).map { UInt8(truncatingIfNeeded: $0 &* 7) }
        let whole = try HMAC.authenticationCode(algorithm, key: key, message: message.span.bytes)
        for cuts in [(0, 0, 0), (0, 150, 300), (1, 64, 299), (128, 129, 257), (300, 300, 300)] {
            var mac = [UInt8](repeating: 0, count: algorithm.digestByteCount)
            try key.withUnsafeBytes { k in
                try message.withUnsafeBytes { m in
                    try mac.withUnsafeMutableBytes { out in
                        try HMAC.compute(
                            algorithm, key: k, UnsafeRawBufferPointer(rebasing: m[0..<cuts.0]),
                            UnsafeRawBufferPointer(rebasing: m[cuts.0..<cuts.1]), UnsafeRawBufferPointer(rebasing: m[cuts.1..<cuts.2]),
                            UnsafeRawBufferPointer(rebasing: m[cuts.2...]), into: out.baseAddress!)
                    }
                }
            }
            #expect(mac == whole, "\(algorithm) cut at \(cuts)")
        }
    }

    @Test("an empty key and an empty message are valid HMAC inputs")
    func emptyInputs() throws {
        // RFC 2104 allows any key length. HMAC-SHA-256("", "") is the widely published value (e.g. the
        // examples of the Wikipedia HMAC article).
        let mac = try HMAC.authenticationCode(.sha256, key: SecureBytes(zeros: 0), message: [UInt8]().span.bytes)
        #expect(Hex.encode(mac) == "b613679a0814d9ec772f95d778c35fc5ff1697c493715653c6c712144292c5ad")
    }
}
