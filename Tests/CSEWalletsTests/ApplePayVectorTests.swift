import CSECore
import CSECrypto
import Foundation
import Testing
import TestSupport

@testable import CSEWallets

/// One Apple entry of `../shared/vectors/wallets/index.json` (see its PROVENANCE.md).
struct AppleVector: Decodable, CustomTestStringConvertible, Sendable {
    struct Intermediates: Decodable, Sendable {
        let merchantIdHashHex: String?
        let sharedSecretZBase64: String?
        let symmetricKeyBase64: String?
    }
    let id: String
    let format: String
    let token: String
    let scope: String
    let merchant_private_key: String?
    let merchant_certificate: String?
    let signing_time: String?
    let clock_unix_ms: Int64
    let expect: String
    let also_acceptable: [String]?
    let plaintext: String?
    let intermediates: Intermediates?

    var testDescription: String { id }

    static let directory = "wallets/"

    static var all: [AppleVector] {
        guard let data = TestPaths.sharedFile(directory + "index.json"),
            let vectors = try? JSONDecoder().decode([AppleVector].self, from: data)
        else { return [] }
        return vectors.filter { $0.format.hasPrefix("apple-") }
    }

    static func text(_ path: String) throws -> String {
        String(decoding: try #require(TestPaths.sharedFile(directory + path), "missing \(path)"), as: UTF8.self)
    }

    static func bytes(_ path: String) throws -> [UInt8] {
        Array(try #require(TestPaths.sharedFile(directory + path), "missing \(path)"))
    }

    /// The codes a correct library may report for an index.json failure kind.
    static func codes(for kind: String) -> Set<CSEError.Code> {
        switch kind {
        case "bad-format": [.walletMalformed]
        case "bad-signature": [.walletSignatureInvalid]
        case "expired-certificate": [.walletUntrustedCertificate]
        case "stale-signing-time": [.walletSigningTimeOutOfWindow]
        case "no-matching-key": [.walletNoMatchingKey]
        case "bad-tag": [.walletDecryptionFailed]
        default: []
        }
    }

    var acceptableCodes: Set<CSEError.Code> {
        ([expect] + (also_acceptable ?? [])).reduce(into: []) { $0.formUnion(Self.codes(for: $1)) }
    }

    func identities() throws -> [ApplePayMerchantIdentity] {
        guard let certificate = merchant_certificate, let key = merchant_private_key else { return [] }
        return [try ApplePayMerchantIdentity(certificatePEM: Self.text(certificate), privateKeyPEM: Self.text(key))]
    }

    func decryptor(clock: Int64) throws -> ApplePayDecryptor {
        try ApplePayDecryptor(merchantIdentities: identities(), clock: .fixed(unixMilliseconds: clock))
    }
}

@Suite("Apple Pay: every public vector at its clock, and one window past it")
struct ApplePayVectorTests {
    static let present = TestPaths.sharedFile(AppleVector.directory + "index.json") != nil

    @Test(
        "Each vector gets its expected outcome at its clock; an accepted one is refused one window later",
        .enabled(if: present, "needs ../shared/vectors/wallets/index.json"),
        arguments: AppleVector.all)
    func vector(_ vector: AppleVector) throws {
        let token = try AppleVector.bytes(vector.token)
        let decryptor = try vector.decryptor(clock: vector.clock_unix_ms)
        if vector.expect == "ok" {
            let verification = try decryptor.verify(token)
            #expect(verification.signingTimeUnixMilliseconds == vector.clock_unix_ms)
            #expect(verification.version.rawValue == vector.format.dropFirst("apple-".count).description)
            if vector.scope == "verify-and-decrypt" {
                let payment = try decryptor.decrypt(token)
                #expect(payment.decryptedJSON.unsafeCopyToArray() == (try AppleVector.bytes(#require(vector.plaintext))))
                #expect(payment.verification == verification)
            }
            // One window past the clock: 300 s + 1 ms after the signing time, and 60 s + 1 ms before it.
            for clock in [vector.clock_unix_ms + 300_001, vector.clock_unix_ms - 60_001] {
                let late = try vector.decryptor(clock: clock)
                #expect(code { try late.verify(token) } == .walletSigningTimeOutOfWindow, "clock \(clock)")
            }
            // The window's ends are inside it.
            for clock in [vector.clock_unix_ms + 300_000, vector.clock_unix_ms - 60_000] {
                #expect(throws: Never.self) { try vector.decryptor(clock: clock).verify(token) }
            }
        } else {
            let failure = code { try decryptor.decrypt(token) }
            #expect(failure.map(vector.acceptableCodes.contains) == true, "got \(String(describing: failure))")
        }
    }

    @Test(
        "Known intermediates: the merchant id hash from the certificate's DER extension, Z and the single-step key",
        .enabled(if: present, "needs ../shared/vectors/wallets/index.json"),
        arguments: AppleVector.all.filter { $0.intermediates != nil && $0.expect == "ok" })
    func intermediates(_ vector: AppleVector) throws {
        let identity = try #require(try vector.identities().first)
        let parsed = try ApplePayToken(json: AppleVector.bytes(vector.token), accepting: [.ecV1, .rsaV1])
        let known = try #require(vector.intermediates)
        if let hash = known.merchantIdHashHex {
            #expect(Hex.encode(identity.merchantIdentifierHash) == hash.lowercased())
        }
        if let z = known.sharedSecretZBase64, case .ec(let key) = identity.privateKey {
            let ephemeral = try P256PublicKey(subjectPublicKeyInfo: parsed.keyMaterial)
            #expect(try key.sharedSecret(with: ephemeral).unsafeCopyToArray() == Base64.decode(z))
        }
        if let k = known.symmetricKeyBase64 {
            #expect(try ApplePayDecryptor.symmetricKey(parsed, identity).unsafeCopyToArray() == Base64.decode(k))
        }
    }

    @Test("The embedded Apple Root CA - G3 is the shared copy, with the published SHA-256 fingerprint")
    func embeddedRoot() throws {
        #expect(
            Hex.encode(ApplePayTrustedRoot.appleRootCAG3.sha256Fingerprint)
                == "63343abfb89a6a03ebb57e9b3f5fa7be7c4f5c756f3017b3a8c488c3653e9179")
        if let shared = TestPaths.sharedFile(AppleVector.directory + "gala/AppleRootCA-G3.pem") {
            let root = try ApplePayTrustedRoot(pemRepresentation: String(decoding: shared, as: UTF8.self))
            #expect(root.sha256Fingerprint == ApplePayTrustedRoot.appleRootCAG3.sha256Fingerprint)
        }
    }
}
