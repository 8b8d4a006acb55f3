import CSECore
import CSECrypto
import CSEJOSE
import Testing
import TestSupport

/// A JWE whose plaintext holds a canary card number and CVV, broken in every way the decryptor
/// distinguishes: no error rendering, and no description of the decryptor, the encryptor or the
/// decrypted result, may contain the plaintext or any part of the private key.
@Suite("Canary: JWE failures never echo plaintext or key material")
struct CanaryJWETests {
    static let key = JOSEVectors.key2048
    static let pan = "4917484589897107"
    static let cvv = "739"
    static let plaintext = #"{"cardNumber":"\#(pan)","cvv":"\#(cvv)"}"#

    static var forbidden: [String] {
        let body =
            (try? key.pemRepresentation)?.split(separator: "\n").filter { !$0.hasPrefix("-----") }.map { String($0.prefix(16)) } ?? []
        return [pan, String(pan.dropFirst(6).prefix(6)), #""cvv":"739""#, Base64URL.encode(Array(plaintext.utf8)).prefix(16).description]
            + body
    }

    static func check(_ what: String, _ value: Any?) {
        guard let value else { Issue.record("\(what): no error"); return }
        var dumped = ""
        dump(value, to: &dumped)
        var texts = [String(describing: value), String(reflecting: value), dumped]
        if let error = value as? CSEError { texts += [error.reason, error.description, error.debugDescription, error.context.description] }
        for text in texts {
            for secret in forbidden where text.contains(secret) { Issue.record("\(what) leaks \(secret)") }
        }
    }

    static func segmented(_ jwe: String) -> [String] { jwe.split(separator: ".", omittingEmptySubsequences: false).map(String.init) }

    @Test("every failure path of the decryptor, for each alg/enc pair", arguments: 0..<12)
    func failures(pair: Int) throws {
        let (alg, enc) = JOSEVectors.pairs[pair]
        let encryptor = try JWEEncryptor(publicKey: Self.key.publicKey, keyID: "kid-1", algorithm: alg, encryption: enc)
        let jwe = try encryptor.encrypt(Self.plaintext.utf8)
        let parts = Self.segmented(jwe)
        func header(_ json: String) -> String { ([Base64URL.encode(Array(json.utf8))] + parts[1...]).joined(separator: ".") }
        func replacing(_ index: Int, _ value: String) -> String {
            var copy = parts
            copy[index] = value
            return copy.joined(separator: ".")
        }
        func flipped(_ index: Int) -> String {
            var bytes = try! Base64URL.decode(parts[index])
            bytes[bytes.count / 2] ^= 0x01
            return replacing(index, Base64URL.encode(bytes))
        }
        let broken: [(String, String)] = [
            ("truncated", String(jwe.dropLast(5))),
            ("four segments", parts.prefix(4).joined(separator: ".")),
            ("padded ciphertext", replacing(3, parts[3] + "==")),
            ("encrypted key flipped", flipped(1)),
            ("IV flipped", flipped(2)),
            ("ciphertext flipped", flipped(3)),
            ("tag flipped", flipped(4)),
            ("IV too short", replacing(2, String(parts[2].dropLast(4)))),
            ("tag too short", replacing(4, String(parts[4].dropLast(4)))),
            ("alg none", header(#"{"alg":"none","enc":"\#(enc.name)"}"#)),
            ("enc unknown", header(#"{"alg":"\#(alg.name)","enc":"\#(Self.pan)"}"#)),
            ("kid is the canary", header(#"{"alg":"\#(alg.name)","enc":"\#(enc.name)","kid":"\#(Self.pan)"}"#)),
            ("zip", header(#"{"alg":"\#(alg.name)","enc":"\#(enc.name)","zip":"DEF"}"#)),
            ("header not JSON", header(Self.plaintext.dropLast().description)),
            ("header an array", header("[\"\(Self.pan)\"]")),
        ]
        let decryptor = try JWEDecryptor(privateKey: Self.key, expectedKeyID: "kid-1")
        for (what, text) in broken {
            let error: CSEError?
            do throws(CSEError) { _ = try decryptor.decrypt(text); error = nil } catch let caught { error = caught }
            Self.check("\(alg)/\(enc) \(what)", error)
        }
        let other = try JWEDecryptor(privateKey: try RSAPrivateKey.generate(bits: 2048))
        do throws(CSEError) {
            _ = try other.decrypt(jwe)
            Issue.record("decrypted with the wrong key")
        } catch {
            Self.check("\(alg)/\(enc) wrong key", error)
            #expect(error.code == .jweDecryptionFailed)
        }
        Self.check("encryptor", encryptor)
        Self.check("decryptor", decryptor)
        Self.check("decrypted result", try decryptor.decrypt(jwe))
    }
}
