import CSECore
import CSECrypto
import CSEJOSE
import Testing
import TestSupport

/// Drip-feed truncation of compact JWEs: every proper prefix of a valid JWE, for every allowed
/// `alg`/`enc` pair, fails with `jwe.malformed` (too few segments, a truncated segment, or an IV
/// or tag of the wrong length), never with a wrong success and never after a decryption attempt.
@Suite("Drip-feed: every truncation of a compact JWE fails with jwe.malformed")
struct DripFeedJWETests {
    static let key = JOSEVectors.key2048
    static let decryptor = try! JWEDecryptor(privateKey: key)

    @Test("every proper prefix of a JWE for each of the 12 alg/enc pairs", arguments: 0..<12)
    func prefixes(pair: Int) throws {
        let (alg, enc) = JOSEVectors.pairs[pair]
        let encryptor = try JWEEncryptor(publicKey: Self.key.publicKey, keyID: "kid-1", algorithm: alg, encryption: enc)
        let jwe = Array(try encryptor.encrypt(#"{"cardNumber":"4111111111111111"}"#.utf8).utf8)
        var wrong: [String] = []
        for length in 0..<jwe.count {
            do throws(CSEError) {
                _ = try jwe[..<length].withCSEBytesArray { (bytes) throws(CSEError) in try Self.decryptor.decrypt(bytes) }
                wrong.append("\(length): accepted")
            } catch {
                if error.code != .jweMalformed { wrong.append("\(length): \(error.code)") }
            }
        }
        #expect(wrong.isEmpty, "\(alg)/\(enc): \(wrong.count) of \(jwe.count) prefixes, first \(wrong.prefix(5))")
        let full = try jwe.withCSEBytes { (bytes) throws(CSEError) in try Self.decryptor.decrypt(bytes) }
        #expect(full.plaintext.unsafeCopyToArray() == Array(#"{"cardNumber":"4111111111111111"}"#.utf8))
    }
}

extension ArraySlice<UInt8> {
    /// Calls `body` with a copy of the slice as raw bytes.
    func withCSEBytesArray<R>(_ body: (UnsafeRawBufferPointer) throws(CSEError) -> R) throws(CSEError) -> R {
        try Array(self).withCSEBytes(body)
    }
}
