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
        // The usual token, a plain `paymentData` object, is read in place; anything else, and any
        // token the plain reading would refuse, goes through the full parse below, whose errors
        // are the answer.
        if let token = withContiguousBytes(of: json, { Self.plain($0, accepting: versions) }) {
            self = token
            return
        }
        let value: JSONValue
        do { value = try JSONValue.parse(json, limits: JSONLimits(maxBytes: Self.maximumByteCount, maxDepth: 8)) } catch {
            throw WalletError.malformed("not a JSON document (\(error.code.rawValue))")
        }
        try self.init(object: Self.paymentData(in: value), accepting: versions)
    }

    /// The token read by ``JSONPlainObject`` from a bare `paymentData` object whose members are
    /// all well-formed, or `nil` for any other document (the full parse then decides). Accepts
    /// exactly the tokens `init(object:accepting:)` accepts from that shape, with the same values.
    static func plain(_ bytes: UnsafeRawBufferPointer, accepting versions: Set<ApplePayVersion>) -> ApplePayToken? {
        guard bytes.count <= maximumByteCount, let object = JSONPlainObject(bytes, maxDepth: 2, maxMembers: 12),
            object.memberCount(in: nil) == 4,
            let versionMember = object.member("version", in: nil), let dataMember = object.member("data", in: nil),
            let signatureMember = object.member("signature", in: nil), let header = object.member("header", in: nil)
        else { return nil }
        let members = object.members
        guard !members[versionMember].isObject, !members[dataMember].isObject, !members[signatureMember].isObject,
            members[header].isObject
        else { return nil }
        func text(_ member: Int) -> UnsafeRawBufferPointer { UnsafeRawBufferPointer(rebasing: bytes[members[member].value]) }
        guard let version = ApplePayVersion(String(decoding: text(versionMember), as: UTF8.self)), versions.contains(version)
        else { return nil }
        let keyMember = version == .ecV1 ? object.member("ephemeralPublicKey", in: header) : object.member("wrappedKey", in: header)
        let applicationDataMember = object.member("applicationData", in: header)
        guard let keyMember, let hashMember = object.member("publicKeyHash", in: header),
            let transactionMember = object.member("transactionId", in: header),
            object.memberCount(in: header) == (applicationDataMember == nil ? 3 : 4)
        else { return nil }
        for member in [keyMember, hashMember, transactionMember] + (applicationDataMember.map { [$0] } ?? []) {
            guard !members[member].isObject else { return nil }
        }
        func base64(_ member: Int) -> [UInt8]? { try? Base64.decode(text(member), alphabet: .standard, padding: .required) }
        func identifier(_ member: Int) -> [UInt8]? {
            guard members[member].value.count == 2 * identifierByteCount else { return nil }
            return Base16.decode(String(decoding: text(member), as: UTF8.self))
        }
        guard let data = base64(dataMember), data.count >= 16, let signature = base64(signatureMember),
            let keyMaterial = base64(keyMember), let publicKeyHash = base64(hashMember), publicKeyHash.count == 32,
            let transactionIdBytes = identifier(transactionMember)
        else { return nil }
        var applicationDataBytes: [UInt8]? = nil
        if let applicationDataMember {
            guard let bytes = identifier(applicationDataMember) else { return nil }
            applicationDataBytes = bytes
        }
        return ApplePayToken(
            version: version, data: data, signature: signature, keyMaterial: keyMaterial, publicKeyHash: publicKeyHash,
            transactionIdBytes: transactionIdBytes, applicationDataBytes: applicationDataBytes)
    }

    private init(
        version: ApplePayVersion, data: [UInt8], signature: [UInt8], keyMaterial: [UInt8], publicKeyHash: [UInt8],
        transactionIdBytes: [UInt8], applicationDataBytes: [UInt8]?
    ) {
        self.version = version
        self.data = data
        self.signature = signature
        self.keyMaterial = keyMaterial
        self.publicKeyHash = publicKeyHash
        self.transactionIdBytes = transactionIdBytes
        self.applicationDataBytes = applicationDataBytes
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

    /// Checks that `object` has every member of `required`, and no member outside `required` and
    /// `optional`. Names compare as `String`s (canonical equivalence), and a parsed object has no
    /// duplicate names, so counting the required ones found is enough. No `Set` is built: this
    /// runs twice per token (issue #37).
    private static func requireMembers(
        _ object: JSONObject, exactly required: [String], optional: [String] = [], in name: String
    ) throws(CSEError) {
        var found = 0
        var unexpected = false
        for key in object.keys {
            if required.contains(key) {
                found += 1
            } else if !optional.contains(key) {
                unexpected = true
            }
        }
        guard found == required.count, !unexpected else {
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
