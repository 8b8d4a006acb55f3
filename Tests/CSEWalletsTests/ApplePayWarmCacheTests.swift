import CSECore
import Testing
import TestSupport

@testable import CSEWallets

/// Issue #25, "Speed": a token whose certificates are remembered is checked without OpenSSL
/// parsing its CMS structure (``ApplePayFastSignatureCheck``). That check only ever accepts, so a
/// refused token gets the same code whether the cache is cold or warm.
@Suite(
    "Apple Pay: with the certificates remembered, a token is checked without OpenSSL, and a refusal keeps its code",
    .enabled(if: MintedApplePay.isAvailable, "needs /usr/bin/python3 with cryptography and asn1crypto"))
struct ApplePayWarmCacheTests {
    let minted: MintedApplePay
    let root: X509Certificate

    init() throws {
        minted = try #require(MintedApplePay.shared, "the minter failed")
        root = try ApplePayTrustedRoot(pemRepresentation: minted.root).certificate
    }

    /// The code `ApplePaySignatureVerifier` refuses the minted case `name` with, `nil` when accepted.
    func outcome(_ name: String, _ cache: VerifiedChainCache) throws -> CSEError.Code? {
        let token = try ApplePayTokenForTests.parsed(minted.token(name).token)
        return code {
            try ApplePaySignatureVerifier.verify(signature: token.signature, content: token.signedContent, root: root, chains: cache)
        }
    }

    /// A cache holding the minted chain, verified with the good token `ec`.
    func warmCache() throws -> VerifiedChainCache {
        let cache = VerifiedChainCache()
        #expect(try outcome("ec", cache) == nil)
        #expect(cache.statistics.count == 1)
        return cache
    }

    @Test(
        "A tampered signature, signed attribute, digest, digest algorithm, second signer, or content: the cold cache's code on a warm cache",
        arguments: [
            ("tamperSignature", CSEError.Code.walletSignatureInvalid), ("tamperAttributes", .walletSignatureInvalid),
            ("wrongDigest", .walletSignatureInvalid), ("wrongDigestAlgorithm", .walletSignatureInvalid),
            ("secondSigner", .walletSignatureInvalid), ("tamperData", .walletSignatureInvalid),
            ("tamperHeader", .walletSignatureInvalid), ("afterChainExpiry", .walletUntrustedCertificate),
        ])
    func refusalsKeepTheirCode(_ name: String, _ expected: CSEError.Code) throws {
        #expect(try outcome(name, VerifiedChainCache()) == expected, "cold")
        let warm = try warmCache()
        #expect(try outcome(name, warm) == expected, "warm")
        #expect(try outcome(name, warm) == expected, "warm, again")
        // The fast check declines it: the refusal came from the OpenSSL path.
        #expect(try fastCheck(name, warm) == nil)
    }

    @Test(
        "Fields the fast check's reader only skips (crls, digestAlgorithms' contents, the version, unsigned attributes): OpenSSL's outcome on a warm cache",
        arguments: [
            ("garbageRevocation", CSEError.Code?.some(.walletMalformed)), ("garbageDigestAlgorithms", .walletMalformed),
            ("paddedVersion", .walletMalformed), ("unsignedAttributes", .walletSignatureInvalid),
        ])
    func skippedFieldsKeepOpenSSLsOutcome(_ name: String, _ expected: CSEError.Code?) throws {
        #expect(try outcome(name, VerifiedChainCache()) == expected, "cold")
        let warm = try warmCache()
        #expect(try outcome(name, warm) == expected, "warm")
        #expect(try fastCheck(name, warm) == nil)
    }

    @Test("The good token, also in BER's indefinite-length form, passes the fast check with the signing time OpenSSL reads")
    func accepted() throws {
        for name in ["ec", "ber", "applicationData", "rsa"] {
            let warm = try warmCache()
            #expect(try outcome(name, warm) == nil, "\(name)")
            #expect(try fastCheck(name, warm) == minted.token(name).signingTime / 1000, "\(name)")
        }
        // A hit is counted once per token, whichever path checks it.
        let warm = try warmCache()
        _ = try outcome("ec", warm)
        #expect(warm.statistics.hits == 1 && warm.statistics.misses == 1)
    }

    @Test(
        "A signing time outside the window is refused as such after a warm-up, and outside the leaf's validity as an untrusted certificate")
    func timesOnAWarmCache() throws {
        let ec = try minted.token("ec")
        _ = try minted.decryptor(at: ec.signingTime).verify(ec.token)
        for clock in [ec.signingTime + 300_001, ec.signingTime - 60_001] {
            #expect(code { try minted.decryptor(at: clock).verify(ec.token) } == .walletSigningTimeOutOfWindow)
        }
        let warm = try warmCache()
        warm.setValidityOfEveryEntry(.init(notBefore: ec.signingTime / 1000 + 1, notAfter: .max))
        #expect(try fastCheck("ec", warm) == nil)
        #expect(try outcome("ec", warm) == .walletUntrustedCertificate)
    }

    /// What ``ApplePayFastSignatureCheck`` returns for the minted case `name` with `cache`'s entry;
    /// `nil` also when its reader cannot read the signature.
    func fastCheck(_ name: String, _ cache: VerifiedChainCache) throws -> Int64? {
        let token = try ApplePayTokenForTests.parsed(minted.token(name).token)
        guard let signed = try? CMSSignedData(ber: token.signature) else { return nil }
        let entry = try #require(cache.entry(for: VerifiedChainCache.key(certificates: signed.certificates, root: root.der)))
        return ApplePayFastSignatureCheck.accept(signed, content: token.signedContent, entry: entry)
    }
}

/// Apple's own signatures (BER, indefinite lengths in the outer layers, `CMSAlgorithmProtection`)
/// pass the fast check once their chain is remembered, when the leaf's key is P-256 (Apple signs
/// RSA_v1 tokens with an RSA leaf, which only the OpenSSL path checks).
@Suite("Apple Pay: Apple's signatures pass the fast check with a warm cache")
struct ApplePayVectorWarmCacheTests {
    @Test(
        "Every accepted public vector verifies twice, the second time by the fast check, with the same signing time",
        .enabled(if: ApplePayVectorTests.present, "needs ../shared/vectors/wallets/index.json"),
        arguments: AppleVector.all.filter { $0.expect == "ok" })
    func vector(_ vector: AppleVector) throws {
        let token = try ApplePayTokenForTests.parsed(AppleVector.bytes(vector.token))
        let root = ApplePayTrustedRoot.appleRootCAG3.certificate
        let cache = VerifiedChainCache()
        let cold = try ApplePaySignatureVerifier.verify(
            signature: token.signature, content: token.signedContent, root: root, chains: cache)
        let warm = try ApplePaySignatureVerifier.verify(
            signature: token.signature, content: token.signedContent, root: root, chains: cache)
        #expect(cold == vector.clock_unix_ms && warm == cold)
        let signed = try CMSSignedData(ber: token.signature)
        let entry = try #require(cache.entry(for: VerifiedChainCache.key(certificates: signed.certificates, root: root.der)))
        let fast = ApplePayFastSignatureCheck.accept(signed, content: token.signedContent, entry: entry)
        #expect(fast.map { $0 * 1000 } == (entry.signer == nil ? nil : cold))
        #expect((entry.signer == nil) == (vector.format == "apple-RSA_v1"))
    }
}
