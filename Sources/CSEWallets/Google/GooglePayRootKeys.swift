public import CSECore
internal import CSECrypto

/// Google's root signing keys: the trust anchors of Google Pay tokens, read from a document in
/// the format Google publishes at `https://payments.developers.google.com/paymentmethodtoken/keys.json`
/// (production) and `…/paymentmethodtoken/test/keys.json` (test):
///
/// ```json
/// {"keys": [{"keyValue": "<base64 DER SubjectPublicKeyInfo>", "protocolVersion": "ECv2",
///            "keyExpiration": "<milliseconds since the epoch>"}]}
/// ```
///
/// Test and production keys differ: a token from Google's TEST environment verifies only under the
/// test keys. Entries of a protocol version CSEKit does not implement are skipped, so a future
/// version does not break the document; entries of a known version must be well formed.
/// `keyExpiration` is required except for `ECv1` ("Payment data cryptography for merchants"): an
/// ECv2 or ECv2SigningOnly key without one is skipped, as Tink skips it.
/// Whether a key has expired is decided at each token's check, by the recipient's clock.
public struct GooglePayRootKeys: Sendable {
    /// One root key.
    struct Entry: Sendable {
        let protocolVersion: GooglePayProtocolVersion
        let key: P256PublicKey
        /// The key's DER `SubjectPublicKeyInfo` as the document gave it: how
        /// ``VerifiedIntermediateKeyCache`` names the root that verified an intermediate key.
        let subjectPublicKeyInfo: [UInt8]
        /// Milliseconds since the epoch; `nil` for an ECv1 key without expiry.
        let expiration: Int64?
    }

    /// The most keys a document may hold (Google publishes three).
    package static let maximumKeyCount = 32
    /// The largest document accepted, in bytes.
    package static var maximumDocumentByteCount: Int { GooglePayFields.maximumDocumentByteCount }

    let entries: [Entry]

    /// Reads a root-key document in Google's published format.
    /// - Parameter document: The UTF-8 JSON document, at most 64 KiB.
    /// - Throws: `wallet.malformed` when the document is not that format, holds more than
    ///   `maximumKeyCount` keys, a key that is not a P-256 SubjectPublicKeyInfo, or a
    ///   `keyExpiration` that is not a string of milliseconds.
    public init(document: some Collection<UInt8>) throws(CSEError) {
        let root = try GooglePayFields.object(document, what: "root-key document")
        guard let keys = root["keys"]?.arrayValue else { throw GooglePayFields.malformed("the root-key document has no keys array") }
        guard keys.count <= Self.maximumKeyCount else {
            throw GooglePayFields.malformed("the root-key document holds more than \(Self.maximumKeyCount) keys")
        }
        var entries: [Entry] = []
        for value in keys {
            guard let object = value.objectValue else { throw GooglePayFields.malformed("a root key is not a JSON object") }
            let versionText = try GooglePayFields.string(object, "protocolVersion", in: "keys[]")
            guard let version = GooglePayProtocolVersion(versionText) else { continue }
            let spki = try GooglePayFields.base64(try GooglePayFields.string(object, "keyValue", in: "keys[]"), member: "keys[].keyValue")
            let key: P256PublicKey
            do { key = try P256PublicKey(subjectPublicKeyInfo: spki) } catch {
                throw GooglePayFields.malformed("keys[].keyValue is not a P-256 public key")
            }
            var expiration: Int64? = nil
            if let value = object["keyExpiration"] {
                guard let text = value.stringValue else { throw GooglePayFields.malformed("keys[].keyExpiration is not a string") }
                expiration = try GooglePayFields.milliseconds(text, member: "keys[].keyExpiration")
            } else if version != .ecV1 {
                continue  // keyExpiration is required except for ECv1: such a key is never used (as Tink)
            }
            entries.append(Entry(protocolVersion: version, key: key, subjectPublicKeyInfo: spki, expiration: expiration))
        }
        self.entries = entries
    }

    /// The number of keys read (of the protocol versions CSEKit implements).
    public var count: Int { entries.count }

    /// The keys of `version` that have not expired at `now`: `nil` when some keys of that version
    /// exist but all have expired, an empty array when there are none at all.
    func usableKeys(for version: GooglePayProtocolVersion, now: Int64) -> [P256PublicKey]? {
        usableEntries(for: version, now: now)?.map(\.key)
    }

    /// The entries of ``usableKeys(for:now:)``, with their encodings.
    func usableEntries(for version: GooglePayProtocolVersion, now: Int64) -> [Entry]? {
        let ofVersion = entries.filter { $0.protocolVersion == version }
        let usable = ofVersion.filter { entry in entry.expiration.map { now < $0 } ?? true }
        return usable.isEmpty && !ofVersion.isEmpty ? nil : usable
    }
}
