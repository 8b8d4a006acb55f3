internal import CSECore

/// An Apple Pay `paymentData` object (Apple, "Payment token format reference"), its members
/// decoded strictly: base64 (RFC 4648 §4, padded, canonical) and hex.
struct ApplePayToken {
    let version: ApplePayVersion
    let data: [UInt8]
    let signature: [UInt8]
    /// `ephemeralPublicKey` (EC_v1) or `wrappedKey` (RSA_v1), decoded.
    let keyMaterial: [UInt8]
    let publicKeyHash: [UInt8]
    let transactionIdBytes: [UInt8]
    let applicationDataBytes: [UInt8]?

    /// The length of `transactionId` and of `applicationData` when present, in bytes: a
    /// transaction id is 32 bytes (every token Apple has published), and `applicationData` is the
    /// SHA-256 of the merchant's application data (Apple, "Payment token format reference"). Fixing
    /// both lengths fixes where one ends and the next begins in the signed content, so no byte can
    /// move between them without breaking the signature.
    static let identifierByteCount = 32

    /// `transactionId` in its one canonical form: lower-case hex of the decoded bytes.
    var transactionId: String { Base16.encode(transactionIdBytes) }
    /// `applicationData` in its one canonical form (lower-case hex), when present.
    var applicationData: String? { applicationDataBytes.map { Base16.encode($0) } }

    /// The content Apple signs: the key member ‖ data ‖ transactionId ‖ applicationData
    /// (Apple, "Verify the signature", step c).
    var signedContent: [UInt8] { keyMaterial + data + transactionIdBytes + (applicationDataBytes ?? []) }

    /// The largest token read (the `data` of a real token is a few hundred bytes).
    static let maximumByteCount = 64 * 1024

    /// Reads a token given as the `paymentData` object, a whole `PKPaymentToken`
    /// (`{"paymentData":…,"paymentMethod":…,"transactionIdentifier":…}`), or Apple Pay JS's
    /// `{"token":{…}}`.
    /// - Throws: `wallet.malformed` or `wallet.unsupportedVersion`.
    init(json: some Collection<UInt8>, accepting versions: Set<ApplePayVersion>) throws(CSEError) {
        let value: JSONValue
        do { value = try JSONValue.parse(json, limits: JSONLimits(maxBytes: Self.maximumByteCount, maxDepth: 8)) } catch {
            throw WalletError.malformed("not a JSON document (\(error.code.rawValue))")
        }
        try self.init(object: Self.paymentData(in: value), accepting: versions)
    }

    /// The `paymentData` object inside any of the three accepted shapes.
    private static func paymentData(in value: JSONValue) throws(CSEError) -> JSONObject {
        guard var object = value.objectValue else { throw WalletError.malformed("the token is not a JSON object") }
        if object.count == 1, let token = object["token"]?.objectValue { object = token }
        if let paymentData = object["paymentData"] {
            guard let inner = paymentData.objectValue else { throw WalletError.malformed("paymentData is not an object") }
            return inner
        }
        return object
    }

    private init(object: JSONObject, accepting versions: Set<ApplePayVersion>) throws(CSEError) {
        try Self.requireMembers(object, exactly: ["version", "data", "signature", "header"], in: "paymentData")
        let versionName = try Self.string(object, "version")
        guard let version = ApplePayVersion(versionName), versions.contains(version) else {
            throw WalletError.unsupportedVersion(versionName)
        }
        guard let header = object["header"]?.objectValue else { throw WalletError.malformed("header is not an object") }
        let keyMember = version == .ecV1 ? "ephemeralPublicKey" : "wrappedKey"
        try Self.requireMembers(
            header, exactly: [keyMember, "publicKeyHash", "transactionId"], optional: ["applicationData"], in: "header")
        self.version = version
        data = try Self.base64(object, "data")
        signature = try Self.base64(object, "signature")
        keyMaterial = try Self.base64(header, keyMember)
        publicKeyHash = try Self.base64(header, "publicKeyHash")
        guard publicKeyHash.count == 32 else { throw WalletError.malformed("publicKeyHash is not 32 bytes") }
        transactionIdBytes = try Self.identifier(header, "transactionId")
        applicationDataBytes = try header["applicationData"].map { (_) throws(CSEError) in
            try Self.identifier(header, "applicationData")
        }
        guard data.count >= 16 else { throw WalletError.malformed("data is shorter than a GCM tag") }
    }

    private static func requireMembers(
        _ object: JSONObject, exactly required: Set<String>, optional: Set<String> = [], in name: String
    ) throws(CSEError) {
        let present = Set(object.keys)
        guard required.isSubset(of: present), present.isSubset(of: required.union(optional)) else {
            throw WalletError.malformed(
                "\(name) must have the members \(required.sorted().joined(separator: ", "))"
                    + (optional.isEmpty ? "" : " and optionally \(optional.sorted().joined(separator: ", "))"))
        }
    }

    private static func string(_ object: JSONObject, _ key: String) throws(CSEError) -> String {
        guard let text = object[key]?.stringValue else { throw WalletError.malformed("\(key) is not a string") }
        return text
    }

    private static func base64(_ object: JSONObject, _ key: String) throws(CSEError) -> [UInt8] {
        let text = try string(object, key)
        do { return try Base64.decode(text, alphabet: .standard, padding: .required) } catch {
            throw WalletError.malformed("\(key) is not strict base64 (\(error.code.rawValue))")
        }
    }

    /// `transactionId` or `applicationData`: hex (either case) of exactly
    /// ``identifierByteCount`` bytes.
    private static func identifier(_ object: JSONObject, _ key: String) throws(CSEError) -> [UInt8] {
        let text = try string(object, key)
        guard !text.isEmpty, let bytes = Base16.decode(text) else { throw WalletError.malformed("\(key) is not hex") }
        guard bytes.count == identifierByteCount else {
            throw WalletError.malformed("\(key) is not \(identifierByteCount) bytes")
        }
        return bytes
    }
}
