internal import CSECore
internal import COpenSSL
internal import Glibc

/// Apple Pay certificate chains already verified, remembered by the exact bytes of the leaf, the
/// intermediate and the trusted root (issue #25, "Speed"). A chain verified once (its two
/// certificate signatures and its path to the root) is the same chain for every later token that
/// carries the same bytes; only its validity at each token's signing time still has to be
/// checked, and the cache keeps the interval in which all three certificates are valid for that.
/// So a repeated chain costs a dictionary lookup instead of two ECDSA verifications. An entry also
/// remembers the leaf as a signer (``RememberedSigner``), so that a token whose certificates are
/// remembered is checked without OpenSSL parsing its CMS structure or certificates at all.
///
/// Bounded: at most ``capacity`` chains (about 3 KB of certificate bytes each, 200 KB in all);
/// when full, the oldest entry goes. An entry also goes once its interval has ended (a token
/// signed later cannot use it). Process-wide and thread-safe; the root is part of the key, so
/// decryptors trusting different roots never share an entry.
final class VerifiedChainCache: Sendable {
    /// The most chains remembered.
    static let capacity = 64
    /// The process-wide cache of ``ApplePaySignatureVerifier``.
    static let shared = VerifiedChainCache()

    /// The interval, in seconds since the epoch, in which every certificate of a chain is valid.
    struct Validity: Sendable, Equatable {
        var notBefore: Int64
        var notAfter: Int64

        func contains(_ time: Int64) -> Bool { time >= notBefore && time <= notAfter }
    }

    /// What is remembered of one verified chain.
    struct Entry: Sendable {
        /// The interval in which every certificate of the chain is valid.
        var validity: Validity
        /// The leaf as a signer; `nil` when only OpenSSL checks tokens of this chain.
        var signer: RememberedSigner?
    }

    private let storage = BoundedVerificationCache<ExactBytes, Entry>(capacity: capacity) { entry, now in
        entry.validity.notAfter < now
    }

    /// The key of the certificates a signature carries, in their order, and the trusted root:
    /// each encoding preceded by its length, the root last.
    static func key(certificates: [ArraySlice<UInt8>], root: [UInt8]) -> [UInt8] {
        var key: [UInt8] = []
        key.reserveCapacity(certificates.reduce(root.count + 4) { $0 + $1.count + 4 })
        for der in certificates + [root[...]] {
            withUnsafeBytes(of: UInt32(der.count).bigEndian) { key.append(contentsOf: $0) }
            key.append(contentsOf: der)
        }
        return key
    }

    /// What is remembered of a chain verified earlier, or `nil` (a miss).
    func entry(for key: [UInt8]) -> Entry? { storage.entry(forFirstOf: CollectionOfOne(ExactBytes(key))) }

    /// Remembers a verified chain, evicting the oldest entry when full and every entry whose
    /// interval ended before `now` (seconds).
    func store(_ entry: Entry, for bytes: [UInt8], now: Int64) { storage.store(entry, for: ExactBytes(bytes), now: now) }

    /// The number of chains remembered, and the hits and misses so far (tests and benchmarks).
    var statistics: (count: Int, hits: Int, misses: Int) { storage.statistics }

    /// Sets the validity of every remembered chain (tests of the time check on a hit).
    func setValidityOfEveryEntry(_ validity: Validity) { storage.updateEveryEntry { $0.validity = validity } }

    /// Forgets every chain (tests and benchmarks that measure the uncached path).
    func removeAll() { storage.removeAll() }

    /// The interval in which all of `certificates` are valid.
    static func validity(of certificates: [X509Certificate]) -> Validity? {
        var result = Validity(notBefore: .min, notAfter: .max)
        for certificate in certificates {
            guard let notBefore = unixSeconds(of: X509_get0_notBefore(certificate.pointer)),
                let notAfter = unixSeconds(of: X509_get0_notAfter(certificate.pointer))
            else { return nil }
            result.notBefore = max(result.notBefore, notBefore)
            result.notAfter = min(result.notAfter, notAfter)
        }
        return result
    }
}
