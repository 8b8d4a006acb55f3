internal import CSECore
internal import CSECrypto

/// Google Pay intermediate signing keys already verified, remembered by exactly what their
/// verification read (issue #37): the signed bytes (sender id, protocol version and the `signedKey`
/// string, length-prefixed as Google signs them), the decoded signature that verified, and the
/// root key's `SubjectPublicKeyInfo` as its document gave it. ECDSA verification is a function of
/// those three, so a later token carrying the same `signedKey` and that signature, checked by a
/// recipient that still trusts that root (and still finds it unexpired at the token's clock), gets
/// the same answer without the verification: Google rotates the intermediate key every few days
/// and sends the same `intermediateSigningKey` with every token meanwhile.
///
/// What is remembered is what follows deterministically from the `signedKey` string: its
/// `keyExpiration` and its imported P-256 key. The expiry is still checked against the clock on
/// every token, a hit or a miss, and only a key whose whole cold path succeeded is stored, so every
/// refusal has the same code warm and cold (`GooglePayWarmCacheTests`).
///
/// Bounded: at most ``capacity`` keys; when full the oldest goes, and a store first drops every key
/// whose `keyExpiration` has passed. Process-wide and thread-safe, like the Apple chain cache
/// (`VerifiedChainCache`).
final class VerifiedIntermediateKeyCache: Sendable {
    /// The most intermediate keys remembered.
    static let capacity = 64
    /// The process-wide cache of ``GooglePayRecipient``.
    static let shared = VerifiedIntermediateKeyCache()

    /// What one verification read.
    struct Key: Hashable, Sendable {
        /// `signedBytes(senderID, protocolVersion, signedKey)`.
        let signedBytes: [UInt8]
        /// The DER signature that verified.
        let signature: [UInt8]
        /// The root key that verified it, as its document encoded it.
        let root: [UInt8]

        /// Each part hashed whole (see ``ExactBytes``); equality compares every byte.
        func hash(into hasher: inout Hasher) {
            hasher.combine(signedBytes.count)
            signedBytes.withUnsafeBytes { hasher.combine(bytes: $0) }
            hasher.combine(signature.count)
            signature.withUnsafeBytes { hasher.combine(bytes: $0) }
            root.withUnsafeBytes { hasher.combine(bytes: $0) }
        }
    }

    /// What is remembered of a verified intermediate key.
    struct Entry: Sendable {
        /// The `signedKey`'s `keyExpiration`, milliseconds since the epoch.
        let expiration: Int64
        /// The `signedKey`'s `keyValue`, imported.
        let key: P256PublicKey
    }

    private let storage = BoundedVerificationCache<Key, Entry>(capacity: capacity) { entry, now in entry.expiration <= now }

    /// The entry of the first signature and root pair of the token that was verified before, or
    /// `nil` (a miss).
    /// - Parameters:
    ///   - signedBytes: What the intermediate signatures cover.
    ///   - signatures: The token's decoded signatures, in order.
    ///   - roots: The root keys usable at the token's clock.
    func entry(signedBytes: [UInt8], signatures: [[UInt8]], roots: [GooglePayRootKeys.Entry]) -> Entry? {
        storage.entry(
            forFirstOf: signatures.lazy.flatMap { signature in
                roots.lazy.map { Key(signedBytes: signedBytes, signature: signature, root: $0.subjectPublicKeyInfo) }
            })
    }

    /// Remembers a verified intermediate key, first dropping every key expired at `now` and, when
    /// full, the oldest.
    func store(_ entry: Entry, for key: Key, now: Int64) { storage.store(entry, for: key, now: now) }

    /// The number of keys remembered, and the hits and misses so far (tests and benchmarks).
    var statistics: (count: Int, hits: Int, misses: Int) { storage.statistics }

    /// Forgets every key (tests and benchmarks that measure the uncached path).
    func removeAll() { storage.removeAll() }
}
