import CSECore
import CSECrypto
import Testing
import TestSupport

/// NIST SP 800-38A Appendix F.5 (CTR mode), re-expressed here: the four-block example plaintext,
/// the initial counter block f0f1…feff, and the AES-128 (F.5.1/F.5.2) and AES-256 (F.5.5/F.5.6)
/// keys and ciphertexts. (AES-192, F.5.3/F.5.4, is not offered: no wallet format uses it.)
@Suite("AES-CTR: NIST SP 800-38A F.5 known answers")
struct AESCTRKnownAnswerTests {
    private typealias S = SymmetricTestSupport

    private static let counter = Hex.decode("f0f1f2f3f4f5f6f7f8f9fafbfcfdfeff")
    private static let plaintext = Hex.decode(
        "6bc1bee22e409f96e93d7e117393172a" + "ae2d8a571e03ac9c9eb76fac45af8e51"
            + "30c81c46a35ce411e5fbc1191a0a52ef" + "f69f2445df4f9b17ad2b417be66c3710")

    private static let cases: [(name: String, key: String, ciphertext: String)] = [
        (
            "F.5.1 CTR-AES128", "2b7e151628aed2a6abf7158809cf4f3c",
            "874d6191b620e3261bef6864990db6ce" + "9806f66b7970fdff8617187bb9fffdff"
                + "5ae4df3edbd5d35e5b4f09020db03eab" + "1e031dda2fbe03d1792170a0f3009cee"
        ),
        (
            "F.5.5 CTR-AES256", "603deb1015ca71be2b73aef0857d77811f352c073b6108d72d9810a30914dff4",
            "601ec313775789a5b7a7f504bbf3d228" + "f443e3ca4d62b59aca84e990cacaf5c5"
                + "2b0930daa23de94ce87017ba2d84988d" + "dfc9c58db67aada613c2dd08457941a6"
        ),
    ]

    @Test("Encryption (F.5.1, F.5.5) and decryption (F.5.2, F.5.6) give the published blocks")
    func knownAnswers() throws {
        for item in Self.cases {
            let key = S.key(item.key)
            let expected = Hex.decode(item.ciphertext)
            let encrypted = try AES.CTR.apply(
                to: Self.plaintext.span.bytes, key: key, initialCounterBlock: Self.counter.span.bytes)
            #expect(S.bytes(encrypted) == expected, "\(item.name) encrypt")
            let decrypted = try AES.CTR.apply(to: expected.span.bytes, key: key, initialCounterBlock: Self.counter.span.bytes)
            #expect(S.bytes(decrypted) == Self.plaintext, "\(item.name) decrypt")
        }
    }

    @Test("A partial last block uses only the keystream bytes it needs (a prefix of the F.5.1 answer)")
    func partialBlock() throws {
        let key = S.key(Self.cases[0].key)
        let output = try AES.CTR.apply(
            to: Array(Self.plaintext.prefix(37)).span.bytes, key: key, initialCounterBlock: Self.counter.span.bytes)
        #expect(S.bytes(output) == Array(Hex.decode(Self.cases[0].ciphertext).prefix(37)))
        let empty = try AES.CTR.apply(to: [UInt8]().span.bytes, key: key, initialCounterBlock: Self.counter.span.bytes)
        #expect(empty.count == 0)
    }

    @Test("Keys of 24 or 15 bytes and counter blocks of 12 bytes are refused with typed errors")
    func parameters() {
        let counter = Self.counter
        for length in [15, 24] {
            let error = S.error {
                try AES.CTR.apply(
                    to: Self.plaintext.span.bytes, key: SecureBytes(zeros: length), initialCounterBlock: counter.span.bytes)
            }
            #expect(error?.code == .invalidSymmetricKeyLength)
        }
        let short = Array(counter.prefix(12))
        let error = S.error {
            try AES.CTR.apply(to: Self.plaintext.span.bytes, key: SecureBytes(zeros: 16), initialCounterBlock: short.span.bytes)
        }
        #expect(error?.code == .invalidIVLength)
    }
}
