import CSECore
import Testing
import TestSupport

@testable import CSEWallets

/// Issue #25, "Speed": a chain verified once is remembered by its bytes, so a repeated chain costs
/// no certificate signature check; its validity at each token's signing time is still checked.
@Suite("Apple Pay: a verified chain is remembered by its exact bytes, bounded, and still checked for time")
struct VerifiedChainCacheTests {
    @Test(
        "the same chain verifies once; a later token with it is a cache hit; a signing time after the chain expires is refused from the cache",
        .enabled(if: MintedApplePay.isAvailable, "needs /usr/bin/python3 with cryptography and asn1crypto"))
    func remembered() throws {
        let minted = try #require(MintedApplePay.shared)
        let ec = try minted.token("ec")
        let decryptor = try minted.decryptor(at: ec.signingTime)
        _ = try decryptor.verify(ec.token)
        let before = VerifiedChainCache.shared.statistics
        _ = try decryptor.verify(ec.token)
        #expect(VerifiedChainCache.shared.statistics.hits > before.hits)
        // A signing time after the leaf's notAfter (2040-01-01) is refused with the code
        // X509_verify_cert gives an expired chain.
        let late = try minted.token("afterChainExpiry")
        let error = #expect(throws: CSEError.self) { try minted.decryptor(at: late.signingTime).verify(late.token) }
        #expect(error?.code == .walletUntrustedCertificate)
    }

    @Test(
        "a remembered chain is still checked against each token's signing time",
        .enabled(if: MintedApplePay.isAvailable, "needs /usr/bin/python3 with cryptography and asn1crypto"))
    func hitsCheckTime() throws {
        let minted = try #require(MintedApplePay.shared)
        let ec = try minted.token("ec")
        let token = try ApplePayTokenForTests.parsed(ec.token)
        let root = try ApplePayTrustedRoot(pemRepresentation: minted.root).certificate
        let cache = VerifiedChainCache()
        _ = try ApplePaySignatureVerifier.verify(signature: token.signature, content: token.signedContent, root: root, chains: cache)
        #expect(cache.statistics.count == 1 && cache.statistics.hits == 0 && cache.statistics.misses == 1)
        _ = try ApplePaySignatureVerifier.verify(signature: token.signature, content: token.signedContent, root: root, chains: cache)
        #expect(cache.statistics.hits == 1)
        // The remembered interval no longer holds the signing time: refused on the hit.
        cache.setValidityOfEveryEntry(.init(notBefore: 0, notAfter: ec.signingTime / 1000 - 1))
        let error = #expect(throws: CSEError.self) {
            try ApplePaySignatureVerifier.verify(signature: token.signature, content: token.signedContent, root: root, chains: cache)
        }
        #expect(error?.code == .walletUntrustedCertificate)
        #expect(cache.statistics.hits == 2)
    }

    @Test(
        "an expired intermediate is never remembered: each time it is verified and refused",
        .enabled(if: MintedApplePay.isAvailable, "needs /usr/bin/python3 with cryptography and asn1crypto"))
    func refusedChainsAreNotRemembered() throws {
        let minted = try #require(MintedApplePay.shared)
        let expired = try minted.token("expiredIntermediate")
        for _ in 0..<2 {
            let error = #expect(throws: CSEError.self) { try minted.decryptor(at: expired.signingTime).verify(expired.token) }
            #expect(error?.code == .walletUntrustedCertificate)
        }
    }

    @Test("at most 64 chains; the oldest goes first, and chains whose validity has ended go")
    func bounded() {
        let cache = VerifiedChainCache()
        let validity = VerifiedChainCache.Validity(notBefore: 0, notAfter: 1_000)
        for index in 0..<100 {
            cache.store(validity, for: VerifiedChainCache.key(leaf: [UInt8(index)], intermediate: [1], root: [2]), now: 10)
        }
        #expect(cache.statistics.count == VerifiedChainCache.capacity)
        #expect(cache.validity(for: VerifiedChainCache.key(leaf: [0], intermediate: [1], root: [2])) == nil)
        #expect(cache.validity(for: VerifiedChainCache.key(leaf: [99], intermediate: [1], root: [2])) == validity)
        // A store after every entry's validity ended drops them all.
        cache.store(VerifiedChainCache.Validity(notBefore: 0, notAfter: 5_000), for: [7], now: 2_000)
        #expect(cache.statistics.count == 1)
    }

    /// Keys are hashed by their length and ends only (ExactBytes, issue #37): keys that differ
    /// only in the middle share a bucket but are still different entries.
    @Test("keys that share their length and both ends are still different chains")
    func sameEnds() {
        let cache = VerifiedChainCache()
        let validity = VerifiedChainCache.Validity(notBefore: 0, notAfter: 1_000)
        let middle = [UInt8](repeating: 0xAB, count: 3_000)
        var keys: [[UInt8]] = []
        for index in 0..<40 {
            var leaf = middle
            leaf[1_500] = UInt8(index)
            keys.append(VerifiedChainCache.key(leaf: leaf, intermediate: [1], root: [2]))
        }
        #expect(Set(keys.map { ExactBytes($0).hashValue }).count == 1, "the keys share every hashed byte")
        for key in keys.prefix(20) { cache.store(validity, for: key, now: 10) }
        #expect(cache.statistics.count == 20)
        for (index, key) in keys.enumerated() {
            #expect((cache.validity(for: key) != nil) == (index < 20), "key \(index)")
        }
    }

    @Test("the key separates the three certificates: moving bytes between them changes it")
    func keyIsUnambiguous() {
        #expect(
            VerifiedChainCache.key(leaf: [1, 2], intermediate: [3], root: [4])
                != VerifiedChainCache.key(leaf: [1], intermediate: [2, 3], root: [4]))
    }
}

/// The parsed form of a token, for tests that call the signature verifier directly.
enum ApplePayTokenForTests {
    static func parsed(_ json: [UInt8]) throws -> ApplePayToken { try ApplePayToken(json: json, accepting: [.ecV1, .rsaV1]) }
}

/// The cache in the shape these tests use: a leaf and an intermediate as the certificates carried,
/// and entries without a remembered signer.
extension VerifiedChainCache {
    static func key(leaf: [UInt8], intermediate: [UInt8], root: [UInt8]) -> [UInt8] {
        key(certificates: [leaf[...], intermediate[...]], root: root)
    }

    func validity(for key: [UInt8]) -> Validity? { entry(for: key)?.validity }

    func store(_ validity: Validity, for key: [UInt8], now: Int64) {
        store(Entry(validity: validity, signer: nil), for: key, now: now)
    }
}
