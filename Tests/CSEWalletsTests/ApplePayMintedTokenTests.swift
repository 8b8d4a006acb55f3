import CSECore
import CSECrypto
import Foundation
import Testing
import TestSupport

@testable import CSEWallets

/// Tokens minted by `Tests/Interop/apple_pay_minter.py` (Python `cryptography` and `asn1crypto`,
/// its own test PKI with Apple's marker OIDs), one run for the whole suite.
struct MintedApplePay: Sendable {
    struct Case: Sendable {
        let token: [UInt8]
        /// The token as a mutable JSON object (a fresh copy each time).
        var tokenObject: [String: Any] { (try? JSONSerialization.jsonObject(with: Data(token))) as? [String: Any] ?? [:] }
        let signingTime: Int64
        let plaintext: String
        let z: String?
        let merchant: String
    }

    static let python = "/usr/bin/python3"
    static let script = TestPaths.packageRoot.appendingPathComponent("Tests/Interop/apple_pay_minter.py").path

    /// Whether `/usr/bin/python3` with `cryptography` and `asn1crypto` is available.
    static let isAvailable: Bool = {
        guard FileManager.default.isExecutableFile(atPath: python) else { return false }
        return (try? JWCryptoOracle.run(["-c", "import cryptography, asn1crypto"], input: "")) != nil
    }()

    /// The cases minted (see the script's docstring for the members).
    static let specs = """
        [{"name": "ec"}, {"name": "rsa", "version": "RSA_v1"},
         {"name": "applicationData", "applicationData": "\(String(repeating: "ab", count: 32))"},
         {"name": "tamperData", "tamper": "data"}, {"name": "tamperHeader", "tamper": "header"},
         {"name": "tamperSignature", "tamper": "signature"}, {"name": "tamperAttributes", "tamper": "signedAttributes"},
         {"name": "noLeafMarker", "leafMarker": false}, {"name": "noIntermediateMarker", "intermediateMarker": false},
         {"name": "swapped", "swapCertificates": true}, {"name": "expiredIntermediate", "expiredIntermediate": true},
         {"name": "foreignRoot", "foreignRoot": true}, {"name": "wrongHash", "wrongPublicKeyHash": true},
         {"name": "leadingZeroZ", "leadingZeroZ": true}, {"name": "zeroHashMerchant", "merchant": "zeroHash"},
         {"name": "afterChainExpiry", "signingTime": 2208988900},
         {"name": "wrongDigest", "signerShape": "wrongDigest"},
         {"name": "wrongDigestAlgorithm", "signerShape": "wrongDigestAlgorithm"},
         {"name": "secondSigner", "signerShape": "secondSigner"}, {"name": "ber", "ber": true},
         {"name": "unsignedAttributes", "signerShape": "unsignedAttributes"},
         {"name": "garbageRevocation", "signedDataEdit": "revocation"},
         {"name": "garbageDigestAlgorithms", "signedDataEdit": "digestAlgorithms"},
         {"name": "paddedVersion", "signedDataEdit": "version"}]
        """

    let root: String
    let foreignRoot: String
    let merchants: [String: (certificate: String, key: String, merchantId: String)]
    let cases: [String: Case]

    static let shared: MintedApplePay? = try? MintedApplePay()

    private init() throws {
        let output = try JWCryptoOracle.run([Self.script], input: Self.specs).joined(separator: "\n")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any])
        root = try #require(json["root"] as? String)
        foreignRoot = try #require(json["foreignRoot"] as? String)
        var merchants: [String: (String, String, String)] = [:]
        for (name, value) in try #require(json["merchants"] as? [String: [String: String]]) {
            merchants[name] = (try #require(value["certificate"]), try #require(value["key"]), try #require(value["merchantId"]))
        }
        self.merchants = merchants
        var cases: [String: Case] = [:]
        for item in try #require(json["cases"] as? [[String: Any]]) {
            let token = try #require(item["token"] as? [String: Any])
            cases[try #require(item["name"] as? String)] = Case(
                token: Array(try JSONSerialization.data(withJSONObject: token)),
                signingTime: Int64(try #require(item["signingTime"] as? Int)) * 1000,
                plaintext: try #require(item["plaintext"] as? String), z: item["z"] as? String,
                merchant: try #require(item["merchant"] as? String))
        }
        self.cases = cases
    }

    func identity(_ name: String) throws -> ApplePayMerchantIdentity {
        let merchant = try #require(merchants[name])
        return try ApplePayMerchantIdentity(certificatePEM: merchant.certificate, privateKeyPEM: merchant.key)
    }

    /// A decryptor trusting the minter's root, with every merchant pair (rotation), at `clock`.
    func decryptor(
        at clock: Int64, root: String? = nil, window: ApplePaySigningWindow = .default,
        versions: Set<ApplePayVersion> = [.ecV1, .rsaV1], replayGuard: (any WalletReplayGuard)? = nil
    ) throws -> ApplePayDecryptor {
        try ApplePayDecryptor(
            merchantIdentities: ["main", "zeroHash", "rsa"].map(identity),
            trustedRoot: ApplePayTrustedRoot(pemRepresentation: root ?? self.root), signingWindow: window,
            acceptedVersions: versions, clock: .fixed(unixMilliseconds: clock), replayGuard: replayGuard)
    }

    func token(_ name: String) throws -> Case { try #require(cases[name], "no minted case \(name)") }
}

@Suite(
    "Apple Pay: minted tokens for every check (python3-cryptography test PKI)",
    .enabled(if: MintedApplePay.isAvailable, "needs /usr/bin/python3 with python3-cryptography and python3-asn1crypto"))
struct ApplePayMintedTokenTests {
    let minted: MintedApplePay

    init() throws { minted = try #require(MintedApplePay.shared, "the minter failed") }

    @Test("EC_v1, RSA_v1, certificates in either order, and applicationData decrypt to the exact plaintext")
    func accepted() throws {
        for name in ["ec", "rsa", "swapped", "applicationData", "leadingZeroZ", "zeroHashMerchant"] {
            let token = try minted.token(name)
            let payment = try minted.decryptor(at: token.signingTime).decrypt(token.token)
            #expect(String(decoding: payment.decryptedJSON.unsafeCopyToArray(), as: UTF8.self) == token.plaintext, "\(name)")
            #expect(payment.paymentData.applicationPrimaryAccountNumber == "4895370012003478", "\(name)")
            #expect(payment.paymentData.paymentDataType == .threeDSecure && payment.paymentData.transactionAmount == 1234)
            #expect(payment.paymentData.eciIndicator == "7" && payment.paymentData.currencyCode == "978")
        }
        let withData = try minted.decryptor(at: minted.token("applicationData").signingTime)
            .verify(minted.token("applicationData").token)
        #expect(withData.applicationData == String(repeating: "ab", count: 32))
    }

    @Test("A tampered data, header, signature or signed attribute fails the signature, before any decryption")
    func tampered() throws {
        for name in ["tamperData", "tamperHeader", "tamperSignature", "tamperAttributes"] {
            let token = try minted.token(name)
            #expect(code { try minted.decryptor(at: token.signingTime).decrypt(token.token) } == .walletSignatureInvalid, "\(name)")
        }
    }

    @Test("applicationData is signed: dropping it, or adding it, breaks the signature")
    func applicationDataIsSigned() throws {
        let signedWith = try minted.token("applicationData"), signedWithout = try minted.token("ec")
        var dropped = signedWith.tokenObject, added = signedWithout.tokenObject
        var header = try #require(dropped["header"] as? [String: Any])
        header["applicationData"] = nil
        dropped["header"] = header
        header = try #require(added["header"] as? [String: Any])
        header["applicationData"] = String(repeating: "cd", count: 32)
        added["header"] = header
        for (object, time) in [(dropped, signedWith.signingTime), (added, signedWithout.signingTime)] {
            let token = Array(try JSONSerialization.data(withJSONObject: object))
            #expect(code { try minted.decryptor(at: time).verify(token) } == .walletSignatureInvalid)
        }
    }

    @Test("A missing marker OID, an expired intermediate or a foreign root is an untrusted certificate")
    func untrusted() throws {
        for name in ["noLeafMarker", "noIntermediateMarker", "expiredIntermediate", "foreignRoot"] {
            let token = try minted.token(name)
            #expect(code { try minted.decryptor(at: token.signingTime).verify(token.token) } == .walletUntrustedCertificate, "\(name)")
        }
        // The foreign-root token verifies under its own root: only the pin refused it.
        let foreign = try minted.token("foreignRoot")
        #expect(throws: Never.self) { try minted.decryptor(at: foreign.signingTime, root: minted.foreignRoot).verify(foreign.token) }
        // Apple's real root does not sign the test PKI either.
        let token = try minted.token("ec")
        let pinned = try ApplePayDecryptor(clock: .fixed(unixMilliseconds: token.signingTime))
        #expect(code { try pinned.verify(token.token) } == .walletUntrustedCertificate)
    }

    @Test("The signing time just inside and just outside the window, default and configured")
    func signingWindow() throws {
        let token = try minted.token("ec"), time = token.signingTime
        for (clock, inside) in [(time + 300_000, true), (time + 300_001, false), (time - 60_000, true), (time - 60_001, false)] {
            let outcome = code { try minted.decryptor(at: clock).decrypt(token.token) }
            #expect(outcome == (inside ? nil : .walletSigningTimeOutOfWindow), "clock \(clock - time) ms")
        }
        let narrow = ApplePaySigningWindow(pastSeconds: 10, futureSeconds: 0)
        #expect(code { try minted.decryptor(at: time + 10_000, window: narrow).verify(token.token) } == nil)
        #expect(code { try minted.decryptor(at: time + 10_001, window: narrow).verify(token.token) } == .walletSigningTimeOutOfWindow)
        #expect(code { try minted.decryptor(at: time - 1, window: narrow).verify(token.token) } == .walletSigningTimeOutOfWindow)
    }

    @Test("Keys: a wrong publicKeyHash, a key of the other kind, or no pair at all is no matching key")
    func keySelection() throws {
        let wrong = try minted.token("wrongHash")
        #expect(code { try minted.decryptor(at: wrong.signingTime).decrypt(wrong.token) } == .walletNoMatchingKey)
        let ec = try minted.token("ec")
        let rsaOnly = try ApplePayDecryptor(
            merchantIdentities: [minted.identity("rsa")], trustedRoot: ApplePayTrustedRoot(pemRepresentation: minted.root),
            clock: .fixed(unixMilliseconds: ec.signingTime))
        #expect(code { try rsaOnly.decrypt(ec.token) } == .walletNoMatchingKey)
        let none = try ApplePayDecryptor(
            trustedRoot: ApplePayTrustedRoot(pemRepresentation: minted.root), clock: .fixed(unixMilliseconds: ec.signingTime))
        #expect(throws: Never.self) { try none.verify(ec.token) }
        #expect(code { try none.decrypt(ec.token) } == .walletNoMatchingKey)
    }

    @Test("Leading zero bytes: Z and the merchant identifier hash keep them")
    func leadingZeros() throws {
        let token = try minted.token("leadingZeroZ")
        let z = try #require(token.z)
        #expect(z.hasPrefix("00"))
        let parsed = try ApplePayToken(json: token.token, accepting: [.ecV1])
        guard case .ec(let key) = try minted.identity("main").privateKey else { throw CSEError(.walletMalformed, "not EC") }
        let secret = try key.sharedSecret(with: P256PublicKey(subjectPublicKeyInfo: parsed.keyMaterial))
        #expect(Hex.encode(secret.unsafeCopyToArray()) == z && secret.count == 32)
        let zeroHash = try minted.identity("zeroHash")
        #expect(zeroHash.merchantIdentifierHash.count == 32 && zeroHash.merchantIdentifierHash.first == 0)
    }

    @Test("The merchant identifier is cross-checked with every configured certificate")
    func merchantIdentifier() throws {
        let id = try #require(minted.merchants["main"]?.merchantId)
        #expect(throws: Never.self) { try ApplePayDecryptor(merchantIdentities: [minted.identity("main")], merchantIdentifier: id) }
        let other = code { try ApplePayDecryptor(merchantIdentities: [minted.identity("zeroHash")], merchantIdentifier: id) }
        #expect(other == .walletNoMatchingKey)
        // A private key that is not the certificate's.
        let main = try #require(minted.merchants["main"]), zero = try #require(minted.merchants["zeroHash"])
        #expect(code { try ApplePayMerchantIdentity(certificatePEM: main.certificate, privateKeyPEM: zero.key) } == .walletNoMatchingKey)
        #expect(code { try ApplePayMerchantIdentity(certificatePEM: minted.root, privateKeyPEM: zero.key) } == .walletMalformed)
    }

    @Test("Versions outside the accepted set are refused; the three token shapes are read")
    func versionsAndShapes() throws {
        let rsa = try minted.token("rsa")
        #expect(code { try minted.decryptor(at: rsa.signingTime, versions: [.ecV1]).verify(rsa.token) } == .walletUnsupportedVersion)
        let ec = try minted.token("ec")
        let decryptor = try minted.decryptor(at: ec.signingTime)
        for wrapped in [
            ["paymentData": ec.tokenObject, "transactionIdentifier": "x", "paymentMethod": [:] as [String: Any]],
            ["token": ["paymentData": ec.tokenObject]],
        ] {
            let json = Array(try JSONSerialization.data(withJSONObject: wrapped))
            #expect(try decryptor.verify(json).transactionId == decryptor.verify(ec.token).transactionId)
        }
        for bad in ["[]", "{", "{\"version\":\"EC_v1\"}", "{\"paymentData\":1}"] {
            #expect(code { try decryptor.verify(Array(bad.utf8)) } == .walletMalformed, "\(bad)")
        }
        var extra = ec.tokenObject
        extra["extra"] = 1
        #expect(code { try decryptor.verify(Array(try JSONSerialization.data(withJSONObject: extra))) } == .walletMalformed)
        var unknown = ec.tokenObject
        unknown["version"] = "EC_v2"
        #expect(code { try decryptor.verify(Array(try JSONSerialization.data(withJSONObject: unknown))) } == .walletUnsupportedVersion)
    }

    @Test("The replay guard refuses a second sighting of a transaction id, and forgets it after the window")
    func replay() throws {
        let token = try minted.token("ec")
        let guardian = InMemoryWalletReplayGuard(capacity: 2)
        let decryptor = try minted.decryptor(at: token.signingTime, replayGuard: guardian)
        _ = try decryptor.decrypt(token.token)
        #expect(code { try decryptor.decrypt(token.token) } == .walletReplayed)
        #expect(guardian.recordFirstSighting(of: "a", until: 10, now: 0))
        #expect(guardian.count == 2)
        // Full: the earliest expiry makes room; an expired id may be seen again.
        #expect(guardian.recordFirstSighting(of: "b", until: 20, now: 0))
        #expect(guardian.count == 2)
        #expect(!guardian.recordFirstSighting(of: "b", until: 20, now: 5))
        #expect(guardian.recordFirstSighting(of: "b", until: 40, now: 21))
    }

    @Test("Canary: the DPAN and the cryptogram reach no description and no error")
    func canary() throws {
        let token = try minted.token("ec")
        let payment = try minted.decryptor(at: token.signingTime).decrypt(token.token)
        let texts = ["\(payment)", "\(payment.paymentData)", String(reflecting: payment.decryptedJSON)]
        for text in texts {
            #expect(!text.contains("4895370012003478") && !text.contains("AOTESTCRYPTOGRAM"), "\(text)")
        }
        #expect("\(payment.paymentData)".contains("489537******3478"))
        var errors: [String] = []
        for name in ["tamperData", "wrongHash", "foreignRoot", "noLeafMarker"] {
            let minted = try minted.token(name)
            do { _ = try self.minted.decryptor(at: minted.signingTime).decrypt(minted.token) } catch { errors.append("\(error)") }
        }
        #expect(errors.count == 4)
        for error in errors { #expect(!error.contains("4895370012003478") && !error.contains("AOTESTCRYPTOGRAM")) }
    }
}
