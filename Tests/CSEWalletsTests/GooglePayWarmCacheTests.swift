import CSECore
import Testing
import TestSupport

@testable import CSEWallets

/// Issue #37: an intermediate key verified once is remembered (``VerifiedIntermediateKeyCache``)
/// by the exact signed bytes, signature and root key. Every refusal keeps its code on a warm
/// cache, and the key's `keyExpiration` is checked against the clock on every token.
@Suite(
    "Google Pay: with the intermediate key remembered, every token gets the cold cache's outcome",
    .enabled(if: GooglePayMinterTests.isAvailable, "needs /usr/bin/python3 with the cryptography package"))
struct GooglePayWarmCacheTests {
    typealias Case = GooglePayMinterTests.Case
    static let day: Int64 = 86_400_000

    /// The minted good ECv2 token, whose intermediate key the other cases share.
    let good: Case

    init() throws {
        good = try #require(GooglePayMinterTests.cases.first { $0.name == "ECv2: a valid token decrypts" })
    }

    /// The code `item` is refused with (`ok` when accepted), with `cache`, at `clock` (the case's
    /// own by default) and under `rootKeys` (the case's own by default).
    func outcome(
        _ item: Case, _ cache: VerifiedIntermediateKeyCache, clock: Int64? = nil, rootKeys: GooglePayRootKeys? = nil
    ) throws -> String {
        var recipient = try GooglePayRecipient(
            recipientID: item.recipientID, privateKeysPEM: item.privateKeys,
            rootKeys: try rootKeys ?? GooglePayRootKeys(document: Array(item.rootKeys.utf8)),
            protocols: Set(item.protocols.map { GooglePayProtocolVersion($0)! }), senderID: item.senderID,
            clock: .fixed(unixMilliseconds: clock ?? item.clock))
        recipient.intermediateKeys = cache
        do {
            _ = try recipient.decrypt(Array(item.token.utf8))
            return "ok"
        } catch {
            return error.code.rawValue
        }
    }

    /// A cache holding the good token's intermediate key.
    func warmCache() throws -> VerifiedIntermediateKeyCache {
        let cache = VerifiedIntermediateKeyCache()
        #expect(try outcome(good, cache) == "ok")
        #expect(cache.statistics.count == 1 && cache.statistics.misses == 1)
        return cache
    }

    @Test("Every minted case, accepted or refused, has the same outcome cold and warm (twice), and the shared key is a hit")
    func everyCaseColdAndWarm() throws {
        var hits = 0
        for item in GooglePayMinterTests.cases {
            let cold = try outcome(item, VerifiedIntermediateKeyCache())
            #expect(cold == item.expect, "\(item.name): cold")
            let warm = try warmCache()
            let before = warm.statistics.hits
            #expect(try outcome(item, warm) == cold, "\(item.name): warm")
            #expect(try outcome(item, warm) == cold, "\(item.name): warm, again")
            if warm.statistics.hits > before { hits += 1 }
        }
        // 29 cases carry the good token's intermediateSigningKey; 24 of them reach its check (the
        // two expired-root cases and three with a malformed outer shape stop before it).
        #expect(hits >= 20, "only \(hits) cases took the warm path")
    }

    @Test("keyExpiration is checked against the clock on every token: at and after it, wallet.keyExpired warm as cold")
    func expiryOnEveryToken() throws {
        let keyExpiration = GooglePayMinterTests.now + 7 * Self.day
        for clock in [keyExpiration, keyExpiration + 1, keyExpiration + 30 * Self.day] {
            #expect(try outcome(good, VerifiedIntermediateKeyCache(), clock: clock) == "wallet.keyExpired")
            let warm = try warmCache()
            #expect(try outcome(good, warm, clock: clock) == "wallet.keyExpired")
            #expect(warm.statistics.hits == 1, "the refusal came from the remembered key's expiry check")
        }
        // One millisecond before, the key is valid (the message itself expired a day after minting).
        let warm = try warmCache()
        #expect(try outcome(good, warm, clock: keyExpiration - 1) == "wallet.messageExpired")
        #expect(try outcome(good, VerifiedIntermediateKeyCache(), clock: keyExpiration - 1) == "wallet.messageExpired")
    }

    @Test("A remembered key is not used under other root keys, or once its root has expired")
    func rootKeysStillDecide() throws {
        let foreign = try GooglePayRootKeys(document: Array(GooglePayRootKeyFetcherTests.document(keys: 1).utf8))
        let warm = try warmCache()
        #expect(try outcome(good, warm, rootKeys: foreign) == "wallet.signatureInvalid")
        #expect(try outcome(good, VerifiedIntermediateKeyCache(), rootKeys: foreign) == "wallet.signatureInvalid")
        #expect(warm.statistics.hits == 0)
        // The minted root key expires a year after minting.
        let afterRoot = GooglePayMinterTests.now + 366 * Self.day
        #expect(try outcome(good, warm, clock: afterRoot) == "wallet.keyExpired")
        #expect(try outcome(good, VerifiedIntermediateKeyCache(), clock: afterRoot) == "wallet.keyExpired")
        #expect(warm.statistics.hits == 0)
    }

    @Test("The cache is bounded, and a store drops the keys that have expired")
    func bounded() throws {
        let cache = VerifiedIntermediateKeyCache()
        let key = try #require(try GooglePayRootKeys(document: Array(good.rootKeys.utf8)).entries.first?.key)
        func store(_ index: Int, expiration: Int64, now: Int64) {
            cache.store(
                .init(expiration: expiration, key: key),
                for: .init(signedBytes: Array("signed \(index)".utf8), signature: [1], root: [2]), now: now)
        }
        for index in 0..<(VerifiedIntermediateKeyCache.capacity + 5) { store(index, expiration: 1_000, now: 0) }
        #expect(cache.statistics.count == VerifiedIntermediateKeyCache.capacity)
        store(-1, expiration: 3_000, now: 1_000)
        #expect(cache.statistics.count == 1, "every key expired at 1,000 is gone")
    }
}
